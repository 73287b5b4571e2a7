#include "qipu/board/perft.hpp"

#include "qipu/board/movegen.hpp"

namespace qipu {

std::uint64_t perft(const Position& pos, int depth) {
  if (depth <= 0) return 1;
  MoveList list;
  generate_legal(pos, list);
  if (depth == 1) return list.size();
  std::uint64_t nodes = 0;
  for (Move m : list) {
    Position next = pos;
    next.play(m);
    nodes += perft(next, depth - 1);
  }
  return nodes;
}

std::vector<std::pair<std::string, std::uint64_t>> perft_divide(const Position& pos, int depth) {
  std::vector<std::pair<std::string, std::uint64_t>> result;
  MoveList list;
  generate_legal(pos, list);
  for (Move m : list) {
    Position next = pos;
    next.play(m);
    result.emplace_back(pos.uci(m), perft(next, depth - 1));
  }
  return result;
}

}  // namespace qipu
