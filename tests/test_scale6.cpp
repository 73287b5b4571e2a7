// Import at scale, round 6 (issue 17, bench/bench_import.md "2026-12-02: secure_delete, the
// duplicate set and larger transactions"): transactions larger than the importer's flush
// write the same position index and aggregate as transactions of one flush each; the
// duplicate set is at most three quarters full; the connection's secure_delete is FAST
// while an import runs and given back after it. The four classic games, 45,000 times.
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "import_util.hpp"
#include "qipu/db/store.hpp"

// One namespace a file: the test files compile several to a unit (CMakeLists.txt).
namespace test_scale6 {

using namespace qipu;
using import_test::classics;
using import_test::number;

namespace {

// Every row of a table, in one string, in key order.
std::string rows(db::Connection& c, const std::string& table) {
  auto columns = number(c, "SELECT count(*) FROM pragma_table_info('" + table + "')");
  auto st = c.prepare("SELECT * FROM " + table + " ORDER BY 1, 2");
  std::string out;
  while (st.step()) {
    for (int i = 0; i < columns; ++i) out.append(st.blob(i)).push_back('\t');
    out.push_back('\n');
  }
  return out;
}

// A new database holding `n` games (the classics over and over), imported in transactions
// of `batch` games.
std::unique_ptr<db::Connection> imported(const std::string& name, std::size_t n, std::size_t batch) {
  auto games = classics();
  std::vector<db::EncodedGame> encoded;
  for (const auto& g : games) encoded.push_back(*db::encode_game(g));
  auto c = db::open_database(import_test::temp_db("scale6", name).string(), db::Connection::Mode::ReadWrite);
  db::ImportOptions o;
  o.allow_duplicates = true;
  o.batch_games = batch;
  db::Importer imp(*c, o);
  for (std::size_t i = 0; i < n; ++i) imp.add("test", games[i % games.size()], encoded[i % games.size()]);
  imp.finish();
  return c;
}

}  // namespace

TEST_CASE("one transaction of 45,000 games writes the runs of three of at most 20,000", "[scale6]") {
  constexpr std::size_t Games = 45000;
  auto small = imported("small", Games, 20000);
  auto large = imported("large", Games, Games);
  // The duplicate hashes are written once a transaction: three rows, then one.
  CHECK(number(*small, "SELECT count(*) FROM game_hash") == 3);
  CHECK(number(*large, "SELECT count(*) FROM game_hash") == 1);
  // The position index's runs are cut at the same games (20,000, 40,000 and the rest),
  // and so are the aggregate's.
  CHECK(number(*large, "SELECT count(*) FROM segment") == 3);
  for (const char* table : {"segment", "posting", "explore_segment", "explore_posting", "game"}) {
    INFO(table);
    CHECK(rows(*small, table) == rows(*large, table));
  }
  CHECK(number(*large, "SELECT count(*) FROM game") == std::int64_t(Games));
}

// The sizes of the transactions an import of 45,000 games left to choose makes into a
// database whose one game has id `largest`: one game stored, then moved, stands for a large
// database. One game_hash row a transaction, the moved game's first.
std::vector<std::int64_t> transactions_after(const std::string& name, std::int64_t largest) {
  auto c = imported(name, 1, 20000);
  auto id = std::to_string(largest);
  c->exec("UPDATE game SET id = " + id + "; UPDATE game_hash SET first_game = " + id + ", last_game = " + id);
  auto games = classics();
  db::EncodedGame enc = *db::encode_game(games[1]);
  db::ImportOptions o;
  o.allow_duplicates = true;  // batch_games left 0
  db::Importer imp(*c, o);
  for (int i = 0; i < 45000; ++i) imp.add("test", games[1], enc);
  imp.finish();
  auto st = c->prepare("SELECT last_game - first_game + 1 FROM game_hash ORDER BY first_game");
  std::vector<std::int64_t> sizes;
  while (st.step()) sizes.push_back(st.int64(0));
  return sizes;
}

TEST_CASE("left to choose an import commits a fiftieth of the game ids already stored", "[scale6]") {
  CHECK(transactions_after("ids_1500k", 1500000) == std::vector<std::int64_t>{1, 30000, 15000});
}

TEST_CASE("left to choose an import into 4 M game ids commits every 40000 games and not a fiftieth", "[scale6]") {
  CHECK(transactions_after("ids_4m", 4000000) == std::vector<std::int64_t>{1, 40000, 5000});
}

TEST_CASE("an import deletes with secure_delete FAST in a 32 MB cache and gives the connection its own back",
          "[scale6]") {
  auto c = db::open_database(import_test::temp_db("scale6", "secure").string(), db::Connection::Mode::ReadWrite);
  c->exec("PRAGMA secure_delete = ON; PRAGMA cache_size = -1000");
  auto games = classics();
  {
    db::Importer imp(*c, {});
    CHECK(number(*c, "PRAGMA secure_delete") == 2);  // FAST
    CHECK(number(*c, "PRAGMA cache_size") == -32768);
    for (const auto& g : games) imp.add("test", g, *db::encode_game(g));
    imp.finish();
  }
  CHECK(number(*c, "PRAGMA secure_delete") == 1);
  CHECK(number(*c, "PRAGMA cache_size") == -1000);
  {
    db::Importer imp(*c, {});  // destroyed without finish(), as by an error
  }
  CHECK(number(*c, "PRAGMA secure_delete") == 1);
  CHECK(number(*c, "PRAGMA cache_size") == -1000);
}

TEST_CASE("the duplicate set holds three quarters of its slots before it grows", "[scale6]") {
  db::HashSet64 set;
  set.reserve(150000);  // 200,000 slots needed: 2^18
  CHECK(set.bytes() == (std::size_t(1) << 18) * 8);
  std::uint64_t x = 0x9e3779b97f4a7c15ULL;
  for (int i = 0; i < 150000; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;  // xorshift: distinct, never 0
    REQUIRE(set.insert(x));
  }
  CHECK(set.size() == 150000);
  CHECK(set.bytes() == (std::size_t(1) << 18) * 8);
  for (int i = 0; i < 50000; ++i) {  // past 3/4 of 2^18 (196,608) it doubles
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    REQUIRE(set.insert(x));
  }
  CHECK(set.bytes() == (std::size_t(1) << 19) * 8);
}

}  // namespace test_scale6
