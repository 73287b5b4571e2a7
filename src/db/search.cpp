#include "qipu/db/search.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <array>
#include <unordered_map>

#include "qipu/db/codec.hpp"
#include "qipu/game/pipeline.hpp"
#include "qipu/notation/notation.hpp"

namespace qipu::db {

// ---- material -------------------------------------------------------------------

namespace {

constexpr std::string_view PieceLetters = "KQRBNP";
constexpr std::array<PieceType, 6> PieceOrder = {King, Queen, Rook, Bishop, Knight, Pawn};

std::string side_material(const std::array<int, 6>& counts) {
  std::string s;
  for (std::size_t i = 0; i < counts.size(); ++i) s.append(std::size_t(counts[i]), PieceLetters[i]);
  return s;
}

}  // namespace

std::string material_signature(const Position& pos) {
  std::string out;
  for (Color c : {White, Black}) {
    std::array<int, 6> counts{};
    for (std::size_t i = 0; i < PieceOrder.size(); ++i) counts[i] = popcount(pos.pieces(c, PieceOrder[i]));
    if (c == Black) out += 'v';
    out += side_material(counts);
  }
  return out;
}

std::optional<std::string> parse_material(std::string_view spec) {
  std::array<std::array<int, 6>, 2> counts{};
  int side = 0;
  for (char ch : spec) {
    char c = char(std::toupper(static_cast<unsigned char>(ch)));
    if (c == ' ') continue;
    if (c == 'V' || c == '-') {
      if (++side > 1) return std::nullopt;
      continue;
    }
    auto at = PieceLetters.find(c);
    if (at == std::string_view::npos) return std::nullopt;
    ++counts[std::size_t(side)][at];
  }
  if (side != 1) return std::nullopt;
  for (auto& c : counts) {
    if (c[0] > 1) return std::nullopt;
    c[0] = 1;  // the king may be left out: "RPvR"
  }
  return side_material(counts[0]) + "v" + side_material(counts[1]);
}

// ---- case folding and LIKE --------------------------------------------------------

namespace {

char32_t fold_code_point(char32_t c) {
  if (c >= 'A' && c <= 'Z') return c + 32;
  if ((c >= 0xC0 && c <= 0xDE && c != 0xD7) || (c >= 0x391 && c <= 0x3AB && c != 0x3A2) || (c >= 0x410 && c <= 0x42F))
    return c + 32;
  if (c >= 0x400 && c <= 0x40F) return c + 80;                                       // Ѐ-Џ
  if ((c >= 0x100 && c <= 0x137) || (c >= 0x14A && c <= 0x177)) return c | 1;        // Latin Extended-A pairs
  if ((c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E)) return c + (c & 1);  // odd capitals
  return c;
}

void append_utf8(std::string& out, char32_t c) {
  if (c < 0x80) {
    out += char(c);
  } else if (c < 0x800) {
    out += char(0xC0 | (c >> 6));
    out += char(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += char(0xE0 | (c >> 12));
    out += char(0x80 | ((c >> 6) & 0x3F));
    out += char(0x80 | (c & 0x3F));
  } else {
    out += char(0xF0 | (c >> 18));
    out += char(0x80 | ((c >> 12) & 0x3F));
    out += char(0x80 | ((c >> 6) & 0x3F));
    out += char(0x80 | (c & 0x3F));
  }
}

void fold_sql(sqlite3_context* ctx, int, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return sqlite3_result_null(ctx);
  auto* text = reinterpret_cast<const char*>(sqlite3_value_text(argv[0]));
  std::string folded = fold_case(std::string_view(text, std::size_t(sqlite3_value_bytes(argv[0]))));
  sqlite3_result_text(ctx, folded.data(), int(folded.size()), SQLITE_TRANSIENT);
}

}  // namespace

// Decodes UTF-8 only where a byte starts a two- or three-byte sequence of letters that
// can have case; everything else (CJK, invalid bytes) is copied as it is.
std::string fold_case(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    auto b = static_cast<unsigned char>(s[i]);
    if (b < 0x80) {
      out += char(fold_code_point(b));
      ++i;
    } else if ((b & 0xE0) == 0xC0 && i + 1 < s.size() && (static_cast<unsigned char>(s[i + 1]) & 0xC0) == 0x80) {
      char32_t c = char32_t(b & 0x1F) << 6 | (static_cast<unsigned char>(s[i + 1]) & 0x3F);
      append_utf8(out, fold_code_point(c));
      i += 2;
    } else {
      out += char(b);
      ++i;
    }
  }
  return out;
}

void register_search_functions(Connection& db) {
  int rc = sqlite3_create_function_v2(db.handle(), "qipu_fold", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nullptr,
                                      fold_sql, nullptr, nullptr, nullptr);
  if (rc != SQLITE_OK) throw DbError("cannot register qipu_fold: " + std::string(sqlite3_errstr(rc)));
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
  void add(const std::string& sql) { q.where += " AND (" + sql + ")"; }
  void param(std::int64_t v) { q.params.emplace_back(v); }
  void param(std::string v) { q.params.emplace_back(std::move(v)); }
};

// Ids of `table` whose name matches: a folded LIKE for a substring, folded equality
// for a whole name. The user's text is a parameter and its wildcards are escaped.
// ASCII text needs no folding of the names: SQLite's LIKE already ignores ASCII case,
// and a folded non-ASCII letter never becomes ASCII. That saves a call per name.
std::string name_match(Builder& b, std::string_view table, std::string_view text, bool exact) {
  bool ascii = std::all_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
  std::string column = ascii ? "name" : "qipu_fold(name)";
  std::string from = "SELECT id FROM " + std::string(table) + " WHERE ";
  // Without wildcards, LIKE is an equality that ignores case.
  b.param(exact ? escape_like(fold_case(text)) : contains_pattern(fold_case(text)));
  return from + column + " LIKE ? ESCAPE '\\'";
}

bool valid_eco(std::string_view s) {
  return s.size() == 3 && s[0] >= 'A' && s[0] <= 'E' && std::isdigit(static_cast<unsigned char>(s[1])) &&
         std::isdigit(static_cast<unsigned char>(s[2]));
}

std::string add_eco(Builder& b, std::string eco) {
  for (char& c : eco) c = char(std::toupper(static_cast<unsigned char>(c)));
  std::string lo = eco, hi = eco;
  if (auto dash = eco.find('-'); dash != std::string::npos) {
    lo = eco.substr(0, dash);
    hi = eco.substr(dash + 1);
  } else if (eco.size() == 1) {
    lo = eco + "00";
    hi = eco + "99";
  }
  if (!valid_eco(lo) || !valid_eco(hi) || lo > hi)
    return "--eco wants a code such as C60, a range such as C60-C99, or a letter A-E";
  b.param(lo);
  b.param(hi);
  b.add("g.eco BETWEEN ? AND ?");
  return {};
}

std::string add_result(Builder& b, const std::string& r) {
  if (r == "decisive") {
    b.add("g.result IN ('1-0', '0-1')");
  } else if (r == "draw") {
    b.add("g.result = '1/2-1/2'");
  } else if (r == "1-0" || r == "0-1" || r == "1/2-1/2" || r == "*") {
    b.param(r);
    b.add("g.result = ?");
  } else {
    return "--result wants 1-0, 0-1, 1/2-1/2, *, decisive or draw";
  }
  return {};
}

// A partial date "1990", "1990.05" or "1990.05.17" as YYYYMMDD; the missing parts are
// the lowest (from) or highest (to) they can be, so that date_sort compares right.
std::optional<std::int64_t> date_bound(std::string_view s, bool upper) {
  int parts[3] = {-1, -1, -1}, n = 0;
  for (std::size_t i = 0; i < s.size() && n < 3;) {
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return std::nullopt;
    int v = 0, digits = 0;
    for (; i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])); ++i, ++digits) v = v * 10 + (s[i] - '0');
    if (digits > (n == 0 ? 4 : 2)) return std::nullopt;
    parts[n++] = v;
    if (i < s.size() && std::string_view(".-/").find(s[i]) == std::string_view::npos) return std::nullopt;
    if (i < s.size()) ++i;
  }
  if (n == 0 || parts[0] <= 0 || parts[1] > 12 || parts[2] > 31) return std::nullopt;
  std::int64_t month = parts[1] >= 0 ? parts[1] : upper ? 99 : 0;
  std::int64_t day = parts[2] >= 0 ? parts[2] : upper ? 99 : 0;
  return std::int64_t(parts[0]) * 10000 + month * 100 + day;
}

