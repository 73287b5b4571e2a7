// The collection's totals that import keeps (db/summary.hpp), against GROUP BY scans of the
// game table: after imports in several batches, an import killed between batches, games
// stored without rows (as by an older qipu) and a database without the table.
#include <catch2/catch.hpp>

#include "cli_util.hpp"
#include "import_util.hpp"

#include <algorithm>
#include <map>
#include <string>

#include "qipu/db/search.hpp"
#include "qipu/db/store.hpp"
#include "qipu/db/summary.hpp"

// One namespace a file: the test files compile several to a unit (CMakeLists.txt).
namespace test_summary {

using namespace qipu;
using namespace cli_test;

namespace {

using import_test::import_range;
using import_test::number;
using import_test::world_championships;

using Row =
    std::tuple<std::int64_t, std::optional<std::int64_t>, std::optional<std::int64_t>, std::int64_t, std::int64_t>;

Row row_of(const db::Tally& t) { return {t.games, t.first_date, t.last_date, t.first_game, t.last_game}; }

// (games, first date, last date) by the key a GROUP BY of the game table gives.
template <class Key>
std::map<Key, Row> scan(db::Connection& c, const std::string& key, const std::string& where = "1") {
  std::map<Key, Row> out;
  auto st =
      c.prepare("SELECT " + key + ", count(*), min(date_sort), max(date_sort), min(id), max(id) FROM game WHERE " +
                where + " GROUP BY " + key);
  auto opt = [&](int col) { return st.is_null(col) ? std::nullopt : std::optional(st.int64(col)); };
  while (st.step()) {
    Key k;
    if constexpr (std::is_same_v<Key, std::int64_t>)
      k = st.int64(0);
    else if (!st.is_null(0))
      k = std::string(st.text(0));
    out[k] = {st.int64(1), opt(2), opt(3), st.int64(4), st.int64(5)};
  }
  return out;
}

template <class Key>
std::map<Key, Row> rows_of(const std::map<Key, db::Tally>& m) {
  std::map<Key, Row> out;
  for (const auto& [k, t] : m) out[k] = row_of(t);
  return out;
}

void check_against_scan(db::Connection& c) {
  auto s = db::read_summary(c, true);
  CHECK(rows_of(s.openings) == scan<std::int64_t>(c, "opening_id", "opening_id IS NOT NULL"));
  CHECK(s.openings.size() > 10);
  CHECK(db::read_summary(c).openings.empty());
  auto all = scan<std::int64_t>(c, "id * 0");  // one group
  REQUIRE(all.size() == 1);
  CHECK(row_of(s.all) == all[0]);
  CHECK(rows_of(s.results) == scan<std::optional<std::string>>(c, "result"));
  CHECK(rows_of(s.terminations) == scan<std::int64_t>(c, "termination"));
  CHECK(rows_of(s.events) == scan<std::int64_t>(c, "event", "event IS NOT NULL"));
  CHECK(s.results.size() > 2);
  CHECK(s.events.size() > 10);
  // Each event's games through db::event_games, and an event without games.
  auto max_event = number(c, "SELECT max(id) FROM event");
  for (std::int64_t e = 1; e <= max_event + 1; ++e) {
    auto q = db::event_games(c, e);
    auto st = c.prepare("SELECT g.id FROM game g WHERE " + q.where + " ORDER BY g.id");
    int i = 1;
    for (const auto& p : q.params) std::visit([&](const auto& v) { st.bind(i++, v); }, p);
    std::vector<std::int64_t> got, want;
    while (st.step()) got.push_back(st.int64(0));
    auto all = c.prepare("SELECT id FROM game NOT INDEXED WHERE event = ? ORDER BY id");
    all.bind(1, e);
    while (all.step()) want.push_back(all.int64(0));
    INFO("event " << e);
    CHECK(got == want);
  }
  // search --event reads the matching events' ranges: its counts against a scan of every
  // game's event name.
  db::register_search_functions(c);
  for (std::string name : {"World Championship", "1886", "Match 19", "ch", "no such event"}) {
    db::GameFilter f;
    f.event = name;
    db::GameQuery q;
    REQUIRE(db::add_conditions(c, f, q));
    auto scan = c.prepare(
        "SELECT count(*) FROM game g NOT INDEXED JOIN event e ON e.id = g.event WHERE qipu_name_match(e.name, ?, ?)");
    scan.bind(1, name).bind(2, std::int64_t(f.place_mode()));
    REQUIRE(scan.step());
    INFO("--event " << name);
    CHECK(db::count_games(c, q) == scan.int64(0));
    if (name == "1886") CHECK(scan.int64(0) > 0);
  }
}

fs::path fresh_db(const std::string& name) { return import_test::temp_db("summary", name); }

}  // namespace

TEST_CASE("summary: import's totals equal a scan after batches, a killed import, and games it did not count",
          "[summary]") {
  auto games = world_championships();
  REQUIRE(games.size() > 1000);
  // A game without a Result tag and one with an empty tag: counted apart.
  games[3].tags.erase(
      std::find_if(games[3].tags.begin(), games[3].tags.end(), [](const auto& t) { return t.first == "Result"; }));
  for (auto& [name, value] : games[4].tags)
    if (name == "Result") value = "";
  fs::path path = fresh_db("batches");
  auto c = db::open_database(path.string(), db::Connection::Mode::ReadWrite);
  import_range(*c, games, 0, 300, 70);
  import_range(*c, games, 300, 600, 1000);
  check_against_scan(*c);
  CHECK(number(*c, "SELECT games FROM summary WHERE kind = 'through'") == 600);
  CHECK(number(*c, "SELECT count(*) FROM summary WHERE kind = 'no result'") == 1);

  import_range(*c, games, 600, 730, 50, false);  // killed: two batches of 50 stay
  REQUIRE(number(*c, "SELECT count(*) FROM game") == 700);
  check_against_scan(*c);

  // Games stored by a qipu that kept no totals: the rows stop at game 500.
  c->exec("DELETE FROM summary; DROP TABLE summary");
  {
    db::Connection reader(path.string(), db::Connection::Mode::ReadOnly);
    check_against_scan(reader);  // no table: every game from its row
  }
  c = db::open_database(path.string(), db::Connection::Mode::ReadWrite);  // the table again, empty
  import_range(*c, games, 0, 500, 500);
  REQUIRE(number(*c, "SELECT games FROM summary WHERE kind = 'through'") == 1200);
  check_against_scan(*c);  // the next import counted games 1-700 from their rows
  // Rows that stop short of the games: the rest counted when read, and added by the next import.
  c->exec("UPDATE summary SET games = 900 WHERE kind = 'through'");
  c->exec(
      "DELETE FROM summary WHERE kind <> 'through'; INSERT INTO summary(kind, value, games, first_date, last_date, "
      "first_game, last_game)"
      " SELECT 'all', '', count(*), min(date_sort), max(date_sort), min(id), max(id) FROM game WHERE id <= 900;"
      " INSERT INTO summary(kind, value, games, first_date, last_date, first_game, last_game) SELECT 'result', result, "
      "count(*),"
      " min(date_sort), max(date_sort), min(id), max(id) FROM game WHERE id <= 900 AND result IS NOT NULL GROUP BY "
      "result;"
      " INSERT INTO summary(kind, value, games, first_date, last_date, first_game, last_game) SELECT 'no result', '', "
      "count(*),"
      " min(date_sort), max(date_sort), min(id), max(id) FROM game WHERE id <= 900 AND result IS NULL;"
      " INSERT INTO summary(kind, value, games, first_date, last_date, first_game, last_game) SELECT 'termination', "
      "termination, count(*),"
      " min(date_sort), max(date_sort), min(id), max(id) FROM game WHERE id <= 900 GROUP BY termination;"
      " INSERT INTO summary(kind, value, games, first_date, last_date, first_game, last_game) SELECT 'event', event, "
      "count(*),"
      " min(date_sort), max(date_sort), min(id), max(id) FROM game WHERE id <= 900 AND event IS NOT NULL GROUP BY "
      "event");
  check_against_scan(*c);
  import_range(*c, games, 500, 520, 100);
  CHECK(number(*c, "SELECT games FROM summary WHERE kind = 'through'") == 1220);
  check_against_scan(*c);
  // Openings' rows that stop short of the rest (a qipu from before them imported games
  // 1001-1220): counted from the games' rows when read, and added by the next import.
  c->exec(
      "DELETE FROM summary WHERE kind = 'opening'; UPDATE summary SET games = 1000 WHERE kind = 'openings through';"
      " INSERT INTO summary(kind, value, games, first_date, last_date, first_game, last_game) SELECT 'opening',"
      " opening_id, count(*), min(date_sort), max(date_sort), min(id), max(id) FROM game WHERE id <= 1000 AND"
      " opening_id IS NOT NULL GROUP BY opening_id");
  check_against_scan(*c);
  import_range(*c, games, 520, 530, 100);
  CHECK(number(*c, "SELECT games FROM summary WHERE kind = 'openings through'") == 1230);
  check_against_scan(*c);
  // An openings mark past the rest's: not trusted.
  c->exec("UPDATE summary SET games = 5000 WHERE kind = 'openings through'");
  check_against_scan(*c);
}

TEST_CASE(
    "summary: rows that count games the import is adding are not trusted, and another program's table is not read",
    "[summary]") {
  auto games = world_championships();
  fs::path path = fresh_db("foreign");
  auto c = db::open_database(path.string(), db::Connection::Mode::ReadWrite);
  import_range(*c, games, 0, 200, 100);
  c->exec("UPDATE summary SET games = 5000 WHERE kind = 'through'; UPDATE summary SET games = games + 7");
  import_range(*c, games, 200, 400, 100);  // the rows claim games up to 5000: counted again
  CHECK(number(*c, "SELECT games FROM summary WHERE kind = 'through'") == 400);
  check_against_scan(*c);
  // A last counted game past the last game, or below 0: the rows are not these games'.
  for (const char* through : {"9223372036854775807", "-3"}) {
    INFO(through);
    c->exec(std::string("UPDATE summary SET games = ") + through + " WHERE kind = 'through'");
    check_against_scan(*c);
  }
  c->exec("DROP TABLE summary; CREATE TABLE summary (kind TEXT, other TEXT)");
  {
    db::Connection reader(path.string(), db::Connection::Mode::ReadOnly);
    check_against_scan(reader);
  }
  import_range(*c, games, 400, 450, 100);  // the other table left as it was
  CHECK(number(*c, "SELECT count(*) FROM summary") == 0);
  check_against_scan(*c);
}

TEST_CASE("summary: qipu stats prints the totals a scan of the games gives", "[summary]") {
  auto games = world_championships();
  fs::path path = fresh_db("cli");
  {
    auto c = db::open_database(path.string(), db::Connection::Mode::ReadWrite);
    import_range(*c, games, 0, games.size(), 400);
  }
  db::Connection c(path.string(), db::Connection::Mode::ReadOnly);
  auto r = run_qipu("stats --db \"" + path.string() + "\"");
  REQUIRE(r.code == 0);
  CHECK(contains(r.out, "games:   " + std::to_string(number(c, "SELECT count(*) FROM game")) + "\n"));
  std::vector<std::string> lines;
  for (std::size_t at = 0, end; (end = r.out.find('\n', at)) != std::string::npos; at = end + 1)
    lines.push_back(r.out.substr(at, end - at));
  auto st = c.prepare("SELECT coalesce(result, '(none)'), count(*) FROM game GROUP BY result");
  std::size_t results = 0;
  while (st.step()) {
    std::string label = "  " + std::string(st.text(0)) + " ", count = " " + std::to_string(st.int64(1));
    INFO(label << count);
    CHECK(std::any_of(lines.begin(), lines.end(),
                      [&](const std::string& l) { return l.starts_with(label) && l.ends_with(count); }));
    ++results;
  }
  CHECK(results > 2);
  // The openings played most, as a scan counts them.
  auto top = c.prepare(
      "SELECT o.name, count(*) FROM game g JOIN opening o ON o.id = g.opening_id GROUP BY o.name ORDER BY 2 DESC, 1"
      " LIMIT 3");
  int openings = 0;
  while (top.step()) {
    std::string label = "  " + std::string(top.text(0)) + " ", count = " " + std::to_string(top.int64(1));
    INFO(label << count);
    CHECK(std::any_of(lines.begin(), lines.end(),
                      [&](const std::string& l) { return l.starts_with(label) && l.ends_with(count); }));
    ++openings;
  }
  CHECK(openings == 3);
  auto dates = c.prepare("SELECT min(date_sort), max(date_sort) FROM game");
  REQUIRE(dates.step());
  CHECK(contains(r.out, db::date_text(dates.int64(0)) + " – " + db::date_text(dates.int64(1))));
}

}  // namespace test_summary
