// qipu search [--db PATH] [filters…] — find games by player, result, date, rating,
// opening, position or move order, and print them as a table, PGN, JSON or CSV.
#include <iostream>
#include <map>
#include <memory>

#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "cli/db_options.hpp"
#include "qipu/db/explore.hpp"
#include "qipu/db/search.hpp"
#include "qipu/game/writer.hpp"

namespace qipu::cli {

namespace {

struct SearchOptions {
  std::string db;
  db::GameFilter filter;
  std::string termination, fen, moves;
  bool transpose = false;
  std::string format = "table", notation = "en", sort = "id";
  bool desc = false, count = false;
  std::int64_t limit = -1, offset = 0;
};

// Whitelisted ORDER BY terms: the user picks a name, never SQL.
const std::map<std::string, std::string>& sort_columns() {
  static const std::map<std::string, std::string> m = {
      {"id", "g.id"},
      {"date", "g.date_sort"},
      {"white", "w.name"},
      {"black", "b.name"},
      {"white-elo", "g.white_elo"},
      {"black-elo", "g.black_elo"},
      {"plies", "g.plies"},
      {"eco", "g.eco"},
      {"event", "e.name"},
      {"elo", "(coalesce(g.white_elo, 0) + coalesce(g.black_elo, 0))"}};
  return m;
}

// Columns of a game the record does not carry: a classified ECO code and the names.
struct Extra {
  std::string eco, opening, variation;
};

class ExtraReader {
 public:
  explicit ExtraReader(db::Connection& c)
      : st_(c.prepare("SELECT g.eco, o.name, o.variation FROM game g LEFT JOIN opening o ON o.id = g.opening_id WHERE "
                      "g.id = ?")) {}
  Extra read(std::int64_t id) {
    Extra e;
    st_.bind(1, id);
    if (st_.step()) e = {std::string(st_.text(0)), std::string(st_.text(1)), std::string(st_.text(2))};
    st_.reset();
    return e;
  }

