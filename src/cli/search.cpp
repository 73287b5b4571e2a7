// qipu search [--db PATH] [filters…] — find games by player, result, date, rating,
// opening, position or move order, and print them as a table, PGN, JSON or CSV.
#include <iostream>
#include <map>
#include <memory>

#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "cli/criteria.hpp"
#include "cli/db_options.hpp"
#include "cli/lang.hpp"
#include "cli/table.hpp"
#include "qipu/db/explore.hpp"
#include "qipu/db/search.hpp"
#include "qipu/game/writer.hpp"

namespace qipu::cli {

namespace {

struct SearchOptions {
  std::string db;
  CriteriaOptions criteria;
  std::string format = "table", notation = "en", sort = "id";
  std::string lang;  // of the table's headings, results and opening names
  bool desc = false, count = false;
  std::int64_t limit = -1, offset = 0;
};

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

// The table's columns, fixed so that rows go out as they are read.
Table game_table(Lang lang) {
  auto w = [&](std::string_view english) { return std::string(word(lang, english)); };
  return Table({{w("id"), 7, 7, true},
                {w("White"), 24},
                {w("Black"), 24},
                {w("result"), 7},
                {w("date"), 10},
                {w("event"), 28},
                {"ECO", 3},
                {w("plies"), 5, 5, true},
                {w("opening"), 40}});
}

std::vector<std::string> table_row(Lang lang, const game::GameRecord& rec, const Extra& x) {
  return {std::to_string(rec.index),
          shown(rec.tag("White")),
          shown(rec.tag("Black")),
          std::string(result_word(lang, shown(rec.tag("Result")))),
          shown(rec.tag("Date")),
          shown(rec.tag("Event")),
          shown(x.eco),
          std::to_string(rec.plies()),
          shown(opening_text(lang, x.opening, x.variation))};
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

// Prints the games of the query in the chosen format.
void print_games(std::ostream& out, db::Connection& c, const db::GameQuery& query, const SearchOptions& o) {
  db::GameQuery q = db::paged(query);
  const Notation& n = *find_notation(o.notation);
  game::WriterOptions w;
  w.notation = &n;
  w.style.spaced = n.space_after_piece;
  ExtraReader extra(c);
  Lang lang = resolve_lang(o.lang);
  Table table = game_table(lang);
  if (o.format == "table") table.write_header(out);
  if (o.format == "csv") out << CsvHeader;
  if (o.format == "json") out << "[\n";
  bool first = true;
  db::for_each_game(c, q, [&](game::GameRecord& rec) {
    Extra x = o.format == "pgn" ? Extra{} : extra.read(std::int64_t(rec.index));
    if (o.format == "table")
      table.write_row(out, table_row(lang, rec, x));
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

// The position filter, or nullopt with an error printed.
// (finish_criteria has checked the FEN and the moves.)
std::optional<db::PositionQuery> position_query(const game::Criteria& c) {
  db::PositionQuery pq;
  if (!c.fen.empty()) {
    pq.position = Position::from_fen(c.fen).value();
    return pq;
  }
  auto list = db::parse_move_list(c.moves);
  if (!list) return std::nullopt;
  pq.position = list->position;
  if (!c.transpose) pq.exact_moves = list->symbols;
  return pq;
}

bool build_query(const SearchOptions& o, db::Connection& c, db::GameQuery& q) {
  if (auto r = db::add_conditions(c, o.criteria.criteria, q); !r) {
    std::cerr << "qipu search: " << r.error() << "\n";
    return false;
  }
  q.order = db::sort_columns().at(o.sort) + (o.desc ? " DESC, g.id DESC" : ", g.id");
  q.limit = o.limit >= 0 ? (o.limit == 0 ? -1 : o.limit) : (o.format == "table" ? 50 : -1);
  q.offset = o.offset;
  return true;
}

void search(std::ostream& out, const SearchOptions& o) {
  const game::Criteria& crit = o.criteria.criteria;
  if (!crit.fen.empty() && !crit.moves.empty()) {
    std::cerr << "qipu search: give --fen or --moves, not both\n";
    return set_exit_code(2);
  }
  auto c = db::open_for_search(db::database_path(o.db));
  db::GameQuery q;
  if (!build_query(o, *c, q)) return set_exit_code(2);
  if (!crit.fen.empty() || !crit.moves.empty()) {
    auto pq = position_query(crit);
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
    db::restrict_to(*c, ids, q);
  } else if (o.count) {
    out << db::count_games(*c, q) << "\n";
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

}  // namespace

void setup_search(CLI::App& app) {
  auto o = std::make_shared<SearchOptions>();
  auto* cmd =
      app.add_subcommand("search", "Find games in the database by player, result, date, rating, opening or position");
  add_db_option(*cmd, o->db);
  add_criteria_options(*cmd, o->criteria, CriteriaScope::search);
  cmd->add_option("--format", o->format, "table (default), pgn, json or csv")
      ->check(CLI::IsMember({"table", "pgn", "json", "csv"}));
  std::vector<std::string> codes;
  for (const auto& n : notations()) codes.emplace_back(n.code);
  cmd->add_option("--notation", o->notation,
                  "Notation of moves in pgn, json and csv output: en (default), zh, zh-Hant, fan, de, …")
      ->check(CLI::IsMember(codes));
  add_lang_option(*cmd, o->lang);
  std::vector<std::string> sorts;
  for (const auto& [name, sql] : db::sort_columns()) sorts.push_back(name);
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
      "          qipu search --player \"Anand, V\" --won --color black\n"
      "          qipu search --moves \"1.e4 c5 2.Nf3 d6\" --transpose --count\n"
      "          qipu search --eco B90-B99 --min-elo 2700 --both-elo --format pgn --notation zh\n"
      "          qipu search --player 丁立人 --lang zh   (Chinese headings, results 白胜/黑胜/和棋, opening names)");
  cmd->callback([o, cmd] {
    if (!finish_criteria("search", *cmd, o->criteria)) return set_exit_code(2);
    run_search(*o);
  });
}

}  // namespace qipu::cli
