// Tests of the explorer's aggregate (db/explore.hpp) and of what keeps import's cost flat
// (the merge policy of sorted runs, the duplicate hashes' set): the aggregate must give the
// scan's answer on every aggregated position of a database, however the games came in
// (several imports, batches, re-imports, games without the position index, an upgraded
// version 2 database, an import killed and run again).
#include <catch2/catch.hpp>

#include "cli_util.hpp"
#include "explore_util.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <set>
#include <thread>

#include "qipu/db/explore.hpp"
#include "qipu/db/search.hpp"
#include "qipu/db/store.hpp"
#include "qipu/game/pipeline.hpp"

// One namespace a file: the test files compile several to a unit (CMakeLists.txt).
namespace test_explorer_agg {

using namespace qipu;
namespace fs = std::filesystem;

namespace {

const std::string Sample = QIPU_SOURCE_DIR "/data/world-championships.pgn";

fs::path fresh_db(const std::string& name) {
  fs::path p = cli_test::temp_dir("explorer_agg") / (name + ".db");
  for (auto ext : {"", "-wal", "-shm"}) fs::remove(p.string() + ext);
  return p;
}

// The sample's games [first, first + count), replayed.
std::vector<game::GameRecord> sample_games(std::size_t first, std::size_t count) {
  fs::path pgn = cli_test::write_sample_games(cli_test::temp_dir("explorer_agg") / "part.pgn", first, count);
  std::vector<game::GameRecord> games;
  game::PipelineOptions o;
  o.jobs = 1;
  game::PipelineCallbacks cb;
  cb.game = [&](const game::InputReport&, game::GameRecord& r) { games.push_back(std::move(r)); };
  game::run_pipeline({pgn.string()}, o, cb);
  return games;
}

// One import of games [from, to) through the library, as `qipu import` stores them.
db::ImportStats store(const fs::path& path, const std::vector<game::GameRecord>& games, std::size_t from,
                      std::size_t to, db::ImportOptions o = {}) {
  auto conn = db::open_database(path.string(), db::Connection::Mode::ReadWrite);
  db::Importer imp(*conn, o);
  for (std::size_t i = from; i < to; ++i)
    if (games[i].valid()) imp.add("test", games[i], *db::encode_game(games[i]));
  imp.finish();
  return imp.stats();
}

// Every distinct aggregated position of the games' mainlines.
std::vector<Position> aggregated_positions(const std::vector<game::GameRecord>& games) {
  std::vector<Position> out;
  std::set<Key> seen;
  auto keep = [&](const Position& p) {
    if (db::aggregated(p) && seen.insert(p.key()).second) out.push_back(p);
  };
  for (const auto& g : games) {
    if (!g.valid()) continue;
    keep(g.start_position);
    game::for_each_move(g.start_position, g.mainline,
                        [&](const Position&, const game::MoveNode&, const Position& after) { keep(after); });
  }
  return out;
}

// The aggregate's answer against the scan's on each position; returns how many positions
// more than one game reaches (so that a test knows it compared sums, not single games).
std::size_t check_against_scan(db::Connection& c, const std::vector<Position>& positions) {
  std::size_t shared = 0;
  for (const auto& pos : positions) {
    INFO("position " << pos.fen());
    auto agg = db::explore_aggregate(c, pos, 10);
    REQUIRE(agg);
    shared += explore_test::check_against_scan(c, pos, *agg) > 1;
  }
  return shared;
}

std::int64_t games_in(db::Connection& c) {
  auto st = c.prepare("SELECT count(*) FROM game");
  return st.step() ? st.int64(0) : -1;
}

}  // namespace

TEST_CASE("explorer aggregate equals the scan on every position, after batches and re-imports", "[explorer]") {
  auto games = sample_games(0, 300);
  fs::path path = fresh_db("batches");
  db::ImportOptions o;
  o.batch_games = 7;  // many runs, so that they are merged by size along the way
  std::uint64_t stored = store(path, games, 0, 100, o).imported;
  stored += store(path, games, 100, 200, o).imported;
  o.position_index = false;  // counted all the same: the aggregate does not need the index
  stored += store(path, games, 200, 300, o).imported;
  o.position_index = true;
  auto again = store(path, games, 50, 250, o);  // duplicates: not counted twice
  CHECK(again.imported == 0);
  CHECK(again.duplicates > 190);
  auto c = db::open_database(path.string(), db::Connection::Mode::ReadOnly);
  REQUIRE(stored > 290);
  REQUIRE(games_in(*c) == std::int64_t(stored));
  auto positions = aggregated_positions(games);
  REQUIRE(positions.size() > 1000);
  CHECK(check_against_scan(*c, positions) > 300);
  CHECK(db::count_aggregate(*c, Position()) == stored);
}

TEST_CASE("explorer aggregate: positions past its depth, filters and a large --top are left to the scan",
          "[explorer]") {
  auto games = sample_games(0, 40);
  fs::path path = fresh_db("beyond");
  store(path, games, 0, games.size());
  auto c = db::open_database(path.string(), db::Connection::Mode::ReadOnly);
  CHECK_FALSE(db::explore_aggregate(*c, Position(), db::TopKept + 1));
  const auto& last = games.front().final_position;
  REQUIRE(!db::aggregated(last));
  CHECK_FALSE(db::explore_aggregate(*c, last, 10));
  CHECK(db::explore(*c, last, {}, 10).total.games >= 1);  // the scan found it
  db::GameQuery white_wins;
  white_wins.where = "g.result = '1-0'";
  auto filtered = db::explore(*c, Position(), white_wins, 10);
  CHECK(filtered.total.games == filtered.total.white_wins);
  CHECK(filtered.total.games < 40);
}

TEST_CASE("explorer aggregate: a version 2 database is upgraded by opening it for writing", "[explorer]") {
  auto games = sample_games(300, 120);
  fs::path path = fresh_db("upgrade");
  auto stored = store(path, games, 0, games.size()).imported;
  {
    auto c = db::open_database(path.string(), db::Connection::Mode::ReadWrite);
    // As version 2 was: no aggregate, and SQLite indexes where the player index is now.
    c->exec(
        "DROP TABLE explore_posting; DROP TABLE explore_segment; DROP TABLE player_posting;"
        " DROP TABLE player_segment; DROP TABLE segment_merge; CREATE INDEX game_white ON game(white);"
        " CREATE INDEX game_black ON game(black); PRAGMA user_version = 2");
  }
  {
    auto c = db::open_database(path.string(), db::Connection::Mode::ReadOnly);  // read as it is: by the scan
    CHECK_FALSE(db::has_aggregate(*c));
    CHECK(db::explore(*c, Position(), {}, 10).total.games == stored);
  }
  auto c = db::open_database(path.string(), db::Connection::Mode::ReadWrite);
  CHECK(db::has_aggregate(*c));
  CHECK(db::has_player_index(*c));  // and on to version 4
  check_against_scan(*c, aggregated_positions(games));
}

TEST_CASE("explorer: runs are merged by size, a level at a time", "[explorer]") {
  const std::uint64_t base = 100;
  CHECK(db::run_level(99, base) == 0);
  CHECK(db::run_level(799, base) == 0);
  CHECK(db::run_level(800, base) == 1);
  CHECK(db::run_level(6400, base) == 2);
  std::vector<std::uint64_t> sizes(db::MergeFanout - 1, 50);
  CHECK(db::runs_to_merge(sizes, base) == 0);
  sizes.push_back(50);
  CHECK(db::runs_to_merge(sizes, base) == db::MergeFanout);
  // A large old run is left alone while the small ones merge.
  sizes.insert(sizes.begin(), 100000);
  CHECK(db::runs_to_merge(sizes, base) == db::MergeFanout);
  CHECK(db::small_runs(sizes, base) == db::MergeFanout);
  // Eight runs of level 1 become one of level 2; the level-0 run after them stops that.
  std::vector<std::uint64_t> ones(db::MergeFanout, 1000);
  CHECK(db::runs_to_merge(ones, base) == db::MergeFanout);
  ones.push_back(10);
  CHECK(db::runs_to_merge(ones, base) == 0);
}

TEST_CASE("import's duplicate hash set finds every hash it holds and no other", "[explorer]") {
  db::HashSet64 set;
  std::set<std::uint64_t> truth;
  std::uint64_t x = 88172645463325252ULL;
  for (int i = 0; i < 100000; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;        // xorshift
    std::uint64_t h = i % 3 == 0 ? x & 0xffff : x;  // small values collide in the low bits
    if (i == 500) h = 0;
    CHECK(set.insert(h) == truth.insert(h).second);
  }
  CHECK(set.size() == truth.size());
  CHECK_FALSE(set.insert(0));
}

TEST_CASE("the hash set finds every hash it still holds after erasures and no other", "[explorer]") {
  db::HashSet64 set;
  std::set<std::uint64_t> truth;
  std::uint64_t x = 0x9e3779b97f4a7c15ULL;
  auto next = [&] {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    return x % 5 == 0 ? x & 0xff : x % 4000;  // few values, so that runs form and erasures meet
  };
  for (int i = 0; i < 200000; ++i) {
    std::uint64_t h = next();
    if (i % 3 == 0)
      REQUIRE(set.erase(h) == (truth.erase(h) == 1));
    else
      REQUIRE(set.insert(h) == truth.insert(h).second);
    REQUIRE(set.size() == truth.size());
  }
  for (std::uint64_t h = 0; h < 5000; ++h) REQUIRE(set.contains(h) == (truth.count(h) == 1));
  std::set<std::uint64_t> listed;
  set.for_each([&](std::uint64_t h) { CHECK(listed.insert(h).second); });
  CHECK(listed == truth);
}

TEST_CASE("import's duplicate hash set loads a row of hashes as one at a time", "[explorer]") {
  std::vector<std::uint64_t> row;
  std::uint64_t x = 0x2545f4914f6cdd1dULL;
  for (int i = 0; i < 50000; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    row.push_back(i % 5 == 0 ? x & 0xfff : x);  // repeats
  }
  row[100] = 0;
  db::HashSet64 set;  // empty: grows many times inside the row, ahead of its fetches
  set.insert(row.data(), row.data() + row.size());
  std::set<std::uint64_t> truth(row.begin(), row.end());
  CHECK(set.size() == truth.size());
  for (auto h : truth) REQUIRE_FALSE(set.insert(h));  // each is there
  x = 7;
  for (int i = 0; i < 1000; ++i) {  // and no other
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    CHECK(set.insert(x | (std::uint64_t(1) << 63)) == truth.insert(x | (std::uint64_t(1) << 63)).second);
  }
}

TEST_CASE("explorer aggregate equals the scan after an import killed with SIGKILL and run again", "[explorer][slow]") {
  using namespace cli_test;
  fs::path dir = temp_dir("explorer_agg");
  fs::path pgn = dir / "kill.pgn";
  {
    std::ofstream out(pgn, std::ios::binary);
    for (int copy = 0; copy < 4; ++copy) out << slurp(Sample);  // duplicates after the first copy
  }
  fs::path path = fresh_db("killed");
  std::int64_t stored_before_kill = -1;
  for (int delay_ms : {150, 400, 900}) {
    pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      freopen("/dev/null", "w", stdout);
      freopen("/dev/null", "w", stderr);
      execl(QIPU_BINARY, QIPU_BINARY, "import", "--batch", "40", "--db", path.c_str(), pgn.c_str(), (char*)nullptr);
      _exit(127);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
    kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
    try {
      stored_before_kill = games_in(*db::open_database(path.string(), db::Connection::Mode::ReadOnly));
    } catch (const db::DbError&) {  // killed before the schema was written
    }
  }
  INFO("games stored when the last import was killed: " << stored_before_kill);
  auto rerun = run_qipu("import --db " + path.string() + " " + pgn.string());
  CHECK(rerun.code <= 1);  // 1: some games of the sample are rejected
  auto c = db::open_database(path.string(), db::Connection::Mode::ReadOnly);
  auto games = sample_games(0, 1042);
  std::int64_t valid = 0;
  for (const auto& g : games) valid += g.valid();
  REQUIRE(games_in(*c) == valid);
  CHECK(db::count_aggregate(*c, Position()) == std::uint64_t(valid));
  auto positions = aggregated_positions(games);
  positions.resize(std::min<std::size_t>(positions.size(), 3000));
  check_against_scan(*c, positions);
}

}  // namespace test_explorer_agg
