// Player rows' totals (db/player_totals.hpp) as sorted runs of entries, a player's in each
// run adding up (src/db/runs.hpp; tables player_total_run and player_total_chunk), and rows of
// player_fide, one a player and FIDE id. Runs rather than a row a player: updating those rows
// in place made an import of 2 M games by 897,000 players take 47 s instead of 31-33 s,
// each batch rewriting pages all over the table. player_fide's row of player 0 (no player has
// that id) holds in games the last game id the totals count.
#include "qipu/db/player_totals.hpp"

#include <algorithm>
#include <limits>
#include <vector>

#include "kept_totals.hpp"
#include "qipu/db/codec.hpp"
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

void add_total(PlayerTotal& into, const PlayerTotal& t) {
  into.games += t.games;
  into.wins += t.wins;
  into.draws += t.draws;
  into.losses += t.losses;
  keep_min(into.min_elo, t.min_elo);
  keep_max(into.max_elo, t.max_elo);
  keep_min(into.first_date, t.first_date);
  keep_max(into.last_date, t.last_date);
  for (const auto& [id, games] : t.fide_ids) into.fide_ids[id] += games;
}

constexpr runs::Tables TotalTables{"player_total_run", "player_total_chunk"};
// Runs below MergeFanout times this many entries are of level 0: a batch of 20,000 games has
// at most 40,000 players.
constexpr std::uint64_t TotalRunBase = 1u << 15;

// An optional number as a varint: 0 for none, else its zigzag form plus one.
std::uint64_t optional_field(std::optional<std::int64_t> v) {
  if (!v) return 0;
  return zigzag(*v) + 1;
}
std::optional<std::int64_t> optional_value(std::uint64_t f) {
  if (f == 0) return std::nullopt;
  return unzigzag(f - 1);
}

using TotalEntry = PlayerTotalsWriter::Entry;

struct TotalCodec {
  using Entry = TotalEntry;
  static constexpr std::size_t Fields = 9;  // the player's delta, 4 counts, 4 optional values
  static constexpr std::size_t MinEntryBytes = Fields;
  static std::int64_t sql_key(const Entry& e) { return e.player; }
  static bool less(const Entry& a, const Entry& b) { return a.player < b.player; }
  static bool combine(Entry& into, const Entry& e) {
    if (into.player != e.player) return false;
    add_total(into.total, e.total);
    return true;
  }
  static char* put(const Entry& e, const Entry* prev, char* q) {
    const PlayerTotal& t = e.total;
    q = put_varint(q, std::uint64_t(e.player - (prev ? prev->player : e.player)));
    for (auto n : {t.games, t.wins, t.draws, t.losses}) q = put_varint(q, std::uint64_t(n));
    for (auto v : {t.min_elo, t.max_elo, t.first_date, t.last_date}) q = put_varint(q, optional_field(v));
    return q;
  }
  static const Entry* encode(const Entry* begin, const Entry* end, std::size_t bytes, std::string& out) {
    return runs::encode_chunk(begin, end, bytes, out, Fields * MaxVarint, put);
  }
  template <class F>
  static bool decode(std::int64_t first_key, std::string_view data, F&& f) {
    std::uint64_t player = std::uint64_t(first_key);
    while (!data.empty()) {
      std::uint64_t v[9];
      for (auto& x : v)
        if (!get_varint(data, x)) return false;
      player += v[0];
      Entry e;
      e.player = std::int64_t(player);
      e.total = {std::int64_t(v[1]),   std::int64_t(v[2]),   std::int64_t(v[3]),
                 std::int64_t(v[4]),   optional_value(v[5]), optional_value(v[6]),
                 optional_value(v[7]), optional_value(v[8]), {}};
      if (!f(e)) return true;
    }
    return true;
  }
};

// White's points and Black's from a result (none without one).
std::pair<std::optional<double>, std::optional<double>> points_of(std::optional<std::string_view> result) {
  auto wp = result ? white_points(*result) : std::nullopt;
  return {wp, wp ? std::optional(1 - *wp) : std::nullopt};
}

