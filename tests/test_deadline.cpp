// A connection's deadline (#18: serve bounds every request's time) stops the replays that
// position searches and the explorer's scan run between rows, not only SQL: SQLite's
// progress handler sees only its own steps, and a database stored without the position
// index is searched by replaying every game in C++.
#include <sqlite3.h>

#include <catch2/catch.hpp>

#include "cli_util.hpp"
#include "qipu/db/search.hpp"
#include "qipu/db/sqlite.hpp"

// One namespace a file: the test files compile several to a unit (CMakeLists.txt).
namespace test_deadline {

using namespace cli_test;
using namespace qipu;
using Clock = std::chrono::steady_clock;

namespace {

// 40 games of the bundled sample, stored without index entries: every position
// question replays them. So few rows that SQLite alone (10,000 steps between calls of
// its progress handler) would never stop the search.
fs::path unindexed_db(const fs::path& dir) {
  fs::remove_all(dir);
  fs::create_directories(dir);
  auto pgn = write_sample_games(dir / "games.pgn", 0, 40);
  auto db = dir / "games.db";
  REQUIRE(run_qipu("import --no-position-index --db \"" + db.string() + "\" \"" + pgn.string() + "\"").code == 0);
  return db;
}

db::PositionQuery after(const std::string& moves) {
  auto list = db::parse_move_list(moves);
  REQUIRE(list.ok());
  return {list->position, std::nullopt};
}

}  // namespace

TEST_CASE("deadline: a position search over replayed games stops past it, and answers in time", "[db][deadline]") {
  auto dir = fs::temp_directory_path() / ("qipu-deadline-" + std::to_string(getpid()));
  auto path = unindexed_db(dir);
  auto pq = after("1.e4 e5");
  auto expected =
      std::stoull(run_qipu("search --count --transpose --moves \"1.e4 e5\" --db \"" + path.string() + "\"").out);
  REQUIRE(expected > 0);

  SECTION("a deadline far ahead changes nothing") {
    auto c = db::open_for_search(path.string());
    c->set_deadline(Clock::now() + std::chrono::hours(1));
    std::uint64_t replayed = 0;
    CHECK(db::find_position(*c, pq, db::GameQuery{}, &replayed).size() == expected);
    CHECK(replayed == 40);
  }
  SECTION("past it, the search fails with SQLITE_INTERRUPT instead of finishing") {
    auto c = db::open_for_search(path.string());
    c->set_deadline(Clock::now() - std::chrono::seconds(1));
    try {
      (void)db::find_position(*c, pq, db::GameQuery{});
      FAIL("the search ran past its deadline");
    } catch (const db::DbError& e) {
      CHECK((e.code() & 0xff) == SQLITE_INTERRUPT);
      CHECK(e.code_name() == "sqlite_interrupt");
    }
    CHECK_THROWS_AS(db::explore_scan(*c, pq.position, db::GameQuery{}, 5), db::DbError);
  }
  fs::remove_all(dir);
}

}  // namespace test_deadline
