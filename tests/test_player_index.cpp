// The player index (db/player_index.hpp, issue 17): each player's games as sorted runs,
// checked against a scan of the game table's white and black columns after imports in
// several batches, with runs merged, keys spread over several chunks, an import killed
// between batches, and a version 3 database read as it is and upgraded; and lookups in runs
// (players' and positions') against an import that merges while they read.
#include <catch2/catch.hpp>

#include "cli_util.hpp"
#include "import_util.hpp"

#include <sqlite3.h>

#include <string>
#include <vector>

#include "qipu/board/position.hpp"
#include "qipu/db/player_index.hpp"
#include "qipu/db/store.hpp"

#include "db/index_codec.hpp"

// One namespace a file: the test files compile several to a unit (CMakeLists.txt).
namespace test_player_index {

using namespace qipu;
using namespace cli_test;
using Ids = std::vector<std::int64_t>;

namespace {

using import_test::number;
using import_test::world_championships;

fs::path fresh_db(const std::string& name) { return import_test::temp_db("player_index", name); }

// Imports games [first, last) of `games`, `times` over, committing every `batch`.
void import(db::Connection& c, const std::vector<game::GameRecord>& games, std::size_t first, std::size_t last,
            int times, std::size_t batch) {
  db::ImportOptions o;
  o.allow_duplicates = true;
  o.batch_games = batch;
  db::Importer imp(c, o);
  for (int t = 0; t < times; ++t)
    for (std::size_t i = first; i < last; ++i) imp.add("test", games[i], *db::encode_game(games[i]));
  imp.finish();
}

Ids column(db::Connection& c, const std::string& sql) {
  Ids out;
  auto st = c.prepare(sql);
  while (st.step()) out.push_back(st.int64(0));
  return out;
}

// Each player's wins, draws and losses on each side and on both, as the player index gives
// them and as a scan of the game table's results does.
void check_outcomes(db::Connection& c, const Ids& players) {
  using db::Outcome;
  struct Case {
    Outcome outcome;
    const char *as_white, *as_black;  // the results that are that outcome
  };
  std::size_t found = 0;
  for (auto [outcome, as_white, as_black] :
       {Case{Outcome::Won, "1-0", "0-1"}, Case{Outcome::Drew, "1/2-1/2", "1/2-1/2"}, Case{Outcome::Lost, "0-1", "1-0"}})
    for (auto p : players) {
      std::string id = std::to_string(p), white = "(white = " + id + " AND result = '" + as_white + "')",
                  black = "(black = " + id + " AND result = '" + as_black + "')";
      INFO("player " << p << ", outcome " << int(outcome));
      auto both = db::player_games(c, {p}, {}, outcome);
      CHECK(both == column(c, "SELECT id FROM game NOT INDEXED WHERE " + white + " OR " + black + " ORDER BY id"));
      CHECK(db::player_games(c, {p}, {true, false}, outcome) ==
            column(c, "SELECT id FROM game NOT INDEXED WHERE " + white + " ORDER BY id"));
      CHECK(db::player_games(c, {p}, {false, true}, outcome) ==
            column(c, "SELECT id FROM game NOT INDEXED WHERE " + black + " ORDER BY id"));
      found += both.size();
    }
  CHECK(found > 0);
}

// Every player's games, each side alone and both, and every third player's at once, as
// the player index gives them and as a scan of the game table does.
void check_against_scan(db::Connection& c) {
  Ids players = column(c, "SELECT id FROM player ORDER BY id");
  REQUIRE(players.size() > 10);
  for (auto p : players) {
    std::string id = std::to_string(p);
    INFO("player " << p);
    CHECK(db::player_games(c, {p}, {true, false}) ==
          column(c, "SELECT id FROM game NOT INDEXED WHERE white = " + id + " ORDER BY id"));
    CHECK(db::player_games(c, {p}, {false, true}) ==
          column(c, "SELECT id FROM game NOT INDEXED WHERE black = " + id + " ORDER BY id"));
    CHECK(db::player_games(c, {p}, {}) ==
          column(c, "SELECT id FROM game NOT INDEXED WHERE white = " + id + " OR black = " + id + " ORDER BY id"));
  }
  Ids thirds;
  for (auto p : players)
    if (p % 3 == 0) thirds.push_back(p);
  CHECK(db::player_games(c, thirds, {}) ==
        column(c, "SELECT id FROM game NOT INDEXED WHERE white % 3 = 0 OR black % 3 = 0 ORDER BY id"));
  CHECK(db::player_games(c, {}, {}).empty());
  CHECK(db::player_games(c, {players.back() + 1}, {}).empty());  // no such player
  check_outcomes(c, players);
}

}  // namespace

TEST_CASE("the player index gives each player's games as a scan does, after imports in batches and merges",
          "[player_index]") {
  auto games = world_championships();
  REQUIRE(games.size() > 1000);
  auto c = db::open_database(fresh_db("batches").string(), db::Connection::Mode::ReadWrite);
  import(*c, games, 0, 600, 1, 50);
  import(*c, games, 600, games.size(), 1, 1000);
  // The same games sixteen times more, so that runs hold several chunks (of 4 KB) and a
  // player's games go on from one chunk into the next.
  import(*c, games, 0, games.size(), 16, 700);
  CHECK(number(*c, "SELECT count(*) FROM player_segment") > 1);
  CHECK(number(*c,
               "SELECT count(*) FROM player_posting a JOIN player_posting b ON b.segment = a.segment"
               " AND b.id = a.id + 1 WHERE b.first_key = a.last_key") > 0);
  CHECK(number(*c, "SELECT sum(entries) FROM player_segment") ==
        number(*c, "SELECT count(white) + count(black) FROM game"));
  check_against_scan(*c);
}

TEST_CASE("entries written before the player index kept results are checked against the games' rows",
          "[player_index]") {
  auto games = world_championships();
  auto c = db::open_database(fresh_db("unrecorded").string(), db::Connection::Mode::ReadWrite);
  import(*c, games, 0, 500, 1, 100);
  // What qipu wrote before: ply 0, here in every third game, so that chunks mix both kinds.
  std::size_t cleared = 0;
  auto chunks = c->prepare("SELECT id, first_key, data FROM player_posting");
  auto update = c->prepare("UPDATE player_posting SET data = ? WHERE id = ?");
  while (chunks.step()) {
    std::vector<db::PositionIndexWriter::Entry> entries;
    REQUIRE(db::IndexCodec::decode(chunks.int64(1), chunks.blob(2), [&](auto e) {
      if (e.game % 3 == 0) {
        REQUIRE(e.ply != 0);
        e.ply = 0;
        ++cleared;
      }
      entries.push_back(e);
      return true;
    }));
    std::string data;
    REQUIRE(db::IndexCodec::encode(entries.data(), entries.data() + entries.size(),
                                   db::runs::chunk_bytes(*c, {"player_segment", "player_posting"}),
                                   data) == entries.data() + entries.size());
    update.reset();
    update.bind_blob(1, data.data(), data.size()).bind(2, chunks.int64(0)).run();
  }
  REQUIRE(cleared > 100);
  check_against_scan(*c);
  import(*c, games, 500, 700, 1, 100);  // new entries merged with the old
  check_against_scan(*c);
}

TEST_CASE("an import killed between batches leaves the player index of the games it committed", "[player_index]") {
  auto games = world_championships();
  fs::path path = fresh_db("killed");
  auto c = db::open_database(path.string(), db::Connection::Mode::ReadWrite);
  import(*c, games, 0, 300, 1, 100);
  {
    db::ImportOptions o;
    o.allow_duplicates = true;
    o.batch_games = 40;
    db::Importer imp(*c, o);
    for (std::size_t i = 300; i < 530; ++i) imp.add("test", games[i], *db::encode_game(games[i]));
    // Destroyed without finish, as by a kill: five batches of 40 stay, 30 games do not.
  }
  REQUIRE(number(*c, "SELECT count(*) FROM game") == 500);
  check_against_scan(*c);
  import(*c, games, 500, 800, 1, 100);  // run again, from the first game it lost
  REQUIRE(number(*c, "SELECT count(*) FROM game") == 800);
  check_against_scan(*c);
}

namespace {

// A database of games [0, 70) in seven batches: seven runs of level 0 in each index, so that
// the next batch's run makes eight of a level and its commit merges them.
fs::path seven_runs(const std::vector<game::GameRecord>& games, const std::string& name) {
  fs::path path = fresh_db(name);
  auto c = db::open_database(path.string(), db::Connection::Mode::ReadWrite);
  import(*c, games, 0, 70, 1, 10);
  return path;
}

// Calls `lookup` on `reader`; when it starts a statement reading `table`, another connection
// imports games [70, 80) in one batch, whose commit deletes the runs the lookup has listed.
template <class F>
void merge_midway(db::Connection& reader, const std::vector<game::GameRecord>& games, const std::string& table,
                  F&& lookup) {
  struct Writer {
    std::string path, table;
    const std::vector<game::GameRecord>* games;
    bool done = false;
  } w{reader.path(), "FROM " + table + " ", &games};
  auto on_statement = [](unsigned, void* ctx, void*, void* sql) -> int {
    auto& w = *static_cast<Writer*>(ctx);
    if (w.done || std::string(static_cast<const char*>(sql)).find(w.table) == std::string::npos) return 0;
    w.done = true;
    auto c = db::open_database(w.path, db::Connection::Mode::ReadWrite);
    db::ImportOptions o;
    o.allow_duplicates = true;
    o.batch_games = 10;
    db::Importer imp(*c, o);
    for (std::size_t i = 70; i < 80; ++i) imp.add("test", (*w.games)[i], *db::encode_game((*w.games)[i]));
    return 0;  // the batch is committed; the importer is dropped with nothing pending
  };
  sqlite3_trace_v2(reader.handle(), SQLITE_TRACE_STMT, on_statement, &w);
  lookup();
  sqlite3_trace_v2(reader.handle(), 0, nullptr, nullptr);
  REQUIRE(w.done);
}

}  // namespace

TEST_CASE("lookups in runs read one state of the database while an import commits a merge", "[player_index]") {
  auto games = world_championships();
  {
    db::Connection reader(seven_runs(games, "snapshot_players").string(), db::Connection::Mode::ReadOnly);
    REQUIRE(number(reader, "SELECT count(*) FROM player_segment") == 7);
    Ids everyone = column(reader, "SELECT id FROM player ORDER BY id");
    Ids found;
    merge_midway(reader, games, "player_posting", [&] { found = db::player_games(reader, everyone, {}); });
    CHECK(found == column(reader, "SELECT id FROM game WHERE id <= 70 ORDER BY id"));  // as the lookup began
    CHECK(number(reader, "SELECT count(*) FROM player_segment") == 1);
    CHECK(db::player_games(reader, everyone, {}).size() == 80);
  }
  // The position index's lookups, through the same runs code.
  db::Connection reader(seven_runs(games, "snapshot_positions").string(), db::Connection::Mode::ReadOnly);
  REQUIRE(number(reader, "SELECT count(*) FROM segment") == 7);
  std::size_t at_start = 0;
  merge_midway(reader, games, "posting", [&] { at_start = db::lookup_position(reader, Position().key()).size(); });
  CHECK(at_start == 70);
  CHECK(number(reader, "SELECT count(*) FROM segment") == 1);
  CHECK(db::lookup_position(reader, Position().key()).size() == 80);
}

TEST_CASE("a version 3 database is read through its SQLite player indexes and upgraded by opening it for writing",
          "[player_index]") {
  auto games = world_championships();
  fs::path path = fresh_db("version3");
  {
    auto c = db::open_database(path.string(), db::Connection::Mode::ReadWrite);
    import(*c, games, 0, 400, 1, 100);
    // What qipu wrote before the player index: SQLite indexes, version 3.
    c->exec(
        "DROP TABLE player_posting; DROP TABLE player_segment; DROP TABLE segment_merge;"
        " CREATE INDEX game_white ON game(white); CREATE INDEX game_black ON game(black); PRAGMA user_version = 3");
  }
  {
    auto c = db::open_database(path.string(), db::Connection::Mode::ReadOnly);
    REQUIRE_FALSE(db::has_player_index(*c));
    check_against_scan(*c);
  }
  auto c = db::open_database(path.string(), db::Connection::Mode::ReadWrite);
  CHECK(number(*c, "PRAGMA user_version") == db::SchemaVersion);
  CHECK(db::has_player_index(*c));
  CHECK(number(*c, "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND tbl_name = 'game'") == 0);
  check_against_scan(*c);
  import(*c, games, 400, 700, 1, 100);
  check_against_scan(*c);
  // The command line finds a player's games in the upgraded file as in the games' tags.
  auto st = c->prepare("SELECT name FROM player WHERE id = (SELECT white FROM game WHERE id = 1)");
  REQUIRE(st.step());
  std::string name(st.text(0));
  std::size_t tagged = 0;
  for (std::size_t i = 0; i < 700; ++i) tagged += games[i].tag("White") == name || games[i].tag("Black") == name;
  auto r = run_qipu("search --db " + path.string() + " --player \"" + name + "\" --exact --count");
  CHECK(r.code == 0);
  CHECK(r.out == std::to_string(tagged) + "\n");
}

}  // namespace test_player_index
