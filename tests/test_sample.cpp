// Tests of what a bare clone carries: the sample games in data/ (world championship
// matches in English and, made from them with `qipu convert --to zh`, in Chinese), and
// the skipping of the tests that need the large corpora when those are not there.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <string>

#include "cli_util.hpp"
#include "corpora.hpp"

// One namespace a file: the test files compile several to a unit (CMakeLists.txt).
namespace test_sample {

using namespace cli_test;

namespace {

const std::string english = QIPU_SOURCE_DIR "/data/world-championships.pgn";
const std::string chinese = QIPU_SOURCE_DIR "/data/world-championships-zh.pgn";

// Lines that begin a tag pair named Event: one a game in these files.
std::size_t event_lines(const std::string& text) {
  std::size_t n = 0;
  for (const auto& line : lines_of(text)) n += line.rfind("[Event ", 0) == 0;
  return n;
}

}  // namespace

TEST_CASE("sample: the world championship games are all valid", "[sample]") {
  const std::size_t games = event_lines(slurp(english));
  CHECK(games == 1042);  // data/SOURCES.md: 1,042 games, 1886 to 2023
  for (const std::string& f : {english, chinese}) {
    Run r = run_qipu("check \"" + f + "\"");
    INFO(f << "\n" << r.out << r.err);
    CHECK(r.code == 0);
    const std::string n = std::to_string(games);
    CHECK(contains(r.out, n + " games, " + n + " valid, 0 invalid, 0 warnings"));
  }
}

TEST_CASE("sample: the Chinese file reads back to the English file's moves", "[sample][zh]") {
  const std::string zh = slurp(chinese);
  CHECK(event_lines(zh) == event_lines(slurp(english)));
  // Chinese piece names in the movetext, and no English piece letters left there.
  for (const char* piece : {"王", "后", "车", "象", "马"}) CHECK(contains(zh, piece));
  for (const auto& line : lines_of(zh)) {
    if (line.empty() || line[0] == '[') continue;
    INFO(line);
    CHECK(line.find_first_of("NBRQK") == std::string::npos);
  }
  Run en_moves = run_qipu("convert --to uci \"" + english + "\"");
  Run zh_moves = run_qipu("convert --to uci \"" + chinese + "\"");
  REQUIRE(en_moves.code == 0);
  REQUIRE(zh_moves.code == 0);
  CHECK(lines_of(en_moves.out).size() == 1042);
  CHECK((zh_moves.out == en_moves.out));
}

TEST_CASE("corpora: a test that needs them is skipped with one line when they are missing", "[sample]") {
  fs::path empty = temp_dir("no_corpora");
  char self[4096];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  REQUIRE(n > 0);
  self[n] = '\0';
  // A corpus test of another file, run alone in a child with QIPU_CORPORA set to an empty directory.
  Run r = shell("QIPU_CORPORA=\"" + empty.string() + "\" \"" + self + "\" \"perft: Ethereal standard.epd\"");
  INFO(r.out << r.err);
  CHECK(r.code == 0);
  CHECK(contains(r.out, std::string(corpora::skip_mark) + ": " + empty.string() +
                            "/perft/ethereal/src__perft__standard.epd is missing; set QIPU_CORPORA"));
  CHECK_FALSE(contains(r.out + r.err, "filesystem error"));
  fs::remove_all(empty);
}

}  // namespace test_sample
