// Tests of the deep positions (src/db/deep_positions.hpp): positions past the aggregate's
// depth that many games reach, counted by import from the game after the position index's
// merges found them popular. Their answer must be the scan's on every such position, however
// the games came in: batches, an import without the position index, re-imports, an import
// stopped before its last commit, games stored by a qipu that did not count them, and a file
// whose rows claim more games than they can.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <map>

#include "explore_util.hpp"
#include "import_util.hpp"
#include "replay_util.hpp"
#include "qipu/db/explore.hpp"
#include "qipu/db/search.hpp"
#include "qipu/db/store.hpp"
#include "qipu/game/criteria.hpp"

// One namespace a file: the test files compile several to a unit (CMakeLists.txt).
namespace test_deep_positions {

using namespace qipu;
using import_test::number;
namespace fs = std::filesystem;

namespace {

// The distinct positions past the aggregate's depth of the games' mainlines that occur more
// than once (in two games, or repeated in one: only those can be popular), at most `most`
// of them, taken evenly, so that the tests stay short under the sanitizers.
std::vector<Position> deep_positions(const std::vector<game::GameRecord>& games, std::size_t most = 500) {
  std::vector<Position> out;
  std::map<Key, int> seen;
  auto keep = [&](const Position& p) {
    if (!db::aggregated(p) && ++seen[p.key()] == 2) out.push_back(p);
  };
  for (const auto& g : games) {
    game::for_each_move(g.start_position, g.mainline,
                        [&](const Position&, const game::MoveNode&, const Position& after) { keep(after); });
  }
  std::vector<Position> taken;
  for (std::size_t i = 0; i < out.size(); i += (out.size() + most - 1) / most) taken.push_back(out[i]);
  return taken;
}

// How many of a position's games its rows count (from its key's first game to the mark), by
// the scan: the rest of its answer is scanned.
std::uint64_t counted_by_rows(db::Connection& c, const Position& pos) {
  auto st = c.prepare(
      "SELECT p.first_game, m.first_game FROM deep_position p, deep_position m"
      " WHERE p.key = ? AND m.key = -1");
  st.bind(1, std::int64_t(db::index_key(pos.key())));
  if (!st.step()) return 0;
  db::GameQuery q;
  q.where = "g.id BETWEEN ? AND ?";
  q.params = {st.int64(0), st.int64(1)};
  return db::explore_scan(c, pos, q, 10).total.games;
}

struct Checked {
  std::size_t answered = 0;   // positions the rows answered
  std::size_t shared = 0;     // of them, reached by more than one game
  std::size_t from_rows = 0;  // of them, with games counted by their rows, not scanned
};

// Each position's answer from its rows (where they answer) against the scan's.
Checked check_against_scan(db::Connection& c, const std::vector<Position>& positions) {
  Checked n;
  for (const auto& pos : positions) {
    auto rows = db::explore_aggregate(c, pos, 10);
    if (!rows) continue;
    INFO("position " << pos.fen());
    ++n.answered;
    n.shared += explore_test::check_against_scan(c, pos, *rows) > 1;
    n.from_rows += counted_by_rows(c, pos) > 0;
  }
  return n;
}

// Imports games [first, last) as `qipu import` does, with popular keys found at `at` entries.
void import_part(const fs::path& path, const std::vector<game::GameRecord>& games, std::size_t first, std::size_t last,
                 bool position_index = true, bool finish = true) {
  auto c = db::open_database(path.string(), db::Connection::Mode::ReadWrite);
  db::ImportOptions o;
  o.batch_games = 7;  // many runs, merged along the way
  o.deep_positions = {UINT64_MAX, 2};
  o.position_index = position_index;
  db::Importer imp(*c, o);
  for (std::size_t i = first; i < last; ++i) imp.add("test", games[i], *db::encode_game(games[i]));
  if (finish) imp.finish();
}

// Games that reach a position past the aggregate's depth (18 units off their squares) and
// repeat it twice more with king moves, each of them as a new game (its Round): the position
// is counted once a game, at its first occurrence, as the scan counts it.
std::vector<game::GameRecord> repeating_games(int n) {
  fs::path pgn = cli_test::temp_dir("deep_positions") / "repeating.pgn";
  {
    std::ofstream out(pgn);
    const char* results[] = {"1-0", "1/2-1/2", "0-1"};
    for (int i = 0; i < n; ++i)
      out << "[Event \"Repetitions\"]\n[Round \"" << i + 1 << "\"]\n[White \"A\"]\n[Black \"B\"]\n[WhiteElo \""
          << 2400 + i << "\"]\n[Result \"" << results[i % 3] << "\"]\n\n"
          << "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. c3 Nf6 5. d3 d6 6. O-O O-O 7. Re1 a6 8. a4 Ba7 9. h3 h6 "
             "10. Kh1 Kh8 11. Kg1 Kg8 12. Kh1 Kh8 13. Kg1 Kg8 "
          << (i % 2 ? "14. Nbd2" : "14. Be3") << " " << results[i % 3] << "\n\n";
  }
  return replayed_games({{pgn.string(), std::nullopt}});
}

std::int64_t popular_keys(db::Connection& c) {
  return number(c, "SELECT count(*) FROM deep_position WHERE key >= 0 AND first_game > 0");
}

// The keys holding at least `at` of the counted entries, sorted.
std::vector<std::uint64_t> keys_from(const std::map<std::uint64_t, std::uint64_t>& entries, std::uint64_t at) {
  std::vector<std::uint64_t> out;
  for (const auto& [key, n] : entries)
    if (n >= at) out.push_back(key);
  return out;
}

std::vector<std::uint64_t> sorted(std::vector<std::uint64_t> v) {
  std::sort(v.begin(), v.end());
  return v;
}

}  // namespace

TEST_CASE("deep positions: a key is popular in a run or a merge holding one in `per` of its entries, and `min`",
          "[explorer]") {
  auto games = import_test::world_championships();
  REQUIRE(games.size() > 200);
  fs::path path = import_test::temp_db("deep_positions", "popularity");
  auto c = db::open_database(path.string(), db::Connection::Mode::ReadWrite);
  const db::Popularity by_share{200, 3}, by_min{UINT64_MAX, 12};
  db::PositionIndexWriter w;
  std::map<std::uint64_t, std::uint64_t> all;  // entries of each key, counted from the games' keys
  std::uint64_t total = 0;
  for (std::size_t b = 0; b < db::MergeFanout; ++b) {
    std::map<std::uint64_t, std::uint64_t> batch;
    std::uint64_t n = 0;
    for (std::size_t g = b * 25; g < (b + 1) * 25; ++g) {
      auto keys = game::position_keys(games[g]);
      w.add_game(keys, std::int64_t(g) + 1);
      for (Key k : keys) ++batch[db::index_key(k)], ++all[db::index_key(k)];
      n += keys.size();
    }
    total += n;
    // Batches of 25 games: one in 200 of some 2,000 entries is about 10 of them; alternately
    // the least count, 12, decides.
    const auto& rule = b % 2 ? by_min : by_share;
    std::uint64_t at = b % 2 ? 12 : n / 200;
    REQUIRE(at > 3);
    std::vector<std::uint64_t> found;
    c->exec("BEGIN");
    w.flush(*c, rule, &found);
    INFO("batch " << b);
    CHECK(sorted(found) == keys_from(batch, at));
    CHECK_FALSE(found.empty());
    if (b + 1 < db::MergeFanout) {
      c->exec("COMMIT");
      continue;
    }
    // The eighth run of level 0: the eight are merged into one, and the merge's whole size
    // sets the count (some 16,000 entries: about 80).
    std::vector<std::uint64_t> merged;
    db::merge_position_index(*c, n, by_share, &merged);
    c->exec("COMMIT");
    CHECK(number(*c, "SELECT count(*) FROM segment") == 1);
    auto expected = keys_from(all, total / 200);
    CHECK(sorted(merged) == expected);
    CHECK_FALSE(expected.empty());
    CHECK(keys_from(all, 12).size() > expected.size());  // the share, not the least count, decided
  }
}

TEST_CASE("deep positions: a merge counts a key popular from MergeLeastPopular entries, not a batch's least count",
          "[explorer]") {
  auto games = import_test::world_championships();
  REQUIRE(games.size() > 200);
  fs::path path = import_test::temp_db("deep_positions", "merge_least");
  auto c = db::open_database(path.string(), db::Connection::Mode::ReadWrite);
  // A share too small to count: the least count decides, 16 in a batch's run, 5 in a merge.
  const db::Popularity rule{UINT64_MAX, 16};
  db::PositionIndexWriter w;
  std::map<std::uint64_t, std::uint64_t> all;
  std::uint64_t n = 0;
  c->exec("BEGIN");
  for (std::size_t b = 0; b < db::MergeFanout; ++b) {
    for (std::size_t g = b * 25; g < (b + 1) * 25; ++g) {
      auto keys = game::position_keys(games[g]);
      w.add_game(keys, std::int64_t(g) + 1);
      for (Key k : keys) ++all[db::index_key(k)];
      n = keys.size();
    }
    std::vector<std::uint64_t> found;
    w.flush(*c, rule, &found);
  }
  std::vector<std::uint64_t> merged;
  db::merge_position_index(*c, n, rule, &merged);
  c->exec("COMMIT");
  REQUIRE(number(*c, "SELECT count(*) FROM segment") == 1);
  auto expected = keys_from(all, db::MergeLeastPopular);
  CHECK(sorted(merged) == expected);
  CHECK(keys_from(all, 16).size() < expected.size());
}

TEST_CASE("deep positions: the rows and the games before them give the scan's answer", "[explorer]") {
  auto games = import_test::world_championships();
  REQUIRE(games.size() > 900);
  auto repeating = repeating_games(30);
  REQUIRE(repeating.size() == 30);
  REQUIRE(repeating[0].valid());
  Position repeated = repeating[0].start_position;  // after 9...h6, and 11...Kg8 and 13...Kg8
  for (std::size_t i = 0; i < 18; ++i) repeated.play(repeating[0].mainline[i].move);
  REQUIRE_FALSE(db::aggregated(repeated));
  games.insert(games.begin() + 100, std::make_move_iterator(repeating.begin()),
               std::make_move_iterator(repeating.end()));
  fs::path path = import_test::temp_db("deep_positions", "batches");
  import_part(path, games, 0, 350);
  // Without the index: no merges find keys, rows still count. Few games, as every scan
  // replays each of them.
  import_part(path, games, 350, 400, false);
  import_part(path, games, 400, games.size());
  import_part(path, games, 200, 700);  // duplicates: not counted twice
  auto c = db::open_database(path.string(), db::Connection::Mode::ReadOnly);
  CHECK(number(*c, "SELECT count(*) FROM game") == std::int64_t(games.size()));
  CHECK(popular_keys(*c) > 100);
  // Popular keys of aggregated positions (the start, 1.e4, ...) are kept apart, not counted.
  CHECK(number(*c, "SELECT count(*) FROM deep_position WHERE key >= 0 AND first_game = 0") > 10);
  CHECK(number(*c, "SELECT coalesce(sum(entries), 0) FROM deep_segment") > 100);
  auto positions = deep_positions(games, 1000);
  auto n = check_against_scan(*c, positions);
  CHECK(counted_by_rows(*c, repeated) > 10);
  CHECK(check_against_scan(*c, {repeated}).answered == 1);
  CHECK(n.answered > 100);
  CHECK(n.shared > 50);
  CHECK(n.from_rows > 50);
  // Without filters, explore answers them the same way.
  auto scan = db::explore_scan(*c, positions.front(), {}, 10);
  CHECK(db::explore(*c, positions.front(), {}, 10).total.games == scan.total.games);
}

TEST_CASE("deep positions: an import stopped before its last commit, and run again", "[explorer]") {
  auto games = import_test::world_championships();
  fs::path path = import_test::temp_db("deep_positions", "stopped");
  import_part(path, games, 0, 500);
  import_part(path, games, 500, 800, true, false);  // its last batch rolled back, as a kill leaves it
  {
    auto c = db::open_database(path.string(), db::Connection::Mode::ReadOnly);
    CHECK(number(*c, "SELECT count(*) FROM game") < 800);
    CHECK(check_against_scan(*c, deep_positions(games)).from_rows > 20);
  }
  import_part(path, games, 0, games.size());
  auto c = db::open_database(path.string(), db::Connection::Mode::ReadOnly);
  CHECK(number(*c, "SELECT count(*) FROM game") == std::int64_t(games.size()));
  CHECK(check_against_scan(*c, deep_positions(games)).from_rows > 50);
}

TEST_CASE("deep positions: games stored by a qipu that did not count them are scanned, then start afresh",
          "[explorer]") {
  auto games = import_test::world_championships();
  fs::path path = import_test::temp_db("deep_positions", "older");
  import_part(path, games, 0, 600);
  {
    // An older qipu keeps the tables as they are while it stores games 600 on.
    auto c = db::open_database(path.string(), db::Connection::Mode::ReadWrite);
    c->exec(
        "CREATE TABLE kept_position AS SELECT * FROM deep_position; CREATE TABLE kept_segment AS SELECT * FROM "
        "deep_segment; CREATE TABLE kept_posting AS SELECT * FROM deep_posting");
  }
  import_part(path, games, 600, games.size());
  {
    auto c = db::open_database(path.string(), db::Connection::Mode::ReadWrite);
    c->exec(
        "DELETE FROM deep_position; INSERT INTO deep_position SELECT * FROM kept_position; DELETE FROM deep_segment;"
        " INSERT INTO deep_segment SELECT * FROM kept_segment; DELETE FROM deep_posting; INSERT INTO deep_posting"
        " SELECT * FROM kept_posting; DROP TABLE kept_position; DROP TABLE kept_segment; DROP TABLE kept_posting");
  }
  auto positions = deep_positions(games);
  {
    auto c = db::open_database(path.string(), db::Connection::Mode::ReadOnly);
    CHECK(number(*c, "SELECT first_game FROM deep_position WHERE key = -1") == 600);
    CHECK(check_against_scan(*c, positions).from_rows > 20);  // games 601 on scanned
  }
  import_part(path, games, 0, 10);  // duplicates only: the mark is behind, so it starts afresh
  auto c = db::open_database(path.string(), db::Connection::Mode::ReadOnly);
  CHECK(popular_keys(*c) == 0);
  CHECK(number(*c, "SELECT count(*) FROM deep_posting") == 0);
  CHECK(number(*c, "SELECT first_game FROM deep_position WHERE key = -1") == std::int64_t(games.size()));
  CHECK(check_against_scan(*c, positions).answered == 0);
}

TEST_CASE("deep positions: rows that claim more games than their range holds are not read", "[explorer]") {
  auto games = import_test::world_championships();
  fs::path path = import_test::temp_db("deep_positions", "forged");
  import_part(path, games, 0, games.size());
  auto positions = deep_positions(games);
  std::size_t from_rows = 0;
  {
    auto c = db::open_database(path.string(), db::Connection::Mode::ReadOnly);
    from_rows = check_against_scan(*c, positions).from_rows;
    REQUIRE(from_rows > 50);
  }
  {
    // Every popular key's range made one game long: its rows count more.
    auto c = db::open_database(path.string(), db::Connection::Mode::ReadWrite);
    c->exec(
        "UPDATE deep_position SET first_game = (SELECT first_game FROM deep_position WHERE key = -1)"
        " WHERE key >= 0 AND first_game > 0");
  }
  auto c = db::open_database(path.string(), db::Connection::Mode::ReadOnly);
  std::size_t still = 0;  // rows counting games, read all the same: at most one, unrated or last
  for (const auto& pos : positions) {
    INFO("position " << pos.fen());
    if (db::explore_aggregate(*c, pos, 10)) {
      still += counted_by_rows(*c, pos) > 0;
      continue;
    }
    CHECK(db::explore(*c, pos, {}, 10).total.games == db::explore_scan(*c, pos, {}, 10).total.games);
  }
  CHECK(still * 4 < from_rows);
}

TEST_CASE("deep positions: damaged chunks and another program's tables leave the answers to the scan", "[explorer]") {
  auto games = import_test::world_championships();
  games.resize(500);
  fs::path path = import_test::temp_db("deep_positions", "foreign");
  import_part(path, games, 0, games.size());
  auto positions = deep_positions(games);
  auto same_as_scan = [&] {
    auto c = db::open_database(path.string(), db::Connection::Mode::ReadOnly);
    std::size_t answered = 0;
    for (const auto& pos : positions) {
      INFO("position " << pos.fen());
      answered += bool(db::explore_aggregate(*c, pos, 10));
      CHECK(db::explore(*c, pos, {}, 10).total.games == db::explore_scan(*c, pos, {}, 10).total.games);
    }
    return answered;
  };
  REQUIRE(same_as_scan() > 50);
  {
    auto c = db::open_database(path.string(), db::Connection::Mode::ReadWrite);
    c->exec("UPDATE deep_posting SET data = x'ffffffff'");
  }
  CHECK(same_as_scan() < 50);  // the keys whose rows count no game still answer
  {
    auto c = db::open_database(path.string(), db::Connection::Mode::ReadWrite);
    c->exec("DROP TABLE deep_position; CREATE TABLE deep_position (x TEXT); INSERT INTO deep_position VALUES ('a')");
  }
  CHECK(same_as_scan() == 0);
  import_part(path, games, 0, 10);  // leaves the table as it is
  auto c = db::open_database(path.string(), db::Connection::Mode::ReadOnly);
  CHECK(number(*c, "SELECT count(*) FROM deep_position WHERE x = 'a'") == 1);
}

}  // namespace test_deep_positions
