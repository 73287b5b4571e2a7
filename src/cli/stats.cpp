// qipu stats [--db PATH] [--event NAME] — totals of the collection and its most active
// players; for one event, the standings and crosstable with Sonneborn–Berger.
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "cli/db_options.hpp"
#include "cli/lang.hpp"
#include "cli/stats_players.hpp"
#include "cli/table.hpp"
#include "qipu/db/players.hpp"
#include "qipu/db/search.hpp"
#include "qipu/db/standings.hpp"
#include "qipu/db/summary.hpp"

namespace qipu::cli {

namespace {

struct StatsOptions {
  std::string db, event;
  std::string lang;              // of the labels, headings and results
  std::string format = "table";  // of the standings, player and team tables: table or tsv
  int top = 10;
  int max_crosstable = 30;
  std::string player, rank_by = "match-points";  // --player; --teams ranking
  bool teams = false;
};

std::int64_t scalar(db::Connection& c, const char* sql) {
  auto st = c.prepare(sql);
  return st.step() ? st.int64(0) : 0;
}

// Two columns, counts on the right, most games first: the results, the final positions.
template <class Key>
void print_counts(std::ostream& out, Lang lang, const std::map<Key, db::Tally>& counts,
                  const std::function<std::string(const Key&)>& label) {
  std::vector<std::pair<std::string, std::int64_t>> rows;
  for (const auto& [key, t] : counts) rows.emplace_back(label(key), t.games);
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  Table table({{""}, {"", 0, 40, true}});
  for (const auto& [name, n] : rows) table.add({std::string(word(lang, name)), std::to_string(n)});
  table.print(out, "  ");
}

void print_totals(std::ostream& out, Lang lang, db::Connection& c, const db::Summary& s) {
  auto label = [&](std::string_view english) { return pad(word(lang, english), 9); };
  out << label("games:") << s.all.games << "\n";
  out << label("players:") << scalar(c, "SELECT count(*) FROM player") << "\n";
  out << label("events:") << scalar(c, "SELECT count(*) FROM event") << "\n";
  if (s.all.first_date)
    out << label("dates:") << db::date_text(*s.all.first_date) << " – " << db::date_text(*s.all.last_date) << "\n";
  out << "\n" << word(lang, "results:") << "\n";
  print_counts<std::optional<std::string>>(
      out, lang, s.results, [](const std::optional<std::string>& r) { return r ? shown(*r) : std::string("(none)"); });
  out << "\n" << word(lang, "final positions:") << "\n";
  print_counts<std::int64_t>(out, lang, s.terminations,
                             [](const std::int64_t& t) { return std::string(termination_name(Termination(t))); });
}

// The openings played most, by name (the variations counted with their opening); in
// Chinese, openings that share a name (a family's) count together.
void print_openings(std::ostream& out, Lang lang, db::Connection& c, const db::Summary& s, int top) {
  std::map<std::string, std::int64_t> counts;
  auto st = c.prepare("SELECT id, name FROM opening");
  while (st.step())
    if (auto it = s.openings.find(st.int64(0)); it != s.openings.end())
      counts[opening_text(lang, st.text(1), "")] += it->second.games;
  if (counts.empty()) return;
  std::vector<std::pair<std::string, std::int64_t>> sorted(counts.begin(), counts.end());
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  if (sorted.size() > std::size_t(top)) sorted.resize(std::size_t(top));
  out << "\n" << word(lang, "openings:") << "\n";
  Table table({{""}, {"", 0, 40, true}});
  for (const auto& [name, n] : sorted) table.add({shown(name), std::to_string(n)});
  table.print(out, "  ");
}

// Score counts a win 1 and a draw ½; the percentage is of games with a result. Players are
// people (db/players.hpp: "Anand,V" and "Anand, Viswanathan" are one).
void print_top_players(std::ostream& out, Lang lang, db::Connection& c, int top) {
  out << "\n" << word(lang, "top players by games:") << "\n";
  auto ids = db::load_identities(c);  // most games first
  Table table({{""}, {"", 0, 40, true}, {"", 0, 40, true}, {"", 0, 40, true}});
  for (std::size_t i = 0; i < ids.list.size() && i < std::size_t(top); ++i) {
    const auto& id = ids.list[i];
    double score = double(id.wins) + 0.5 * double(id.draws);
    std::int64_t decided = id.wins + id.draws + id.losses;
    char pct[16];
    std::snprintf(pct, sizeof pct, "%.1f%%", decided ? 100.0 * score / double(decided) : 0.0);
    table.add({shown(id.name), say(lang, "{} games", {std::to_string(id.games)}),
               half_points(score) + "/" + std::to_string(decided), pct});
  }
  table.print(out, "  ");
}

// The event the user means (db::find_event); prints the candidates when there are several.
std::optional<db::EventRef> event_named(db::Connection& c, const std::string& name) {
  std::vector<db::EventRef> found;
  if (auto ev = db::find_event(c, name, &found)) return ev;
  std::cerr << "qipu stats: " << (found.empty() ? "no event matches " : "several events match ") << "\"" << shown(name)
            << "\"\n";
  for (const auto& f : found) std::cerr << "  " << shown(f.name) << "\n";
  return std::nullopt;
}

// The standings, with the crosstable when `cross`: one column per entrant, in rank order.
void print_standings(std::ostream& out, Lang lang, bool tsv, const db::Standings& standings, bool cross) {
  const auto& order = standings.entrants;
  auto w = [&](std::string_view english) { return std::string(word(lang, english)); };
  std::vector<Column> columns = {{w("rank"), 0, 40, true},
                                 {w("player"), 0, 40},
                                 {w("games"), 0, 40, true},
                                 {w("points"), 0, 40, true},
                                 {w("SB"), 0, 40, true}};
  if (cross)
    for (std::size_t i = 0; i < order.size(); ++i) columns.push_back({std::to_string(i + 1), 0, 40, true});
  Table table(std::move(columns));
  for (std::size_t i = 0; i < order.size(); ++i) {
    const auto& e = order[i];
    char sb[16];
    std::snprintf(sb, sizeof sb, "%.2f", e.sb);
    std::vector<std::string> row = {std::to_string(i + 1), shown(e.name), std::to_string(e.games),
                                    half_points(e.points), sb};
    if (cross)
      for (const auto& opp : order) {
        auto it = e.cells.find(opp.id);
        row.push_back(opp.id == e.id ? "x" : it == e.cells.end() ? "." : it->second);
      }
    table.add(std::move(row));
  }
  print_table(out, table, tsv);
}

void print_event(std::ostream& out, Lang lang, db::Connection& c, const StatsOptions& o) {
  auto ev = event_named(c, o.event);
  if (!ev) return set_exit_code(2);
  auto standings = db::event_standings(c, ev->id);
  out << say(lang, "{}: {} games, {} players",
             {shown(ev->name), std::to_string(standings.games), std::to_string(standings.entrants.size())})
      << "\n\n";
  bool cross = int(standings.entrants.size()) <= o.max_crosstable;
  print_standings(out, lang, o.format == "tsv", standings, cross);
  if (!cross)
    out << say(lang, "(crosstable left out: more than {} players; see --max-crosstable)",
               {std::to_string(o.max_crosstable)})
        << "\n";
}

void print_teams(std::ostream& out, Lang lang, db::Connection& c, const StatsOptions& o) {
  if (o.event.empty()) {
    std::cerr << "qipu stats: --teams needs --event NAME\n";
    return set_exit_code(2);
  }
  auto ev = event_named(c, o.event);
  if (!ev) return set_exit_code(2);
  print_team_stats(out, lang, o.format == "tsv", c, ev->id, ev->name, o.rank_by == "game-points", o.max_crosstable);
}

void stats(std::ostream& out, const StatsOptions& o) {
  auto c = db::open_for_search(db::database_path(o.db));
  Lang lang = resolve_lang(o.lang);
  if (!o.player.empty()) return print_player_stats(out, lang, o.format == "tsv", *c, o.player);
  if (o.teams) return print_teams(out, lang, *c, o);
  if (!o.event.empty()) return print_event(out, lang, *c, o);
  auto summary = db::read_summary(*c, true);
  print_totals(out, lang, *c, summary);
  print_openings(out, lang, *c, summary, o.top);
  print_top_players(out, lang, *c, o.top);
}

void run_stats(const StatsOptions& o) {
  Output output("stats");
  if (!output.open("")) return;
  stats(output.stream(), o);
  output.finish();
}

}  // namespace

void setup_stats(CLI::App& app) {
  auto o = std::make_shared<StatsOptions>();
  auto* cmd = app.add_subcommand("stats", "Totals of the database, its most active players, or one event's standings");
  add_db_option(*cmd, o->db);
  cmd->add_option("--event", o->event,
                  "Standings and crosstable of this event (its whole name, or a part that only it contains)");
  cmd->add_option("--top", o->top, "How many players (by games played) and openings to list (default 10)")
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--max-crosstable", o->max_crosstable,
                  "Leave out the crosstable above this many players (default 30)");
  add_lang_option(*cmd, o->lang);
  cmd->add_option("--format", o->format,
                  "Of the --event, --player and --teams tables: table (default: aligned columns) or tsv "
                  "(tab-separated, for scripts)")
      ->check(CLI::IsMember({"table", "tsv"}));
  cmd->add_option(
      "--player", o->player,
      "One player's games, score and performance rating by colour, year and ECO family (words of the name)");
  cmd->add_flag(
      "--teams", o->teams,
      "With --event: team matches (WhiteTeam/BlackTeam tags), match points 2/1/0 (场分) and game points (局分)");
  cmd->add_option("--rank-by", o->rank_by,
                  "--teams ranking: match-points (default; the Olympiad rule since 2008) or game-points (1976-2006)")
      ->check(CLI::IsMember({"match-points", "game-points"}));
  cmd->footer(
      "A win counts 1 and a draw ½; percentages are of the games with a result.\n"
      "Performance rating: the rated opponents' average Elo plus FIDE's dp for the score in those games.\n"
      "Sonneborn–Berger: the sum of the final points of the opponents a player beat, plus half of those drawn with.\n"
      "Examples: qipu stats --event \"Linares 1994\"\n"
      "          qipu stats --player \"Anand, V\"\n"
      "          qipu stats --event \"44th Olympiad\" --teams\n"
      "          qipu stats --player 丁立人 --lang zh --format tsv   (Chinese headings, tabs)");
  cmd->callback([o] { run_stats(*o); });
}

}  // namespace qipu::cli
