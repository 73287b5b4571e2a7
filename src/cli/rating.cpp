// qipu rating --system club|elo [filters] [--start FILE] — replays the selected games
// in date and round order under the Chinese club level-and-points system (级别积分制) or
// FIDE's Elo rules, and prints each player's rating, level and games.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "cli/criteria.hpp"
#include "cli/db_options.hpp"
#include "cli/lang.hpp"
#include "cli/table.hpp"
#include "qipu/db/players.hpp"
#include "qipu/db/rating.hpp"
#include "qipu/db/search.hpp"

namespace qipu::cli {

namespace {

struct RatingOptions {
  std::string db, system = "club", start, lang, format = "table";
  CriteriaOptions criteria;  // which games are replayed
};

// The fields of one CSV line; quoted fields may hold commas and doubled quotes.
std::vector<std::string> csv_fields(std::string_view line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      out.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      out.emplace_back();
    } else if (c != '\r') {
      out.back() += c;
    }
  }
  for (auto& f : out) {  // spaces around fields are not part of them
    f.erase(0, f.find_first_not_of(" \t"));
    f.erase(f.find_last_not_of(" \t") + 1);
  }
  return out;
}

std::optional<int> whole_number(const std::string& s) {
  if (s.empty() || s.size() > 6) return std::nullopt;
  std::size_t used = 0;
  try {
    int v = std::stoi(s, &used);
    return used == s.size() ? std::optional(v) : std::nullopt;
  } catch (const std::exception&) { return std::nullopt; }
}

struct StartEntry {
  std::string name;
  int rating = 0, games = 30;
};

// The start list: NAME,POINTS[,GAMES] a line; a first line whose second field is not
// a number is a header; blank lines and lines starting with # are skipped. Errors name
// the file and line.
bool read_start(const std::string& path, std::vector<StartEntry>& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::cerr << "qipu rating: --start " << shown(path) << ": cannot open it\n";
    return false;
  }
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.find_first_not_of(" \t\r") == std::string::npos || line[0] == '#') continue;
    auto f = csv_fields(line);
    auto rating = f.size() >= 2 ? whole_number(f[1]) : std::nullopt;
    auto games = f.size() >= 3 ? whole_number(f[2]) : std::optional<int>(30);
    if (n == 1 && !rating) continue;  // a header
    if (f[0].empty() || !rating || !games || *games < 0 || f.size() > 3) {
      std::cerr << "qipu rating: " << shown(path) << ":" << n
                << ": expected NAME,RATING[,GAMES] with whole numbers, got \"" << shown(line) << "\"\n";
      return false;
    }
    out.push_back({f[0], *rating, *games});
  }
  if (in.bad()) {
    std::cerr << "qipu rating: --start " << shown(path) << ": read error\n";
    return false;
  }
  return true;
}

// The identity name a start list entry stands for: the spelling's identity, else as given.
std::string start_name(const db::Identities& ids, const std::string& name) {
  std::string folded = game::fold_name(name);
  for (const auto& id : ids.list)
    for (const auto& s : id.spellings)
      if (game::fold_name(s.name) == folded) return id.name;
  return name;
}

std::string number(double v, int decimals) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string score_text(double s) { return number(s, std::floor(s) == s ? 0 : 1); }

std::string level_text(Lang lang, int points) {
  int level = db::club_level(points);
  return level == 0 ? std::string(word(lang, "unrated")) : std::to_string(level) + "级";
}