// One game of a player into their totals.
void add_one(PlayerTotal& t, std::optional<double> points, std::optional<std::int64_t> elo,
             std::optional<std::int64_t> date, std::string_view fide_id) {
  ++t.games;
  if (points) ++(*points == 1 ? t.wins : *points == 0 ? t.losses : t.draws);
  keep_min(t.min_elo, elo);
  keep_max(t.max_elo, elo);
  keep_min(t.first_date, date);
  keep_max(t.last_date, date);
  if (is_fide_id(fide_id)) ++t.fide_ids[std::string(fide_id)];
}

void add_game_to(PlayerTotals& totals, const PlayerSide& white, const PlayerSide& black,
                 std::optional<std::string_view> result, std::optional<std::int64_t> date) {
  auto [wp, bp] = points_of(result);
  if (white.player) add_one(totals[*white.player], wp, white.elo, date, white.fide_id);
  if (black.player) add_one(totals[*black.player], bp, black.elo, date, black.fide_id);
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
  return kept::has_columns(db, TotalTables.segment, {"id", "entries"}) &&
         kept::has_columns(db, TotalTables.posting, {"id", "segment", "first_key", "last_key", "data"}) &&
         kept::has_columns(db, "player_fide", {"player", "fide", "games"});
}

// The last game id the totals count; -1 without the mark.
std::int64_t counted_through(Connection& db) {
  auto st = db.prepare("SELECT games FROM player_fide WHERE player = 0 AND fide = ''");
  return st.step() ? st.int64(0) : -1;
}

// Whether a player's totals can be those of games 1 to `through` (rows from elsewhere may hold
// anything: counts past the games would overflow the sums of a person's spellings).
bool plausible(const PlayerTotal& t, std::int64_t through) {
  auto in = [&](std::int64_t n) { return n >= 0 && n <= t.games; };
  auto ordered = [](auto a, auto b) { return !a == !b && (!a || *a <= *b); };
  bool fide_ok = std::all_of(t.fide_ids.begin(), t.fide_ids.end(),
                             [&](const auto& f) { return f.second >= 1 && f.second <= t.games; });
  return t.games >= 1 && t.games <= through && in(t.wins) && in(t.draws) && in(t.losses) &&
         t.wins + t.draws + t.losses <= t.games && ordered(t.min_elo, t.max_elo) &&
         ordered(t.first_date, t.last_date) && fide_ok;
}

// Every entry of every run, added up by player; a count outside 0 to `through` (a damaged
// or foreign file) is an error before it can overflow a sum.
void read_runs(Connection& db, std::int64_t through, PlayerTotals& totals) {
  auto st = db.prepare(std::string("SELECT first_key, data FROM ") + TotalTables.posting +
                       " WHERE segment = ? ORDER BY last_key, id");
  auto in_range = [&](std::int64_t n) { return n >= 0 && n <= through; };
  for (auto run : runs::list(db, TotalTables).ids) {
    st.bind(1, run);
    while (st.step())
      if (!TotalCodec::decode(st.int64(0), st.blob(1), [&](const TotalEntry& e) {
            const PlayerTotal& t = e.total;
            if (!(in_range(t.games) && in_range(t.wins) && in_range(t.draws) && in_range(t.losses)))
              throw DbError("the player totals hold a count past the games");
            add_total(totals[e.player], t);
            return true;
          }))
        throw DbError("a chunk of the player totals does not decode");
    st.reset();
  }
}

// Puts the totals into `totals`; returns the last game id they count, or -1 when there is no
// mark or a player's totals cannot be right.
std::int64_t read_rows(Connection& db, PlayerTotals& totals) {
  std::int64_t through = counted_through(db);
  if (through < 0 || through > kept::last_game_id(db)) return -1;
  read_runs(db, through, totals);
  auto fide = db.prepare("SELECT player, fide, games FROM player_fide WHERE player <> 0");
  while (fide.step()) {
    auto it = totals.find(fide.int64(0));
    if (it == totals.end() || fide.int64(2) < 1 || fide.int64(2) > through) return -1;
    it->second.fide_ids[std::string(fide.text(1))] += fide.int64(2);
  }
  std::int64_t sides = 0;  // at most two a game
  for (const auto& [player, t] : totals) {
    if (player < 1 || !plausible(t, through)) return -1;
    sides += t.games;
    if (sides > 2 * through) return -1;
  }
  return through;
}

