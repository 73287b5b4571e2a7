// The JSON API (api.hpp, docs/api.md). Every parameter is checked before any SQL runs;
// values reach SQL only as bound parameters (db::add_conditions, db::GameQuery).
#include "serve/api.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <set>

#include "qipu/board/movegen.hpp"
#include "qipu/db/search.hpp"
#include "qipu/db/standings.hpp"
#include "qipu/db/summary.hpp"
#include "qipu/game/writer.hpp"

namespace qipu::serve {

namespace {

// A request's parameters, read by name: an unknown or repeated one is refused (a typo in a
// filter would otherwise widen the search silently), and so is a value of the wrong form.
class Query {
 public:
  Query(const Params& p, const std::vector<std::string_view>& allowed) : p_(p) {
    std::set<std::string_view> names(allowed.begin(), allowed.end());
    for (const auto& [key, value] : p) {
      if (!names.count(key)) throw ApiError(400, "unknown parameter '" + key + "'");
      if (p.count(key) > 1) throw ApiError(400, "parameter '" + key + "' given more than once");
    }
  }
  [[nodiscard]] std::string text(const char* name, std::string fallback = "") const {
    auto it = p_.find(name);
    return it == p_.end() ? fallback : it->second;
  }
  // A whole number in [lo, hi], or nullopt when the parameter is absent or empty.
  [[nodiscard]] std::optional<std::int64_t> number(const char* name, std::int64_t lo, std::int64_t hi) const {
    std::string v = text(name);
    if (v.empty()) return std::nullopt;
    std::int64_t n = 0;
    auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
    if (ec != std::errc() || end != v.data() + v.size() || n < lo || n > hi)
      throw ApiError(400, std::string(name) + ": expected a whole number from " + std::to_string(lo) + " to " +
                              std::to_string(hi) + ", got '" + v + "'");
    return n;
  }
  [[nodiscard]] std::optional<int> small(const char* name, int lo, int hi) const {
    auto n = number(name, lo, hi);
    return n ? std::optional<int>(int(*n)) : std::nullopt;
  }
  // Present and empty, 1 or true: on; absent, 0 or false: off.
  [[nodiscard]] bool flag(const char* name) const {
    auto it = p_.find(name);
    if (it == p_.end()) return false;
    const std::string& v = it->second;
    if (v.empty() || v == "1" || v == "true") return true;
    if (v == "0" || v == "false") return false;
    throw ApiError(400, std::string(name) + ": expected 1, true, 0 or false, got '" + v + "'");
  }
  // One of the given words, or the fallback when absent.
  [[nodiscard]] std::string choice(const char* name, const std::vector<std::string>& words,
                                   const std::string& fallback) const {
    std::string v = text(name, fallback);
    for (const auto& w : words)
      if (v == w) return v;
    std::string list;
    for (const auto& w : words) list += (list.empty() ? "" : ", ") + w;
    throw ApiError(400, std::string(name) + ": expected one of " + list + "; got '" + v + "'");
  }

 private:
  const Params& p_;
};

std::vector<std::string> notation_codes() {
  std::vector<std::string> codes;
  for (const auto& n : notations()) codes.emplace_back(n.code);
  return codes;
}

// The notation and style moves are written in: ?notation=zh&style=compact.
struct MoveWriting {
  const Notation* notation;
  WriteStyle style;
  [[nodiscard]] std::string write(const Position& pos, Move m) const { return write_move(pos, m, *notation, style); }
};

MoveWriting move_writing(const Query& q) {
  MoveWriting w{find_notation(q.choice("notation", notation_codes(), "en")), {}};
  std::string style = q.choice("style", {"", "spaced", "compact"}, "");
  w.style.spaced = style.empty() ? w.notation->space_after_piece : style == "spaced";
  return w;
}

std::string hex_key(Key k) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(k));
  return buf;
}

int ply_of(const Position& before) { return 2 * (before.fullmove_number() - 1) + (before.side_to_move() == Black) + 1; }

// ---- search ---------------------------------------------------------------------------

const std::vector<std::string>& result_words() {
  static const std::vector<std::string> w = {"", "1-0", "0-1", "1/2-1/2", "*", "decisive", "draw"};
  return w;
}

