// How large the explorer's aggregate would be at each depth (units off their start
// squares, db/explore.hpp), from real games: per depth, the distinct (position, move) rows,
// the rows a game adds on average, the rows shared by at least 10 games, and the median
// ply at which games leave the aggregated positions. Not part of the build; after building qipu:
//   g++ -std=c++20 -O2 -Iinclude -Igrammar bench/tools/explore_depth.cpp build/libqipu.a \
//       -lsqlite3 -lz -lzstd -pthread -o /tmp/explore_depth
//   /tmp/explore_depth ../shared/corpora/real/pgnmentor/*.pgn
#include <algorithm>
#include <cstdio>
#include <map>
#include <unordered_map>
#include <vector>

#include "qipu/db/explore.hpp"
#include "qipu/db/codec.hpp"
#include "qipu/game/pipeline.hpp"

using namespace qipu;

int main(int argc, char** argv) {
  constexpr int MaxDepth = 24;
  std::vector<std::string> files(argv + 1, argv + argc);
  // (key, symbol) -> games and the least depth of the position (a position's depth is the same in every game).
  std::unordered_map<std::uint64_t, std::pair<std::uint32_t, int>> rows;
  std::vector<std::vector<int>> leave_ply(MaxDepth + 1);
  std::uint64_t games = 0;
  game::PipelineOptions o;
  game::PipelineCallbacks cb;
  cb.game = [&](const game::InputReport&, game::GameRecord& rec) {
    if (!rec.valid()) return;
    ++games;
    std::vector<std::uint64_t> seen;
    std::vector<int> first_past(MaxDepth + 1, -1);
    int ply = 0;
    auto visit = [&](const Position& pos, int symbol) {
      int d = db::units_off_start(pos);
      for (int depth = 0; depth <= MaxDepth; ++depth)
        if (d > depth && first_past[std::size_t(depth)] < 0) first_past[std::size_t(depth)] = ply;
      if (d > MaxDepth) return;
      std::uint64_t k = pos.key();
      if (std::find(seen.begin(), seen.end(), k) != seen.end()) return;
      seen.push_back(k);
      auto& r = rows[k * 257 + std::uint64_t(symbol)];
      ++r.first;
      r.second = d;
    };
    game::for_each_move(rec.start_position, rec.mainline,
                        [&](const Position& before, const game::MoveNode& node, const Position&) {
                          visit(before, db::move_symbol(before, node.move));
                          ++ply;
                        });
    visit(rec.final_position, db::EndSymbol);
    for (int depth = 0; depth <= MaxDepth; ++depth)
      leave_ply[std::size_t(depth)].push_back(first_past[std::size_t(depth)] < 0 ? ply
                                                                                 : first_past[std::size_t(depth)]);
  };
  game::run_pipeline(files, o, cb);
  std::printf("%llu games\ndepth\trows\trows/game\trows with >= 10 games\tmedian ply leaving\n",
              static_cast<unsigned long long>(games));
  for (int depth = 4; depth <= MaxDepth; depth += 2) {
    std::uint64_t n = 0, shared = 0;
    for (const auto& [k, r] : rows)
      if (r.second <= depth) {
        ++n;
        shared += r.first >= 10;
      }
    auto& plies = leave_ply[std::size_t(depth)];
    std::nth_element(plies.begin(), plies.begin() + std::ptrdiff_t(plies.size() / 2), plies.end());
    std::printf("%d\t%llu\t%.2f\t%llu\t%d\n", depth, static_cast<unsigned long long>(n), double(n) / double(games),
                static_cast<unsigned long long>(shared), plies.empty() ? 0 : plies[plies.size() / 2]);
  }
}
