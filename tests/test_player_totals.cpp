// Player rows' totals that import keeps (db/player_totals.hpp), against GROUP BY scans of the
// game and tag tables: after imports in several batches, an import killed between batches,
// games stored without rows (as by an older qipu), rows that stop short or claim the import's
// games, and another program's tables of those names.
#include <catch2/catch.hpp>

#include "cli_util.hpp"
#include "import_util.hpp"

#include <map>
#include <string>
#include <tuple>

#include "qipu/db/player_totals.hpp"
#include "qipu/db/players.hpp"
#include "qipu/db/store.hpp"

// One namespace a file: the test files compile several to a unit (CMakeLists.txt).
namespace test_player_totals {

using namespace qipu;
using namespace cli_test;

namespace {

using import_test::import_range;
using import_test::number;
using Opt = std::optional<std::int64_t>;
// games, wins, draws, losses, min Elo, max Elo, first date, last date, FIDE ids
using Row = std::tuple<std::int64_t, std::int64_t, std::int64_t, std::int64_t, Opt, Opt, Opt, Opt,
                       std::map<std::string, std::int64_t>>;

// A made-up FIDE id for a name: the same for every game of one spelling.
std::string fide_of(const game::GameRecord& g, const char* side) {
  std::uint64_t h = 1469598103934665603ull;
  for (char ch : g.tag(side)) h = (h ^ std::uint8_t(ch)) * 1099511628211ull;
  return std::to_string(100000 + h % 900000);
}

// The world championship games, with FIDE ids on some: a player with a second id in some
// games, ids that say none ("0", "?", ""), and a second WhiteFideId tag, which does not count.
std::vector<game::GameRecord> games_with_fide_ids() {
  auto games = import_test::world_championships();
  REQUIRE(games.size() > 1000);
  const char* none[] = {"0", "?", ""};
  for (std::size_t i = 0; i < games.size(); i += 3) {
    auto& g = games[i];
    g.tags.emplace_back("WhiteFideId", i % 11 == 0 ? none[i % 3] : i % 7 == 0 ? "7" : fide_of(g, "White"));
    if (i % 2 == 0) g.tags.emplace_back("BlackFideId", fide_of(g, "Black"));
    if (i % 4 == 0) g.tags.emplace_back("WhiteFideId", "99");
  }
  return games;
}

std::map<std::int64_t, Row> scan(db::Connection& c) {
  std::map<std::int64_t, Row> out;
  auto st = c.prepare(
      "SELECT pid, count(*), sum(r = 1), sum(r = 0.5), sum(r = 0), min(elo), max(elo), min(d), max(d) FROM ("
      " SELECT white AS pid, CASE result WHEN '1-0' THEN 1 WHEN '1/2-1/2' THEN 0.5 WHEN '0-1' THEN 0 END AS r,"
      "  white_elo AS elo, date_sort AS d FROM game WHERE white IS NOT NULL UNION ALL"
      " SELECT black, CASE result WHEN '0-1' THEN 1 WHEN '1/2-1/2' THEN 0.5 WHEN '1-0' THEN 0 END, black_elo, date_sort"
      " FROM game WHERE black IS NOT NULL) GROUP BY pid");
  auto opt = [&](int col) { return st.is_null(col) ? Opt() : Opt(st.int64(col)); };
  while (st.step())
    out[st.int64(0)] = {st.int64(1), st.int64(2), st.int64(3), st.int64(4), opt(5), opt(6), opt(7), opt(8), {}};
  // Each side's first tag that gives an id.
  auto fide = c.prepare(
      "SELECT CASE t.name WHEN 'WhiteFideId' THEN g.white ELSE g.black END AS pid, t.value, count(*)"
      " FROM tag t JOIN game g ON g.id = t.game WHERE t.name IN ('WhiteFideId', 'BlackFideId')"
      " AND t.value NOT IN ('', '0', '-', '?') AND t.seq = (SELECT min(seq) FROM tag u WHERE u.game = t.game"
      " AND u.name = t.name AND u.value NOT IN ('', '0', '-', '?')) AND pid IS NOT NULL GROUP BY pid, t.value");
  while (fide.step()) std::get<8>(out[fide.int64(0)])[std::string(fide.text(1))] = fide.int64(2);
  return out;
}

void check_against_scan(db::Connection& c) {
  std::map<std::int64_t, Row> got;
  for (const auto& [player, t] : db::read_player_totals(c))
    got[player] = {t.games, t.wins, t.draws, t.losses, t.min_elo, t.max_elo, t.first_date, t.last_date, t.fide_ids};
  auto want = scan(c);
  CHECK(want.size() > 10);
  CHECK(got == want);
}

// The last game id the totals count.
constexpr const char* Mark = "SELECT games FROM player_fide WHERE player = 0 AND fide = ''";
// A run of copies of every run: each player's totals counted twice.
constexpr const char* DoubleRuns =
    "INSERT INTO player_total_run SELECT id + 1000000, entries FROM player_total_run;"
    " INSERT INTO player_total_chunk(segment, first_key, last_key, data)"
    " SELECT segment + 1000000, first_key, last_key, data FROM player_total_chunk";

fs::path fresh_db(const std::string& name) { return import_test::temp_db("player_totals", name); }

}  // namespace

TEST_CASE("player totals: import's rows equal a scan after batches, a killed import, and games it did not count",
          "[players][summary]") {
  auto games = games_with_fide_ids();
  fs::path path = fresh_db("batches");
  auto c = db::open_database(path.string(), db::Connection::Mode::ReadWrite);
  import_range(*c, games, 0, 300, 70);
  import_range(*c, games, 300, 600, 1000);
  check_against_scan(*c);
  CHECK(number(*c, Mark) == 600);
  CHECK(number(*c, "SELECT count(DISTINCT fide) FROM player_fide") > 3);

  import_range(*c, games, 600, 730, 50, false);  // killed: two batches of 50 stay
  REQUIRE(number(*c, "SELECT count(*) FROM game") == 700);
  check_against_scan(*c);

  // Games stored by a qipu that kept no totals.
  c->exec("DROP TABLE player_total_chunk; DROP TABLE player_total_run; DROP TABLE player_fide");
  {
    db::Connection reader(path.string(), db::Connection::Mode::ReadOnly);
    check_against_scan(reader);  // no tables: every game from its row
  }
  c = db::open_database(path.string(), db::Connection::Mode::ReadWrite);  // the tables again, empty
  import_range(*c, games, 0, 500, 500);
  REQUIRE(number(*c, Mark) == 1200);
  check_against_scan(*c);  // the next import counted games 1-700 from their rows

  // Rows that stop short of the games: an older qipu, which keeps no totals, imported after
  // this one (its games added while the tables are away). The rest are counted when read, and
  // added by the next import.
  c->exec(
      "ALTER TABLE player_total_run RENAME TO away_run; ALTER TABLE player_total_chunk RENAME TO away_chunk;"
      " ALTER TABLE player_fide RENAME TO away_fide");
  import_range(*c, games, 500, 800, 100);
  c->exec(
      "DROP TABLE IF EXISTS player_total_run; DROP TABLE IF EXISTS player_total_chunk; DROP TABLE IF EXISTS "
      "player_fide;"
      " ALTER TABLE away_run RENAME TO player_total_run; ALTER TABLE away_chunk RENAME TO player_total_chunk;"
      " ALTER TABLE away_fide RENAME TO player_fide");
  REQUIRE(number(*c, Mark) == 1200);
  REQUIRE(number(*c, "SELECT max(id) FROM game") == 1500);
  check_against_scan(*c);
  import_range(*c, games, 800, 820, 100);
  CHECK(number(*c, Mark) == 1520);
  check_against_scan(*c);
}

TEST_CASE("player totals: rows without their mark, claiming the import's games, or another program's are not trusted",
          "[players][summary]") {
  auto games = games_with_fide_ids();
  fs::path path = fresh_db("foreign");
  auto c = db::open_database(path.string(), db::Connection::Mode::ReadWrite);
  import_range(*c, games, 0, 200, 100);
  c->exec(std::string("UPDATE player_fide SET games = 5000 WHERE player = 0; ") + DoubleRuns);
  import_range(*c, games, 200, 400, 100);  // the rows claim games up to 5000: counted again
  CHECK(number(*c, Mark) == 400);
  check_against_scan(*c);
  // A last counted game past the last game, or below 0, or no mark: not these games' rows.
  for (const char* mark : {"9223372036854775807", "-3"}) {
    INFO(mark);
    c->exec(std::string("UPDATE player_fide SET games = ") + mark + " WHERE player = 0");
    check_against_scan(*c);
  }
  c->exec(std::string("UPDATE player_fide SET games = 400 WHERE player = 0; ") + DoubleRuns);
  c->exec("DELETE FROM player_fide WHERE player = 0");
  check_against_scan(*c);
  import_range(*c, games, 400, 450, 100);  // no mark: every game counted again
  check_against_scan(*c);
  // Rows that cannot be right: read as none, the games counted from their rows.
  for (const char* bad :
       {"UPDATE player_total_chunk SET data = X'ff' WHERE id = (SELECT min(id) FROM player_total_chunk)",
        // a player's entry of 1,000 games, past the last game; one with 6 wins in 5 games
        "INSERT INTO player_total_chunk(segment, first_key, last_key, data) VALUES"
        " ((SELECT max(id) FROM player_total_run), 1, 1, X'00e807000000000000000000')",
        "INSERT INTO player_total_run VALUES (999, 1); INSERT INTO player_total_chunk(segment, first_key, last_key, "
        "data) VALUES (999, 999999, 999999, X'000506000000000000')",
        "INSERT INTO player_total_run VALUES (999, 1); INSERT INTO player_total_chunk(segment, first_key, last_key, "
        "data) VALUES (999, -5, -5, X'000100000000000000')",
        DoubleRuns,  // more players' games than two a game
        "INSERT INTO player_fide VALUES (999999, '5', 1)",
        "UPDATE player_fide SET games = 100000 WHERE player = (SELECT min(player) FROM player_fide)"}) {
    INFO(bad);
    c->exec("SAVEPOINT bad");
    c->exec(bad);
    check_against_scan(*c);
    c->exec("ROLLBACK TO bad; RELEASE bad");
  }
  c->exec("DROP TABLE player_total_chunk; CREATE TABLE player_total_chunk (player INTEGER PRIMARY KEY, other TEXT)");
  {
    db::Connection reader(path.string(), db::Connection::Mode::ReadOnly);
    check_against_scan(reader);
  }
  import_range(*c, games, 450, 500, 100);  // the other table left as it was
  CHECK(number(*c, "SELECT count(*) FROM player_total_chunk") == 0);
  check_against_scan(*c);
}

TEST_CASE("player totals: qipu players and stats show the scan's games, Elo range, years and scores",
          "[players][cli]") {
  auto games = games_with_fide_ids();
  fs::path path = fresh_db("cli");
  {
    auto c = db::open_database(path.string(), db::Connection::Mode::ReadWrite);
    import_range(*c, games, 0, games.size(), 400);
  }
  db::Connection c(path.string(), db::Connection::Mode::ReadOnly);
  auto want = scan(c);
  auto ids = db::load_identities(c);
  REQUIRE(ids.list.size() > 10);
  for (const auto& id : ids.list) {
    std::int64_t games_n = 0, wins = 0, draws = 0, losses = 0;
    for (const auto& s : id.spellings) {
      const Row& r = want.at(s.player);
      games_n += std::get<0>(r);
      wins += std::get<1>(r);
      draws += std::get<2>(r);
      losses += std::get<3>(r);
    }
    INFO(id.name);
    CHECK(id.games == games_n);
    CHECK(std::tuple(id.wins, id.draws, id.losses) == std::tuple(wins, draws, losses));
  }
  // The most games, as `qipu players` lists them, with the Elo range and years of a scan.
  auto r = run_qipu("players --format tsv --limit 1 --db \"" + path.string() + "\"");
  REQUIRE(r.code == 0);
  const auto& top = ids.list.front();
  auto st = c.prepare(
      "SELECT min(e), max(e), min(d) / 10000, max(d) / 10000 FROM (SELECT white_elo e, date_sort d FROM game WHERE "
      "white"
      " IN (SELECT value FROM json_each(?)) UNION ALL SELECT black_elo, date_sort FROM game WHERE black IN"
      " (SELECT value FROM json_each(?)))");
  std::string list = "[";
  for (const auto& s : top.spellings) list += (list.size() > 1 ? "," : "") + std::to_string(s.player);
  list += "]";
  st.bind(1, list).bind(2, list);
  REQUIRE(st.step());
  CHECK(contains(r.out, "\t" + std::to_string(top.games) + "\t" + std::to_string(st.int64(0)) + "–" +
                            std::to_string(st.int64(1)) + "\t" + std::to_string(st.int64(2)) + "–" +
                            std::to_string(st.int64(3)) + "\t"));
}

}  // namespace test_player_totals