db::GameFilter search_filter(const Query& q) {
  db::GameFilter f;
  f.white = q.text("white");
  f.black = q.text("black");
  f.player = q.text("player");
  f.names = q.flag("substring") ? game::NameMatch::Substring : game::NameMatch::Words;  // as qipu search
  f.exact = q.flag("exact");
  f.regex = q.flag("regex");
  f.color = q.choice("color", {"", "white", "black"}, "");
  f.outcome = q.choice("outcome", {"", "won", "lost", "drew"}, "");
  f.result = q.choice("result", result_words(), "");
  f.eco = q.text("eco");
  f.opening = q.text("opening");
  f.event = q.text("event");
  f.site = q.text("site");
  f.date_from = q.text("date-from");
  f.date_to = q.text("date-to");
  f.min_elo = q.small("min-elo", 0, 4000);
  f.max_elo = q.small("max-elo", 0, 4000);
  f.both_elo = q.flag("both-elo");
  f.min_plies = q.small("min-plies", 0, 100000);
  f.max_plies = q.small("max-plies", 0, 100000);
  if (std::string t = q.text("termination"); !t.empty()) {
    f.termination = db::termination_from_name(t);
    if (!f.termination) throw ApiError(400, "termination: unknown value '" + t + "' (checkmate, stalemate, …)");
  }
  f.material = q.text("material");
  return f;
}

// The position a request names by ?fen= or ?moves=, with the line's keys for naming it.
struct Target {
  Position position;
  std::vector<Key> keys;
  std::string symbols;  // the moves' codec symbols; empty for a FEN
};

std::optional<Target> target_of(const Query& q) {
  std::string fen = q.text("fen"), moves = q.text("moves");
  if (!fen.empty() && !moves.empty()) throw ApiError(400, "give fen or moves, not both");
  if (!fen.empty()) {
    auto r = Position::from_fen(fen);
    if (!r) throw ApiError(400, "fen: " + r.error());
    return Target{*r, {r->key()}, ""};
  }
  if (moves.empty()) return std::nullopt;  // neither: no position
  auto list = db::parse_move_list(moves);
  if (!list) throw ApiError(400, "moves: " + list.error());
  return Target{list->position, list->keys, list->symbols};
}

// One row of the results table: the columns of search --format json, without the moves.
Json result_row(const db::Statement& st) {
  auto text = [&](int col) { return std::string(st.text(col)); };
  auto number = [&](int col) { return st.is_null(col) ? std::string() : std::to_string(st.int64(col)); };
  return {{"id", st.int64(0)},     {"White", text(1)},      {"Black", text(2)}, {"Result", text(3)},
          {"Date", text(4)},       {"Event", text(5)},      {"Site", text(6)},  {"Round", text(7)},
          {"WhiteElo", number(8)}, {"BlackElo", number(9)}, {"ECO", text(10)},  {"Opening", text(11)},
          {"Variation", text(12)}, {"plies", st.int64(13)}};
}

Json result_rows(db::Connection& c, const db::GameQuery& query) {
  db::GameQuery q = db::paged(query);
  auto st = c.prepare(
      "SELECT g.id, w.name, b.name, g.result, g.date, e.name, s.name, g.round, g.white_elo, g.black_elo, g.eco, "
      "o.name, o.variation, g.plies FROM game g LEFT JOIN player w ON w.id = g.white LEFT JOIN player b ON b.id = "
      "g.black LEFT JOIN event e ON e.id = g.event LEFT JOIN site s ON s.id = g.site LEFT JOIN opening o ON o.id = "
      "g.opening_id WHERE " +
      q.where + " ORDER BY " + q.order);
  db::bind_params(st, q);
  Json rows = Json::array();
  while (st.step()) rows.push_back(result_row(st));
  return rows;
}

std::vector<std::string> sort_names() {
  std::vector<std::string> names;
  for (const auto& [name, sql] : db::sort_columns()) names.push_back(name);
  return names;
}

// The parameters that select games, as /api/search and /api/count take them.
std::vector<std::string_view> filter_names(std::initializer_list<std::string_view> more = {}) {
  std::vector<std::string_view> names = {
      "white",     "black",     "player",      "exact",    "substring", "regex",   "color",    "outcome", "result",
      "eco",       "opening",   "event",       "site",     "date-from", "date-to", "min-elo",  "max-elo", "both-elo",
      "min-plies", "max-plies", "termination", "material", "fen",       "moves",   "transpose"};
  names.insert(names.end(), more);
  return names;
}

