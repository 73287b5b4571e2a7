// The codec's guess of which moves a player is likeliest to choose, from the position
// alone, so that a move's rank in this order means the same move in every game that
// reaches the position. Cheap, as it runs for every move of every imported game: a few
// attack sets per position, a handful of table lookups per move.
// Stored games depend on this order: a change to it needs a new schema version (and a
// migration or a re-import), as the test pinning a known line's code will say.
#pragma once

#include <cstdint>

#include "qipu/board/position.hpp"

namespace qipu::db {

// The order, most likely first: queen promotions; captures by what they win (a guarded
// victim costs the capturer), so that bad captures fall among the quiet moves; castling;
// quiet moves by how often players move that piece from and to those squares, lower when
// the piece would stand where it can be taken, higher when it escapes an attack; checks
// a little higher; under-promotions last.
//
// The moves ranked ("candidates") are the legal ones when in check; otherwise every move
// of the side's pieces that does not put its king on an attacked square, which includes
// the odd move of a pinned piece or en passant capture that is illegal. Those take a
// place in the order but never occur; generating them costs much less than proving
// every move legal.
class MoveOrder {
 public:
  explicit MoveOrder(const Position& pos);

  // The rank of a candidate move: how many candidates come before it; -1 for a move
  // that is not a candidate.
  [[nodiscard]] int rank(Move m) const;
  // The candidate at `rank`; Move::none() past the last. It may be illegal.
  [[nodiscard]] Move at_rank(int rank) const;

 private:
  template <class F>
  void for_each_candidate(F&& f) const;
  template <class F>
  void piece_moves(PieceType t, Square from, Bitboard dests, F&& f) const;
  template <class F>
  void pawn_moves(F&& f) const;
  [[nodiscard]] int capture_score(PieceType victim, int capturer_value, Square to) const;
  [[nodiscard]] bool evades(Move m) const;
  // Room for every candidate of any position a FEN may set up: 15 queens move to at most
  // 27 squares each, the king to 8, and it may castle twice.
  static constexpr int MaxCandidates = 15 * 27 + 8 + 2;
  // The candidates' sort keys, into `out` (room for MaxCandidates); returns how many.
  int keys(std::int64_t* out) const;

  struct Mover {
    Square from;
    PieceType type;
    Bitboard attacks;
  };
  Bitboard piece_attacks(Color c, Mover* out, int* count) const;
  const Position& pos_;
  Color us_;
  Mover movers_[15];        // our pieces other than pawns and king, with what they attack
  int mover_count_ = 0;
  bool in_check_ = false;
  Bitboard evasions_ = 0;   // in check: squares that block or capture a single checker
  Bitboard pinned_ = 0;     // in check: our pinned pieces
  Bitboard enemy_attacks_;  // squares any enemy piece attacks
  Bitboard unsafe_;         // attacked and not defended, or guarded by an enemy pawn
  Bitboard pawn_loss_;      // attacked and not defended
  Bitboard threatened_;     // our pieces, other than the king and pawns, under attack
  Bitboard checks_[7];      // where each of our piece types would give check
};

}  // namespace qipu::db
