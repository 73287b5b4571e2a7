#include "opening_symbols.hpp"

#include <algorithm>

#include "qipu/db/codec.hpp"

namespace qipu::db {

OpeningSymbols::Place OpeningSymbols::start(const Position& pos) const {
  static const Position standard;
  // The key first: most set-ups differ there, and the full comparison runs once a game.
  bool standard_start = pos.key() == standard.key() && pos == standard && !pos.chess960();
  return standard_start ? generation_ << NodeBits | Root : Off;
}

unsigned char OpeningSymbols::symbol(Place& at, const Position& before, Move m) {
  constexpr std::uint64_t EdgeMask = (std::uint64_t(1) << (NodeBits + 16)) - 1, NodeMask = (1u << NodeBits) - 1;
  if (at >> NodeBits != generation_) {  // the tree was cleared since the game entered it
    at = Off;
    return move_symbol(before, m);
  }
  const std::size_t size = std::size_t(1) << slot_bits_;
  if (!slots_) slots_ = std::make_unique<Slot[]>(size);
  const std::uint64_t edge = (at & NodeMask) << 16 | m.raw();
  std::size_t i = std::size_t((edge * 0x9E3779B97F4A7C15ULL) >> (64 - slot_bits_));
  for (; slots_[i].packed; i = (i + 1) & (size - 1)) {
    const Slot& s = slots_[i];
    if ((s.packed & EdgeMask) != edge) continue;
    if (s.key != before.key()) break;  // not the position the path leads to: the caller skipped a move
    at = generation_ << NodeBits | (s.packed >> (NodeBits + 16) & NodeMask);
    return static_cast<unsigned char>(s.packed >> 56);
  }
  unsigned char symbol = move_symbol(before, m);
  if (!slots_[i].packed) {
    if (nodes_ - Root == size / 2) {
      clear();
    } else {
      std::uint64_t child = ++nodes_;
      slots_[i] = {before.key(), edge | child << (NodeBits + 16) | std::uint64_t(symbol) << 56};
    }
  }
  at = Off;  // one new node a game: the rest of its moves are its own
  return symbol;
}

void OpeningSymbols::clear() {
  std::fill_n(slots_.get(), std::size_t(1) << slot_bits_, Slot{});
  nodes_ = Root;
  ++generation_;
}

OpeningSymbols& OpeningSymbols::for_this_thread() {
  thread_local OpeningSymbols tree;
  return tree;
}

}  // namespace qipu::db