// The games the request's filters select. A position search keeps its first `max` matches
// by id.
db::GameQuery filtered(db::Connection& c, const Query& q, std::size_t max = SIZE_MAX) {
  db::GameQuery gq;
  if (auto r = db::add_conditions(c, search_filter(q), gq); !r) throw ApiError(400, r.error());
  if (auto t = target_of(q)) {
    db::PositionQuery pq{t->position, std::nullopt};
    if (!t->symbols.empty() && !q.flag("transpose")) pq.exact_moves = t->symbols;
    db::restrict_to(c, db::find_position(c, pq, gq, nullptr, max), gq);
  }
  return gq;
}

}  // namespace

Json search(db::Connection& c, const Params& p) {
  Query q(p, filter_names({"sort", "desc", "limit", "offset"}));
  std::string sort = q.choice("sort", sort_names(), "id");
  bool desc = q.flag("desc");
  std::int64_t limit = q.number("limit", 1, 1000).value_or(50);
  std::int64_t offset = q.number("offset", 0, std::int64_t(1) << 40).value_or(0);
  // In id order a position search needs its matches only up to the page's end, and one
  // more to tell whether another page follows.
  bool by_id = sort == "id" && !desc;
  db::GameQuery gq = filtered(c, q, by_id ? std::size_t(offset + limit + 1) : SIZE_MAX);
  gq.order = db::sort_columns().at(sort) + (desc ? " DESC, g.id DESC" : ", g.id");
  gq.limit = limit + 1;
  gq.offset = offset;
  Json games = result_rows(c, gq);
  bool more = std::int64_t(games.size()) > limit;
  if (more) games.erase(games.size() - 1);
  return {{"offset", offset}, {"limit", limit}, {"sort", sort},
          {"desc", desc},     {"more", more},   {"games", std::move(games)}};
}

Json count(db::Connection& c, const Params& p) {
  Query q(p, filter_names());
  return {{"total", db::count_games(c, filtered(c, q))}};
}

// ---- one game -------------------------------------------------------------------------

namespace {

// The moves of a line as convert --to json writes them, SAN in the chosen notation;
// variations nest the same way.
Json json_line(const Position& start, const game::Line& line, const MoveWriting& w) {
  Json moves = Json::array();
  game::for_each_move(start, line, [&](const Position& before, const game::MoveNode& node, const Position& after) {
    Json m = {{"ply", ply_of(before)},
              {"san", w.write(before, node.move)},
              {"uci", before.uci(node.move)},
              {"fen", after.fen()},
              {"key", hex_key(after.key())}};
    if (const auto* a = node.notes.get()) {
      if (!a->nags.empty()) m["nags"] = a->nags;
      if (!a->pre_comments.empty()) m["comments_before"] = a->pre_comments;
      if (!a->comments.empty()) m["comments"] = a->comments;
      if (!a->variations.empty()) {
        Json vars = Json::array();
        for (const auto& v : a->variations) vars.push_back(json_line(before, v, w));
        m["variations"] = std::move(vars);
      }
    }
    moves.push_back(std::move(m));
  });
  return moves;
}

Json tags_of(const game::GameRecord& rec) {
  std::vector<bool> repeated(rec.tags.size());  // the first of a name wins, as in convert --to json
  game::for_each_repeated_tag(rec.tags, [&](std::size_t i) { repeated[i] = true; });
  Json tags = Json::object();
  for (std::size_t i = 0; i < rec.tags.size(); ++i)
    if (!repeated[i]) tags[rec.tags[i].first] = rec.tags[i].second;
  return tags;
}

}  // namespace

Json game(db::Connection& c, std::int64_t id, const Params& p) {
  Query q(p, {"notation", "style"});
  MoveWriting w = move_writing(q);
  game::GameRecord rec;
  if (!db::load_game(c, id, rec)) throw ApiError(404, "no game " + std::to_string(id) + " in the database");
  game::WriterOptions wo;
  wo.notation = w.notation;
  wo.style = w.style;
  Json out = {{"id", id}, {"tags", tags_of(rec)}};
  out["start_fen"] = rec.start_fen ? Json(rec.start_position.fen()) : Json(nullptr);
  out["start_position"] = rec.start_position.fen();  // the board before the first move, always
  out["moves"] = json_line(rec.start_position, rec.mainline, w);
  out["result"] = rec.result.empty() ? std::string(rec.tag("Result")) : rec.result;
  out["termination"] = termination_name(rec.termination);
  if (!rec.final_comments.empty()) out["comments"] = rec.final_comments;
  out["notation"] = w.notation->code;
  out["pgn"] = game::write_pgn(rec, wo);
  return out;
}

