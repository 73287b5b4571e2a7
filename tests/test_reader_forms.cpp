// The reader on PGN that is valid or common but was refused (issue 14, "The reader"):
// move numbers with separate or no periods, a DOS end-of-file byte, and the slips that
// lenient reading warns about and --strict makes errors. Each odd form is checked
// against the same game written normally, read by the same program: the two records
// must write the same PGN. Places of diagnostics are counted from the texts below.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "qipu/game/pipeline.hpp"
#include "qipu/game/replay.hpp"
#include "qipu/game/writer.hpp"
#include "qipu/pgn/reader.hpp"
#include "corpora.hpp"

// One namespace a file: the test files compile several to a unit (CMakeLists.txt).
namespace test_reader_forms {

using namespace qipu;
using game::GameRecord;
namespace fs = std::filesystem;

namespace {

// Every game of `text`, read as the program reads it (junk chunks count as games).
std::vector<GameRecord> read_games(const std::string& text, bool strict = false, bool grammar_only = false) {
  std::vector<GameRecord> out;
  game::ReplayOptions opt;
  opt.strict = strict;
  opt.keep_raw = true;
  game::Replayer r(opt, [&](GameRecord& rec) {
    out.push_back(std::move(rec));
    return pgn::Visit::Continue;
  });
  pgn::ReaderOptions ro = game::replay_reader_options();
  ro.grammar_only = grammar_only;
  auto src = pgn::memory_source(text);
  pgn::read_pgn(*src, r, ro);
  return out;
}

GameRecord read_one(const std::string& text, bool strict = false) {
  auto games = read_games(text, strict);
  REQUIRE(games.size() == 1);
  return std::move(games[0]);
}

std::string messages(const GameRecord& g) {
  std::string s;
  for (const auto& d : g.diagnostics)
    s += std::to_string(d.pos.line) + ":" + std::to_string(d.pos.column) + (d.error ? " E " : " W ") + d.move + ": " +
         d.message + "\n";
  return s;
}

const std::string Tags = "[Event \"e\"]\n[Site \"s\"]\n[White \"w\"]\n[Black \"b\"]\n[Result \"*\"]\n\n";

// The odd form must read without a word and write what the normal form writes, through
// the reader's fast path and through the grammar alone.
void same_game(const std::string& odd, const std::string& normal) {
  INFO("odd: " << odd << "\nnormal: " << normal);
  GameRecord want = read_one(Tags + normal + "\n");
  REQUIRE(want.diagnostics.empty());
  for (bool grammar_only : {false, true}) {
    auto got = read_games(Tags + odd + "\n", false, grammar_only);
    REQUIRE(got.size() == 1);
    INFO("grammar only: " << grammar_only << "\n" << messages(got[0]));
    CHECK(got[0].diagnostics.empty());
    CHECK(game::write_pgn(got[0]) == game::write_pgn(want));
  }
}

// One diagnostic: a warning when read leniently, an error under --strict, at line:col,
// whose message starts with `message`; the moves replay all the same.
void slip(const std::string& text, int line, int column, const std::string& message, int plies) {
  INFO(text);
  for (bool strict : {false, true}) {
    INFO("strict: " << strict);
    GameRecord g = read_one(text, strict);
    INFO(messages(g));
    REQUIRE(g.diagnostics.size() == 1);
    const auto& d = g.diagnostics[0];
    CHECK(d.error == strict);
    CHECK(d.pos.line == std::uint32_t(line));
    CHECK(d.pos.column == std::uint32_t(column));
    CHECK(d.message.rfind(message, 0) == 0);
    CHECK(g.plies() == plies);
  }
}

}  // namespace

TEST_CASE("reader: a move number followed by separate periods", "[reader]") {
  const std::string normal = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *";
  same_game("1. e4 1. ... e5 2. Nf3 2. ... Nc6 3. Bb5 3. ... a6 *", normal);
  same_game("1. e4 1. ...e5 2. Nf3 2.\n... Nc6 3. Bb5 3. .. a6 *", normal);
  same_game("1. e4 ... e5 2. Nf3 ... Nc6 3. Bb5 \xE2\x80\xA6 a6 *", normal);  // … is U+2026
  same_game("1. e4 e5 (1. ...d5 2. exd5) (1. ... c5) 2. Nf3 *", "1. e4 e5 (1... d5 2. exd5) (1... c5) 2. Nf3 *");
}

TEST_CASE("reader: a move number with no period", "[reader]") {
  same_game("1 e4 e5 2 Nf3 Nc6 3 Bb5 a6 *", "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *");
  same_game("1 e4 e5 2\nNf3 (2 Nc3 Nf6) 2 ... Nc6 10 *", "1. e4 e5 2. Nf3 (2. Nc3 Nf6) 2... Nc6 *");
  // A result still reads as one: "1-0" is no move number 1.
  GameRecord g = read_one(Tags + "1 e4 e5 1-0\n");
  CHECK(g.result == "1-0");
  CHECK(g.plies() == 2);
}

TEST_CASE("reader: the real files with '12. ... Nf6' forms read", "[reader][corpus]") {
  QIPU_NEEDS_CORPORA("edge", "real");
  const fs::path root = corpora::root();
  // Movetext lines (not tag lines) with a move number, blanks, then periods.
  const std::regex form(R"((^|[\s(])\d+\.\s+\.\.\.)");
  int games = 0;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    if (!e.is_regular_file() || e.path().extension() != ".pgn") continue;
    std::ifstream in(e.path(), std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    if (!std::regex_search(text, form)) continue;  // cheap for most files: the tag lines decide below
    for (const GameRecord& g : read_games(text)) {
      bool uses_form = false;
      std::istringstream lines(g.raw);
      for (std::string l; std::getline(lines, l);) uses_form |= !l.empty() && l[0] != '[' && std::regex_search(l, form);
      if (!uses_form) continue;
      INFO(e.path().string() << " game " << g.index << "\n" << messages(g));
      CHECK(g.error_count() == 0);
      ++games;
    }
  }
  CHECK(games >= 1);
}

TEST_CASE("reader: a DOS end-of-file byte after the last game is no game", "[reader]") {
  const std::string game = Tags + "1. e4 e5 *";
  for (std::string_view tail : {"\n\x1A", "\r\n\x1A", "\n\x1A\n", "\x1A", "\n\x1A\x1A\n\n"}) {
    auto games = read_games(game + std::string(tail));
    REQUIRE(games.size() == 1);
    CHECK(games[0].diagnostics.empty());
    CHECK(games[0].raw.find('\x1A') == std::string::npos);
  }
  // Between two files joined with copy /b.
  auto two = read_games(game + "\r\n\x1A" + game + "\n");
  REQUIRE(two.size() == 2);
  CHECK(two[0].diagnostics.empty());
  CHECK(two[1].diagnostics.empty());
  CHECK(two[1].index == 2);
  // A game without a result before the mark: the mark is cut, the game reads whole.
  GameRecord open = read_one(Tags + "1. e4 e5\n\x1A");
  CHECK(open.plies() == 2);
  CHECK(open.error_count() == 0);
  // Inside movetext the byte is still no move.
  CHECK(read_one(Tags + "1. e4 \x1A e5 *\n").error_count() == 1);
}

TEST_CASE("reader: a stray period warns, or is an error with --strict", "[reader]") {
  slip(Tags + "1. e4 $18. e5 *\n", 7, 10, "stray \".\": periods belong after a move number", 2);
}

TEST_CASE("reader: SetUp \"1\" without a FEN tag plays from the standard start", "[reader]") {
  slip("[Event \"e\"]\n[SetUp \"1\"]\n\n1. e4 e5 2. Nf3 *\n", 1, 1, "SetUp is \"1\" but there is no FEN tag", 3);
  GameRecord g = read_one("[Event \"e\"]\n[SetUp \"1\"]\n\n1. e4 e5 2. Nf3 *\n");
  CHECK(g.final_position.fen() == "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
}

TEST_CASE("reader: prose before the first tag is skipped with a warning", "[reader]") {
  const std::string text = "This file was made by hand.\nEnjoy!\n\n" + Tags + "1. e4 e5 *\n";
  slip(text, 1, 1, "text before the first game skipped: \"This file was made by hand.\"", 2);
  GameRecord g = read_one(text);
  CHECK(g.index == 1);
  CHECK(g.tag("White") == "w");
  CHECK(g.raw.rfind("[Event", 0) == 0);
  // A game without tags or result before the first tagged one is a game, not prose.
  auto games = read_games("1. e4 e5\n\n" + Tags + "1. d4 d5 *\n");
  REQUIRE(games.size() == 2);
  CHECK(games[0].plies() == 2);
  CHECK(games[1].plies() == 2);
}

// Found by fuzz_pgn: the invalid byte lies in the skipped prose, before the game's text, and
// its place was computed as a pointer before that text (UBSan: pointer overflow).
TEST_CASE("reader: a byte invalid in its encoding inside the skipped prose", "[reader]") {
  GameRecord g = read_one("\xe9\xa6\xac notes \xaa\n" + Tags + "1. e4 e5 *\n");
  CHECK(g.plies() == 2);
  bool placed = false;
  for (const auto& d : g.diagnostics)
    if (d.kind == Problem::invalid_bytes) placed = d.pos.line == 2 && d.pos.column == 1;  // the game's first byte
  CHECK(placed);
}

TEST_CASE("reader: a capture sign that takes nothing, a capture without one", "[reader]") {
  slip(Tags + "1. e4 d5 2. exd5 Qxd5 3. Nc3 Qd8 4. Nxe4 *\n", 7, 37,
       "capture sign but the move takes nothing: expected Ne4", 7);
  slip(Tags + "1. e4 d5 2. exd5 Qd5 *\n", 7, 18, "the move captures: expected Qxd5", 4);
  GameRecord g = read_one(Tags + "1. e4 d5 2. exd5 Qd5 *\n");
  CHECK(g.diagnostics[0].move == "2... Qd5");
  // An origin written too (Qd8d5, as pgn-extract's long algebraic): one message gives the SAN.
  GameRecord both = read_one(Tags + "1. e4 d5 2. exd5 Qd8d5 *\n");
  REQUIRE(both.diagnostics.size() == 1);
  CHECK(both.diagnostics[0].message == "superfluous disambiguation: expected Qxd5");
}

TEST_CASE("reader: a game without a result at its end", "[reader]") {
  // Expected where the result should stand: after "e5", line 7 column 9.
  slip(Tags + "1. e4 e5\n", 7, 9, "no result at the end of the game", 2);
  // Before the next game's tags as well.
  auto games = read_games(Tags + "1. e4 e5\n\n" + Tags + "1. d4 *\n");
  REQUIRE(games.size() == 2);
  CHECK(games[0].warning_count() == 1);
  CHECK(games[1].diagnostics.empty());
}

}  // namespace test_reader_forms
