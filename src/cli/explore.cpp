// qipu explore [--db PATH] (--fen FEN | --moves "…") — what the collection played from a
// position and how it scored, from the position index.
#include <cstdio>
#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "cli/db_options.hpp"
#include "qipu/db/eco.hpp"
#include "qipu/db/search.hpp"

namespace qipu::cli {

namespace {

struct ExploreOptions {
  std::string db, fen, moves, notation = "en", format = "table", eco_file = db::DefaultEcoFile;
  std::size_t top = 10;
  db::GameFilter filter;  // only games that pass it count
};

struct Target {
  Position position;
  std::vector<Key> keys;  // the line that led there, for naming it; just the position for --fen
};

std::optional<Target> target_of(const ExploreOptions& o) {
  if (!o.fen.empty()) {
    auto r = Position::from_fen(o.fen);
    if (!r) {
      std::cerr << "qipu explore: --fen: " << r.error << "\n";
      return std::nullopt;
    }
    return Target{*r.position, {r.position->key()}};
  }
  auto list = db::parse_move_list(o.moves);
  if (!list.error.empty()) {
    std::cerr << "qipu explore: --moves: " << list.error << "\n";
    return std::nullopt;
  }
  return Target{list.position, list.keys};
}

// The opening of the deepest named position of the line; none without an ECO file.
std::optional<db::Opening> name_of(const Target& t, const std::string& eco_file) {
  if (eco_file.empty()) return std::nullopt;
  try {
    auto table = db::EcoTable::load(eco_file);
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

std::string pad(std::string s, std::size_t width) {
  std::size_t chars = 0;
  for (unsigned char ch : s) chars += (ch & 0xC0) != 0x80;
  if (chars < width) s.append(width - chars, ' ');
  return s;
}

void print_table(std::ostream& out, const Position& pos, const std::optional<db::Opening>& name,
                 const db::Exploration& ex, const std::vector<TopRow>& top, const Notation& n) {
  out << "Position: " << pos.fen() << "\n";
  if (name)
    out << "Opening:  " << shown(name->eco) << " " << shown(name->name)
        << (name->variation.empty() ? "" : ", " + shown(name->variation)) << "\n";
  const auto& t = ex.total;
  out << t.games << (t.games == 1 ? " game" : " games") << ": White wins " << percent(t.white_wins, t.games)
      << "%, draws " << percent(t.draws, t.games) << "%, Black wins " << percent(t.black_wins, t.games) << "%\n\n";
  out << pad("move", 10) << pad("games", 8) << pad("share", 7) << pad("white", 7) << pad("draw", 7) << pad("black", 7)
      << pad("elo", 6) << "last\n";
  WriteStyle style;
  style.spaced = n.space_after_piece;
  for (const auto& m : ex.moves)
    out << pad(write_move(pos, m.move, n, style), 10) << pad(std::to_string(m.games), 8)
        << pad(percent(m.games, t.games), 7) << pad(percent(m.white_wins, m.games), 7)
        << pad(percent(m.draws, m.games), 7) << pad(percent(m.black_wins, m.games), 7) << pad(average(m), 6)
        << (m.last_year ? std::to_string(m.last_year) : "") << "\n";
  if (top.empty()) return;
  out << "\nTop games (average Elo):\n";
  for (const auto& r : top)
    out << pad(std::to_string(r.id), 8) << pad(std::to_string(std::llround(r.elo)), 6)
        << pad(shown(r.white) + " – " + shown(r.black), 44) << pad(shown(r.result), 8) << pad(shown(r.date), 11)
        << shown(r.event) << "\n";
}

void append_field(std::string& out, std::string_view key, std::string_view value) {
  append_json_string(out, key);
  out += ": ";
  append_json_string(out, value);
}

std::string json_stats(const db::MoveStats& s) {
  std::string out = "\"games\": " + std::to_string(s.games) + ", \"white_wins\": " + std::to_string(s.white_wins) +
                    ", \"draws\": " + std::to_string(s.draws) + ", \"black_wins\": " + std::to_string(s.black_wins);
  out += ", \"average_elo\": " + (s.elo_games ? average(s) : std::string("null"));
  out += ", \"last_year\": " + (s.last_year ? std::to_string(s.last_year) : std::string("null"));
  return out;
}

void print_json(std::ostream& stream, const Position& pos, const std::optional<db::Opening>& name,
                const db::Exploration& ex, const std::vector<TopRow>& top, const Notation& n) {
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
  out += ", " + json_stats(ex.total) + ", \"moves\": [";
  WriteStyle style;
  style.spaced = n.space_after_piece;
  for (std::size_t i = 0; i < ex.moves.size(); ++i) {
    out += i ? ",\n  {" : "\n  {";
    append_field(out, "move", write_move(pos, ex.moves[i].move, n, style));
    out += ", " + json_stats(ex.moves[i]) + "}";
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
  if (auto e = db::add_conditions(o.filter, q); !e.empty()) {
    std::cerr << "qipu explore: " << e << "\n";
    return set_exit_code(2);
  }
  auto ex = db::explore(*c, target->position, q, o.top);
  note_replayed("explore", ex.replayed, db::database_path(o.db));
  auto top = top_rows(*c, ex.top_games);
  auto name = name_of(*target, o.eco_file);
  const Notation& n = *find_notation(o.notation);
  if (o.format == "json")
    print_json(out, target->position, name, ex, top, n);
  else
    print_table(out, target->position, name, ex, top, n);
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
  cmd->add_option("--notation", o->notation, "Notation of the moves shown: en (default), zh, zh-Hant, fan, de, …")
      ->check(CLI::IsMember(codes));
  cmd->add_option("--format", o->format, "table (default) or json")->check(CLI::IsMember({"table", "json"}));
  cmd->add_option("--top", o->top, "How many top games (highest average Elo) to list (default 10)");
  cmd->add_option("--player", o->filter.player, "Only games of a player whose name contains this");
  cmd->add_option("--min-elo", o->filter.min_elo,
                  "Only games with a player rated at least this (both with --both-elo)");
  cmd->add_flag("--both-elo", o->filter.both_elo, "Apply --min-elo to both players");
  cmd->add_option("--date-from", o->filter.date_from, "Only games played on or after this date (1990, 1990.05)");
  cmd->add_option("--date-to", o->filter.date_to, "Only games played on or before this date");
  cmd->add_option("--eco-file", o->eco_file,
                  "ECO lines for naming the position (default: " + std::string(db::DefaultEcoFile) + ")");
  cmd->footer(
      "Each game counts once, with the move it played the first time it reached the position;\n"
      "percentages are of the games with that move. Elo is the mean of the known ratings of both players.\n"
      "Opening positions (at most 12 pieces and pawns off their start squares) are answered from the\n"
      "explorer's aggregate, kept by import: milliseconds at any database size. With a filter (--player,\n"
      "--min-elo, --date-from, --date-to), --top above 10, or a later position, the games are read instead\n"
      "through the position index, which takes longer the more games reach the position.\n"
      "Example: qipu explore --moves \"1.e4 c5 2.Nf3 d6\" --notation zh");
  cmd->callback([o] { run_explore(*o); });
}

}  // namespace qipu::cli
