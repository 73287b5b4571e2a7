// The state of a game as the FIDE Laws see it: check, mate, stalemate, dead positions by
// insufficient material, repetitions and the 50/75-move rules.
#pragma once

#include <string_view>
#include <vector>

#include "qipu/board/position.hpp"

namespace qipu {

// In the order in which they are looked for: the first that applies is the game's state.
// The first five end the game at once; the last two only make a draw claimable.
enum class Termination {
  None,
  Checkmate,
  Stalemate,
  InsufficientMaterial,
  FivefoldRepetition,
  SeventyFiveMoveRule,
  ThreefoldRepetition,
  FiftyMoveRule,
};

std::string_view termination_name(Termination t);  // "checkmate", "fifty_move_rule", …
[[nodiscard]] constexpr bool ends_game(Termination t) {
  return t != Termination::None && t != Termination::ThreefoldRepetition && t != Termination::FiftyMoveRule;
}

// Neither side can mate by any series of legal moves, for the material classes FIDE
// practice names: K v K, K v K+B, K v K+N, and kings with bishops all on one colour.
[[nodiscard]] bool insufficient_material(const Position& pos);

// A position plus the history needed for repetition rules.
class GameState {
 public:
  GameState() { keys_.push_back(pos_.repetition_key()); }
  explicit GameState(const Position& start) : pos_(start) {
    keys_.reserve(128);  // a typical game's length, to spare regrowing
    keys_.push_back(pos_.repetition_key());
  }

  // Starts again from `start`, keeping the history's memory.
  void reset(const Position& start);
  void play(Move m);
  // The state before the last move, given that move's starting position: where a
  // variation that replaces the last move begins.
  [[nodiscard]] GameState rewind(const Position& before) const;
  [[nodiscard]] const Position& position() const { return pos_; }
  [[nodiscard]] int plies() const { return int(keys_.size()) - 1; }

  // How many times the current position has occurred, this time included.
  [[nodiscard]] int repetitions() const;
  [[nodiscard]] Termination termination() const;

 private:
  Position pos_;
  std::vector<Key> keys_;  // repetition keys of every position so far
};

}  // namespace qipu
