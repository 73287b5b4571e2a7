// qipu stats [--db PATH] [--event NAME] — totals of the collection and its most active
// players; for one event, the standings and crosstable with Sonneborn–Berger.
#include <cstdio>
#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "cli/db_options.hpp"
#include "qipu/db/search.hpp"
#include "qipu/db/standings.hpp"

namespace qipu::cli {

namespace {

struct StatsOptions {
  std::string db, event;
  int top = 10;
  int max_crosstable = 30;
};

// "1990.05.??" from date_sort's YYYYMMDD with 00 for unknown parts.
std::string date_text(std::int64_t d) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04d.%02d.%02d", int(d / 10000), int(d / 100 % 100), int(d % 100));
  std::string s = buf;
  if (d / 100 % 100 == 0) s.replace(5, 2, "??");
  if (d % 100 == 0) s.replace(8, 2, "??");
  return s;
}

std::string points_text(double p) {
  std::string s = std::to_string(int(p));
  if (p - int(p) >= 0.5) s = (int(p) == 0 ? "" : s) + "½";
  return s;
}

std::int64_t scalar(db::Connection& c, const char* sql) {
  auto st = c.prepare(sql);
  return st.step() ? st.int64(0) : 0;
}

void print_totals(std::ostream& out, db::Connection& c) {
  out << "games:   " << scalar(c, "SELECT count(*) FROM game") << "\n";
  out << "players: " << scalar(c, "SELECT count(*) FROM player") << "\n";
  out << "events:  " << scalar(c, "SELECT count(*) FROM event") << "\n";
  auto range = c.prepare("SELECT min(date_sort), max(date_sort) FROM game");
  if (range.step() && !range.is_null(0))
    out << "dates:   " << date_text(range.int64(0)) << " – " << date_text(range.int64(1)) << "\n";
  out << "\nresults:\n";
  auto results =
      c.prepare("SELECT coalesce(result, '(none)'), count(*) FROM game GROUP BY result ORDER BY count(*) DESC");
  while (results.step()) out << "  " << shown(results.text(0)) << "\t" << results.int64(1) << "\n";
  out << "\nfinal positions:\n";
  auto terms = c.prepare("SELECT termination, count(*) FROM game GROUP BY termination ORDER BY count(*) DESC");
  while (terms.step()) out << "  " << termination_name(Termination(terms.int64(0))) << "\t" << terms.int64(1) << "\n";
}

// Score counts a win 1 and a draw ½; the percentage is of games with a result.
constexpr const char* PlayerScores =
    "SELECT p.name, count(*), sum(x.score), sum(x.decided) FROM ("
    " SELECT white AS pid, CASE result WHEN '1-0' THEN 1.0 WHEN '1/2-1/2' THEN 0.5 ELSE 0.0 END AS score,"
    "  result IN ('1-0', '0-1', '1/2-1/2') AS decided FROM game WHERE white IS NOT NULL"
    " UNION ALL"
    " SELECT black, CASE result WHEN '0-1' THEN 1.0 WHEN '1/2-1/2' THEN 0.5 ELSE 0.0 END,"
    "  result IN ('1-0', '0-1', '1/2-1/2') FROM game WHERE black IS NOT NULL"
    ") x JOIN player p ON p.id = x.pid GROUP BY x.pid ORDER BY count(*) DESC, p.name LIMIT ?";

void print_top_players(std::ostream& out, db::Connection& c, int top) {
  out << "\ntop players by games:\n";
  auto st = c.prepare(PlayerScores);
  st.bind(1, top);
  while (st.step()) {
    double score = st.real(2);
    std::int64_t decided = st.int64(3);
    char pct[16];
    std::snprintf(pct, sizeof pct, "%.1f%%", decided ? 100.0 * score / double(decided) : 0.0);
    out << "  " << shown(st.text(0)) << "\t" << st.int64(1) << " games\t" << points_text(score) << "/" << decided
        << "\t" << pct << "\n";
  }
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

void print_event(std::ostream& out, db::Connection& c, const std::string& name, int max_crosstable) {
  auto ev = event_named(c, name);
  if (!ev) return set_exit_code(2);
  auto standings = db::event_standings(c, ev->id);
  const auto& order = standings.entrants;
  out << shown(ev->name) << ": " << standings.games << " games, " << order.size() << " players\n\n";
  out << "rank\tplayer\tgames\tpoints\tSB";
  bool cross = int(order.size()) <= max_crosstable;
  if (cross)
    for (std::size_t i = 0; i < order.size(); ++i) out << "\t" << i + 1;
  out << "\n";
  for (std::size_t i = 0; i < order.size(); ++i) {
    const auto& e = order[i];
    char sb[16];
    std::snprintf(sb, sizeof sb, "%.2f", e.sb);
    out << i + 1 << "\t" << shown(e.name) << "\t" << e.games << "\t" << points_text(e.points) << "\t" << sb;
    if (cross)
      for (const auto& opp : order) {
        auto it = e.cells.find(opp.id);
        out << "\t" << (opp.id == e.id ? "x" : it == e.cells.end() ? "." : it->second);
      }
    out << "\n";
  }
  if (!cross) out << "(crosstable left out: more than " << max_crosstable << " players; see --max-crosstable)\n";
}

void stats(std::ostream& out, const StatsOptions& o) {
  auto c = db::open_for_search(db::database_path(o.db));
  if (!o.event.empty()) return print_event(out, *c, o.event, o.max_crosstable);
  print_totals(out, *c);
  print_top_players(out, *c, o.top);
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
  cmd->add_option("--top", o->top, "How many players to list by games played (default 10)")
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--max-crosstable", o->max_crosstable,
                  "Leave out the crosstable above this many players (default 30)");
  cmd->footer(
      "A win counts 1 and a draw ½; percentages are of the games with a result.\n"
      "Sonneborn–Berger: the sum of the final points of the opponents a player beat, plus half of those drawn with.\n"
      "Example: qipu stats --event \"Linares 1994\"");
  cmd->callback([o] { run_stats(*o); });
}

}  // namespace qipu::cli
