// stats --player X (one person's games, score and performance by year, colour and ECO
// family) and stats --event NAME --teams (team matches, 场分 / 局分, standings and the
// match crosstable), called from stats.cpp.
#include "cli/stats_players.hpp"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>

#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "cli/lang.hpp"
#include "qipu/db/players.hpp"
#include "qipu/db/rating.hpp"
#include "qipu/db/search.hpp"

namespace qipu::cli {

namespace {

// "2½", "½", "3".
std::string half_points(double p) {
  int whole = int(p);
  bool half = p - whole >= 0.5;
  if (!half) return std::to_string(whole);
  return (whole == 0 ? "" : std::to_string(whole)) + "½";
}

std::string percent(double part, double whole) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.1f%%", whole > 0 ? 100.0 * part / whole : 0.0);
  return buf;
}

// A player's results in some group of games. Performance counts the games against rated
// opponents only: their average plus FIDE's dp of the score in those games.
struct Tally {
  int games = 0, rated = 0;
  double score = 0, rated_score = 0, opponents = 0;
  void add(double points, std::optional<int> opponent_elo) {
    ++games;
    score += points;
    if (!opponent_elo) return;
    ++rated;
    rated_score += points;
    opponents += *opponent_elo;
  }
};

void print_tally(std::ostream& out, const std::string& key, const Tally& t) {
  auto perf = db::performance_rating(t.opponents, t.rated_score, t.rated);
  out << key << "\t" << t.games << "\t" << half_points(t.score) << "\t" << percent(t.score, t.games) << "\t"
      << (t.rated ? std::to_string(std::lround(t.opponents / t.rated)) : "") << "\t"
      << (perf ? std::to_string(*perf) : "") << "\n";
}

void print_tallies(std::ostream& out, Lang lang, const std::string& title, const std::map<std::string, Tally>& m) {
  out << "\n" << title << ":\n";
  out << "\t" << word(lang, "games") << "\t" << word(lang, "score") << "\t%\topponents' Elo\t"
      << word(lang, "performance") << "\n";
  for (const auto& [key, t] : m) print_tally(out, key, t);
}

// The one identity the query names; with none or several, a message listing them.
const db::PlayerIdentity* one_identity(const db::Identities& ids, const std::string& query) {
  auto found = db::find_identities(ids, query);
  if (found.size() == 1) return found.front();
  std::cerr << "qipu stats: " << (found.empty() ? "no player matches " : "several players match ") << "\""
            << shown(query) << "\"" << (found.empty() ? "" : "; give more of the name (see qipu players --name …)")
            << "\n";
  for (std::size_t i = 0; i < found.size() && i < 20; ++i)
    std::cerr << "  " << shown(found[i]->name) << " (" << found[i]->games << " games)\n";
  return nullptr;
}

// The games of these player rows, as a query with one bound id each.
db::GameQuery games_of(const db::PlayerIdentity& id) {
  db::GameQuery q;
  std::string list;
  for (const auto& s : id.spellings) {
    list += list.empty() ? "?" : ", ?";
    q.params.emplace_back(s.player);
  }
  for (const auto& s : id.spellings) q.params.emplace_back(s.player);
  q.where = "g.white IN (" + list + ") OR g.black IN (" + list + ")";
  return q;
}

std::string eco_family(const std::string& eco) {
  if (eco.size() != 3) return "?";
  return eco.substr(0, 2) + "0-" + eco.substr(0, 2) + "9";
}

}  // namespace

