// The collection's totals (db/summary.hpp), as rows of the table summary: (kind, value) with
// games and dates. Kinds: 'all'; 'result' (value the Result tag) and 'no result'; 'termination'
// (qipu::Termination); 'event' (event id); 'through' (games: the last game id the rows count).
#include "qipu/db/summary.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>

#include "kept_totals.hpp"
#include "qipu/db/store.hpp"
#include "runs.hpp"

namespace qipu::db {

void Tally::add(const Tally& t) {
  games += t.games;
  if (t.first_date && (!first_date || *t.first_date < *first_date)) first_date = t.first_date;
  if (t.last_date && (!last_date || *t.last_date > *last_date)) last_date = t.last_date;
  if (t.first_game && (!first_game || t.first_game < first_game)) first_game = t.first_game;
  last_game = std::max(last_game, t.last_game);
}

std::string date_text(std::int64_t d) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04d.%02d.%02d", int(d / 10000), int(d / 100 % 100), int(d % 100));
  std::string s = buf;
  if (d / 100 % 100 == 0) s.replace(5, 2, "??");
  if (d % 100 == 0) s.replace(8, 2, "??");
  return s;
}

namespace {

// The rows' two parts, each with its own last counted game: the openings came after the
// rest, and a qipu from before them counts the rest only.
enum Parts : unsigned { Main = 1, Openings = 2, Both = 3 };

void add_game_to(Summary& s, const SummaryGame& g, unsigned parts) {
  Tally one{1, g.date_sort, g.date_sort, g.id, g.id};
  if (parts & Openings && g.opening) s.openings[*g.opening].add(one);
  if (!(parts & Main)) return;
  s.all.add(one);
  s.results[g.result ? std::optional<std::string>(*g.result) : std::nullopt].add(one);
  s.terminations[g.termination].add(one);
  if (g.event) s.events[*g.event].add(one);
}

// Adds these parts of the games with ids from `first` to `last` from their rows.
void count_rows(Connection& db, std::int64_t first, std::int64_t last, Summary& s, unsigned parts) {
  if (first > last) return;
  auto st =
      db.prepare("SELECT id, result, termination, event, date_sort, opening_id FROM game WHERE id BETWEEN ? AND ?");
  st.bind(1, first).bind(2, last);
  auto opt = [&](int col) { return st.is_null(col) ? std::nullopt : std::optional(st.int64(col)); };
  while (st.step())
    add_game_to(
        s, {st.int64(0), st.is_null(1) ? std::nullopt : std::optional(st.text(1)), st.int64(2), opt(3), opt(4), opt(5)},
        parts);
}

// Whether the table summary is there with this file's columns.
bool ours(Connection& db) {
  return kept::has_columns(db, "summary",
                           {"kind", "value", "games", "first_date", "last_date", "first_game", "last_game"});
}

// The mark of each part: the last game id its rows count.
constexpr const char* MainMark = "through";
constexpr const char* OpeningsMark = "openings through";

// The last game id the rows of a part count; -1 without its mark.
std::int64_t counted_through(Connection& db, std::string_view mark) {
  auto st = db.prepare("SELECT games FROM summary WHERE kind = ? AND value = ''");
  st.bind(1, mark);
  return st.step() ? st.int64(0) : -1;
}

// Adds the rows to s; returns the last game id the main part counts (-1: no mark), and in
// `openings_through` the openings' (-1: no mark).
std::int64_t read_rows(Connection& db, Summary& s, std::int64_t& openings_through) {
  std::int64_t through = -1;
  auto st = db.prepare("SELECT kind, value, games, first_date, last_date, first_game, last_game FROM summary");
  auto opt = [&](int col) { return st.is_null(col) ? std::nullopt : std::optional(st.int64(col)); };
  while (st.step()) {
    std::string_view kind = st.text(0);
    Tally* t = nullptr;
    if (kind == MainMark && st.text(1).empty()) through = st.int64(2);
    if (kind == OpeningsMark && st.text(1).empty()) openings_through = st.int64(2);
    if (kind == "all") t = &s.all;
    if (kind == "result") t = &s.results[std::string(st.text(1))];
    if (kind == "no result") t = &s.results[std::nullopt];
    if (kind == "termination") t = &s.terminations[st.int64(1)];
    if (kind == "event") t = &s.events[st.int64(1)];
    if (kind == "opening") t = &s.openings[st.int64(1)];
    if (t) t->add({st.int64(2), opt(3), opt(4), st.int64(5), st.int64(6)});
  }
  return through;
}

void write_rows(Connection& db, const Summary& s) {
  auto st = db.prepare(
      "INSERT INTO summary(kind, value, games, first_date, last_date, first_game, last_game) VALUES (?, ?, ?, ?, ?, ?, "
      "?)"
      " ON CONFLICT(kind, value) DO UPDATE SET games = games + excluded.games,"
      " first_date = coalesce(min(first_date, excluded.first_date), first_date, excluded.first_date),"
      " last_date = coalesce(max(last_date, excluded.last_date), last_date, excluded.last_date),"
      " first_game = min(first_game, excluded.first_game), last_game = max(last_game, excluded.last_game)");
  auto put = [&](std::string_view kind, const auto& value, const Tally& t) {
    st.bind(1, kind).bind(2, value).bind(3, t.games);
    t.first_date ? st.bind(4, *t.first_date) : st.bind_null(4);
    t.last_date ? st.bind(5, *t.last_date) : st.bind_null(5);
    st.bind(6, t.first_game).bind(7, t.last_game);
    st.run();
  };
  constexpr std::string_view None = "";  // a view with data: an empty one binds NULL
  put("all", None, s.all);
  for (const auto& [result, t] : s.results) put(result ? "result" : "no result", result ? *result : None, t);
  for (const auto& [termination, t] : s.terminations) put("termination", termination, t);
  for (const auto& [event, t] : s.events) put("event", event, t);
  for (const auto& [opening, t] : s.openings) put("opening", opening, t);
}

}  // namespace

