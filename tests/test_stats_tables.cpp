// stats --player and stats --teams print through the one table printer: headings and
// labels from the word table in the --lang language, columns by display width, and the
// same cells tab-separated with --format tsv.
#include <catch2/catch.hpp>

#include <regex>
#include <set>

#include "cli/table.hpp"
#include "cli_util.hpp"

// One namespace a file: the test files compile several to a unit (CMakeLists.txt).
namespace test_stats_tables {

using namespace qipu::cli;
using namespace cli_test;

namespace {

std::string quoted(const std::string& s) { return "'" + s + "'"; }

// A game of the fixture: event, date, round, players, teams, Elos, ECO, result.
std::string game(const char* event, const char* date, const char* round, const char* white, const char* black,
                 const char* white_team, const char* black_team, int white_elo, int black_elo, const char* eco,
                 const char* result) {
  std::string g = std::string("[Event \"") + event + "\"]\n[Date \"" + date + "\"]\n[Round \"" + round +
                  "\"]\n[White \"" + white + "\"]\n[Black \"" + black + "\"]\n[Result \"" + result + "\"]\n";
  if (*white_team) g += std::string("[WhiteTeam \"") + white_team + "\"]\n[BlackTeam \"" + black_team + "\"]\n";
  g += "[WhiteElo \"" + std::to_string(white_elo) + "\"]\n[BlackElo \"" + std::to_string(black_elo) + "\"]\n";
  return g + "[ECO \"" + eco + "\"]\n\n1. e4 e5 " + result + "\n\n";
}

// Two rounds of a four-team event, boards of two, Chinese and Latin names mixed; and two
// more games of 丁立人 in 2019, one without a result. 丁立人's rated games: ½ against
// Carlsen (2830), 0 against 古克什 (2750), 1 against 韦奕 (2730): 1½ of 3, the opponents'
// average 2770, dp(0.50) = 0, performance 2770.
const std::string& teams_db() {
  static const std::string db = [] {
    const char* ev = "团体赛";
    std::string pgn =
        game(ev, "2026.05.01", "1.1", "丁立人", "Carlsen, Magnus", "中国队", "Norway", 2780, 2830, "C65", "1/2-1/2") +
        game(ev, "2026.05.01", "1.2", "Tari, Aryan", "韦奕", "Norway", "中国队", 2650, 2730, "B90", "0-1") +
        game(ev, "2026.05.01", "1.1", "古克什", "Caruana, Fabiano", "印度队", "USA", 2750, 2800, "D37", "1-0") +
        game(ev, "2026.05.01", "1.2", "Nakamura, Hikaru", "普拉格", "USA", "印度队", 2790, 2740, "A04", "0-1") +
        game(ev, "2026.05.02", "2.1", "古克什", "丁立人", "印度队", "中国队", 2750, 2780, "C42", "1-0") +
        game(ev, "2026.05.02", "2.2", "韦奕", "普拉格", "中国队", "印度队", 2730, 2740, "E60", "1/2-1/2") +
        game(ev, "2026.05.02", "2.1", "Carlsen, Magnus", "Caruana, Fabiano", "Norway", "USA", 2830, 2800, "C67",
             "1-0") +
        game(ev, "2026.05.02", "2.2", "Nakamura, Hikaru", "Tari, Aryan", "USA", "Norway", 2790, 2650, "B12",
             "1/2-1/2") +
        game("个人赛", "2019.08.01", "1", "丁立人", "韦奕", "", "", 2805, 2730, "C65", "1-0") +
        game("个人赛", "2019.08.02", "2", "韦奕", "丁立人", "", "", 2730, 2805, "E04", "*");
    fs::path file = temp_dir("stats-tables") / "teams.pgn";
    std::ofstream(file, std::ios::binary) << pgn;
    return imported_db("stats-tables", file.string());
  }();
  return db;
}

Run stats(const std::string& args) { return run_qipu("stats --db " + quoted(teams_db()) + " " + args); }

const char* const PlayerArgs = "--player 丁立人";
const char* const TeamArgs = "--event 团体赛 --teams";

// The lines of the aligned tables: those with two blanks in a row (the column gap).
std::vector<std::string> table_lines(const std::string& out) {
  std::vector<std::string> lines;
  for (const auto& l : lines_of(out))
    if (contains(l, "  ")) lines.push_back(l);
  return lines;
}

// The blocks of an output, split at its empty lines.
std::vector<std::vector<std::string>> blocks(const std::string& out) {
  std::vector<std::vector<std::string>> result(1);
  for (const auto& l : lines_of(out)) {
    if (l.empty())
      result.emplace_back();
    else
      result.back().push_back(l);
  }
  return result;
}

// The non-empty cells of an aligned line (split at runs of two or more blanks) or of a
// tab-separated one.
std::vector<std::string> cells(const std::string& line) {
  std::vector<std::string> out;
  std::regex gap(line.find('\t') != std::string::npos ? "\t" : " {2,}");
  for (std::sregex_token_iterator it(line.begin(), line.end(), gap, -1), end; it != end; ++it)
    if (std::string cell = std::regex_replace(it->str(), std::regex("^ +| +$"), ""); !cell.empty()) out.push_back(cell);
  return out;
}

// The output without the fixture's names (data, not words) and "ECO" (a code): what
// remains in Latin letters is an English word left untranslated.
std::string without_names(std::string out) {
  for (const char* name :
       {"Carlsen, Magnus", "Tari, Aryan", "Caruana, Fabiano", "Nakamura, Hikaru", "Norway", "USA", "ECO"})
    for (auto at = out.find(name); at != std::string::npos; at = out.find(name))
      out.erase(at, std::string(name).size());
  return out;
}

}  // namespace

TEST_CASE("stats tables: with --lang zh the headings are Chinese and no English word remains", "[stats-tables]") {
  for (const char* args : {PlayerArgs, TeamArgs})
    for (const char* lang : {"zh", "zh-Hant"}) {
      INFO(args << " --lang " << lang);
      Run r = stats(std::string(args) + " --lang " + lang);
      REQUIRE(r.code == 0);
      std::smatch m;
      std::string rest = without_names(r.out);
      CHECK_FALSE(std::regex_search(rest, m, std::regex("[A-Za-z]{2,}")));
      if (!m.empty()) INFO("left in English: " << m.str());
    }
  Run player = stats(std::string(PlayerArgs) + " --lang zh");
  for (const char* w : {"写法：", "局数", "得分", "对手平均等级分", "表现分", "全部", "按执子颜色：", "白方", "黑方",
                        "按年份：", "按ECO开局分类：", "（1 盘对局无结果，未计入）"})
    CHECK(contains(player.out, w));
  Run teams = stats(std::string(TeamArgs) + " --lang zh-Hant");
  // The event's name is data, as written; the words around it are traditional.
  for (const char* w : {"团体赛：4 場比賽，4 支隊伍", "輪次", "對陣", "名次", "隊", "場數", "勝", "和", "負", "場分",
                        "局分", "排名（先比場分，再比局分）："})
    CHECK(contains(teams.out, w));
  // The default is the environment's language, English without one.
  Run env = shell("QIPU_LANG=zh " + hang_guard + QIPU_BINARY + " stats --db " + quoted(teams_db()) + " " + TeamArgs);
  CHECK(contains(env.out, "场分"));
  Run en = shell("env -u QIPU_LANG LC_ALL=C " + hang_guard + QIPU_BINARY + " stats --db " + quoted(teams_db()) + " " +
                 PlayerArgs);
  CHECK(contains(en.out, "opponents' Elo"));
  CHECK(contains(en.out, "by colour:"));
}

TEST_CASE("stats tables: columns align by display width with Chinese names", "[stats-tables]") {
  for (const char* args : {PlayerArgs, TeamArgs})
    for (const char* lang : {"en", "zh"}) {
      INFO(args << " --lang " << lang);
      Run r = stats(std::string(args) + " --lang " + lang);
      REQUIRE(r.code == 0);
      CHECK_FALSE(contains(r.out, "\t"));
      // Every table's last column is right-aligned and never empty here (every opponent is
      // rated; the crosstable has a cell for each pair): its lines end at one display column.
      std::size_t tables = 0;
      for (const auto& block : blocks(r.out)) {
        std::set<std::size_t> ends;
        for (const auto& l : block)
          if (contains(l, "  ")) ends.insert(display_width(l));
        if (ends.empty()) continue;
        ++tables;
        CHECK(ends.size() == 1);
      }
      CHECK(tables == (args == PlayerArgs ? 4u : 2u));
    }
}

TEST_CASE("stats tables: --format tsv has the table's cells, numbers checked by hand", "[stats-tables]") {
  for (const char* args : {PlayerArgs, TeamArgs, "--event 团体赛"})  // and the event's standings
    for (const char* lang : {"en", "zh"}) {
      INFO(args << " --lang " << lang);
      std::string common = std::string(args) + " --lang " + lang;
      Run table = stats(common), tsv = stats(common + " --format tsv");
      REQUIRE(tsv.code == 0);
      auto rows = table_lines(table.out);
      std::vector<std::string> tsv_rows, tsv_text, table_text;
      for (const auto& l : lines_of(tsv.out)) (contains(l, "\t") ? tsv_rows : tsv_text).push_back(l);
      for (const auto& l : lines_of(table.out))
        if (!contains(l, "  ")) table_text.push_back(l);
      REQUIRE(rows.size() == tsv_rows.size());
      for (std::size_t i = 0; i < rows.size(); ++i) CHECK(cells(rows[i]) == cells(tsv_rows[i]));
      CHECK(table_text == tsv_text);  // the titles and notes between the tables
    }
  // 丁立人: 1½ of 3 decided games, opponents 2830, 2750, 2730: average 2770, performance 2770.
  Run zh = stats(std::string(PlayerArgs) + " --lang zh --format tsv");
  CHECK(contains(zh.out, "\n全部\t3\t1½\t50.0%\t2770\t2770\n"));
  CHECK(contains(zh.out, "\n2019\t1\t1\t100.0%\t2730\t3530\n"));
  // 印度队 won both matches (2–0, 1½–½): 4 match points, 3½ game points.
  Run teams = stats(std::string(TeamArgs) + " --lang en --format tsv");
  CHECK(contains(teams.out, "\n1\t印度队\t2\t2\t0\t0\t4\t3½\t"));
  CHECK(contains(teams.out, "\n1\t中国队 – Norway\t1½–½\n"));
}

}  // namespace test_stats_tables
