// Legal move generation with a check mask and pin lines: every move generated is legal,
// so perft counts leaves and SAN resolution filters without making moves.
#pragma once

#include <cstddef>

#include "qipu/board/position.hpp"

namespace qipu {

class MoveList {
 public:
  MoveList() {}  // leaves the moves uninitialised: zeroing 415 of them cost more than most uses
  void push(Move m) { moves_[size_++] = m; }
  [[nodiscard]] std::size_t size() const { return size_; }
  [[nodiscard]] bool empty() const { return size_ == 0; }
  [[nodiscard]] const Move* begin() const { return moves_; }
  [[nodiscard]] const Move* end() const { return moves_ + size_; }
  [[nodiscard]] Move operator[](std::size_t i) const { return moves_[i]; }
  void clear() { size_ = 0; }
  [[nodiscard]] bool contains(Move m) const;

 private:
  // No reachable position has more than 218 moves, but a FEN may set up any position
  // with 16 pieces a side: at most 15 queens (27 moves each), a king (8) and 2 castlings.
  union {
    Move moves_[15 * 27 + 8 + 2];
  };
  std::size_t size_ = 0;
};

// Which moves to generate: a set of piece types (bit t for PieceType t) and the
// destination squares wanted. SAN resolution narrows both; perft wants everything.
struct MoveFilter {
  unsigned piece_types = 0x7E;  // Pawn … King
  Bitboard targets = ~Bitboard(0);
  static MoveFilter only(PieceType t, Bitboard targets = ~Bitboard(0)) { return {1u << t, targets}; }
};

// Appends every legal move allowed by the filter. Castling moves count as King moves
// whose target is the rook's square (the move encoding).
void generate_legal(const Position& pos, MoveList& list, MoveFilter filter = {});

// The king's steps first, one by one: in the checked positions where this is asked,
// the king usually has one.
[[nodiscard]] inline bool has_legal_move(const Position& pos) {
  Color us = pos.side_to_move();
  Square k = pos.king(us);
  Bitboard without_king = pos.pieces() ^ square_bb(k);
  for (Bitboard b = king_attacks(k) & ~pos.pieces(us); b;)
    if (!pos.attackers_to(pop_lsb(b), ~us, without_king)) return true;
  MoveList list;
  generate_legal(pos, list);  // castling too: in Chess960 it can be the only move
  return !list.empty();
}

}  // namespace qipu