// ---- explorer and ECO -----------------------------------------------------------------

namespace {

Json move_stats(const db::MoveStats& s) {
  Json j = {{"games", s.games}, {"white_wins", s.white_wins}, {"draws", s.draws}, {"black_wins", s.black_wins}};
  j["average_elo"] = s.elo_games ? Json(std::llround(s.elo_sum / double(s.elo_games))) : Json(nullptr);
  j["last_year"] = s.last_year ? Json(s.last_year) : Json(nullptr);
  return j;
}

// A move from `pos`: its text in the chosen notation, English SAN (to build move lists
// with), UCI and the position after it.
Json move_entry(const Position& pos, Move m, const MoveWriting& w) {
  Position after = pos;
  after.play(m);
  return {{"move", w.write(pos, m)}, {"san", format_san(pos, m)}, {"uci", pos.uci(m)}, {"fen", after.fen()}};
}

Json legal_moves(const Position& pos, const MoveWriting& w) {
  MoveList list;
  generate_legal(pos, list);
  Json out = Json::array();
  for (Move m : list) out.push_back(move_entry(pos, m, w));
  return out;
}

Json top_games(db::Connection& c, const std::vector<db::TopGame>& top) {
  auto st = c.prepare(
      "SELECT w.name, b.name, g.result, g.date, e.name FROM game g LEFT JOIN player w ON w.id = g.white "
      "LEFT JOIN player b ON b.id = g.black LEFT JOIN event e ON e.id = g.event WHERE g.id = ?");
  Json rows = Json::array();
  for (const auto& t : top) {
    st.bind(1, t.id);
    if (st.step())
      rows.push_back({{"id", t.id},
                      {"white", st.text(0)},
                      {"black", st.text(1)},
                      {"result", st.text(2)},
                      {"date", st.text(3)},
                      {"event", st.text(4)},
                      {"average_elo", std::llround(t.average_elo)}});
    st.reset();
  }
  return rows;
}

void add_opening(Json& out, const Target& t, const db::EcoTable* eco) {
  const db::Opening* op = eco ? eco->classify(t.keys) : nullptr;
  if (!op) return;
  out["eco"] = op->eco;
  out["opening"] = op->name;
  out["variation"] = op->variation;
}

Target target_or_start(const Query& q) {
  if (auto t = target_of(q)) return *t;
  Position start;
  return Target{start, {start.key()}, ""};
}

}  // namespace

Json explore(db::Connection& c, const Params& p, const db::EcoTable* eco) {
  Query q(p, {"fen", "moves", "notation", "style", "top", "player", "min-elo", "both-elo", "date-from", "date-to"});
  MoveWriting w = move_writing(q);
  Target t = target_or_start(q);
  db::GameFilter f;
  f.player = q.text("player");
  f.min_elo = q.small("min-elo", 0, 4000);
  f.both_elo = q.flag("both-elo");
  f.date_from = q.text("date-from");
  f.date_to = q.text("date-to");
  db::GameQuery gq;
  if (auto r = db::add_conditions(c, f, gq); !r) throw ApiError(400, r.error());
  auto ex = db::explore(c, t.position, gq, std::size_t(q.number("top", 0, 100).value_or(10)));
  Json out = {{"fen", t.position.fen()}};
  add_opening(out, t, eco);
  out.update(move_stats(ex.total));
  Json moves = Json::array();
  for (const auto& m : ex.moves) {
    Json row = move_entry(t.position, m.move, w);
    row.update(move_stats(m));
    moves.push_back(std::move(row));
  }
  out["moves"] = std::move(moves);
  out["top_games"] = top_games(c, ex.top_games);
  out["legal"] = legal_moves(t.position, w);
  out["replayed"] = ex.replayed;
  return out;
}

Json eco(const Params& p, const db::EcoTable* table) {
  Query q(p, {"fen", "moves"});
  auto t = target_of(q);
  if (!t) throw ApiError(400, "give fen or moves");
  if (!table) throw ApiError(404, "no ECO table: install pgn-extract (its eco.pgn names the openings)");
  Json out = {{"fen", t->position.fen()}, {"eco", nullptr}, {"opening", nullptr}, {"variation", nullptr}};
  add_opening(out, *t, table);
  return out;
}

