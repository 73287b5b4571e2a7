#include "qipu/db/search.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <array>
#include <iterator>
#include <optional>
#include <unordered_map>

#include "qipu/db/codec.hpp"
#include "qipu/db/players.hpp"
#include "qipu/game/names.hpp"
#include "qipu/game/pipeline.hpp"
#include "qipu/notation/notation.hpp"
#include "deep_positions.hpp"
#include "id_table.hpp"
#include "kept_totals.hpp"
#include "name_rows.hpp"
#include "qipu/db/summary.hpp"

namespace qipu::db {

// ---- case folding and LIKE --------------------------------------------------------

namespace {

void fold_sql(sqlite3_context* ctx, int, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return sqlite3_result_null(ctx);
  auto* text = reinterpret_cast<const char*>(sqlite3_value_text(argv[0]));
  std::string folded = game::fold_name(std::string_view(text, std::size_t(sqlite3_value_bytes(argv[0]))));
  sqlite3_result_text(ctx, folded.data(), int(folded.size()), SQLITE_TRANSIENT);
}

std::string_view text_arg(sqlite3_value* v) {
  auto* text = reinterpret_cast<const char*>(sqlite3_value_text(v));
  return text ? std::string_view(text, std::size_t(sqlite3_value_bytes(v))) : std::string_view();
}

// qipu_name_match(name, query, mode): game::name_matches, the query prepared once per
// statement (kept as SQLite's auxiliary data of the query argument).
void name_match_sql(sqlite3_context* ctx, int, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return sqlite3_result_int(ctx, 0);
  auto* q = static_cast<game::NameQuery*>(sqlite3_get_auxdata(ctx, 1));
  if (q == nullptr) {
    auto mode = static_cast<game::NameMatch>(sqlite3_value_int(argv[2]));
    q = new game::NameQuery(text_arg(argv[1]), mode);
    sqlite3_set_auxdata(ctx, 1, q, [](void* p) { delete static_cast<game::NameQuery*>(p); });
    // SQLite may have freed it at once (no room to keep it): then it is gone.
    q = static_cast<game::NameQuery*>(sqlite3_get_auxdata(ctx, 1));
    if (q == nullptr) {
      game::NameQuery once(text_arg(argv[1]), mode);
      return sqlite3_result_int(ctx, once.matches(text_arg(argv[0])));
    }
  }
  sqlite3_result_int(ctx, q->matches(text_arg(argv[0])));
}

}  // namespace

void register_search_functions(Connection& db) {
  int rc = sqlite3_create_function_v2(db.handle(), "qipu_fold", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nullptr,
                                      fold_sql, nullptr, nullptr, nullptr);
  if (rc == SQLITE_OK)
    rc = sqlite3_create_function_v2(db.handle(), "qipu_name_match", 3, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nullptr,
                                    name_match_sql, nullptr, nullptr, nullptr);
  if (rc != SQLITE_OK) throw DbError("cannot register qipu's SQL functions: " + std::string(sqlite3_errstr(rc)));
}

std::unique_ptr<Connection> open_for_search(const std::string& path) {
  auto db = open_database(path, Connection::Mode::ReadOnly);
  register_search_functions(*db);
  return db;
}

std::string escape_like(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '%' || c == '_' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

// ---- conditions -----------------------------------------------------------------

namespace {

// A LIKE pattern that finds the text anywhere.
std::string contains_pattern(std::string_view text) {
  std::string p(1, '%');
  p += escape_like(text);
  p += '%';
  return p;
}

struct Builder {
  GameQuery& q;
  Connection& db;
  // The games the player filters allow, each filter's list intersected with the others' here
  // rather than in SQL: `--white Carlsen --black Anand` at 10 M games put 182,274 and 141,882
  // ids into two tables for SQL to join (218 ms to count).
  std::optional<std::vector<std::int64_t>> games;
  void add(const std::string& sql) { q.where += " AND (" + sql + ")"; }
  void only(std::vector<std::int64_t> ids) {
    if (games) {
      std::vector<std::int64_t> both;
      std::set_intersection(games->begin(), games->end(), ids.begin(), ids.end(), std::back_inserter(both));
      ids = std::move(both);
    }
    games = std::move(ids);
  }
  void param(std::int64_t v) { q.params.emplace_back(v); }
  void param(std::string v) { q.params.emplace_back(std::move(v)); }
};

bool is_ascii(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

// For words mode, a cheap test before the function call: a match needs one of the
// query's whole words in the name (game::name_matches), and in a name of plain ASCII
// without apostrophes (whose folding is only case) SQLite's LIKE finds it. Names with
// other characters go to the function. Empty when no such test holds for the query.
std::string words_prefilter(Builder& b, std::string_view text) {
  std::string sql;
  for (const auto& w : game::name_words(game::fold_name(text))) {
    if (!is_ascii(w)) return {};  // Chinese words match inside names: no whole word needed
    if (w.size() < 2) continue;   // an initial
    sql += (sql.empty() ? "" : " OR ") + std::string("name LIKE ? ESCAPE '\\'");
    b.param(contains_pattern(w));
  }
  // Names with bytes beyond ASCII (more bytes than characters) or apostrophes go on.
  return sql.empty()
             ? sql
             : "(" + sql +
                   " OR length(CAST(name AS BLOB)) <> length(name) OR instr(name, '''') OR instr(name, '`')) AND ";
}

// Ids of `table` whose name matches the text in this mode (game::name_matches, through
// the SQL function qipu_name_match). The user's text is a bound parameter.
std::string name_match(Builder& b, std::string_view table, std::string_view text, game::NameMatch mode) {
  std::string prefilter = mode == game::NameMatch::Words ? words_prefilter(b, text) : "";
  b.param(std::string(text));
  b.param(std::int64_t(mode));
  return "SELECT id FROM " + std::string(table) + " WHERE " + prefilter + "qipu_name_match(name, ?, ?)";
}

void add_eco(Builder& b, const std::string& eco) {
  auto range = game::eco_range(eco);
  b.param(range->first);
  b.param(range->second);
  b.add("g.eco BETWEEN ? AND ?");
}

void add_result(Builder& b, const std::string& r) {
  if (r == "decisive") {
    b.add("g.result IN ('1-0', '0-1')");
  } else if (r == "draw") {
    b.add("g.result = '1/2-1/2'");
  } else {
    b.param(r);
    b.add("g.result = ?");
  }
}

void add_dates(Builder& b, const GameFilter& f) {
  if (!f.date_from.empty()) {
    b.param(*game::date_bound(f.date_from, false));
    b.add("g.date_sort >= ?");
  }
  if (!f.date_to.empty()) {
    b.param(*game::date_bound(f.date_to, true));
    b.add("g.date_sort <= ?");
  }
}

void add_elo(Builder& b, const GameFilter& f) {
  if (!f.min_elo && !f.max_elo) return;
  std::int64_t lo = f.min_elo.value_or(0), hi = f.max_elo.value_or(99999);
  for (int i = 0; i < 4; ++i) b.param(i % 2 ? hi : lo);
  b.add(std::string("g.white_elo BETWEEN ? AND ? ") + (f.both_elo ? "AND" : "OR") + " g.black_elo BETWEEN ? AND ?");
}

// Whether a name matched so many player rows (a sixteenth of them or more, as
// `--white a --substring` does) that SQLite had better test the game's columns as it reads
// the games than join a list of them. At 10 M games that name's list (8.2 M ids) took 2.2 s
// to build for a page of 20 games, which the column test gives in 14 ms; a count took 2.9 s
// against 1.4 (bench_search.md, 2026-12-03).
bool broad(Connection& db, std::size_t players) {
  auto st = db.prepare("SELECT max(id) FROM player");
  return players > 0 && st.step() && std::int64_t(players) * 16 > st.int64(0);
}

// The column test: games in which one of `players` had one of `sides`.
std::string player_columns(Connection& db, const std::vector<std::int64_t>& players, Sides sides) {
  std::string in = " IN (SELECT id FROM " + id_table(db, players) + ")";
  if (sides.white && sides.black) return "g.white" + in + " OR g.black" + in;
  return (sides.white ? "g.white" : "g.black") + in;
}

Outcome outcome_of(const std::string& outcome) {
  return outcome == "won"    ? Outcome::Won
         : outcome == "lost" ? Outcome::Lost
         : outcome == "drew" ? Outcome::Drew
                             : Outcome::Any;
}

// A player filter on these sides with this outcome: the player index's list, intersected
// with the other filters' lists, or for a broad name the column test, one OR'ed condition
// per side with that side's result.
void add_games_of(Builder& b, const std::vector<std::int64_t>& players, Sides sides, Outcome outcome = Outcome::Any) {
  if (!broad(b.db, players.size())) return b.only(player_games(b.db, players, sides, outcome));
  if (outcome == Outcome::Any) return b.add(player_columns(b.db, players, sides));
  std::string cond;
  for (bool white : {true, false}) {
    if (!(white ? sides.white : sides.black)) continue;
    b.param(std::string(outcome_result(outcome, white)));
    cond += std::string(cond.empty() ? "(" : " OR (") + player_columns(b.db, players, {white, !white}) +
            ") AND g.result = ?";
  }
  b.add(cond);
}

// (game::check_criteria has checked the queries and the player's side.)
void add_names(Builder& b, const GameFilter& f) {
  using game::NameMatch;
  NameMatch mode = f.name_mode();
  if (!f.white.empty()) add_games_of(b, matching_players(b.db, f.white, mode), {true, false});
  if (!f.black.empty()) add_games_of(b, matching_players(b.db, f.black, mode), {false, true});
  if (!f.player.empty())
    add_games_of(b, matching_players(b.db, f.player, mode), {f.color != "black", f.color != "white"},
                 outcome_of(f.outcome));
  if (b.games) b.add(games_condition(b.db, *b.games));
  NameMatch place = f.place_mode();
  if (!f.event.empty()) {
    // The matching events' games lie between ids the summary keeps: SQLite reads that stretch
    // of the game table rather than all of it (games of an event are mostly imported together).
    // Only a range of less than half the games: SQLite tests each game's id against it, which
    // made the count of an event spread over all 10 M games 8 % slower (1.145 s against 1.056).
    auto [from, to] = events_id_range(b.db, matching_rows(b.db, "event", f.event, place));
    if (to - from < kept::last_game_id(b.db) / 2) {
      b.param(from);
      b.param(to);
      b.add("g.id BETWEEN ? AND ?");
    }
    b.add("g.event IN (" + name_match(b, "event", f.event, place) + ")");
  }
  if (!f.site.empty()) b.add("g.site IN (" + name_match(b, "site", f.site, place) + ")");
  if (!f.opening.empty()) {
    // ECO names are ASCII: SQLite's own LIKE folds their case.
    for (int i = 0; i < 2; ++i) b.param(contains_pattern(f.opening));
    b.add("g.opening_id IN (SELECT id FROM opening WHERE name LIKE ? ESCAPE '\\' OR variation LIKE ? ESCAPE '\\')");
  }
}

}  // namespace

Result<void> add_conditions(Connection& db, const GameFilter& f, GameQuery& q) {
  if (auto p = game::check_criteria(f)) return Failure{p->message};
  Builder b{q, db, {}};
  add_names(b, f);
  if (!f.result.empty()) add_result(b, f.result);
  if (!f.eco.empty()) add_eco(b, f.eco);
  add_dates(b, f);
  add_elo(b, f);
  if (f.min_plies) {
    b.param(std::int64_t(*f.min_plies));
    b.add("g.plies >= ?");
  }
  if (f.max_plies) {
    b.param(std::int64_t(*f.max_plies));
    b.add("g.plies <= ?");
  }
  if (f.termination) {
    b.param(std::int64_t(*f.termination));
    b.add("g.termination = ?");
  }
  if (!f.material.empty()) {
    b.param(*parse_material(f.material));
    b.add("g.material IN (SELECT id FROM material WHERE name = ?)");
  }
  return {};
}

// ---- position search ------------------------------------------------------------

// The moves read as a file's movetext (game::read_move_list), with their codec symbols.
Result<MoveList> parse_move_list(std::string_view text) {
  auto l = game::read_move_list(text);
  if (!l) return Failure{l.error()};
  MoveList out{l->position, {}, std::move(l->keys)};
  Position pos;
  for (Move m : l->moves) {
    out.symbols += char(move_symbol(pos, m));
    pos.play(m);
  }
  return out;
}

namespace {

// Rows of the games that index hits point to and that pass a filter, visited in id
// order. The cursor walks forward over short gaps and seeks over long ones, so the cost
// follows the number of hits rather than the size of the collection. NOT INDEXED keeps
// the planner on the rowid order that the walk relies on.
class HitScanner {
 public:
  // Columns 0-2 are always id, start_fen, moves; `columns` adds more from 3 on.
  HitScanner(Connection& db, const std::string& columns, const GameQuery& filter)
      : st_(db.prepare("SELECT g.id, g.start_fen, g.moves" + columns +
                       " FROM game g NOT INDEXED WHERE g.id >= ? AND (" + filter.where + ") ORDER BY g.id")),
        filter_(filter) {}

  // Positions the cursor on game `id`; false when that game does not pass the filter.
  bool seek(std::int64_t id) {
    if (done_) return false;
    if (!valid_ || id - current_ > SkipGap) jump(id);
    while (valid_ && current_ < id) step();
    return valid_ && current_ == id;
  }
  [[nodiscard]] Statement& row() { return st_; }

 private:
  static constexpr std::int64_t SkipGap = 32;
  void jump(std::int64_t id) {
    st_.reset();
    st_.bind(1, id);
    bind_params(st_, filter_, 2);
    step();
  }
  void step() {
    valid_ = st_.step();
    if (valid_)
      current_ = st_.int64(0);
    else
      done_ = true;  // no later game passes the filter
  }
  Statement st_;
  const GameQuery& filter_;
  std::int64_t current_ = -1;
  bool valid_ = false, done_ = false;
};

// Checks that a game reaches `target` at `ply`, remembering the answer for each distinct
// move prefix: most hits share a few prefixes, so few replays are needed.
class Verifier {
 public:
  Verifier(Connection& db, const Position& target) : db_(db), key_(target.key()) {}

  bool check(Statement& row, int ply) {
    if (!row.is_null(1)) return check_set_up(row.int64(0), ply);
    if (!unpack_symbols(row.blob(2), prefix_, std::size_t(ply)) || prefix_.size() != std::size_t(ply)) return false;
    auto it = cache_.find(prefix_);
    if (it != cache_.end()) return it->second;
    bool ok = key_after(Position(), prefix_) == key_;
    cache_.emplace(prefix_, ok);
    return ok;
  }

 private:
  static Key key_after(const Position& start, std::string_view symbols) {
    game::Line line;
    if (!play_symbols(start, symbols, line)) return 0;
    Position pos = start;
    for (const auto& n : line) pos.play(n.move);
    return pos.key();
  }
  // Games from a set-up position (rare) are read whole, so Chess960 and FEN details
  // come from the same code that imported them.
  bool check_set_up(std::int64_t id, int ply) {
    game::GameRecord rec;
    if (!load_game(db_, id, rec)) return false;
    Position pos = rec.start_position;
    for (int i = 0; i < ply && std::size_t(i) < rec.mainline.size(); ++i) pos.play(rec.mainline[std::size_t(i)].move);
    return pos.key() == key_;
  }
  Connection& db_;
  Key key_;
  std::string prefix_;  // the symbols of the game being checked, up to the hit's ply
  std::unordered_map<std::string, bool> cache_;
};

// The first ply at which a game reaches `target`, from `pos` with next(pos, ply) giving
// each move (none: the game ends, or does not decode); -1 when it never does. Captures
// cannot be undone: once the game has fewer pieces than the target, it stops there.
template <class Next>
int first_ply_reaching(Position pos, const Position& target, Next&& next) {
  const int pieces = popcount(target.pieces());
  for (int ply = 0;; ++ply) {
    if (pos.key() == target.key()) return ply;
    if (popcount(pos.pieces()) < pieces) return -1;
    Move m = next(pos, std::size_t(ply));
    if (m.is_none()) return -1;
    pos.play(m);
  }
}

// The same for a game row (columns as in HitScanner), decoding its moves as it goes.
int replayed_ply(Connection& db, Statement& row, const Position& target, std::string& symbols) {
  if (!row.is_null(1)) {  // a set-up game: read whole, as the Verifier does
    game::GameRecord rec;
    if (!load_game(db, row.int64(0), rec)) return -1;
    return first_ply_reaching(rec.start_position, target, [&](const Position&, std::size_t ply) {
      return ply < rec.mainline.size() ? rec.mainline[ply].move : Move::none();
    });
  }
  if (!unpack_symbols(row.blob(2), symbols)) return -1;
  return first_ply_reaching(Position(), target, [&](const Position& pos, std::size_t ply) {
    return ply < symbols.size() ? move_of_symbol(pos, static_cast<unsigned char>(symbols[ply])) : Move::none();
  });
}

// Calls f(row) for each game stored without index entries that passes the filter, one
// row at a time; returns how many there were. Columns as in HitScanner.
template <class F>
std::uint64_t for_each_unindexed(Connection& db, const std::string& columns, const GameQuery& filter, F&& f) {
  auto ranges = unindexed_games(db);
  if (ranges.empty()) return 0;
  auto st = db.prepare("SELECT g.id, g.start_fen, g.moves" + columns + " FROM game g WHERE g.id BETWEEN ? AND ? AND (" +
                       filter.where + ") ORDER BY g.id");
  std::uint64_t n = 0;
  for (const auto& r : ranges) {
    st.bind(1, r.first).bind(2, r.last);
    bind_params(st, filter, 3);
    for (; st.step(); ++n) {
      db.check_deadline();  // replays run between rows, unseen by SQLite's progress handler
      f(st);
    }
    st.reset();
  }
  return n;
}

// Calls f(row, ply) for each game that passes the filter and reaches the position, at
// the first ply where it does: index hits, verified, in game order, then the games without
// index entries, replayed; each part stops after `max` games. Games in `skip` are left out
// before their rows are read. Returns how many games were replayed.
template <class F>
std::uint64_t for_each_verified(Connection& db, const Position& pos, const std::string& columns,
                                const GameQuery& filter, F&& f, std::size_t max = SIZE_MAX, IdRange skip = {1, 0}) {
  auto skipped = [&](std::int64_t id) { return id >= skip.first && id <= skip.last; };
  // Hits come in game order: once one is in a `skip` that reaches the last game, so are all
  // the rest, which need not be read (most of a deep position's, whose rows count them).
  const bool skip_to_end = skip.first <= skip.last && skip.last >= kept::last_game_id(db);
  HitScanner scan(db, columns, filter);
  Verifier verify(db, pos);
  std::int64_t game = -1;
  bool open = false;  // the current game passes the filter and has not matched yet
  std::size_t found = 0;
  for_each_hit(db, pos.key(), [&](const PositionHit& h) {
    if (skipped(h.game)) return !skip_to_end;
    if (h.game != game) {
      db.check_deadline();
      open = scan.seek(game = h.game);
    }
    if (!open || !verify.check(scan.row(), h.ply)) return true;
    f(scan.row(), h.ply);
    open = false;
    return ++found < max;
  });
  std::string symbols;
  found = 0;
  return for_each_unindexed(db, columns, filter, [&](Statement& row) {
    if (found >= max || skipped(row.int64(0))) return;
    if (int ply = replayed_ply(db, row, pos, symbols); ply >= 0) {
      f(row, ply);
      ++found;
    }
  });
}

}  // namespace

std::vector<std::int64_t> find_position(Connection& db, const PositionQuery& pq, const GameQuery& filter,
                                        std::uint64_t* replayed, std::size_t max) {
  std::vector<std::int64_t> ids;
  std::uint64_t n = 0;
  if (!pq.exact_moves) {
    n = for_each_verified(
        db, pq.position, "", filter, [&](Statement& row, int) { ids.push_back(row.int64(0)); }, max);
  } else {
    // Exact move order: the game's first moves are these symbols, from the standard start.
    const std::string& want = *pq.exact_moves;
    std::string first;
    auto begins_so = [&](Statement& row) {
      return row.is_null(1) && unpack_symbols(row.blob(2), first, want.size()) && first == want;
    };
    HitScanner scan(db, "", filter);
    for_each_hit(db, pq.position.key(), [&](const PositionHit& h) {
      db.check_deadline();
      if (std::size_t(h.ply) == want.size() && scan.seek(h.game) && begins_so(scan.row())) ids.push_back(h.game);
      return ids.size() < max;
    });
    std::size_t indexed = ids.size();
    n = for_each_unindexed(db, "", filter, [&](Statement& row) {
      if (ids.size() - indexed < max && begins_so(row)) ids.push_back(row.int64(0));
    });
  }
  // Index hits and unindexed games are each in id order: the first `max` of both are
  // among the first `max` of each.
  std::sort(ids.begin(), ids.end());
  if (ids.size() > max) ids.resize(max);
  if (replayed) *replayed = n;
  return ids;
}

// ---- explorer -------------------------------------------------------------------

std::uint64_t for_each_game_at(Connection& db, const Position& pos, IdRange counted,
                               const std::function<void(std::int64_t, std::uint8_t, const GameOutcome&)>& f) {
  std::string symbols;
  auto value = [](Statement& row, int col) { return row.is_null(col) ? std::nullopt : std::optional(row.int64(col)); };
  return for_each_verified(
      db, pos, ", g.result, g.white_elo, g.black_elo, g.date_sort", {},
      [&](Statement& row, int ply) {
        auto at = std::size_t(ply);
        bool moved = unpack_symbols(row.blob(2), symbols, at + 1) && symbols.size() > at;
        std::string_view result = row.is_null(3) ? std::string_view() : row.text(3);
        f(row.int64(0), moved ? std::uint8_t(symbols[at]) : EndSymbol,
          {result, {value(row, 4), value(row, 5)}, value(row, 6)});
      },
      SIZE_MAX, counted);
}

namespace {

void count_result(MoveStats& s, std::string_view result) {
  ++s.games;
  if (result == "1-0")
    ++s.white_wins;
  else if (result == "0-1")
    ++s.black_wins;
  else if (result == "1/2-1/2")
    ++s.draws;
}

// The player's points in this game (columns 7, 8: white, black), with the opponent's Elo.
void count_player(MoveStats& s, Statement& row, const std::vector<std::int64_t>& player) {
  auto is_player = [&](int col) {
    return !row.is_null(col) && std::find(player.begin(), player.end(), row.int64(col)) != player.end();
  };
  bool white = is_player(7);
  if (!white && !is_player(8)) return;
  std::string_view r = row.text(3);
  if (r != "1-0" && r != "0-1" && r != "1/2-1/2") return;  // no result: no score
  double points = r == "1/2-1/2" ? 0.5 : r == (white ? "1-0" : "0-1") ? 1 : 0;
  ++s.player_games;
  s.player_points += points;
  int opponent = white ? 5 : 4;
  if (row.is_null(opponent)) return;
  s.rated_points += points;
  s.opponent_elo_sum += double(row.int64(opponent));
  ++s.rated_games;
}

void count_game(MoveStats& s, Statement& row, std::optional<double> elo, const std::vector<std::int64_t>* player) {
  if (player) count_player(s, row, *player);
  count_result(s, row.text(3));
  if (elo) {
    s.elo_sum += *elo;
    ++s.elo_games;
  }
  if (!row.is_null(6)) s.last_year = std::max(s.last_year, int(row.int64(6) / 10000));
}

// The mean of the players' ratings that are known.
std::optional<double> average_elo(Statement& row) {
  double sum = 0;
  int n = 0;
  for (int col : {4, 5})
    if (!row.is_null(col)) {
      sum += double(row.int64(col));
      ++n;
    }
  if (n == 0) return std::nullopt;
  return sum / n;
}

}  // namespace

Exploration explore_scan(Connection& db, const Position& pos, const GameQuery& filter, std::size_t top,
                         const std::vector<std::int64_t>* player) {
  Exploration ex;
  std::array<MoveStats, 256> by_code{};
  std::vector<TopGame> rated;
  std::string symbols;
  ex.replayed = for_each_verified(
      db, pos, ", g.result, g.white_elo, g.black_elo, g.date_sort, g.white, g.black", filter,
      [&](Statement& row, int ply) {
        auto elo = average_elo(row);
        count_game(ex.total, row, elo, player);
        // A symbol means the same move in every game at this position (db/codec.hpp).
        if (unpack_symbols(row.blob(2), symbols, std::size_t(ply) + 1) && symbols.size() > std::size_t(ply))
          count_game(by_code[static_cast<unsigned char>(symbols[std::size_t(ply)])], row, elo, player);
        if (elo) rated.push_back({row.int64(0), *elo});
      });
  for (int code = 0; code < 256; ++code) {
    if (by_code[std::size_t(code)].games == 0) continue;
    Move m = move_of_symbol(pos, static_cast<unsigned char>(code));
    if (m.is_none()) continue;  // a symbol that does not fit: damaged row
    by_code[std::size_t(code)].move = m;
    ex.moves.push_back(by_code[std::size_t(code)]);
  }
  std::stable_sort(ex.moves.begin(), ex.moves.end(),
                   [](const MoveStats& a, const MoveStats& b) { return a.games > b.games; });
  std::size_t n = std::min(top, rated.size());
  std::partial_sort(rated.begin(), rated.begin() + std::ptrdiff_t(n), rated.end(),
                    [](const TopGame& a, const TopGame& b) {
                      return a.average_elo != b.average_elo ? a.average_elo > b.average_elo : a.id < b.id;
                    });
  ex.top_games.assign(rated.begin(), rated.begin() + std::ptrdiff_t(n));
  return ex;
}

}  // namespace qipu::db
