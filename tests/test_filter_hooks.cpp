// The pipeline's per-game watch (PipelineCallbacks::watch) and the ECO walk filter feeds
// from it (EcoTable::visit): --add-eco classifies from the replay's own positions instead
// of replaying the opening again, and must still give qipu eco's answer.
#include <catch2/catch.hpp>

#include "cli_util.hpp"
#include "qipu/db/eco.hpp"
#include "qipu/game/criteria.hpp"
#include "qipu/game/pipeline.hpp"
#include "replay_util.hpp"

// One namespace a file: the test files compile several to a unit (CMakeLists.txt).
namespace test_filter_hooks {

using namespace cli_test;
using namespace qipu;

namespace {

const std::string EcoFile = "/usr/share/pgn-extract/eco.pgn";

constexpr const char* Games = R"([Event "one"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 *

[Event "set up"]
[SetUp "1"]
[FEN "8/5k2/8/8/8/8/3K4/4R3 w - - 0 60"]

60. Re2 Kf6 61. Kd3 Kg6 *

[Event "short"]

1. d4 *
)";

// What a watch saw of one game.
struct Seen {
  std::vector<Key> keys;  // the positions it was shown, in order
};

// Runs the pipeline over Games with a watch that wants `wanted` positions a game and then
// answers `then`; the records and what the watch saw of each.
std::pair<std::vector<game::GameRecord>, std::vector<Seen>> watched(unsigned jobs, std::size_t wanted,
                                                                    game::Watch then) {
  std::vector<game::GameRecord> records;
  std::vector<Seen> seen;
  game::PipelineOptions o;
  o.jobs = jobs;
  game::PipelineCallbacks<Seen> cb;
  cb.watch = [&](const game::GameRecord&, Seen& s, const Position& now) {
    s.keys.push_back(now.key());
    return s.keys.size() < wanted ? game::Watch::More : then;
  };
  cb.game = [&](const game::InputReport&, game::GameRecord& rec, Seen& s) {
    records.push_back(std::move(rec));
    seen.push_back(std::move(s));
  };
  game::run_pipeline(std::vector<game::PipelineInput>{{"games.pgn", std::string(Games)}}, o, cb);
  return {std::move(records), std::move(seen)};
}

}  // namespace

TEST_CASE("pipeline watch: each game's positions from its start, until it answers", "[filter_hooks]") {
  const auto whole = replayed_games({{"games.pgn", std::string(Games)}}, 1);
  REQUIRE(whole.size() == 3);
  for (unsigned jobs : {1u, 2u}) {
    INFO("jobs " << jobs);
    // Wanting every position: the start and one after each move, the game's value carried.
    auto [all, all_seen] = watched(jobs, 1000, game::Watch::Whole);
    REQUIRE(all.size() == 3);
    for (std::size_t g = 0; g < all.size(); ++g) CHECK(all_seen[g].keys == game::position_keys(whole[g]));
    // Done after three positions: shown no more, and Whole replays the rest.
    auto [done, done_seen] = watched(jobs, 3, game::Watch::Whole);
    for (std::size_t g = 0; g < done.size(); ++g) {
      auto keys = game::position_keys(whole[g]);
      keys.resize(std::min<std::size_t>(keys.size(), 3));
      CHECK(done_seen[g].keys == keys);
      CHECK(done[g].mainline.size() == whole[g].mainline.size());
    }
    // Skip leaves the rest of the game unread.
    auto [skipped, skipped_seen] = watched(jobs, 3, game::Watch::Skip);
    CHECK(skipped[0].mainline.size() == 2);
    CHECK(skipped_seen[0].keys.size() == 3);
  }
}

TEST_CASE("EcoTable::visit: the positions one at a time give classify's answer", "[filter_hooks]") {
  if (!fs::exists(EcoFile)) return;
  const db::EcoTable table = db::EcoTable::load(EcoFile);
  auto games = replayed_games({{std::string(QIPU_SOURCE_DIR) + "/data/world-championships.pgn", std::nullopt},
                               {std::string(QIPU_SOURCE_DIR) + "/data/classics.pgn", std::nullopt}});
  REQUIRE(games.size() > 100);
  std::size_t named = 0;
  for (std::size_t g = 0; g < games.size(); ++g) {
    const game::GameRecord& rec = games[g];
    INFO("game " << g + 1);
    const db::Opening* expected = table.classify(game::position_keys(rec));
    named += expected != nullptr;
    // Each position given twice, as a replay may show one again: counted once.
    db::EcoTable::Walk walk, twice;
    Position pos = rec.start_position;
    std::size_t visited = 0;
    for (std::size_t ply = 0;; ++ply) {
      bool more = table.visit(walk, pos);
      CHECK(table.visit(twice, pos) == more);
      CHECK(table.visit(twice, pos) == more);
      ++visited;
      if (!more || ply == rec.mainline.size() || rec.mainline[ply].move.is_none()) break;
      pos.play(rec.mainline[ply].move);
    }
    CHECK(table.opening(walk) == expected);
    CHECK(table.opening(twice) == expected);
    CHECK(table.classify(rec) == expected);
    CHECK(visited <= 37);  // eco.pgn's longest line has 36 plies: no position after it is asked for
  }
  CHECK(named > games.size() / 2);
}

// Moves the replay shows the position again after (a glyph word, a lone e.p.), and a
// position criterion whose watch is done long before the opening's.
TEST_CASE("filter --add-eco: from the replay's positions, beside a position criterion", "[filter_hooks]") {
  if (!fs::exists(EcoFile)) return;
  fs::path pgn = temp_dir("filter-hooks") / "odd.pgn";
  std::ofstream(pgn) << R"([Event "Marshall, the longest line, with glyph words"]

1. e4 +- e5 2. Nf3 ∞ Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 O-O 8.
c3 d5 9. exd5 Nxd5 10. Nxe5 Nxe5 11. Rxe5 c6 12. d4 Bd6 13. Re1 Qh4 14. g3
Qh3 15. Be3 Bg4 16. Qd3 Rae8 17. Nd2 Re6 18. a4 Qh5 19. Bd1 *

[Event "Najdorf"]

1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 6. Be3 e5 *

[Event "not a Sicilian"]

1. d4 d5 2. c4 e6 *
)";
  Run f = run_qipu("filter --seven-tags --add-eco --moves '1.e4 c5' --transpose " + pgn.string());
  auto games = pgn_games(f.out);
  REQUIRE(games.size() == 1);
  CHECK(contains(games[0], "[ECO \"B90\"]"));  // the Najdorf, named at ply 10: the criterion was met at ply 2
  Run all = run_qipu("filter --seven-tags --add-eco " + pgn.string());
  games = pgn_games(all.out);
  REQUIRE(games.size() == 3);
  // The Marshall's last named position is at ply 36, the table's longest line: the
  // glyph words must not be counted as plies.
  CHECK(contains(games[0], "[Variation \"Marshall, main line, Spassky variation\"]"));
}

}  // namespace test_filter_hooks