void print_player_stats(std::ostream& out, Lang lang, db::Connection& c, const std::string& query) {
  auto ids = db::load_identities(c);
  const db::PlayerIdentity* id = one_identity(ids, query);
  if (!id) return set_exit_code(2);
  std::map<std::int64_t, bool> mine;
  for (const auto& s : id->spellings) mine[s.player] = true;
  Tally total;
  std::map<std::string, Tally> by_year, by_colour, by_eco;
  int unfinished = 0;
  for (const auto& g : db::load_player_games(c, games_of(*id))) {
    auto wp = db::white_points(g.result);
    if (!wp) {
      ++unfinished;
      continue;
    }
    bool white = mine.count(g.white) != 0;
    double points = white ? *wp : 1 - *wp;
    auto opponent_elo = white ? g.black_elo : g.white_elo;
    total.add(points, opponent_elo);
    by_year[g.date_sort ? std::to_string(g.date_sort / 10000) : "?"].add(points, opponent_elo);
    by_colour[white ? "white" : "black"].add(points, opponent_elo);
    by_eco[eco_family(g.eco)].add(points, opponent_elo);
  }
  out << shown(id->name) << (id->fide_id.empty() ? "" : " (FIDE id " + id->fide_id + ")") << "\n";
  out << word(lang, "spellings") << ": ";
  for (std::size_t i = 0; i < id->spellings.size(); ++i) out << (i ? "; " : "") << shown(id->spellings[i].name);
  out << "\n\n\t" << word(lang, "games") << "\t" << word(lang, "score") << "\t%\topponents' Elo\t"
      << word(lang, "performance") << "\n";
  print_tally(out, "all", total);
  if (unfinished) out << "(" << unfinished << " game(s) without a result left out)\n";
  print_tallies(out, lang, "by colour", by_colour);
  print_tallies(out, lang, "by year", by_year);
  print_tallies(out, lang, "by ECO family", by_eco);
}

namespace {

void print_matches(std::ostream& out, Lang lang, const db::TeamStandings& s) {
  out << word(lang, "round") << "\t" << word(lang, "team") << "\t\t" << word(lang, "game points") << "\n";
  for (const auto& m : s.matches)
    out << shown(m.round) << "\t" << shown(m.teams[0]) << " – " << shown(m.teams[1]) << "\t\t"
        << half_points(m.game_points[0]) << "–" << half_points(m.game_points[1]) << "\n";
}

void print_team_table(std::ostream& out, Lang lang, const db::TeamStandings& s, int max_crosstable) {
  bool cross = int(s.table.size()) <= max_crosstable;
  out << word(lang, "rank") << "\t" << word(lang, "team") << "\t" << word(lang, "matches") << "\t+\t=\t-\t"
      << word(lang, "match points") << "\t" << word(lang, "game points");
  if (cross)
    for (std::size_t i = 0; i < s.table.size(); ++i) out << "\t" << i + 1;
  out << "\n";
  for (std::size_t i = 0; i < s.table.size(); ++i) {
    const auto& r = s.table[i];
    out << i + 1 << "\t" << shown(r.team) << "\t" << r.matches << "\t" << r.won << "\t" << r.drawn << "\t" << r.lost
        << "\t" << r.match_points << "\t" << half_points(r.game_points);
    if (cross)
      for (const auto& opp : s.table) {
        auto it = r.against.find(opp.team);
        out << "\t" << (opp.team == r.team ? "x" : it == r.against.end() ? "." : half_points(it->second));
      }
    out << "\n";
  }
  if (!cross) out << "(crosstable left out: more than " << max_crosstable << " teams; see --max-crosstable)\n";
}

}  // namespace

void print_team_stats(std::ostream& out, Lang lang, db::Connection& c, std::int64_t event,
                      const std::string& event_name, bool by_game_points, int max_crosstable) {
  db::GameQuery q;
  q.where = "g.event = ?";
  q.params.emplace_back(event);
  auto s = db::team_standings(db::load_player_games(c, q, true), by_game_points);
  if (s.matches.empty()) {
    std::cerr << "qipu stats: no game of \"" << shown(event_name)
              << "\" names both teams (WhiteTeam and BlackTeam tags) and has a result\n";
    return set_exit_code(2);
  }
  out << shown(event_name) << ": " << s.matches.size() << " matches, " << s.table.size() << " teams";
  if (s.left_out) out << " (" << s.left_out << " game(s) without both team tags or a result left out)";
  out << "\n\n";
  print_matches(out, lang, s);
  out << "\n"
      << word(lang, "standings") << " ("
      << (by_game_points ? "game points, then match points" : "match points, then game points") << "):\n";
  print_team_table(out, lang, s, max_crosstable);
}

}  // namespace qipu::cli
