// qipu explore [--db PATH] (--fen FEN | --moves "…") — what the collection played from a
// position and how it scored, from the position index.
#include <cstdio>
#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "cli/criteria.hpp"
#include "cli/db_options.hpp"
#include "cli/lang.hpp"
#include "cli/table.hpp"
#include "qipu/db/eco.hpp"
#include "qipu/db/players.hpp"
#include "qipu/db/rating.hpp"
#include "qipu/db/search.hpp"

namespace qipu::cli {

namespace {

struct ExploreOptions {
  std::string db, fen, moves, notation, format = "table", eco_file = db::DefaultEcoFile;
  std::string lang;             // of the table's words and the opening's name
  bool eco_file_given = false;  // else the lines the database keeps name the position, when it keeps them
  std::size_t top = 10;
  CriteriaOptions criteria;  // only games that pass them count
};

struct Target {
  Position position;
  std::vector<Key> keys;  // the line that led there, for naming it; just the position for --fen
};

std::optional<Target> target_of(const ExploreOptions& o) {
  if (!o.fen.empty()) {
    auto r = Position::from_fen(o.fen);
    if (!r) {
      std::cerr << "qipu explore: --fen: " << r.error() << "\n";
      return std::nullopt;
    }
    return Target{*r, {r->key()}};
  }
  auto list = db::parse_move_list(o.moves);
  if (!list) {
    std::cerr << "qipu explore: --moves: " << list.error() << "\n";
    return std::nullopt;
  }
  return Target{list->position, list->keys};
}

// The opening of the deepest named position of the line: from the ECO lines the last
// import kept in the database (a query), else from the ECO file, read and replayed whole
// (6 ms); none with an empty --eco-file.
std::optional<db::Opening> name_of(db::Connection& c, const Target& t, const ExploreOptions& o) {
  if (o.eco_file.empty()) return std::nullopt;
  try {
    if (!o.eco_file_given) {
      auto stored = db::EcoTable::classify_stored(c, t.keys);
      if (stored.kept) return stored.opening;
    }
  } catch (const db::DbError&) {
    // A database whose eco_line is not qipu's: the file names the position instead.
  }
  try {
    auto table = db::EcoTable::load(o.eco_file);
    if (const db::Opening* op = table.classify(t.keys)) return *op;
  } catch (const db::DbError&) {
    // Names are a courtesy: the statistics stand without them.
  }
  return std::nullopt;
}

std::string percent(std::uint64_t part, std::uint64_t whole) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.1f", whole ? 100.0 * double(part) / double(whole) : 0.0);
  return buf;
}

std::string average(const db::MoveStats& s) {
  return s.elo_games ? std::to_string(std::llround(s.elo_sum / double(s.elo_games))) : "";
}

// The player's score and performance rating over the games of a move (--player).
std::string player_score(const db::MoveStats& s) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.1f", s.player_games ? 100.0 * s.player_points / double(s.player_games) : 0.0);
  return buf;
}
std::string performance(const db::MoveStats& s) {
  auto p = db::performance_rating(s.opponent_elo_sum, s.rated_points, int(s.rated_games));
  return p ? std::to_string(*p) : "";
}

struct TopRow {
  std::int64_t id;
  std::string white, black, result, date, event;
  double elo;
};

std::vector<TopRow> top_rows(db::Connection& c, const std::vector<db::TopGame>& top) {
  auto st = c.prepare(
      "SELECT w.name, b.name, g.result, g.date, e.name FROM game g LEFT JOIN player w ON w.id = g.white "
      "LEFT JOIN player b ON b.id = g.black LEFT JOIN event e ON e.id = g.event WHERE g.id = ?");
  std::vector<TopRow> rows;
  for (const auto& t : top) {
    st.bind(1, t.id);
    if (st.step())
      rows.push_back({t.id, std::string(st.text(0)), std::string(st.text(1)), std::string(st.text(2)),
                      std::string(st.text(3)), std::string(st.text(4)), t.average_elo});
    st.reset();
  }
  return rows;
}