void print_table(std::ostream& out, const RatingOptions& o, const std::vector<db::RatedPlayer>& list, bool club) {
  Lang lang = resolve_lang(o.lang);
  auto w = [&](std::string_view english) { return std::string(word(lang, english)); };
  std::vector<Column> columns{{w("rank"), 0, 8, true}, {w("player")}, {w(club ? "points" : "rating"), 0, 10, true}};
  if (club) columns.push_back({w("level")});
  columns.insert(
      columns.end(),
      {{w("start"), 0, 10, true}, {w("change"), 0, 10, true}, {w("games"), 0, 10, true}, {w("score"), 0, 10, true}});
  Table table(columns);
  for (std::size_t i = 0; i < list.size(); ++i) {
    const auto& p = list[i];
    double change = p.rating - p.start;
    std::vector<std::string> row{std::to_string(i + 1), shown(p.name), number(p.rating, club ? 0 : 1)};
    if (club) row.push_back(level_text(lang, int(p.rating)));
    row.insert(row.end(), {number(p.start, 0), (change > 0 ? "+" : "") + number(change, club ? 0 : 1),
                           std::to_string(p.games), score_text(p.score)});
    table.add(row);
  }
  if (o.format == "tsv")
    table.print_tsv(out);
  else
    table.print(out);
}

void rating(std::ostream& out, const RatingOptions& o) {
  std::vector<StartEntry> start;
  if (!o.start.empty() && !read_start(o.start, start)) return set_exit_code(2);
  auto c = db::open_for_search(db::database_path(o.db));
  db::GameQuery q;
  if (auto r = db::add_conditions(*c, o.criteria.criteria, q); !r) {
    std::cerr << "qipu rating: " << r.error() << "\n";
    return set_exit_code(2);
  }
  auto ids = db::load_identities(*c);
  bool club = o.system == "club";
  db::RatingTable table(club ? db::RatingSystem::Club : db::RatingSystem::Elo);
  for (const auto& s : start) table.set_start(start_name(ids, s.name), s.rating, s.games);
  auto name = [&](std::int64_t pid, const std::string& spelling) {
    const auto* id = ids.find(pid);
    return id ? id->name : spelling;
  };
  std::size_t skipped = 0;
  for (const auto& g : db::load_player_games(*c, q)) {
    auto wp = db::white_points(g.result);
    if (!wp) {
      ++skipped;
      continue;
    }
    table.play(name(g.white, g.white_name), name(g.black, g.black_name), *wp, g.white_elo, g.black_elo);
  }
  print_table(out, o, table.standings(), club);
  if (skipped) std::cerr << "qipu rating: " << skipped << " game(s) without a result (*) left out\n";
}

void run_rating(const RatingOptions& o) {
  Output output("rating");
  if (!output.open("")) return;
  rating(output.stream(), o);
  output.finish();
}

}  // namespace

void setup_rating(CLI::App& app) {
  auto o = std::make_shared<RatingOptions>();
  auto* cmd =
      app.add_subcommand("rating", "Replay games under the Chinese club points system (级别积分制) or FIDE Elo");
  add_db_option(*cmd, o->db);
  cmd->add_option("--system", o->system, "club (级别积分制, default) or elo (FIDE: K 40/20/10, the 400-point cap)")
      ->check(CLI::IsMember({"club", "elo"}));
  cmd->add_option("--start", o->start,
                  "Starting ratings, CSV: NAME,RATING[,GAMES] a line (GAMES: games played before, for Elo's K; "
                  "default 30). Players not listed start unrated: 0 points, or their first Elo tag, else 1400");
  add_lang_option(*cmd, o->lang);
  cmd->add_option("--format", o->format, "table (default: aligned columns) or tsv (tab-separated, for scripts)")
      ->check(CLI::IsMember({"table", "tsv"}));
  add_criteria_options(*cmd, o->criteria, CriteriaScope::rating);
  cmd->footer(
      "Games are replayed in date order, then round, then as imported; games without a result are left out.\n"
      "Club points: a level is 100 points (30级 from 100 up to 1级 from 3000); docs/ratings.md gives every rule.\n"
      "Examples: qipu rating --system club --event \"Club championship 2026\" --start ratings.csv\n"
      "          qipu rating --system elo --event Linares --date-from 1994 --date-to 1994\n"
      "          qipu rating --event \"Club championship 2026\" --lang zh --format tsv   (Chinese headings, tabs)");
  cmd->callback([o, cmd] {
    if (!finish_criteria("rating", *cmd, o->criteria)) return set_exit_code(2);
    run_rating(*o);
  });
}

}  // namespace qipu::cli