std::string add_dates(Builder& b, const GameFilter& f) {
  if (!f.date_from.empty()) {
    auto d = date_bound(f.date_from, false);
    if (!d) return "--date-from wants a date such as 1990, 1990.05 or 1990.05.17";
    b.param(*d);
    b.add("g.date_sort >= ?");
  }
  if (!f.date_to.empty()) {
    auto d = date_bound(f.date_to, true);
    if (!d) return "--date-to wants a date such as 1990, 1990.05 or 1990.05.17";
    b.param(*d);
    b.add("g.date_sort <= ?");
  }
  return {};
}

void add_elo(Builder& b, const GameFilter& f) {
  if (!f.min_elo && !f.max_elo) return;
  std::int64_t lo = f.min_elo.value_or(0), hi = f.max_elo.value_or(99999);
  for (int i = 0; i < 4; ++i) b.param(i % 2 ? hi : lo);
  b.add(std::string("g.white_elo BETWEEN ? AND ? ") + (f.both_elo ? "AND" : "OR") + " g.black_elo BETWEEN ? AND ?");
}

void add_names(Builder& b, const GameFilter& f) {
  if (!f.white.empty()) b.add("g.white IN (" + name_match(b, "player", f.white, f.exact) + ")");
  if (!f.black.empty()) b.add("g.black IN (" + name_match(b, "player", f.black, f.exact) + ")");
  if (!f.player.empty()) {
    std::string w = name_match(b, "player", f.player, f.exact);
    std::string bl = name_match(b, "player", f.player, f.exact);
    b.add("g.white IN (" + w + ") OR g.black IN (" + bl + ")");
  }
  if (!f.event.empty()) b.add("g.event IN (" + name_match(b, "event", f.event, f.exact) + ")");
  if (!f.site.empty()) b.add("g.site IN (" + name_match(b, "site", f.site, f.exact) + ")");
  if (!f.opening.empty()) {
    // ECO names are ASCII: SQLite's own LIKE folds their case.
    for (int i = 0; i < 2; ++i) b.param(contains_pattern(f.opening));
    b.add("g.opening_id IN (SELECT id FROM opening WHERE name LIKE ? ESCAPE '\\' OR variation LIKE ? ESCAPE '\\')");
  }
}

}  // namespace

