// How many positions past the explorer's aggregate (db/explore.hpp) real games share, and how
// many such positions a game passes on average, for thresholds of 2 to 100 games: what the
// deep positions (src/db/deep_positions.hpp) would count. Not part of the build; after
// building qipu:
//   g++ -std=c++20 -O2 -Iinclude -Igrammar -Ibuild/generated bench/tools/deep_popular.cpp \
//       build/libqipu.a -lsqlite3 -lz -lzstd -pthread -o /tmp/deep_popular
//   /tmp/deep_popular GAMES.pgn      (bench_import.md: the pgnmentor corpus without duplicates)
#include <algorithm>
#include <cstdio>
#include <unordered_map>
#include <vector>
#include "qipu/db/explore.hpp"
#include "qipu/db/codec.hpp"
#include "qipu/game/pipeline.hpp"
using namespace qipu;
int main(int argc, char** argv) {
  std::vector<std::string> files(argv + 1, argv + argc);
  std::unordered_map<std::uint64_t, std::uint32_t> count;
  std::vector<std::vector<std::uint64_t>> per_game;
  game::PipelineOptions o;
  game::PipelineCallbacks cb;
  cb.game = [&](const game::InputReport&, game::GameRecord& rec) {
    if (!rec.valid()) return;
    std::vector<std::uint64_t> seen;
    auto visit = [&](const Position& pos) {
      if (db::aggregated(pos)) return;
      std::uint64_t k = pos.key();
      if (std::find(seen.begin(), seen.end(), k) != seen.end()) return;
      seen.push_back(k);
      ++count[k];
    };
    game::for_each_move(rec.start_position, rec.mainline,
                        [&](const Position& before, const game::MoveNode&, const Position&) { visit(before); });
    visit(rec.final_position);
    per_game.push_back(std::move(seen));
  };
  game::run_pipeline(files, o, cb);
  std::printf("%zu games, %zu deep positions\n", per_game.size(), count.size());
  for (unsigned n : {2u, 3u, 5u, 10u, 20u, 50u, 100u}) {
    std::size_t keys = 0;
    for (auto& [k, c] : count) keys += c >= n;
    std::size_t occ = 0;
    for (auto& g : per_game)
      for (auto k : g) occ += count[k] >= n;
    std::printf(">= %u games: %zu positions, %.2f a game\n", n, keys, double(occ) / double(per_game.size()));
  }
}
