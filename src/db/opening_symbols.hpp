// The symbols of opening moves met before, so that the moves many games share from the
// standard start are ranked once per thread, not once per game: in a collection of
// masters' games about one move in seven (bench/bench_import.md, 2026-12-02 codec2).
//
// The moves are kept as a tree from the start position: a path of moves fixes the
// position exactly, so a node stands for one position without comparing positions, and
// no two positions can share an answer the way two with one hash key could. Each game adds
// at most one node, where it first leaves the tree, so that the tree grows along the
// lines games share. When full it starts again; memory stays bounded (1 MiB a thread).
#pragma once

#include <cstdint>
#include <memory>

#include "qipu/board/position.hpp"

namespace qipu::db {

class OpeningSymbols {
 public:
  // Room for 2^slot_bits moves, of which half are used (short probes); tests make it small.
  explicit OpeningSymbols(unsigned slot_bits = 16) : slot_bits_(slot_bits) {}
  // Where a game is in the tree: the tree's generation and the node, or 0 (Off) once the
  // game has left it or when it did not start from the standard position.
  using Place = std::uint64_t;
  static constexpr Place Off = 0;
  // The place of a game's first position.
  [[nodiscard]] Place start(const Position& pos) const;
  // move_symbol(before, m) for a game at `at`, which moves on to the position after m.
  unsigned char symbol(Place& at, const Position& before, Move m);
  // The calling thread's tree.
  static OpeningSymbols& for_this_thread();

 private:
  // One move from a node: edge = node << 16 | the move (36 bits), then the child node
  // (20 bits) and the symbol; 0 when free.
  struct Slot {
    Key key;  // the position's before the move: a check that callers follow their game
    std::uint64_t packed;
  };
  static constexpr unsigned NodeBits = 20;
  static constexpr std::uint32_t Root = 1;
  void clear();
  unsigned slot_bits_;  // at most NodeBits
  std::unique_ptr<Slot[]> slots_;
  std::uint32_t nodes_ = Root;
  std::uint64_t generation_ = 1;  // of the tree's nodes, so that a clear leaves no game on a stale node
};

}  // namespace qipu::db
