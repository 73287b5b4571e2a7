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

void add_game_to(Summary& s, std::int64_t id, std::optional<std::string_view> result, std::int64_t termination,
                 std::optional<std::int64_t> event, std::optional<std::int64_t> date) {
  Tally one{1, date, date, id, id};
  s.all.add(one);
  s.results[result ? std::optional<std::string>(*result) : std::nullopt].add(one);
  s.terminations[termination].add(one);
  if (event) s.events[*event].add(one);
}

// Adds the games with ids from `first` to `last` from their rows.
void count_rows(Connection& db, std::int64_t first, std::int64_t last, Summary& s) {
  auto st = db.prepare("SELECT id, result, termination, event, date_sort FROM game WHERE id BETWEEN ? AND ?");
  st.bind(1, first).bind(2, last);
  auto opt = [&](int col) { return st.is_null(col) ? std::nullopt : std::optional(st.int64(col)); };
  while (st.step())
    add_game_to(s, st.int64(0), st.is_null(1) ? std::nullopt : std::optional(st.text(1)), st.int64(2), opt(3), opt(4));
}

// Whether the table summary is there with this file's columns.
bool ours(Connection& db) {
  return kept::has_columns(db, "summary",
                           {"kind", "value", "games", "first_date", "last_date", "first_game", "last_game"});
}

// The last game id the rows count; -1 without the mark.
std::int64_t counted_through(Connection& db) {
  auto st = db.prepare("SELECT games FROM summary WHERE kind = 'through' AND value = ''");
  return st.step() ? st.int64(0) : -1;
}

// Adds the rows to s; returns the last game id they count (-1: no mark).
std::int64_t read_rows(Connection& db, Summary& s) {
  std::int64_t through = -1;
  auto st = db.prepare("SELECT kind, value, games, first_date, last_date, first_game, last_game FROM summary");
  auto opt = [&](int col) { return st.is_null(col) ? std::nullopt : std::optional(st.int64(col)); };
  while (st.step()) {
    std::string_view kind = st.text(0);
    Tally* t = nullptr;
    if (kind == "through" && st.text(1).empty()) through = st.int64(2);
    if (kind == "all") t = &s.all;
    if (kind == "result") t = &s.results[std::string(st.text(1))];
    if (kind == "no result") t = &s.results[std::nullopt];
    if (kind == "termination") t = &s.terminations[st.int64(1)];
    if (kind == "event") t = &s.events[st.int64(1)];
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
}

}  // namespace

void SummaryWriter::add_game(std::int64_t id, std::optional<std::string_view> result, std::int64_t termination,
                             std::optional<std::int64_t> event, std::optional<std::int64_t> date_sort) {
  if (first_ == 0) first_ = id;
  last_ = id;
  add_game_to(pending_, id, result, termination, event, date_sort);
}

void SummaryWriter::flush(Connection& db) {
  if (first_ == 0) return;
  if (!ours(db)) {  // another program's table of that name: left alone, the games' rows say
    pending_ = {};
    first_ = last_ = 0;
    return;
  }
  std::int64_t through = counted_through(db);
  if (through < 0 || through >= first_) {  // no mark, or rows that count these ids already: counted again
    db.exec("DELETE FROM summary");
    through = 0;
  }
  // Games stored by an older qipu, which kept no rows for them.
  if (through + 1 < first_) count_rows(db, through + 1, first_ - 1, pending_);
  write_rows(db, pending_);
  db.prepare(
        "INSERT OR REPLACE INTO summary(kind, value, games, first_game, last_game) VALUES ('through', '', ?, 0, 0)")
      .bind(1, last_)
      .run();
  pending_ = {};
  first_ = last_ = 0;
}

namespace {

// The rows, and the last game id they count (0 when they cannot be these games' rows).
std::int64_t read_trusted_rows(Connection& db, Summary& s) {
  return kept::read_trusted(
      db, ours(db), [&] { return read_rows(db, s); }, [&] { s = {}; });
}

}  // namespace

Summary read_summary(Connection& db) {
  runs::Snapshot snapshot(db);
  Summary s;
  std::int64_t through = read_trusted_rows(db, s);
  count_rows(db, through + 1, std::numeric_limits<std::int64_t>::max(), s);
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
