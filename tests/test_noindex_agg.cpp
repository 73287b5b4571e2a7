// Import without the position index (issue #17): no position data at all, so a new database
// made that way has no explorer's aggregate, and a database keeps what its first games
// chose, so that its aggregate (when there is one) covers every game. Explore's answers must
// equal the scan's in every mix of imports with and without the index, and a database made
// without the index must cost no more bytes a game than one made before the aggregate
// existed (its game tables alone).
#include <catch2/catch.hpp>

#include "cli_util.hpp"

#include <deque>
#include <map>
#include <set>
#include <sstream>

#include "qipu/db/explore.hpp"
#include "qipu/db/search.hpp"
#include "qipu/db/store.hpp"

// One namespace a file: the test files compile several to a unit (CMakeLists.txt).
namespace test_noindex_agg {

using namespace qipu;
namespace fs = std::filesystem;

namespace {

fs::path dir() { return cli_test::temp_dir("noindex_agg"); }

// A database path with nothing at it yet.
std::string new_db(const std::string& name) {
  fs::path p = dir() / (name + ".db");
  for (auto ext : {"", "-wal", "-shm"}) fs::remove(p.string() + ext);
  return p.string();
}

// `qipu import` of the bundled sample's games [first, first + count), with more options.
void import(const std::string& db, std::size_t first, std::size_t count, const std::string& options = "") {
  fs::path pgn = cli_test::write_sample_games(dir() / "part.pgn", first, count);
  auto r = cli_test::run_qipu("import " + options + " --db " + db + " " + pgn.string());
  INFO(r.err);
  REQUIRE(r.code <= 1);  // 1: a few of the sample's games are rejected
}

std::unique_ptr<db::Connection> reader(const std::string& path) {
  return db::open_database(path, db::Connection::Mode::ReadOnly);
}

std::int64_t count_of(db::Connection& c, const std::string& sql) {
  auto st = c.prepare(sql);
  return st.step() ? st.int64(0) : -1;
}

// The games stored of the sample's first n: all but the few it rejects.
std::int64_t stored_of(db::Connection& c, std::int64_t n) {
  auto games = count_of(c, "SELECT count(*) FROM game");
  REQUIRE(games > n - n / 30);
  REQUIRE(games <= n);
  return games;
}

// Everything an exploration says, as text: equal texts, equal answers.
std::string summary(const db::Exploration& ex) {
  std::ostringstream s;
  auto stats = [&](const db::MoveStats& m) {
    s << m.move.raw() << ' ' << m.games << ' ' << m.white_wins << ' ' << m.draws << ' ' << m.black_wins << ' '
      << m.elo_games << ' ' << m.elo_sum << ' ' << m.last_year << '\n';
  };
  stats(ex.total);
  for (const auto& m : ex.moves) stats(m);
  for (const auto& t : ex.top_games) s << "top " << t.id << ' ' << t.average_elo << '\n';
  return s.str();
}

// Walks the opening tree from the start position, breadth first, the way a user explores
// it (each move the explorer lists leads to the next position), and checks at each of up
// to `limit` positions that explore's answer is the scan's. Returns the positions seen and
// how many of them the aggregate answered itself.
struct Walk {
  std::size_t positions = 0, from_aggregate = 0;
};
Walk explore_equals_scan(db::Connection& c, std::size_t limit) {
  Walk w;
  std::deque<Position> todo{Position()};
  std::set<Key> seen{Position().key()};
  while (!todo.empty() && w.positions < limit) {
    Position pos = todo.front();
    todo.pop_front();
    INFO("position " << pos.fen());
    auto ex = db::explore(c, pos, {}, 10);
    REQUIRE(summary(ex) == summary(db::explore_scan(c, pos, {}, 10)));
    ++w.positions;
    w.from_aggregate += db::explore_aggregate(c, pos, 10).has_value();
    for (const auto& m : ex.moves) {
      Position next = pos;
      next.play(m.move);
      if (seen.insert(next.key()).second) todo.push_back(next);
    }
  }
  return w;
}

// The bytes of a database's pages in use, from dbstat, of the tables and indexes whose
// names `keep` accepts.
template <class Keep>
std::int64_t bytes_of(db::Connection& c, Keep&& keep) {
  std::int64_t sum = 0;
  auto st = c.prepare("SELECT name, sum(pgsize) FROM dbstat GROUP BY name");
  while (st.step())
    if (keep(std::string(st.text(0)))) sum += st.int64(1);
  return sum;
}

bool position_data(const std::string& table) {
  return table == "segment" || table == "posting" || table == "posting_range" || table.rfind("explore", 0) == 0;
}

}  // namespace

TEST_CASE("import --no-position-index into a new database stores no aggregate, and explore replays", "[noindex]") {
  std::string path = new_db("new");
  import(path, 0, 300, "--no-position-index");
  auto c = reader(path);
  CHECK_FALSE(db::has_aggregate(*c));
  auto games = stored_of(*c, 300);
  CHECK(count_of(*c, "SELECT count(*) FROM segment") == 0);
  auto start = db::explore(*c, Position(), {}, 10);
  CHECK(start.total.games == std::uint64_t(games));  // every game replayed, none lost
  CHECK(start.replayed == std::uint64_t(games));
  auto w = explore_equals_scan(*c, 150);
  CHECK(w.positions == 150);
  CHECK(w.from_aggregate == 0);
}

TEST_CASE("imports with the index into a database made without it add no aggregate, explore equals the scan",
          "[noindex]") {
  std::string path = new_db("without_then_with");
  import(path, 0, 200, "--no-position-index");
  import(path, 200, 200);
  import(path, 0, 400);  // again: duplicates only
  auto c = reader(path);
  CHECK_FALSE(db::has_aggregate(*c));  // it could not cover the first 200 games
  auto games = stored_of(*c, 400);
  CHECK(db::count_aggregate(*c, Position()) == std::nullopt);
  CHECK(db::explore(*c, Position(), {}, 10).total.games == std::uint64_t(games));
  CHECK(explore_equals_scan(*c, 300).positions == 300);
}

TEST_CASE("imports without the index into a database with the aggregate keep adding to it", "[noindex]") {
  std::string path = new_db("with_then_without");
  import(path, 0, 200, "--batch 37");
  import(path, 200, 200, "--no-position-index --batch 37");
  import(path, 400, 100, "--batch 37");
  import(path, 0, 500, "--no-position-index");  // again: duplicates, not counted twice
  auto c = reader(path);
  REQUIRE(db::has_aggregate(*c));
  auto games = stored_of(*c, 500);
  CHECK(db::count_aggregate(*c, Position()) == std::uint64_t(games));
  auto w = explore_equals_scan(*c, 400);
  CHECK(w.positions == 400);
  CHECK(w.from_aggregate > 300);  // the opening positions: the aggregate's own answers
}

TEST_CASE("a database whose games were all rejected takes the aggregate with its first stored games", "[noindex]") {
  std::string path = new_db("rejects_first");
  fs::path bad = dir() / "bad.pgn";
  std::ofstream(bad) << "[Event \"x\"]\n\n1. e4 e5 2. Ke3 *\n";
  auto r = cli_test::run_qipu("import --no-position-index --db " + path + " " + bad.string());
  REQUIRE(r.code == 1);
  CHECK_FALSE(db::has_aggregate(*reader(path)));
  import(path, 0, 100);
  auto c = reader(path);
  REQUIRE(db::has_aggregate(*c));
  CHECK(db::count_aggregate(*c, Position()) == std::uint64_t(count_of(*c, "SELECT count(*) FROM game")));
}

TEST_CASE("without the index a database costs the bytes a game of its game tables alone", "[noindex]") {
  std::string without = new_db("size_without"), with = new_db("size_with");
  import(without, 0, 1042, "--no-position-index");
  import(with, 0, 1042);
  auto a = reader(without), b = reader(with);
  auto games = count_of(*a, "SELECT count(*) FROM game");
  REQUIRE(games == count_of(*b, "SELECT count(*) FROM game"));
  // The game tables as a database made before the aggregate stored them: all but the
  // position index and the aggregate, measured in the database made with both.
  std::int64_t game_tables = bytes_of(*b, [](const std::string& t) { return !position_data(t); });
  std::int64_t aggregate = bytes_of(*b, [](const std::string& t) { return t.rfind("explore", 0) == 0; });
  std::int64_t whole = bytes_of(*a, [](const std::string&) { return true; });
  INFO("bytes a game without the index " << double(whole) / double(games) << ", game tables "
                                         << double(game_tables) / double(games) << ", aggregate "
                                         << double(aggregate) / double(games));
  REQUIRE(aggregate > game_tables / 20);  // what leaving it out saves is worth measuring
  // The position index's three tables, empty: a page each.
  std::int64_t positions = bytes_of(*a, position_data);
  CHECK(positions <= 3 * count_of(*a, "PRAGMA page_size"));
  CHECK(whole - positions <= game_tables + game_tables / 50);
}

namespace {

// Every stored game's duplicate hash as game_hash holds it, by game id; fails the test
// when a game has none or two.
std::map<std::int64_t, std::uint64_t> stored_hashes(db::Connection& c) {
  std::map<std::int64_t, std::uint64_t> by_game;
  auto st = c.prepare("SELECT first_game, last_game, hashes FROM game_hash ORDER BY first_game");
  while (st.step()) {
    std::string_view blob = st.blob(2);
    REQUIRE(blob.size() % 8 == 0);
    auto ids = c.prepare("SELECT id FROM game WHERE id BETWEEN ? AND ? ORDER BY id");
    ids.bind(1, st.int64(0)).bind(2, st.int64(1));
    for (std::size_t at = 0; at < blob.size(); at += 8) {
      REQUIRE(ids.step());
      std::uint64_t h = 0;
      for (int i = 7; i >= 0; --i) h = h << 8 | static_cast<unsigned char>(blob[at + std::size_t(i)]);
      REQUIRE(by_game.emplace(ids.int64(0), h).second);
    }
    CHECK_FALSE(ids.step());
  }
  return by_game;
}

}  // namespace

TEST_CASE("import keeps every stored game's duplicate hash, and hashes from the rows the games it lacks", "[noindex]") {
  std::string path = new_db("hashes");
  import(path, 0, 150, "--batch 40");
  import(path, 150, 100, "--no-position-index --allow-duplicates");
  auto c = db::open_database(path, db::Connection::Mode::ReadWrite);
  auto games = count_of(*c, "SELECT count(*) FROM game");
  auto written = stored_hashes(*c);  // from the records, as each game was stored
  REQUIRE(std::int64_t(written.size()) == games);
  // A database made before the table, or whose middle games an older qipu stored: the
  // next import hashes those games from their rows, the same hashes the records gave.
  c->exec("DELETE FROM game_hash WHERE first_game <> (SELECT max(first_game) FROM game_hash)");
  c.reset();
  import(path, 0, 250);  // all there: nothing stored, which needs every hash
  auto again = reader(path);
  CHECK(count_of(*again, "SELECT count(*) FROM game") == games);
  CHECK(stored_hashes(*again) == written);
  std::set<std::uint64_t> distinct;
  for (auto [id, h] : written) distinct.insert(h);
  CHECK(distinct.size() == written.size());  // the sample's 250 games are distinct
}

}  // namespace test_noindex_agg