// ---- stats and events -----------------------------------------------------------------

Json stats(db::Connection& c) {
  auto scalar = [&](const char* sql) {
    auto st = c.prepare(sql);
    return st.step() ? st.int64(0) : 0;
  };
  auto s = db::read_summary(c);
  Json out = {{"games", s.all.games},
              {"players", scalar("SELECT count(*) FROM player")},
              {"events", scalar("SELECT count(*) FROM event")}};
  if (s.all.first_date) out["dates"] = {db::date_text(*s.all.first_date), db::date_text(*s.all.last_date)};
  std::map<std::string, std::int64_t> by_result;  // a missing tag as an empty one
  for (const auto& [result, t] : s.results) by_result[result.value_or("")] += t.games;
  std::vector<std::pair<std::string, std::int64_t>> sorted(by_result.begin(), by_result.end());
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  Json results = Json::object();
  for (const auto& [result, n] : sorted) results[result] = n;
  out["results"] = std::move(results);
  return out;
}

Json events(db::Connection& c, const Params& p) {
  Query q(p, {"q", "limit"});
  auto limit = std::size_t(q.number("limit", 1, 1000).value_or(100));
  std::string pattern = "%";  // appended, not "%" + s + "%": see db/standings.cpp
  pattern += db::escape_like(game::fold_name(q.text("q")));
  pattern += "%";
  auto summary = db::read_summary(c);
  struct Row {
    std::int64_t id;
    std::string name;
    const db::Tally* tally;
  };
  std::vector<Row> rows;
  auto st = c.prepare("SELECT id, name FROM event WHERE qipu_fold(name) LIKE ? ESCAPE '\\'");
  st.bind(1, pattern);
  while (st.step())
    if (auto it = summary.events.find(st.int64(0)); it != summary.events.end())
      rows.push_back({st.int64(0), std::string(st.text(1)), &it->second});
  // Latest first, undated last, then by name.
  auto first = [](const Row& r) { return r.tally->first_date.value_or(std::numeric_limits<std::int64_t>::min()); };
  std::sort(rows.begin(), rows.end(),
            [&](const Row& a, const Row& b) { return first(a) != first(b) ? first(a) > first(b) : a.name < b.name; });
  if (rows.size() > limit) rows.resize(limit);
  Json out = Json::array();
  for (const auto& r : rows)
    out.push_back({{"id", r.id},
                   {"name", r.name},
                   {"games", r.tally->games},
                   {"date", r.tally->first_date ? db::date_text(*r.tally->first_date) : ""}});
  return {{"events", out}};
}

Json event(db::Connection& c, const Params& p) {
  Query q(p, {"name", "id"});
  std::optional<db::EventRef> ev;
  if (auto id = q.number("id", 1, std::int64_t(1) << 62)) {
    auto st = c.prepare("SELECT name FROM event WHERE id = ?");
    st.bind(1, *id);
    if (st.step()) ev = db::EventRef{*id, std::string(st.text(0))};
  } else {
    std::vector<db::EventRef> found;
    if (q.text("name").empty()) throw ApiError(400, "give name (or id) of the event");
    ev = db::find_event(c, q.text("name"), &found);
    if (!ev && found.size() > 1) {
      Json names = Json::array();
      for (const auto& f : found) names.push_back(f.name);
      throw ApiError(400, "several events match '" + q.text("name") + "': " + names.dump());
    }
  }
  if (!ev) throw ApiError(404, "no event matches");
  auto s = db::event_standings(c, ev->id);
  Json players = Json::array();
  for (std::size_t i = 0; i < s.entrants.size(); ++i) {
    const auto& e = s.entrants[i];
    Json cells = Json::array();
    for (const auto& opp : s.entrants) {
      auto it = e.cells.find(opp.id);
      cells.push_back(opp.id == e.id ? "x" : it == e.cells.end() ? "" : it->second);
    }
    players.push_back({{"rank", i + 1},
                       {"name", e.name},
                       {"games", e.games},
                       {"points", e.points},
                       {"sb", std::round(e.sb * 100) / 100},
                       {"crosstable", cells}});
  }
  return {{"id", ev->id}, {"event", ev->name}, {"games", s.games}, {"players", players}};
}

}  // namespace qipu::serve