void print_moves(std::ostream& out, Lang lang, const Position& pos, const db::Exploration& ex, const Notation& n,
                 bool player) {
  auto w = [&](std::string_view english) { return std::string(word(lang, english)); };
  std::vector<Column> columns{{w("move")},
                              {w("games"), 0, 40, true},
                              {w("share"), 0, 40, true},
                              {w("white"), 0, 40, true},
                              {w("draw"), 0, 40, true},
                              {w("black"), 0, 40, true},
                              {w("elo"), 0, 40, true},
                              {w("last")}};
  if (player) columns.insert(columns.end(), {{w("score"), 0, 40, true}, {w("perf"), 0, 40, true}});
  Table table(columns);
  WriteStyle style;
  style.spaced = n.space_after_piece;
  const auto& t = ex.total;
  for (const auto& m : ex.moves) {
    std::vector<std::string> row{write_move(pos, m.move, n, style),
                                 std::to_string(m.games),
                                 percent(m.games, t.games),
                                 percent(m.white_wins, m.games),
                                 percent(m.draws, m.games),
                                 percent(m.black_wins, m.games),
                                 average(m),
                                 m.last_year ? std::to_string(m.last_year) : ""};
    if (player) row.insert(row.end(), {player_score(m), performance(m)});
    table.add(row);
  }
  table.print(out);
}

void print_top(std::ostream& out, Lang lang, const std::vector<TopRow>& top) {
  auto w = [&](std::string_view english) { return std::string(word(lang, english)); };
  Table table({{w("id"), 0, 40, true},
               {w("elo"), 0, 40, true},
               {w("players"), 0, 44},
               {w("result")},
               {w("date")},
               {w("event"), 0, 60}});
  for (const auto& r : top)
    table.add({std::to_string(r.id), std::to_string(std::llround(r.elo)), shown(r.white) + " – " + shown(r.black),
               std::string(result_word(lang, shown(r.result))), shown(r.date), shown(r.event)});
  table.print(out);
}

void print_table(std::ostream& out, Lang lang, const Position& pos, const std::optional<db::Opening>& name,
                 const db::Exploration& ex, const std::vector<TopRow>& top, const Notation& n, bool player) {
  out << word(lang, "Position: ") << pos.fen() << "\n";
  if (name)
    out << word(lang, "Opening:  ") << shown(name->eco + " " + opening_text(lang, name->name, name->variation)) << "\n";
  const auto& t = ex.total;
  out << say(lang,
             t.games == 1 ? "{} game: White wins {}%, draws {}%, Black wins {}%"
                          : "{} games: White wins {}%, draws {}%, Black wins {}%",
             {std::to_string(t.games), percent(t.white_wins, t.games), percent(t.draws, t.games),
              percent(t.black_wins, t.games)})
      << "\n\n";
  print_moves(out, lang, pos, ex, n, player);
  if (top.empty()) return;
  out << "\n" << word(lang, "Top games (average Elo):") << "\n";
  print_top(out, lang, top);
}

void append_field(std::string& out, std::string_view key, std::string_view value) {
  append_json_string(out, key);
  out += ": ";
  append_json_string(out, value);
}

std::string json_stats(const db::MoveStats& s, bool player) {
  std::string out = "\"games\": " + std::to_string(s.games) + ", \"white_wins\": " + std::to_string(s.white_wins) +
                    ", \"draws\": " + std::to_string(s.draws) + ", \"black_wins\": " + std::to_string(s.black_wins);
  out += ", \"average_elo\": " + (s.elo_games ? average(s) : std::string("null"));
  out += ", \"last_year\": " + (s.last_year ? std::to_string(s.last_year) : std::string("null"));
  if (player) {
    std::string perf = performance(s);
    out += ", \"player_score\": " + player_score(s) + ", \"performance\": " + (perf.empty() ? "null" : perf);
  }
  return out;
}

void print_json(std::ostream& stream, const Position& pos, const std::optional<db::Opening>& name,
                const db::Exploration& ex, const std::vector<TopRow>& top, const Notation& n, bool player) {
  std::string out = "{";
  append_field(out, "fen", pos.fen());
  if (name) {
    out += ", ";
    append_field(out, "eco", name->eco);
    out += ", ";
    append_field(out, "opening", name->name);
    out += ", ";
    append_field(out, "variation", name->variation);
  }
  out += ", " + json_stats(ex.total, player) + ", \"moves\": [";
  WriteStyle style;
  style.spaced = n.space_after_piece;
  for (std::size_t i = 0; i < ex.moves.size(); ++i) {
    out += i ? ",\n  {" : "\n  {";
    append_field(out, "move", write_move(pos, ex.moves[i].move, n, style));
    out += ", " + json_stats(ex.moves[i], player) + "}";
  }
  out += "],\n \"top_games\": [";
  for (std::size_t i = 0; i < top.size(); ++i) {
    out += i ? ",\n  {" : "\n  {";
    out += "\"id\": " + std::to_string(top[i].id) + ", ";
    append_field(out, "white", top[i].white);
    out += ", ";
    append_field(out, "black", top[i].black);
    out += ", ";
    append_field(out, "result", top[i].result);
    out += ", ";
    append_field(out, "date", top[i].date);
    out += ", ";
    append_field(out, "event", top[i].event);
    out += ", \"average_elo\": " + std::to_string(std::llround(top[i].elo)) + "}";
  }
  stream << out << "]}\n";
}

