// Import at scale, round 5 (issue 17, bench/bench_import.md "2026-12-02: the player indexes'
// inserts (branch scale5)"): while an import keeps game_white and game_black, SQLite's page
// cache is made large enough to hold them, and given back to what the connection had when the
// import ends, however it ends. The four classic games: well under a second.
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "import_util.hpp"
#include "qipu/db/store.hpp"

// One namespace a file: the test files compile several to a unit (CMakeLists.txt).
namespace test_scale5 {

using namespace qipu;
using import_test::classics;
using import_test::number;

namespace {

db::ImportOptions copies_allowed(std::size_t batch) {
  db::ImportOptions o;
  o.allow_duplicates = true;
  o.batch_games = batch;
  return o;
}

void add_all(db::Importer& imp, const std::vector<game::GameRecord>& games) {
  for (const auto& g : games) imp.add("test", g, *db::encode_game(g));
}

constexpr const char* Cache = "PRAGMA cache_size";

// A new database holding `games`, its player indexes made at the end of that first import,
// and the connection's cache set to 1,234 KiB.
std::unique_ptr<db::Connection> stored(const std::vector<game::GameRecord>& games) {
  auto c = db::open_database(import_test::temp_db("scale5", "cache").string(), db::Connection::Mode::ReadWrite);
  db::Importer first(*c, copies_allowed(20000));
  add_all(first, games);
  first.finish();
  c->exec("PRAGMA cache_size = -1234");
  return c;
}

}  // namespace

TEST_CASE("an import that keeps the player indexes caches more, and gives the cache back", "[scale5]") {
  auto games = classics();
  auto c = stored(games);
  SECTION("finished") {
    db::Importer imp(*c, copies_allowed(2));
    CHECK(number(*c, Cache) < -1234);  // KiB are negative: more than 1,234 KiB
    add_all(imp, games);
    imp.finish();
    CHECK(number(*c, Cache) == -1234);
  }
  SECTION("destroyed without finish(), as by an error") {
    {
      db::Importer imp(*c, copies_allowed(2));
      add_all(imp, games);
    }
    CHECK(number(*c, Cache) == -1234);
  }
  SECTION("the indexes dropped on the way: the cache goes back then") {
    db::ImportOptions o = copies_allowed(2);
    o.defer_indexes_after = 0;
    o.expected_games = 100;
    db::Importer imp(*c, o);
    add_all(imp, games);  // two commits; the first drops the indexes
    CHECK(number(*c, Cache) == -1234);
    imp.finish();
    CHECK(number(*c, Cache) == -1234);
  }
  CHECK(number(*c, "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND tbl_name = 'game'") == 2);
}

}  // namespace test_scale5
