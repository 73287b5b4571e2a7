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

  // The rank of a legal move: how many candidates come before it.
  [[nodiscard]] int rank(Move m) const;
  // The candidate at `rank`; Move::none() past the last. It may be illegal.
  [[nodiscard]] Move at_rank(int rank) const;

 private:
  template <class F>
  void for_each_candidate(F&& f) const;
  template <class F>
  void captures(PieceType t, Square from, Bitboard dests, F&& f) const;
  template <class F>
  void piece_moves(PieceType t, Square from, Bitboard dests, F&& f) const;
  template <class F>
  void castling_moves(F&& f) const;
  // Quiet: pushes too, else only captures and promotions; those other than en passant
  // only onto `reach`.
  template <bool Quiet, class F>
  void pawn_moves(F&& f, Bitboard reach = ~Bitboard(0)) const;
  [[nodiscard]] Bitboard single_pushes() const;
  [[nodiscard]] Bitboard double_pushes() const;
  [[nodiscard]] int beating(int mine, Move m) const;
  [[nodiscard]] int counted_before(int mine, Move m) const;
  [[nodiscard]] Bitboard quiet_beating(int kind, Bitboard dests, int base, Bitboard checks, Bitboard unsafe, int cost,
                                       int mine, Bitboard earlier) const;
  [[nodiscard]] int score(Move m) const;
  [[nodiscard]] int quiet_base(PieceType t, Square from) const;
  [[nodiscard]] int quiet_gain(PieceType t, Square to, Bitboard checks) const;
  [[nodiscard]] int pawn_push_score(Square from, Square to) const;
  [[nodiscard]] int capture_score(PieceType victim, int capturer_value, Square to) const;
  [[nodiscard]] static int promotion_score(PieceType t);
  [[nodiscard]] bool evades(Move m) const;
  // Room for every candidate of any position a FEN may set up: 15 queens move to at most
  // 27 squares each, the king to 8, and it may castle twice.
  static constexpr int MaxCandidates = 15 * 27 + 8 + 2;

  struct Mover {
    Square from;
    PieceType type;
    Bitboard attacks;
  };
  template <bool Collect>
  Bitboard piece_attacks(Color c);
  const Position& pos_;
  Color us_;
  Mover movers_[15];  // our pieces other than pawns and king, with what they attack
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
