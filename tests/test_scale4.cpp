// Import at scale, round 4 (issue 17, bench/bench_import.md "2026-12-02: the importer's I/O
// (branch scale4)"): free pages given back by a commit in full auto-vacuum mode. The
// four classic games, imported a few times over: well under a second.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "import_util.hpp"
#include "qipu/db/store.hpp"

// One namespace a file: the test files compile several to a unit (CMakeLists.txt).
namespace test_scale4 {

using namespace qipu;
namespace fs = std::filesystem;
using import_test::classics;
using import_test::number;

namespace {

fs::path temp_db(const std::string& name) { return import_test::temp_db("scale4", name); }

// Adds the games `times` times over (duplicates allowed), committing every `batch`.
void import_copies(db::Connection& c, const std::vector<game::GameRecord>& games, int times, std::size_t batch) {
  db::ImportOptions o;
  o.allow_duplicates = true;
  o.batch_games = batch;
  db::Importer imp(c, o);
  for (int i = 0; i < times; ++i)
    for (const auto& g : games) imp.add("test", g, *db::encode_game(g));
  imp.finish();
}

}  // namespace

TEST_CASE("an import ending with a quarter of the file free gives it back, still in incremental mode", "[scale4]") {
  auto games = classics();
  REQUIRE(games.size() == 4);
  fs::path path = temp_db("free");
  auto c = db::open_database(path.string(), db::Connection::Mode::ReadWrite);
  import_copies(*c, games, 2, 20000);
  std::int64_t pages = number(*c, "PRAGMA page_count");
  // Free pages as merges leave them: a table of 2 MB, dropped.
  c->exec(
      "CREATE TABLE ballast(b BLOB); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000) "
      "INSERT INTO ballast SELECT randomblob(2000) FROM n");
  c->exec("DROP TABLE ballast");
  REQUIRE(number(*c, "PRAGMA freelist_count") * 4 > number(*c, "PRAGMA page_count"));
  import_copies(*c, games, 1, 20000);
  CHECK(number(*c, "PRAGMA freelist_count") == 0);
  CHECK(number(*c, "PRAGMA page_count") < pages + 20);  // the 4 games' few pages, not the ballast's 500
  CHECK(number(*c, "PRAGMA auto_vacuum") == 2);         // incremental: a merge's commit moves no pages
  auto check = c->prepare("PRAGMA integrity_check");
  REQUIRE(check.step());
  CHECK(std::string(check.text(0)) == "ok");
  CHECK(number(*c, "SELECT count(*) FROM game") == 12);
  std::vector<game::GameRecord> back;
  db::for_each_game(*c, {}, [&](game::GameRecord& r) {
    back.push_back(std::move(r));
    return true;
  });
  REQUIRE(back.size() == 12);
  for (std::size_t i = 0; i < back.size(); ++i) CHECK(back[i].mainline.size() == games[i % 4].mainline.size());
}

TEST_CASE("a database left in full auto-vacuum mode is opened for writing in incremental mode", "[scale4]") {
  fs::path path = temp_db("full");
  db::open_database(path.string(), db::Connection::Mode::ReadWrite)->exec("PRAGMA auto_vacuum = FULL");
  {
    db::Connection raw(path.string(), db::Connection::Mode::ReadOnly);
    REQUIRE(number(raw, "PRAGMA auto_vacuum") == 1);  // as a crash between the give-back's two switches leaves it
  }
  auto c = db::open_database(path.string(), db::Connection::Mode::ReadWrite);
  CHECK(number(*c, "PRAGMA auto_vacuum") == 2);
}

}  // namespace test_scale4
