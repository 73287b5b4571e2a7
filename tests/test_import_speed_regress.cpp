// The import regression of 2026-12-01 (bench/bench_import.md): at its end an import merged
// the runs of level 0 of the position index and of the explorer's aggregate into one,
// rewriting what its batches had just written (half of the CPU of an import into an empty
// database). These tests pin what an import's end does now: the batches' runs are kept, only
// the size policy merges them, and every answer stays the same.
#include <catch2/catch.hpp>

#include "cli_util.hpp"

#include "qipu/board/position.hpp"
#include "qipu/db/explore.hpp"
#include "qipu/db/position_index.hpp"
#include "qipu/db/search.hpp"
#include "qipu/db/store.hpp"
#include "db/runs.hpp"

// One namespace a file: the test files compile several to a unit (CMakeLists.txt).
namespace test_import_speed_regress {

using namespace qipu;
using namespace cli_test;

namespace {

std::int64_t count_of(db::Connection& c, const std::string& sql) {
  auto st = c.prepare(sql);
  REQUIRE(st.step());
  return st.int64(0);
}

// Imports the sample's first `games` games in batches of `batch` into a new database.
std::string import_in_batches(const std::string& name, std::size_t games, std::size_t batch) {
  fs::path dir = temp_dir("import_speed_regress");
  fs::path pgn = write_sample_games(dir / (name + ".pgn"), 0, games);
  std::string db = (dir / (name + ".db")).string();
  for (auto ext : {"", "-wal", "-shm"}) fs::remove(db + ext);
  // Every game stored, so that the batches (and runs) are known: games / batch, rounded up.
  Run r = run_qipu("import --allow-duplicates --db " + db + " --batch " + std::to_string(batch) + " " + pgn.string());
  REQUIRE(r.code == 0);
  return db;
}

}  // namespace

TEST_CASE("import keeps the runs its batches wrote: its end rewrites neither the index nor the aggregate",
          "[import_speed]") {
  // 600 games in batches of 100: six runs of each, fewer than MergeFanout, so none merged.
  std::string path = import_in_batches("six", 600, 100);
  auto c = db::open_database(path, db::Connection::Mode::ReadOnly);
  REQUIRE(count_of(*c, "SELECT count(*) FROM game") == 600);
  CHECK(count_of(*c, "SELECT count(*) FROM segment") == 6);
  CHECK(count_of(*c, "SELECT count(*) FROM explore_segment") == 6);
  // The runs are the batches' own (the sixth id given, RunIdGap apart), not a merge's new one.
  CHECK(count_of(*c, "SELECT max(id) FROM segment") == 6 * db::runs::RunIdGap);
  CHECK(count_of(*c, "SELECT max(id) FROM explore_segment") == 6);
  // Every game is found at the start position, through the index and through the aggregate.
  CHECK(db::lookup_position(*c, Position().key()).size() == 600);
  auto counted = db::count_aggregate(*c, Position());
  REQUIRE(counted);
  CHECK(*counted == 600);
}

TEST_CASE("import merges runs by size only: never MergeFanout runs of one level", "[import_speed]") {
  // 1,042 games in batches of 50: 21 runs written, merged eight at a time as they come.
  std::string path = import_in_batches("many", 1042, 50);
  auto c = db::open_database(path, db::Connection::Mode::ReadOnly);
  REQUIRE(count_of(*c, "SELECT count(*) FROM game") == 1042);
  for (const char* table : {"segment", "explore_segment"}) {
    INFO(table);
    std::vector<std::uint64_t> sizes;
    auto st = c->prepare(std::string("SELECT entries FROM ") + table + " ORDER BY id");
    while (st.step()) sizes.push_back(std::uint64_t(st.int64(0)));
    CHECK(sizes.size() < db::MergeFanout);
    CHECK(db::runs_to_merge(sizes, std::string(table) == "segment" ? db::IndexRunBase : db::AggregateRunBase) == 0);
  }
  CHECK(db::lookup_position(*c, Position().key()).size() == 1042);
  auto counted = db::count_aggregate(*c, Position());
  REQUIRE(counted);
  CHECK(*counted == 1042);
}

namespace {

// Every chunk of the position index fills its page alone (within 96 bytes of it) without an
// overflow page, the aggregate's stay within 4,000 bytes (a lookup decodes its chunk up to
// its key), and all but each run's last come near their limit (full chunks, not a fixed
// number of entries).
void check_chunks_fill_pages(db::Connection& c, std::int64_t page_size) {
  CHECK(count_of(c, "PRAGMA page_size") == page_size);
  for (auto [table, limit] : {std::pair{"posting", page_size - 96}, std::pair{"explore_posting", std::int64_t(4000)}}) {
    INFO(table);
    CHECK(count_of(c, std::string("SELECT max(length(data)) FROM ") + table) <= limit);
    CHECK(count_of(c, std::string("SELECT max(length(data)) FROM ") + table) > limit - 300);
    CHECK(count_of(c, std::string("SELECT count(*) FROM ") + table + " WHERE length(data) < " +
                          std::to_string(limit - 300) + " AND id NOT IN (SELECT max(id) FROM " + table +
                          " GROUP BY segment)") == 0);
    CHECK(count_of(c, std::string("SELECT count(*) FROM dbstat WHERE name = '") + table +
                          "' AND pagetype = 'overflow'") == 0);
  }
  CHECK(count_of(c, "SELECT sum(entries) FROM segment") == count_of(c, "SELECT sum(plies + 1) FROM game"));
}

}  // namespace

TEST_CASE("import writes the position index in chunks of a page: 8 KB in a new database", "[import_speed]") {
  // A chunk of a fixed 256 entries was about 1,850 bytes on the full corpus and more on a
  // small database (larger key deltas), leaving pages part empty; a row whose record is
  // over the page's limit (4,061 bytes in 4 KB pages) spills into an overflow page, read and
  // written apart from its own.
  std::string path = import_in_batches("chunks", 1042, 260);
  auto c = db::open_database(path, db::Connection::Mode::ReadOnly);
  check_chunks_fill_pages(*c, 8192);
}

TEST_CASE("import writes the position index in chunks that fit the 4 KB pages of a database made before",
          "[import_speed]") {
  fs::path dir = temp_dir("import_speed_regress");
  std::string path = (dir / "pages4k.db").string();
  for (auto ext : {"", "-wal", "-shm"}) fs::remove(path + ext);
  {
    // An empty database of SQLite's default pages, as qipu made them before 2026-12-05.
    db::Connection raw(path, db::Connection::Mode::ReadWrite);
    raw.exec("PRAGMA page_size = 4096; PRAGMA auto_vacuum = INCREMENTAL; CREATE TABLE t(x); DROP TABLE t");
  }
  fs::path pgn = write_sample_games(dir / "pages4k.pgn", 0, 1042);
  Run r = run_qipu("import --allow-duplicates --db " + path + " --batch 260 " + pgn.string());
  REQUIRE(r.code == 0);
  auto c = db::open_database(path, db::Connection::Mode::ReadOnly);
  check_chunks_fill_pages(*c, 4096);
  CHECK(db::lookup_position(*c, Position().key()).size() == 1042);
}

}  // namespace test_import_speed_regress