void SummaryWriter::add_game(const SummaryGame& g) {
  if (first_ == 0) first_ = g.id;
  last_ = g.id;
  add_game_to(pending_, g, Both);
}

// The last game id the rows of a part count before the pending games are added: 0, after
// deleting them, when there is no mark or the rows count those games already (they are
// counted again).
std::int64_t SummaryWriter::trusted_through(Connection& db, std::string_view mark, std::string_view delete_sql) {
  std::int64_t through = counted_through(db, mark);
  if (through >= 0 && through < first_) return through;
  db.exec(std::string(delete_sql));
  return 0;
}

void SummaryWriter::flush(Connection& db) {
  if (first_ == 0) return;
  if (ours(db)) {  // another program's table of that name is left alone: the games' rows say
    std::int64_t through = trusted_through(db, MainMark, "DELETE FROM summary");
    std::int64_t openings =
        trusted_through(db, OpeningsMark, "DELETE FROM summary WHERE kind IN ('opening', 'openings through')");
    // Games stored by an older qipu, which kept no rows for them (or none for their openings).
    count_rows(db, through + 1, first_ - 1, pending_, Main);
    count_rows(db, openings + 1, first_ - 1, pending_, Openings);
    write_rows(db, pending_);
    auto mark =
        db.prepare("INSERT OR REPLACE INTO summary(kind, value, games, first_game, last_game) VALUES (?, '', ?, 0, 0)");
    for (const char* m : {MainMark, OpeningsMark}) {
      mark.bind(1, std::string_view(m)).bind(2, last_).run();
      mark.reset();
    }
  }
  pending_ = {};
  first_ = last_ = 0;
}

namespace {

// The rows, and the last game id the main part counts (0 when they cannot be these games'
// rows); `openings_through` gets the openings' (0 when theirs cannot be, and the openings
// are cleared).
std::int64_t read_trusted_rows(Connection& db, Summary& s, std::int64_t& openings_through) {
  std::int64_t through = kept::read_trusted(
      db, ours(db), [&] { return read_rows(db, s, openings_through); }, [&] { s = {}; });
  if (openings_through < 0 || openings_through > through) {  // no mark, or past the rest's
    s.openings.clear();
    openings_through = 0;
  }
  return through;
}

std::int64_t read_trusted_rows(Connection& db, Summary& s) {
  std::int64_t openings_through = -1;
  return read_trusted_rows(db, s, openings_through);
}

}  // namespace

Summary read_summary(Connection& db, bool with_openings) {
  runs::Snapshot snapshot(db);
  Summary s;
  std::int64_t openings_through = -1;
  std::int64_t through = read_trusted_rows(db, s, openings_through);
  if (with_openings) count_rows(db, openings_through + 1, through, s, Openings);
  count_rows(db, through + 1, std::numeric_limits<std::int64_t>::max(), s, with_openings ? Both : Main);
  if (!with_openings) s.openings.clear();
  return s;
}

std::pair<std::int64_t, std::int64_t> events_id_range(Connection& db, const std::vector<std::int64_t>& events) {
  runs::Snapshot snapshot(db);
  Summary s;
  std::int64_t through = read_trusted_rows(db, s), last = kept::last_game_id(db);
  Tally found;
  for (auto e : events)
    if (auto it = s.events.find(e); it != s.events.end()) found.add(it->second);
  // Games past the rows may be any event's.
  std::int64_t from = found.games ? found.first_game : through + 1;
  std::int64_t to = through < last ? last : found.games ? found.last_game : 0;
  return {from, to};
}

GameQuery event_games(Connection& db, std::int64_t event) {
  auto [from, to] = events_id_range(db, {event});
  GameQuery q;
  q.where = "g.event = ? AND g.id BETWEEN ? AND ?";
  q.params = {event, from, to};
  return q;
}

}  // namespace qipu::db
