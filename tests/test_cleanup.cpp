// One way to do each thing (review findings): explore selects games with search's own
// options, filter --dedup keeps exactly the games import keeps, and players and rating
// print through the one table printer with --lang words.
#include <catch2/catch.hpp>

#include <algorithm>
#include <regex>
#include <set>

#include "cli/table.hpp"
#include "cli_util.hpp"

// One namespace a file: the test files compile several to a unit (CMakeLists.txt).
namespace test_cleanup {

using namespace qipu::cli;
using namespace cli_test;

namespace {

std::string quoted(const std::string& s) { return "'" + s + "'"; }

// The bundled world championship games (data/), imported once.
const std::string& championships_db() {
  static const std::string db =
      imported_db("cleanup-wc", std::string(QIPU_SOURCE_DIR) + "/data/world-championships.pgn");
  return db;
}

// The columns before `part` in `line`, by display width; npos when it is not there.
std::size_t column_of(const std::string& line, const std::string& part) {
  auto at = line.find(part);
  return at == std::string::npos ? std::string::npos : display_width(std::string_view(line).substr(0, at));
}

// The display column where the last digit of the line's first number after `from` ends.
std::size_t number_end(const std::string& line, std::size_t from) {
  auto start = line.find_first_of("0123456789", from);
  auto end = line.find_first_not_of("0123456789", start);
  if (end == std::string::npos) end = line.size();
  return display_width(std::string_view(line).substr(0, end));
}

}  // namespace

TEST_CASE("cleanup: explore and search --count agree on the games after each move of a filtered question",
          "[cleanup]") {
  const std::string filter = " --player karpov --color black --min-elo 2600 --db " + quoted(championships_db());
  Run ex = run_qipu("explore --moves '1.e4' --format json" + filter);
  REQUIRE(ex.code == 0);
  std::regex move_games(R"re(\{"move": "([^"]+)", "games": (\d+))re");
  int moves = 0;
  for (std::sregex_iterator it(ex.out.begin(), ex.out.end(), move_games), end; it != end; ++it, ++moves) {
    Run count = run_qipu("search --count --moves '1.e4 " + (*it)[1].str() + "'" + filter);
    REQUIRE(count.code == 0);
    CHECK(std::stoi(count.out) == std::stoi((*it)[2].str()));
  }
  CHECK(moves >= 2);  // Karpov met 1.e4 with more than one reply
  Run total = run_qipu("search --count --moves '1.e4'" + filter);
  CHECK(contains(ex.out, "\"games\": " + std::to_string(std::stoi(total.out)) + ", "));
}

TEST_CASE("cleanup: explore takes search's Elo and date options, with search's messages", "[cleanup]") {
  const std::string db = " --db " + quoted(championships_db());
  // --max-elo, declared once for search and filter, is explore's too.
  Run capped = run_qipu("explore --moves '1.e4' --format json --max-elo 2000 --both-elo" + db);
  REQUIRE(capped.code == 0);
  Run count = run_qipu("search --count --moves '1.e4' --max-elo 2000 --both-elo" + db);
  CHECK(contains(capped.out, "\"games\": " + std::to_string(std::stoi(count.out)) + ", "));
  // The same error, naming the option, as search gives.
  Run bad_explore = run_qipu("explore --moves '1.e4' --date-from 19x" + db);
  Run bad_search = run_qipu("search --count --date-from 19x" + db);
  CHECK(bad_explore.code == 2);
  CHECK(bad_search.code == 2);
  REQUIRE(bad_search.err.rfind("qipu search: --date-from: ", 0) == 0);
  CHECK(bad_explore.err == "qipu explore: " + bad_search.err.substr(std::string("qipu search: ").size()));
  Run color = run_qipu("explore --moves '1.e4' --color red" + db);
  CHECK(color.code != 0);
  CHECK(contains(color.err, "--color"));
}

TEST_CASE("cleanup: filter --dedup leaves out exactly the games import skips as duplicates", "[cleanup]") {
  fs::path dir = temp_dir("cleanup-dedup");
  fs::path pgn = dir / "games.pgn";
  {
    std::ofstream out(pgn, std::ios::binary);
    out << tricky_duplicates();
    // Real games, 20 of them twice, for the moves and names of real play.
    fs::path sample = write_sample_games(dir / "sample.pgn", 0, 60);
    fs::path again = write_sample_games(dir / "again.pgn", 40, 40);
    std::string real = slurp(sample.string()) + "\n" + slurp(again.string());
    // Each real game carries a note too, to be counted.
    out << std::regex_replace(real, std::regex("\\[Result "), "[Annotator \"real\"]\n[Result ");
  }
  std::size_t games = noted_games(slurp(pgn.string()));
  REQUIRE(games == 10 + 100);
  fs::path db = dir / "games.db";
  Run imp = run_qipu("import --db " + quoted(db.string()) + " " + quoted(pgn.string()));
  REQUIRE(imp.code == 0);
  std::smatch m;
  REQUIRE(std::regex_search(imp.out, m, std::regex(R"((\d+) duplicates skipped)")));
  std::size_t skipped = std::stoul(m[1]);
  // By hand: the repeated game, "?" for a missing Site, the movetext's result for a
  // missing Result tag, and the 20 real games read twice (40 to 59).
  CHECK(skipped == 3 + 20);
  Run kept = run_qipu("filter --dedup " + quoted(pgn.string()));
  REQUIRE(kept.code == 0);
  CHECK(noted_games(kept.out) == games - skipped);
}

namespace {

constexpr const char* ChinesePlayers = R"([Event "Club"]
[Date "2026.01.10"]
[Round "1"]
[White "丁立人"]
[Black "Carlsen, Magnus"]
[Result "1-0"]
[WhiteElo "2800"]
[BlackElo "2830"]

1. e4 e5 1-0

[Event "Club"]
[Date "2026.01.11"]
[Round "2"]
[White "Carlsen, Magnus"]
[Black "韦奕"]
[Result "1/2-1/2"]
[WhiteElo "2830"]
[BlackElo "2730"]

1. d4 d5 1/2-1/2

[Event "Club"]
[Date "2026.01.12"]
[Round "3"]
[White "韦奕"]
[Black "丁立人"]
[Result "0-1"]
[WhiteElo "2730"]
[BlackElo "2800"]

1. c4 c5 0-1
)";

const std::string& chinese_db() {
  static const std::string db = [] {
    fs::path pgn = temp_dir("cleanup-zh") / "players.pgn";
    std::ofstream(pgn, std::ios::binary) << ChinesePlayers;
    return imported_db("cleanup-zh", pgn.string());
  }();
  return db;
}

}  // namespace

TEST_CASE("cleanup: players --lang zh prints an aligned table with Chinese headings", "[cleanup]") {
  Run r = run_qipu("players --lang zh --db " + quoted(chinese_db()));
  REQUIRE(r.code == 0);
  auto lines = lines_of(r.out);
  REQUIRE(lines.size() == 4);
  for (const char* h : {"棋手", "局数", "等级分", "年份", "写法"}) CHECK(contains(lines[0], h));
  CHECK(!contains(r.out, "\t"));
  // Every player has 2 games: the games column ends at one display column, the heading's.
  std::set<std::size_t> ends{column_of(lines[0], "局数") + display_width("局数")};
  for (std::size_t i = 1; i < lines.size(); ++i) ends.insert(number_end(lines[i], lines[i].find("  ")));
  CHECK(ends.size() == 1);
  // The years column starts at one column on every line, after names of either script.
  std::set<std::size_t> years{column_of(lines[0], "年份")};
  for (std::size_t i = 1; i < lines.size(); ++i) years.insert(column_of(lines[i], "2026"));
  CHECK(years.size() == 1);
  // In traditional characters; and tab-separated for scripts.
  CHECK(contains(run_qipu("players --lang zh-Hant --db " + quoted(chinese_db())).out, "寫法"));
  Run tsv = run_qipu("players --format tsv --lang en --db " + quoted(chinese_db()));
  CHECK(lines_of(tsv.out)[0] == "player\tFIDE id\tgames\tElo\tyears\tspellings");
}

TEST_CASE("cleanup: rating --lang zh prints an aligned table with Chinese headings", "[cleanup]") {
  Run r = run_qipu("rating --system club --lang zh --db " + quoted(chinese_db()));
  REQUIRE(r.code == 0);
  auto lines = lines_of(r.out);
  REQUIRE(lines.size() == 4);
  for (const char* h : {"名次", "棋手", "积分", "级别", "初始", "变化", "局数", "得分"}) CHECK(contains(lines[0], h));
  CHECK(!contains(r.out, "\t"));
  // The level column (N级 or 无级别) starts at one display column after the names.
  std::set<std::size_t> level_columns{column_of(lines[0], "级别")};
  for (std::size_t i = 1; i < lines.size(); ++i) {
    auto at = lines[i].find("级");
    REQUIRE(at != std::string::npos);
    level_columns.insert(display_width(std::string_view(lines[i]).substr(0, lines[i].find_last_of(' ', at) + 1)));
  }
  CHECK(level_columns.size() == 1);
  Run tsv = run_qipu("rating --system elo --format tsv --lang en --db " + quoted(chinese_db()));
  CHECK(lines_of(tsv.out)[0] == "rank\tplayer\trating\tstart\tchange\tgames\tscore");
}

TEST_CASE("cleanup: stats --player and --teams take their headings from --lang", "[cleanup]") {
  Run zh = run_qipu("stats --player 丁立人 --lang zh-Hant --db " + quoted(chinese_db()));
  REQUIRE(zh.code == 0);
  CHECK(contains(zh.out, "寫法"));
  CHECK(contains(zh.out, "表現分"));
  // --lang wins over QIPU_LANG, without changing the environment.
  Run en = shell("QIPU_LANG=zh " + hang_guard + QIPU_BINARY + " stats --player 丁立人 --lang en --db " +
                 quoted(chinese_db()));
  CHECK(contains(en.out, "spellings"));
  CHECK(!contains(en.out, "写法"));
}

}  // namespace test_cleanup
