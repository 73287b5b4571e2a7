// The codec's guess of which legal moves a player is likeliest to choose, from the
// position alone, so that a move's rank in this order means the same move in every game
// that reaches the position. Cheap: a few attack sets per position, a sum per move.
#pragma once

#include <cstdint>

#include "qipu/board/position.hpp"

namespace qipu::db {

class MoveOrder {
 public:
  explicit MoveOrder(const Position& pos);
  // Lower comes first. Ties go by the move's 16-bit value, so that the order never
  // depends on the order a generator produces moves in.
  [[nodiscard]] std::int64_t key(Move m) const { return (std::int64_t(-score(m)) << 16) | m.raw(); }

 private:
  [[nodiscard]] int score(Move m) const;  // higher is likelier
  const Position& pos_;
  Color us_;
  Bitboard pawn_guarded_;   // squares enemy pawns attack
  Bitboard enemy_attacks_;  // squares any enemy piece attacks
  Bitboard defended_;       // squares our own pieces attack
  Bitboard checks_[7];      // where each of our piece types would give check
};

}  // namespace qipu::db