void clear_rows(Connection& db) {
  db.exec(std::string("DELETE FROM ") + TotalTables.posting + "; DELETE FROM " + TotalTables.segment +
          "; DELETE FROM player_fide");
}

// Entries, one a player in player order, as a new run, and their FIDE ids into player_fide.
void write_run(Connection& db, const std::vector<TotalEntry>& entries) {
  runs::Writer<TotalCodec> w(db, TotalTables);
  w.add(entries.data(), entries.data() + entries.size());
  w.finish();
  auto fide = db.prepare(
      "INSERT INTO player_fide(player, fide, games) VALUES (?, ?, ?)"
      " ON CONFLICT(player, fide) DO UPDATE SET games = games + excluded.games");
  for (const auto& e : entries)
    for (const auto& [id, games] : e.total.fide_ids) fide.bind(1, e.player).bind(2, id).bind(3, games).run();
}

}  // namespace

void PlayerTotalsWriter::add_game(std::int64_t id, const PlayerSide& white, const PlayerSide& black,
                                  std::optional<std::string_view> result, std::optional<std::int64_t> date_sort) {
  if (first_ == 0) first_ = id;
  last_ = id;
  auto [wp, bp] = points_of(result);
  for (auto [side, points] : {std::pair(&white, wp), std::pair(&black, bp)}) {
    if (!side->player) continue;
    Side s{*side->player, side->elo, date_sort, 0, std::int8_t(points ? int(*points * 2) : -1)};
    if (is_fide_id(side->fide_id)) {
      fide_ids_.emplace_back(side->fide_id);
      s.fide = std::uint32_t(fide_ids_.size());
    }
    pending_.push_back(s);
  }
}

// The pending sides added up, one entry a player, in player order.
std::vector<TotalEntry> PlayerTotalsWriter::added_up() {
  std::vector<std::uint32_t> order(pending_.size());
  for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](auto a, auto b) { return pending_[a].player < pending_[b].player; });
  std::vector<TotalEntry> out;
  for (auto i : order) {
    const Side& s = pending_[i];
    if (out.empty() || out.back().player != s.player) out.push_back({s.player, {}});
    add_one(out.back().total, s.points < 0 ? std::nullopt : std::optional(s.points / 2.0), s.elo, s.date,
            s.fide ? std::string_view(fide_ids_[s.fide - 1]) : std::string_view());
  }
  return out;
}

void PlayerTotalsWriter::flush(Connection& db) {
  if (first_ == 0) return;
  if (ours(db)) {  // another program's tables of those names are left alone: the games' rows say
    std::int64_t through = counted_through(db);
    if (through < 0 || through >= first_) {  // no mark, or rows that count these games already
      clear_rows(db);
      through = 0;
    }
    // Games stored by an older qipu, which kept no rows for them: a run of their own, as a
    // player's entries in several runs add up.
    if (through + 1 < first_) {
      PlayerTotals older;
      count_rows(db, through + 1, first_ - 1, older);
      std::vector<TotalEntry> entries;
      for (auto& [player, t] : older) entries.push_back({player, std::move(t)});
      std::sort(entries.begin(), entries.end(), TotalCodec::less);
      write_run(db, entries);
    }
    write_run(db, added_up());
    runs::merge_by_size<TotalCodec>(db, TotalTables, TotalRunBase);
    db.prepare("INSERT OR REPLACE INTO player_fide(player, fide, games) VALUES (0, '', ?)").bind(1, last_).run();
  }
  pending_.clear();
  fide_ids_.clear();
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
