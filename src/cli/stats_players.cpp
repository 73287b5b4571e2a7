// stats --player X (one person's games, score and performance by year, colour and ECO
// family) and stats --event NAME --teams (team matches, 场分 / 局分, standings and the
// match crosstable), called from stats.cpp.
#include "cli/stats_players.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>

#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "cli/lang.hpp"
#include "cli/table.hpp"
#include "qipu/db/players.hpp"
#include "qipu/db/rating.hpp"
#include "qipu/db/search.hpp"
#include "qipu/db/summary.hpp"

namespace qipu::cli {

std::string half_points(double p) {
  int whole = int(p);
  bool half = p - whole >= 0.5;
  if (!half) return std::to_string(whole);
  return (whole == 0 ? "" : std::to_string(whole)) + "½";
}

namespace {

std::string percent(double part, double whole) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.1f%%", whole > 0 ? 100.0 * part / whole : 0.0);
  return buf;
}

// A player's results in some group of games. Performance counts the games against rated
// opponents only: their average plus FIDE's dp of the score in those games.
struct PlayerTally {
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

// The tally tables' columns: the row's label, then the numbers. The labels of all the
// tables take one width, so that their columns line up with each other.
Table tally_table(Lang lang, std::size_t label_width) {
  auto w = [&](std::string_view english) { return std::string(word(lang, english)); };
  return Table({{"", label_width},
                {w("games"), 0, 10, true},
                {w("score"), 0, 10, true},
                {"%", 0, 10, true},
                {w("opponents' Elo"), 0, 20, true},
                {w("performance"), 0, 12, true}});
}

std::vector<std::string> tally_row(const std::string& label, const PlayerTally& t) {
  auto perf = db::performance_rating(t.opponents, t.rated_score, t.rated);
  return {label,
          std::to_string(t.games),
          half_points(t.score),
          percent(t.score, t.games),
          t.rated ? std::to_string(std::lround(t.opponents / t.rated)) : "",
          perf ? std::to_string(*perf) : ""};
}

void print_tallies(std::ostream& out, Lang lang, bool tsv, std::size_t label_width, std::string_view title,
                   const std::map<std::string, PlayerTally>& m) {
  out << "\n" << word(lang, title) << "\n";
  Table table = tally_table(lang, label_width);
  for (const auto& [label, t] : m) table.add(tally_row(label, t));
  print_table(out, table, tsv);
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

// The games of this person's player rows, from the player index.
db::GameQuery games_of(db::Connection& c, const db::PlayerIdentity& id) {
  db::GameQuery q;
  std::vector<std::int64_t> rows;
  for (const auto& s : id.spellings) rows.push_back(s.player);
  db::restrict_to(c, db::player_games(c, rows, {}), q);
  return q;
}

std::string eco_family(const std::string& eco) {
  if (eco.size() != 3) return "?";
  return eco.substr(0, 2) + "0-" + eco.substr(0, 2) + "9";
}

}  // namespace

void print_player_stats(std::ostream& out, Lang lang, bool tsv, db::Connection& c, const std::string& query) {
  auto ids = db::load_identities(c);
  const db::PlayerIdentity* id = one_identity(ids, query);
  if (!id) return set_exit_code(2);
  std::map<std::int64_t, bool> mine;
  for (const auto& s : id->spellings) mine[s.player] = true;
  PlayerTally total;
  std::map<std::string, PlayerTally> by_year, by_colour, by_eco;
  int unfinished = 0;
  for (const auto& g : db::load_player_games(c, games_of(c, *id))) {
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
    by_colour[std::string(word(lang, white ? "White" : "Black"))].add(points, opponent_elo);
    by_eco[eco_family(g.eco)].add(points, opponent_elo);
  }
  out << (id->fide_id.empty() ? shown(id->name) : say(lang, "{} (FIDE id {})", {shown(id->name), shown(id->fide_id)}))
      << "\n";
  std::string spellings;
  for (std::size_t i = 0; i < id->spellings.size(); ++i) spellings += (i ? "; " : "") + shown(id->spellings[i].name);
  out << say(lang, "spellings: {}", {spellings}) << "\n\n";
  std::size_t label_width = display_width(word(lang, "all"));
  for (const auto* m : {&by_colour, &by_year, &by_eco})
    for (const auto& [label, t] : *m) label_width = std::max(label_width, display_width(label));
  Table table = tally_table(lang, label_width);
  table.add(tally_row(std::string(word(lang, "all")), total));
  print_table(out, table, tsv);
  if (unfinished) out << say(lang, "({} game(s) without a result left out)", {std::to_string(unfinished)}) << "\n";
  print_tallies(out, lang, tsv, label_width, "by colour:", by_colour);
  print_tallies(out, lang, tsv, label_width, "by year:", by_year);
  print_tallies(out, lang, tsv, label_width, "by ECO family:", by_eco);
}

namespace {

void print_matches(std::ostream& out, Lang lang, bool tsv, const db::TeamStandings& s) {
  auto w = [&](std::string_view english) { return std::string(word(lang, english)); };
  Table table({{w("round")}, {w("match")}, {w("game points"), 0, 12, true}});
  for (const auto& m : s.matches)
    table.add({shown(m.round), shown(m.teams[0]) + " – " + shown(m.teams[1]),
               half_points(m.game_points[0]) + "–" + half_points(m.game_points[1])});
  print_table(out, table, tsv);
}

// The row of the team ranked i + 1: its results, then its game points against each team in rank order.
std::vector<std::string> team_row(const db::TeamStandings& s, std::size_t i, bool cross) {
  const auto& r = s.table[i];
  std::vector<std::string> row = {
      std::to_string(i + 1),   shown(r.team),          std::to_string(r.matches),      std::to_string(r.won),
      std::to_string(r.drawn), std::to_string(r.lost), std::to_string(r.match_points), half_points(r.game_points)};
  if (cross)
    for (const auto& opp : s.table) {
      auto it = r.against.find(opp.team);
      row.push_back(opp.team == r.team ? "x" : it == r.against.end() ? "." : half_points(it->second));
    }
  return row;
}

void print_team_table(std::ostream& out, Lang lang, bool tsv, const db::TeamStandings& s, int max_crosstable) {
  bool cross = int(s.table.size()) <= max_crosstable;
  auto w = [&](std::string_view english) { return std::string(word(lang, english)); };
  std::vector<Column> columns = {{w("rank"), 0, 10, true},         {w("team")},
                                 {w("matches"), 0, 10, true},      {w("won"), 0, 10, true},
                                 {w("drawn"), 0, 10, true},        {w("lost"), 0, 10, true},
                                 {w("match points"), 0, 12, true}, {w("game points"), 0, 12, true}};
  if (cross)
    for (std::size_t i = 0; i < s.table.size(); ++i) columns.push_back({std::to_string(i + 1), 0, 10, true});
  Table table(std::move(columns));
  for (std::size_t i = 0; i < s.table.size(); ++i) table.add(team_row(s, i, cross));
  print_table(out, table, tsv);
  if (!cross)
    out << say(lang, "(crosstable left out: more than {} teams; see --max-crosstable)",
               {std::to_string(max_crosstable)})
        << "\n";
}

}  // namespace

void print_table(std::ostream& out, Table& table, bool tsv, std::string_view indent) {
  if (tsv)
    table.print_tsv(out);
  else
    table.print(out, indent);
}

void print_team_stats(std::ostream& out, Lang lang, bool tsv, db::Connection& c, std::int64_t event,
                      const std::string& event_name, bool by_game_points, int max_crosstable) {
  auto s = db::team_standings(db::load_player_games(c, db::event_games(c, event), true), by_game_points);
  if (s.matches.empty()) {
    std::cerr << "qipu stats: no game of \"" << shown(event_name)
              << "\" names both teams (WhiteTeam and BlackTeam tags) and has a result\n";
    return set_exit_code(2);
  }
  out << say(lang, "{}: {} matches, {} teams",
             {shown(event_name), std::to_string(s.matches.size()), std::to_string(s.table.size())});
  if (s.left_out)
    out << say(lang, " ({} game(s) without both team tags or a result left out)", {std::to_string(s.left_out)});
  out << "\n\n";
  print_matches(out, lang, tsv, s);
  out << "\n"
      << word(lang, by_game_points ? "standings (game points, then match points):"
                                   : "standings (match points, then game points):")
      << "\n";
  print_team_table(out, lang, tsv, s, max_crosstable);
}

}  // namespace qipu::cli
