// Player rows' totals (db/player_totals.hpp) as rows of player_total, a row a player, and
// player_fide, a row a player and FIDE id. player_total's row 0 (no player has id 0) holds in
// games the last game id the rows count: kept in the same table, so that a qipu that does not
// know these tables leaves rows and mark alone together.
#include "qipu/db/player_totals.hpp"

#include <limits>

#include "kept_totals.hpp"
#include "qipu/db/players.hpp"
#include "runs.hpp"

namespace qipu::db {

bool is_fide_id(std::string_view value) { return !(value.empty() || value == "0" || value == "-" || value == "?"); }

namespace {

void keep_min(std::optional<std::int64_t>& into, std::optional<std::int64_t> v) {
  if (v && (!into || *v < *into)) into = v;
}
void keep_max(std::optional<std::int64_t>& into, std::optional<std::int64_t> v) {
  if (v && (!into || *v > *into)) into = v;
}

void add_side(PlayerTotals& totals, const PlayerSide& side, std::optional<double> points,
              std::optional<std::int64_t> date) {
  if (!side.player) return;
  PlayerTotal& t = totals[*side.player];
  ++t.games;
  if (points) ++(*points == 1 ? t.wins : *points == 0 ? t.losses : t.draws);
  keep_min(t.min_elo, side.elo);
  keep_max(t.max_elo, side.elo);
  keep_min(t.first_date, date);
  keep_max(t.last_date, date);
  if (is_fide_id(side.fide_id)) ++t.fide_ids[std::string(side.fide_id)];
}

void add_game_to(PlayerTotals& totals, const PlayerSide& white, const PlayerSide& black,
                 std::optional<std::string_view> result, std::optional<std::int64_t> date) {
  auto wp = result ? white_points(*result) : std::nullopt;
  add_side(totals, white, wp, date);
  add_side(totals, black, wp ? std::optional(1 - *wp) : std::nullopt, date);
}

// Adds the games with ids from `first` to `last` from their rows, with each side's first FIDE
// id among its tags (the tags read alongside the games, both in game order).
void count_rows(Connection& db, std::int64_t first, std::int64_t last, PlayerTotals& totals) {
  auto games = db.prepare(
      "SELECT id, white, black, white_elo, black_elo, result, date_sort FROM game WHERE id BETWEEN ? AND ? ORDER BY "
      "id");
  auto tags = db.prepare(
      "SELECT game, name, value FROM tag WHERE game BETWEEN ? AND ? AND name IN ('WhiteFideId', 'BlackFideId')"
      " ORDER BY game, seq");
  games.bind(1, first).bind(2, last);
  tags.bind(1, first).bind(2, last);
  bool more_tags = tags.step();
  auto opt = [&](int col) { return games.is_null(col) ? std::nullopt : std::optional(games.int64(col)); };
  while (games.step()) {
    std::int64_t id = games.int64(0);
    std::string fide[2];
    for (; more_tags && tags.int64(0) <= id; more_tags = tags.step()) {
      std::string& side = fide[tags.text(1) == "BlackFideId"];
      if (tags.int64(0) == id && side.empty() && is_fide_id(tags.text(2))) side = tags.text(2);
    }
    add_game_to(totals, {opt(1), opt(3), fide[0]}, {opt(2), opt(4), fide[1]},
                games.is_null(5) ? std::nullopt : std::optional(games.text(5)), opt(6));
  }
}

bool ours(Connection& db) {
  return kept::has_columns(
             db, "player_total",
             {"player", "games", "wins", "draws", "losses", "min_elo", "max_elo", "first_date", "last_date"}) &&
         kept::has_columns(db, "player_fide", {"player", "fide", "games"});
}

// The last game id the rows count; -1 without the mark.
std::int64_t counted_through(Connection& db) {
  auto st = db.prepare("SELECT games FROM player_total WHERE player = 0");
  return st.step() ? st.int64(0) : -1;
}

// Whether a row's counts can be those of games 1 to `through` (rows from elsewhere may hold
// anything: counts past the games would overflow the sums of a person's rows).
bool plausible(const PlayerTotal& t, std::int64_t through) {
  auto in = [&](std::int64_t n) { return n >= 0 && n <= t.games; };
  auto ordered = [](auto a, auto b) { return !a == !b && (!a || *a <= *b); };
  return t.games >= 1 && t.games <= through && in(t.wins) && in(t.draws) && in(t.losses) &&
         t.wins + t.draws + t.losses <= t.games && ordered(t.min_elo, t.max_elo) && ordered(t.first_date, t.last_date);
}

// Puts the rows into `totals`; returns the last game id they count, or -1 when there is no
// mark or a row cannot be right.
std::int64_t read_rows(Connection& db, PlayerTotals& totals) {
  std::int64_t through = counted_through(db);
  auto st = db.prepare(
      "SELECT player, games, wins, draws, losses, min_elo, max_elo, first_date, last_date FROM player_total"
      " WHERE player <> 0");
  auto opt = [&](int col) { return st.is_null(col) ? std::nullopt : std::optional(st.int64(col)); };
  while (st.step()) {
    PlayerTotal t{st.int64(1), st.int64(2), st.int64(3), st.int64(4), opt(5), opt(6), opt(7), opt(8), {}};
    if (!plausible(t, through)) return -1;
    totals[st.int64(0)] = std::move(t);
  }
  auto fide = db.prepare("SELECT player, fide, games FROM player_fide");
  while (fide.step()) {
    auto it = totals.find(fide.int64(0));
    if (it == totals.end() || fide.int64(2) < 1 || fide.int64(2) > it->second.games) return -1;
    it->second.fide_ids[std::string(fide.text(1))] = fide.int64(2);
  }
  return through;
}

void write_rows(Connection& db, const PlayerTotals& totals) {
  auto st = db.prepare(
      "INSERT INTO player_total(player, games, wins, draws, losses, min_elo, max_elo, first_date, last_date)"
      " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(player) DO UPDATE SET games = games + excluded.games,"
      " wins = wins + excluded.wins, draws = draws + excluded.draws, losses = losses + excluded.losses,"
      " min_elo = coalesce(min(min_elo, excluded.min_elo), min_elo, excluded.min_elo),"
      " max_elo = coalesce(max(max_elo, excluded.max_elo), max_elo, excluded.max_elo),"
      " first_date = coalesce(min(first_date, excluded.first_date), first_date, excluded.first_date),"
      " last_date = coalesce(max(last_date, excluded.last_date), last_date, excluded.last_date)");
  auto fide = db.prepare(
      "INSERT INTO player_fide(player, fide, games) VALUES (?, ?, ?)"
      " ON CONFLICT(player, fide) DO UPDATE SET games = games + excluded.games");
  auto bind_opt = [&](int i, std::optional<std::int64_t> v) { v ? st.bind(i, *v) : st.bind_null(i); };
  for (const auto& [player, t] : totals) {
    st.bind(1, player).bind(2, t.games).bind(3, t.wins).bind(4, t.draws).bind(5, t.losses);
    bind_opt(6, t.min_elo);
    bind_opt(7, t.max_elo);
    bind_opt(8, t.first_date);
    bind_opt(9, t.last_date);
    st.run();
    for (const auto& [id, games] : t.fide_ids) fide.bind(1, player).bind(2, id).bind(3, games).run();
  }
}

}  // namespace

void PlayerTotalsWriter::add_game(std::int64_t id, const PlayerSide& white, const PlayerSide& black,
                                  std::optional<std::string_view> result, std::optional<std::int64_t> date_sort) {
  if (first_ == 0) first_ = id;
  last_ = id;
  add_game_to(pending_, white, black, result, date_sort);
}

void PlayerTotalsWriter::flush(Connection& db) {
  if (first_ == 0) return;
  if (ours(db)) {  // another program's tables of those names are left alone: the games' rows say
    std::int64_t through = counted_through(db);
    if (through < 0 || through >= first_) {  // no mark, or rows that count these games already
      db.exec("DELETE FROM player_total; DELETE FROM player_fide");
      through = 0;
    }
    // Games stored by an older qipu, which kept no rows for them.
    if (through + 1 < first_) count_rows(db, through + 1, first_ - 1, pending_);
    write_rows(db, pending_);
    db.prepare("INSERT OR REPLACE INTO player_total(player, games, wins, draws, losses) VALUES (0, ?, 0, 0, 0)")
        .bind(1, last_)
        .run();
  }
  pending_ = {};
  first_ = last_ = 0;
}

PlayerTotals read_player_totals(Connection& db) {
  runs::Snapshot snapshot(db);
  PlayerTotals totals;
  std::int64_t through = kept::read_trusted(
      db, ours(db), [&] { return read_rows(db, totals); }, [&] { totals = {}; });
  count_rows(db, through + 1, std::numeric_limits<std::int64_t>::max(), totals);
  return totals;
}

}  // namespace qipu::db
