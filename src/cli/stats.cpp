// qipu stats [--db PATH] [--event NAME] — totals of the collection and its most active
// players; for one event, the standings and crosstable with Sonneborn–Berger.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>

#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "cli/db_options.hpp"
#include "cli/stats_players.hpp"
#include "qipu/db/players.hpp"
#include "qipu/db/search.hpp"

namespace qipu::cli {

namespace {

struct StatsOptions {
  std::string db, event;
  int top = 10;
  int max_crosstable = 30;
  std::string player, rank_by = "match-points";  // --player; --teams ranking
  bool teams = false;
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

// Score counts a win 1 and a draw ½; the percentage is of games with a result. Per
// player row; rows are summed per person (db/players.hpp: "Anand,V" and "Anand,
// Viswanathan" are one).
constexpr const char* PlayerScores =
    "SELECT x.pid, count(*), sum(x.score), sum(x.decided) FROM ("
    " SELECT white AS pid, CASE result WHEN '1-0' THEN 1.0 WHEN '1/2-1/2' THEN 0.5 ELSE 0.0 END AS score,"
    "  result IN ('1-0', '0-1', '1/2-1/2') AS decided FROM game WHERE white IS NOT NULL"
    " UNION ALL"
    " SELECT black, CASE result WHEN '0-1' THEN 1.0 WHEN '1/2-1/2' THEN 0.5 ELSE 0.0 END,"
    "  result IN ('1-0', '0-1', '1/2-1/2') FROM game WHERE black IS NOT NULL"
    ") x GROUP BY x.pid";

void print_top_players(std::ostream& out, db::Connection& c, int top) {
  out << "\ntop players by games:\n";
  auto ids = db::load_identities(c);  // most games first
  std::vector<double> score(ids.list.size());
  std::vector<std::int64_t> decided(ids.list.size());
  auto st = c.prepare(PlayerScores);
  while (st.step()) {
    auto it = ids.of_player.find(st.int64(0));
    if (it == ids.of_player.end()) continue;
    score[it->second] += st.real(2);
    decided[it->second] += st.int64(3);
  }
  for (std::size_t i = 0; i < ids.list.size() && i < std::size_t(top); ++i) {
    char pct[16];
    std::snprintf(pct, sizeof pct, "%.1f%%", decided[i] ? 100.0 * score[i] / double(decided[i]) : 0.0);
    out << "  " << shown(ids.list[i].name) << "\t" << ids.list[i].games << " games\t" << points_text(score[i]) << "/"
        << decided[i] << "\t" << pct << "\n";
  }
}

// The event the user means: an exact (case-insensitive) name, else the only one that
// contains the text. Prints the candidates when there are several.
std::optional<std::pair<std::int64_t, std::string>> find_event(db::Connection& c, const std::string& name) {
  auto exact = c.prepare("SELECT id, name FROM event WHERE qipu_fold(name) = ?");
  exact.bind(1, db::fold_case(name));
  if (exact.step()) return std::make_pair(exact.int64(0), std::string(exact.text(1)));
  auto like = c.prepare("SELECT id, name FROM event WHERE qipu_fold(name) LIKE ? ESCAPE '\\' ORDER BY name LIMIT 21");
  std::string pattern = "%";
  pattern += db::escape_like(db::fold_case(name));
  pattern += "%";
  like.bind(1, pattern);
  std::vector<std::pair<std::int64_t, std::string>> found;
  while (like.step()) found.emplace_back(like.int64(0), std::string(like.text(1)));
  if (found.size() == 1) return found.front();
  std::cerr << "qipu stats: " << (found.empty() ? "no event matches " : "several events match ") << "\"" << shown(name)
            << "\"\n";
  for (const auto& f : found) std::cerr << "  " << shown(f.second) << "\n";
  return std::nullopt;
}

struct Entrant {
  std::string name;
  double points = 0, sb = 0;
  int games = 0;
  std::map<std::int64_t, std::string> cells;  // opponent id → "1½0" in game order
};

struct EventGame {
  std::int64_t white, black;
  double white_points;  // 1, ½ or 0; negative when the game has no result
};

std::vector<EventGame> event_games(db::Connection& c, std::int64_t event, std::map<std::int64_t, Entrant>& entrants) {
  auto st = c.prepare(
      "SELECT g.white, g.black, g.result, w.name, b.name FROM game g JOIN player w ON w.id = g.white "
      "JOIN player b ON b.id = g.black WHERE g.event = ? ORDER BY g.date_sort, g.id");
  st.bind(1, event);
  std::vector<EventGame> games;
  while (st.step()) {
    std::string_view r = st.text(2);
    double wp = r == "1-0" ? 1 : r == "0-1" ? 0 : r == "1/2-1/2" ? 0.5 : -1;
    games.push_back({st.int64(0), st.int64(1), wp});
    entrants[st.int64(0)].name = st.text(3);
    entrants[st.int64(1)].name = st.text(4);
  }
  return games;
}

// Points first; Sonneborn–Berger then needs every final score: the sum, over games, of
// the opponent's points times the points scored against them.
void score_event(const std::vector<EventGame>& games, std::map<std::int64_t, Entrant>& entrants) {
  auto cell = [](double p) { return p == 1 ? "1" : p == 0 ? "0" : "½"; };
  for (const auto& g : games) {
    if (g.white_points < 0) continue;
    auto& w = entrants[g.white];
    auto& b = entrants[g.black];
    w.points += g.white_points;
    b.points += 1 - g.white_points;
    ++w.games;
    ++b.games;
    w.cells[g.black] += cell(g.white_points);
    b.cells[g.white] += cell(1 - g.white_points);
  }
  for (const auto& g : games) {
    if (g.white_points < 0) continue;
    entrants[g.white].sb += g.white_points * entrants[g.black].points;
    entrants[g.black].sb += (1 - g.white_points) * entrants[g.white].points;
  }
}

void print_event(std::ostream& out, db::Connection& c, const std::string& name, int max_crosstable) {
  auto ev = find_event(c, name);
  if (!ev) return set_exit_code(2);
  std::map<std::int64_t, Entrant> entrants;
  auto games = event_games(c, ev->first, entrants);
  score_event(games, entrants);
  std::vector<std::int64_t> order;
  for (const auto& [id, e] : entrants) order.push_back(id);
  std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) {
    const auto &x = entrants[a], &y = entrants[b];
    return x.points != y.points ? x.points > y.points : x.sb > y.sb;
  });
  out << shown(ev->second) << ": " << games.size() << " games, " << entrants.size() << " players\n\n";
  out << "rank\tplayer\tgames\tpoints\tSB";
  bool cross = int(order.size()) <= max_crosstable;
  if (cross)
    for (std::size_t i = 0; i < order.size(); ++i) out << "\t" << i + 1;
  out << "\n";
  for (std::size_t i = 0; i < order.size(); ++i) {
    const auto& e = entrants[order[i]];
    char sb[16];
    std::snprintf(sb, sizeof sb, "%.2f", e.sb);
    out << i + 1 << "\t" << shown(e.name) << "\t" << e.games << "\t" << points_text(e.points) << "\t" << sb;
    if (cross)
      for (auto opp : order) {
        auto it = e.cells.find(opp);
        out << "\t" << (opp == order[i] ? "x" : it == e.cells.end() ? "." : it->second);
      }
    out << "\n";
  }
  if (!cross) out << "(crosstable left out: more than " << max_crosstable << " players; see --max-crosstable)\n";
}

void print_teams(std::ostream& out, db::Connection& c, const StatsOptions& o) {
  if (o.event.empty()) {
    std::cerr << "qipu stats: --teams needs --event NAME\n";
    return set_exit_code(2);
  }
  auto ev = find_event(c, o.event);
  if (!ev) return set_exit_code(2);
  print_team_stats(out, c, ev->first, ev->second, o.rank_by == "game-points", o.max_crosstable);
}

void stats(std::ostream& out, const StatsOptions& o) {
  auto c = db::open_for_search(db::database_path(o.db));
  if (!o.player.empty()) return print_player_stats(out, *c, o.player);
  if (o.teams) return print_teams(out, *c, o);
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
      "          qipu stats --event \"44th Olympiad\" --teams");
  cmd->callback([o] { run_stats(*o); });
}

}  // namespace qipu::cli