void explore(std::ostream& out, const ExploreOptions& o) {
  if (o.fen.empty() == o.moves.empty()) {
    std::cerr << "qipu explore: give --fen or --moves (one of them)\n";
    return set_exit_code(2);
  }
  auto target = target_of(o);
  if (!target) return set_exit_code(2);
  auto c = db::open_for_search(db::database_path(o.db));
  db::GameQuery q;
  const db::GameFilter& f = o.criteria.criteria;
  if (auto r = db::add_conditions(*c, f, q); !r) {
    std::cerr << "qipu explore: " << r.error() << "\n";
    return set_exit_code(2);
  }
  bool player = !f.player.empty();
  std::vector<std::int64_t> rows;
  if (player) rows = db::matching_players(*c, f.player);
  auto ex = db::explore(*c, target->position, q, o.top, player ? &rows : nullptr);
  note_replayed("explore", ex.replayed, db::database_path(o.db));
  auto top = top_rows(*c, ex.top_games);
  auto name = name_of(*c, *target, o);
  Lang lang = resolve_lang(o.lang);
  if (o.format == "json")
    print_json(out, target->position, name, ex, top, *find_notation(o.notation.empty() ? "en" : o.notation), player);
  else  // a Chinese reader's moves are Chinese too, unless --notation says otherwise
    print_table(out, lang, target->position, name, ex, top,
                *find_notation(o.notation.empty() ? notation_code(lang) : o.notation), player);
}

void run_explore(const ExploreOptions& o) {
  Output output("explore");
  if (!output.open("")) return;
  explore(output.stream(), o);
  output.finish();
}

}  // namespace

void setup_explore(CLI::App& app) {
  auto o = std::make_shared<ExploreOptions>();
  auto* cmd = app.add_subcommand("explore", "Show every move played from a position, how often and how it scored");
  add_db_option(*cmd, o->db);
  cmd->add_option("--fen", o->fen, "The position, as FEN");
  cmd->add_option("--moves", o->moves, "The position after these moves, in any notation: \"1.d4 Nf6\", \"1.d4 马f6\"");
  std::vector<std::string> codes;
  for (const auto& n : notations()) codes.emplace_back(n.code);
  cmd->add_option("--notation", o->notation,
                  "Notation of the moves shown: en, zh, zh-Hant, fan, de, … (default: the --lang's, en for json)")
      ->check(CLI::IsMember(codes));
  add_lang_option(*cmd, o->lang);
  cmd->add_option("--format", o->format, "table (default) or json")->check(CLI::IsMember({"table", "json"}));
  cmd->add_option("--top", o->top, "How many top games (highest average Elo) to list (default 10)");
  add_criteria_options(*cmd, o->criteria, CriteriaScope::explore);
  cmd->add_option("--eco-file", o->eco_file,
                  "ECO lines for naming the position (default: those the last import classified games by, "
                  "which the database keeps, else " +
                      std::string(db::DefaultEcoFile) + ")");
  cmd->footer(
      "Each game counts once, with the move it played the first time it reached the position;\n"
      "percentages are of the games with that move. Elo is the mean of the known ratings of both players.\n"
      "--player, --color, --min-elo, --max-elo, --both-elo, --date-from and --date-to select games as in search.\n"
      "With --player, score is the player's percentage and perf FIDE's performance rating over the rated opponents.\n"
      "Opening positions (at most 12 pieces and pawns off their start squares) are answered from the\n"
      "explorer's aggregate, kept by import: milliseconds at any database size. With a filter (--player,\n"
      "--min-elo, --date-from, …), --top above 10, or a later position, the games are read instead\n"
      "through the position index, which takes longer the more games reach the position. A database\n"
      "first imported with --no-position-index has no aggregate and its games no index: they are replayed.\n"
      "Examples: qipu explore --moves \"1.e4 c5 2.Nf3 d6\" --notation zh\n"
      "          qipu explore --moves \"1.e4 c5 2.马f3 d6\" --lang zh   (Chinese headings, opening name and moves)\n"
      "          qipu explore --moves \"1.e4\" --player carlsen --color black");
  cmd->callback([o, cmd] {
    if (!finish_criteria("explore", *cmd, o->criteria)) return set_exit_code(2);
    o->eco_file_given = cmd->count("--eco-file") > 0;
    run_explore(*o);
  });
}

}  // namespace qipu::cli