std::optional<Termination> termination_from_name(std::string_view name) {
  for (int t = 0; t <= int(Termination::FiftyMoveRule); ++t)
    if (termination_name(Termination(t)) == name) return Termination(t);
  return std::nullopt;
}

std::string add_conditions(const GameFilter& f, GameQuery& q) {
  Builder b{q};
  add_names(b, f);
  if (!f.result.empty())
    if (auto e = add_result(b, f.result); !e.empty()) return e;
  if (!f.eco.empty())
    if (auto e = add_eco(b, f.eco); !e.empty()) return e;
  if (auto e = add_dates(b, f); !e.empty()) return e;
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
    auto m = parse_material(f.material);
    if (!m) return "--material wants the pieces of each side, White first, such as KRPvKR";
    b.param(*m);
    b.add("g.material IN (SELECT id FROM material WHERE name = ?)");
  }
  return {};
}

// ---- position search ------------------------------------------------------------

// The text goes through the PGN reader and replayer as the movetext of one game, so the
// moves are read exactly as in an imported file (move numbers, every notation).
MoveList parse_move_list(std::string_view text) {
  MoveList out;
  game::PipelineOptions o;
  o.jobs = 1;
  o.reader.words.pieces = all_piece_words();  // every language's piece words, as import reads them
  game::PipelineCallbacks cb;
  int games = 0;
  cb.game = [&](const game::InputReport&, game::GameRecord& rec) {
    if (++games > 1) return;
    for (const auto& d : rec.diagnostics)
      if (d.error && out.error.empty()) out.error = (d.move.empty() ? "" : d.move + ": ") + d.message;
    if (!out.error.empty()) return;
    out.symbols = move_symbols(rec.start_position, rec.mainline);
    out.keys.push_back(rec.start_position.key());
    game::for_each_move(rec.start_position, rec.mainline,
                        [&](const Position&, const game::MoveNode&, const Position& after) {
                          out.keys.push_back(after.key());
                          out.position = after;
                        });
  };
  std::string movetext = fold_full_width(text);  // "１．e4" as people type it with a Chinese IME
  movetext += " *\n";
  game::run_pipeline(std::vector<game::PipelineInput>{{"--moves", movetext}}, o, cb);
  if (games != 1 && out.error.empty()) out.error = "expected one line of moves such as \"1.e4 c5 2.Nf3\"";
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
    int i = 2;
    for (const auto& p : filter_.params) std::visit([&](const auto& v) { st_.bind(i++, v); }, p);
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
    int i = 3;
    for (const auto& p : filter.params) std::visit([&](const auto& v) { st.bind(i++, v); }, p);
    for (; st.step(); ++n) f(st);
    st.reset();
  }
  return n;
}