 private:
  db::Statement st_;
};

// Columns on a terminal: CJK characters take two.
std::size_t display_width(std::string_view s) {
  std::size_t w = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    auto b = static_cast<unsigned char>(s[i]);
    if ((b & 0xC0) == 0x80) continue;
    w += b >= 0xE1 && b <= 0xEF ? 2 : 1;  // U+1000 and up: mostly wide scripts in names
  }
  return w;
}

std::string fit(std::string_view s, std::size_t width) {
  std::string out;
  std::size_t w = 0;
  for (std::size_t i = 0; i < s.size();) {
    std::size_t len = 1;
    while (i + len < s.size() && (static_cast<unsigned char>(s[i + len]) & 0xC0) == 0x80) ++len;
    std::size_t cw = display_width(s.substr(i, len));
    if (w + cw > width) break;
    out.append(s.substr(i, len));
    w += cw;
    i += len;
  }
  out.append(width - w + 1, ' ');
  return out;
}

std::vector<std::string> move_texts(const game::GameRecord& rec, const Notation& n) {
  std::vector<std::string> out;
  WriteStyle style;
  style.spaced = n.space_after_piece;
  game::for_each_move(rec.start_position, rec.mainline,
                      [&](const Position& before, const game::MoveNode& node, const Position&) {
                        out.push_back(write_move(before, node.move, n, style));
                      });
  return out;
}

void print_table_header(std::ostream& out) {
  out << fit("id", 7) << fit("white", 24) << fit("black", 24) << fit("result", 7) << fit("date", 10) << fit("event", 28)
      << fit("ECO", 3) << "plies\n";
}

void print_table_row(std::ostream& out, const game::GameRecord& rec, const Extra& x) {
  out << fit(std::to_string(rec.index), 7) << fit(shown(rec.tag("White")), 24) << fit(shown(rec.tag("Black")), 24)
      << fit(shown(rec.tag("Result")), 7) << fit(shown(rec.tag("Date")), 10) << fit(shown(rec.tag("Event")), 28)
      << fit(shown(x.eco), 3) << rec.plies() << "\n";
}

// A number ("-1", "+3", "2.5") is data to a spreadsheet, not a formula.
bool is_number(std::string_view s) {
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
  auto dot = s.find('.');
  auto digits = [](std::string_view d) {
    return !d.empty() && d.find_first_not_of("0123456789") == std::string_view::npos;
  };
  return dot == std::string_view::npos ? digits(s) : digits(s.substr(0, dot)) && digits(s.substr(dot + 1));
}

// A CSV cell; text that a spreadsheet would run as a formula (=, +, -, @, tab or CR
// first) gets a leading ' as OWASP advises, so "=HYPERLINK(…)" in a name stays text.
std::string csv_field(std::string_view s) {
  std::string cell;
  if (!s.empty() && std::string_view("=+-@\t\r").find(s[0]) != std::string_view::npos && !is_number(s)) cell = "'";
  cell += s;
  if (cell.find_first_of(",\"\n\r") == std::string::npos) return cell;
  std::string out = "\"";
  for (char c : cell) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

constexpr const char* CsvHeader =
    "id,white,black,result,date,event,site,round,white_elo,black_elo,eco,opening,variation,plies,moves\n";

void print_csv_row(std::ostream& out, const game::GameRecord& rec, const Extra& x, const Notation& n) {
  std::string moves;
  for (const auto& m : move_texts(rec, n)) moves += (moves.empty() ? "" : " ") + m;
  std::string line = std::to_string(rec.index);
  for (std::string_view v : {rec.tag("White"), rec.tag("Black"), rec.tag("Result"), rec.tag("Date"), rec.tag("Event"),
                             rec.tag("Site"), rec.tag("Round"), rec.tag("WhiteElo"), rec.tag("BlackElo")})
    line += "," + csv_field(v);
  for (const std::string& v : {x.eco, x.opening, x.variation}) line += "," + csv_field(v);
  line += "," + std::to_string(rec.plies()) + "," + csv_field(moves) + "\n";
  out << line;
}

void print_json_row(std::ostream& stream, const game::GameRecord& rec, const Extra& x, const Notation& n, bool first) {
  std::string out = first ? "  {" : ",\n  {";
  out += "\"id\": " + std::to_string(rec.index);
  auto field = [&](std::string_view key, std::string_view value) {
    out += ", ";
    append_json_string(out, key);
    out += ": ";
    append_json_string(out, value);
  };
  for (std::string_view tag : {"White", "Black", "Result", "Date", "Event", "Site", "Round", "WhiteElo", "BlackElo"})
    field(tag, rec.tag(tag));
  field("ECO", x.eco);
  field("Opening", x.opening);
  field("Variation", x.variation);
  out += ", \"plies\": " + std::to_string(rec.plies()) + ", \"moves\": [";
  bool first_move = true;
  for (const auto& m : move_texts(rec, n)) {
    if (!first_move) out += ", ";
    append_json_string(out, m);
    first_move = false;
  }
  stream << out << "]}";
}

// The same games with sorting and paging done on ids alone, in a subquery: only the rows
// shown are then joined with names and decoded. Unused joins are dropped by SQLite.
db::GameQuery paged(const db::GameQuery& q) {
  db::GameQuery p;
  p.where =
      "g.id IN (SELECT g.id FROM game g LEFT JOIN player w ON w.id = g.white LEFT JOIN player b ON b.id = g.black "
      "LEFT JOIN event e ON e.id = g.event WHERE " +
      q.where + " ORDER BY " + q.order + " LIMIT ? OFFSET ?)";
  p.params = q.params;
  p.params.emplace_back(q.limit);
  p.params.emplace_back(q.offset);
  p.order = q.order;
  return p;
}

// Prints the games of the query in the chosen format.
void print_games(std::ostream& out, db::Connection& c, const db::GameQuery& query, const SearchOptions& o) {
  db::GameQuery q = paged(query);
  const Notation& n = *find_notation(o.notation);
  game::WriterOptions w;
  w.notation = &n;
  w.style.spaced = n.space_after_piece;
  ExtraReader extra(c);
  if (o.format == "table") print_table_header(out);
  if (o.format == "csv") out << CsvHeader;
  if (o.format == "json") out << "[\n";
  bool first = true;
  db::for_each_game(c, q, [&](game::GameRecord& rec) {
    Extra x = o.format == "pgn" ? Extra{} : extra.read(std::int64_t(rec.index));
    if (o.format == "table")
      print_table_row(out, rec, x);
    else if (o.format == "csv")
      print_csv_row(out, rec, x, n);
    else if (o.format == "json")
      print_json_row(out, rec, x, n, first);
    else
      out << game::write_pgn(rec, w);
    first = false;
    return bool(out);
  });
  if (o.format == "json") out << (first ? "]\n" : "\n]\n");
}

std::int64_t count_games(db::Connection& c, const db::GameQuery& q) {
  auto st = c.prepare("SELECT count(*) FROM game g WHERE " + q.where);
  int i = 1;
  for (const auto& p : q.params) std::visit([&](const auto& v) { st.bind(i++, v); }, p);
  return st.step() ? st.int64(0) : 0;
}

// The position filter, or nullopt with an error printed.
std::optional<db::PositionQuery> position_query(const SearchOptions& o) {
  db::PositionQuery pq;
  if (!o.fen.empty()) {
    auto r = Position::from_fen(o.fen);
    if (!r) {
      std::cerr << "qipu search: --fen: " << r.error << "\n";
      return std::nullopt;
    }
    pq.position = *r.position;
    return pq;
  }
  auto list = db::parse_move_list(o.moves);
  if (!list.error.empty()) {
    std::cerr << "qipu search: --moves: " << list.error << "\n";
    return std::nullopt;
  }
  pq.position = list.position;
  if (!o.transpose) pq.exact_moves = list.symbols;
  return pq;
}

// Narrows the query to the games a position search found, through a temporary table
// (allowed on a read-only connection), so that sorting and paging stay in SQL.
void restrict_to(db::Connection& c, const std::vector<std::int64_t>& ids, db::GameQuery& q) {
  c.exec("CREATE TEMP TABLE IF NOT EXISTS qipu_hits(id INTEGER PRIMARY KEY)");
  auto ins = c.prepare("INSERT INTO temp.qipu_hits(id) VALUES (?)");
  c.exec("BEGIN");
  for (auto id : ids) { ins.bind(1, id).run(); }
  c.exec("COMMIT");
  q.where = "g.id IN (SELECT id FROM temp.qipu_hits)";
  q.params.clear();
}

bool build_query(const SearchOptions& o, db::GameQuery& q) {
  db::GameFilter f = o.filter;
  if (!o.termination.empty()) f.termination = db::termination_from_name(o.termination);
  if (auto e = db::add_conditions(f, q); !e.empty()) {
    std::cerr << "qipu search: " << e << "\n";
    return false;
  }
  q.order = sort_columns().at(o.sort) + (o.desc ? " DESC, g.id DESC" : ", g.id");
  q.limit = o.limit >= 0 ? (o.limit == 0 ? -1 : o.limit) : (o.format == "table" ? 50 : -1);
  q.offset = o.offset;
  return true;
}

void search(std::ostream& out, const SearchOptions& o) {
  if (!o.fen.empty() && !o.moves.empty()) {
    std::cerr << "qipu search: give --fen or --moves, not both\n";
    return set_exit_code(2);
  }
  db::GameQuery q;
  if (!build_query(o, q)) return set_exit_code(2);
  auto c = db::open_for_search(db::database_path(o.db));
  if (!o.fen.empty() || !o.moves.empty()) {
    auto pq = position_query(o);
    if (!pq) return set_exit_code(2);
    if (o.count && !pq->exact_moves && q.where == "1")  // no other filter: the explorer's aggregate may know
      if (auto n = db::count_aggregate(*c, pq->position)) {
        out << *n << "\n";
        return;
      }
    std::uint64_t replayed = 0;
    // In id order (the default), a page needs only the matches up to it.
    bool by_id = o.sort == "id" && !o.desc && q.limit > 0 && !o.count;
    auto ids = db::find_position(*c, *pq, q, &replayed, by_id ? std::size_t(q.limit + q.offset) : SIZE_MAX);
    note_replayed("search", replayed, db::database_path(o.db));
    if (o.count) {
      out << ids.size() << "\n";
      return;
    }
    restrict_to(*c, ids, q);
  } else if (o.count) {
    out << count_games(*c, q) << "\n";
    return;
  }
  print_games(out, *c, q, o);
}

void run_search(const SearchOptions& o) {
  Output output("search");
  if (!output.open("")) return;
  search(output.stream(), o);
  output.finish();
}

void add_filter_options(CLI::App& cmd, SearchOptions& o) {
  db::GameFilter& f = o.filter;
  cmd.add_option("--white", f.white, "White's name contains this (case-insensitive; any script, e.g. 王皓)");
  cmd.add_option("--black", f.black, "Black's name contains this");
  cmd.add_option("--player", f.player, "Either player's name contains this");
  cmd.add_flag("--exact", f.exact, "Names (players, --event, --site) must match whole, still case-insensitive");
  cmd.add_option("--result", f.result, "1-0, 0-1, 1/2-1/2, *, decisive or draw")
      ->check(CLI::IsMember({"1-0", "0-1", "1/2-1/2", "*", "decisive", "draw"}));
  cmd.add_option("--eco", f.eco,
                 "ECO code (C60), range (C60-C99) or letter (C); classified at import when the tag is missing");
  cmd.add_option("--opening", f.opening, "Opening or variation name contains this (e.g. Sicilian, Najdorf)");
  cmd.add_option("--event", f.event, "Event name contains this");
  cmd.add_option("--site", f.site, "Site contains this");
  cmd.add_option("--date-from", f.date_from, "Played on or after this date: 1990, 1990.05 or 1990.05.17");
  cmd.add_option("--date-to", f.date_to, "Played on or before this date: 1990 means up to the end of 1990");
  cmd.add_option("--min-elo", f.min_elo, "A player (both with --both-elo) rated at least this");
  cmd.add_option("--max-elo", f.max_elo, "A player (both with --both-elo) rated at most this");
  cmd.add_flag("--both-elo", f.both_elo, "Apply --min-elo/--max-elo to both players rather than either");
  cmd.add_option("--min-plies", f.min_plies, "At least this many half-moves");
  cmd.add_option("--max-plies", f.max_plies, "At most this many half-moves");
  std::vector<std::string> terms;
  for (int t = 0; t <= int(Termination::FiftyMoveRule); ++t) terms.emplace_back(termination_name(Termination(t)));
  cmd.add_option("--termination", o.termination,
                 "How the final position stands: checkmate, stalemate, insufficient_material, …")
      ->check(CLI::IsMember(terms));
  cmd.add_option("--material", f.material, "Material at the end, White first: KRPvKR (kings may be left out: RPvR)");
  cmd.add_option("--fen", o.fen, "Games reaching this position at any ply (through the position index)");
  cmd.add_option("--moves", o.moves,
                 "Games beginning with these moves, in any notation: \"1.e4 c5 2.Nf3\", \"1.e4 c5 2.马f3\"");
  cmd.add_flag("--transpose", o.transpose, "With --moves: also games reaching the same position by another move order");
}

}  // namespace

void setup_search(CLI::App& app) {
  auto o = std::make_shared<SearchOptions>();
  auto* cmd =
      app.add_subcommand("search", "Find games in the database by player, result, date, rating, opening or position");
  add_db_option(*cmd, o->db);
  add_filter_options(*cmd, *o);
  cmd->add_option("--format", o->format, "table (default), pgn, json or csv")
      ->check(CLI::IsMember({"table", "pgn", "json", "csv"}));
  std::vector<std::string> codes;
  for (const auto& n : notations()) codes.emplace_back(n.code);
  cmd->add_option("--notation", o->notation,
                  "Notation of moves in pgn, json and csv output: en (default), zh, zh-Hant, fan, de, …")
      ->check(CLI::IsMember(codes));
  std::vector<std::string> sorts;
  for (const auto& [name, sql] : sort_columns()) sorts.push_back(name);
  cmd->add_option("--sort", o->sort,
                  "Order by id (default), date, white, black, white-elo, black-elo, elo, plies, eco or event")
      ->check(CLI::IsMember(sorts));
  cmd->add_flag("--desc", o->desc, "Sort in descending order (highest Elo, latest date first)");
  cmd->add_option("--limit", o->limit, "At most this many games; 0 for all (default: 50 for the table, all otherwise)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--offset", o->offset, "Skip this many games first (for paging)")->check(CLI::NonNegativeNumber);
  cmd->add_flag("--count", o->count, "Print only the number of matching games");
  cmd->footer(
      "Filters combine with AND. The database is opened read-only.\n"
      "Examples: qipu search --player carlsen --result decisive --date-from 2013\n"
      "          qipu search --moves \"1.e4 c5 2.Nf3 d6\" --transpose --count\n"
      "          qipu search --eco B90-B99 --min-elo 2700 --both-elo --format pgn --notation zh");
  cmd->callback([o] { run_search(*o); });
}

}  // namespace qipu::cli