// Calls f(row, ply) for each game that passes the filter and reaches the position, at
// the first ply where it does: index hits, verified, in game order, then the games without
// index entries, replayed; each part stops after `max` games. Returns how many games were
// replayed.
template <class F>
std::uint64_t for_each_verified(Connection& db, const Position& pos, const std::string& columns,
                                const GameQuery& filter, F&& f, std::size_t max = SIZE_MAX) {
  HitScanner scan(db, columns, filter);
  Verifier verify(db, pos);
  std::int64_t game = -1;
  bool open = false;  // the current game passes the filter and has not matched yet
  std::size_t found = 0;
  for_each_hit(db, pos.key(), [&](const PositionHit& h) {
    if (h.game != game) open = scan.seek(game = h.game);
    if (!open || !verify.check(scan.row(), h.ply)) return true;
    f(scan.row(), h.ply);
    open = false;
    return ++found < max;
  });
  std::string symbols;
  found = 0;
  return for_each_unindexed(db, columns, filter, [&](Statement& row) {
    if (found >= max) return;
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

void count_game(MoveStats& s, Statement& row, std::optional<double> elo) {
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

Exploration explore_scan(Connection& db, const Position& pos, const GameQuery& filter, std::size_t top) {
  Exploration ex;
  std::array<MoveStats, 256> by_code{};
  std::vector<TopGame> rated;
  std::string symbols;
  ex.replayed = for_each_verified(
      db, pos, ", g.result, g.white_elo, g.black_elo, g.date_sort", filter, [&](Statement& row, int ply) {
        auto elo = average_elo(row);
        count_game(ex.total, row, elo);
        // A symbol means the same move in every game at this position (db/codec.hpp).
        if (unpack_symbols(row.blob(2), symbols, std::size_t(ply) + 1) && symbols.size() > std::size_t(ply))
          count_game(by_code[static_cast<unsigned char>(symbols[std::size_t(ply)])], row, elo);
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
