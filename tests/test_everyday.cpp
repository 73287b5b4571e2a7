// Everyday use of the program and the library: --version, `qipu help`, "did you mean"
// for misspelt words, and the example programs of docs/library.md run against answers
// known without qipu (FENs worked out by hand, the Chinese piece names 后 象 马, a
// transposition found by reading the games).
#include <catch2/catch.hpp>

#include "cli_util.hpp"

// One namespace a file: the test files compile several to a unit (CMakeLists.txt).
namespace test_everyday {

using namespace cli_test;

namespace {

const std::string source_dir = std::string(QIPU_TEST_DATA) + "/../..";

// A PGN file of these games in a fresh directory.
fs::path write_pgn(const std::string& name, const std::string& text) {
  fs::path p = temp_dir("everyday") / name;
  std::ofstream(p, std::ios::binary) << text;
  return p;
}

std::string quoted(const fs::path& p) { return "\"" + p.string() + "\""; }

}  // namespace

TEST_CASE("qipu --version: the project version, and git describe from a checkout", "[everyday]") {
  Run r = run_qipu("--version");
  CHECK(r.code == 0);
  CHECK(r.out.rfind("qipu " QIPU_PROJECT_VERSION, 0) == 0);
  Run described = shell("git -C \"" + source_dir + "\" describe --always 2>/dev/null");
  if (described.code == 0 && fs::exists(source_dir + "/.git")) {
    std::string commit = lines_of(described.out).at(0);
    CHECK(contains(r.out, "(git " + commit));
  }
}

TEST_CASE("qipu --version: from a tarball without .git, the project version alone", "[everyday]") {
  fs::path dir = temp_dir("everyday") / "tarball";
  fs::create_directories(dir);
  fs::path out = dir / "version.cpp";
  Run r = shell("cmake -DSOURCE_DIR=" + quoted(dir) + " -DOUTPUT=" + quoted(out) + " -DVERSION=9.8.7 -P \"" +
                source_dir + "/cmake/version.cmake\"");
  REQUIRE(r.code == 0);
  CHECK(contains(slurp(out.string()), "= \"qipu 9.8.7\";"));
}

TEST_CASE("help: the program's help, or one command's, as --help prints it", "[everyday]") {
  Run app = run_qipu("help");
  CHECK(app.code == 0);
  CHECK(app.out == run_qipu("--help").out);
  CHECK(contains(app.out, "check"));
  Run check = run_qipu("help check");
  CHECK(check.code == 0);
  CHECK(check.out == run_qipu("check --help").out);
  CHECK(contains(check.out, "Usage: qipu check"));
  CHECK(contains(check.out, "--json"));
}

TEST_CASE("a misspelt command or option: the nearest known word, exit 2", "[everyday]") {
  struct Case {
    const char* args;
    const char* message;
  };
  const Case cases[] = {
      {"chek x.pgn", "qipu: unknown command 'chek'; did you mean 'check'?"},
      {"check --jsn x.pgn", "qipu check: unknown option '--jsn'; did you mean '--json'?"},
      {"convert --too=zh x.pgn", "qipu convert: unknown option '--too'; did you mean '--to'?"},
      {"help serch", "qipu help: unknown command 'serch'; did you mean 'search'?"},
      // Nothing near enough: no guess.
      {"frobnicate", "qipu: unknown command 'frobnicate' (see qipu help)"},
      // An option before its command is unknown where it stands (qipu has no --json).
      {"--json check x.pgn", "qipu: unknown option '--json' (see qipu help)"},
  };
  for (const Case& c : cases) {
    INFO(c.args);
    Run r = run_qipu(c.args);
    CHECK(r.code == 2);
    CHECK(r.err == std::string(c.message) + "\n");
  }
}

TEST_CASE("an unknown word of 100,000 bytes: one short line, exit 2", "[everyday][hostile]") {
  Run r = run_qipu(std::string(100000, 'x'));
  CHECK(r.code == 2);
  CHECK(lines_of(r.err).size() == 1);
  CHECK(r.err.size() < 200);
  CHECK(contains(r.err, "qipu: unknown command 'xxxx"));
  // The control byte of a misspelt option is escaped, not sent to the terminal.
  Run control = run_qipu("check \"--js$(printf '\\033')n\" x.pgn");
  CHECK(control.code == 2);
  CHECK(control.err == "qipu check: unknown option '--js\\x1bn'; did you mean '--json'?\n");
}

#ifdef QIPU_EXAMPLES
namespace {
std::string example(const std::string& name) { return "\"" QIPU_EXAMPLES "/" + name + "\" "; }
}  // namespace

TEST_CASE("examples/replay_fens: every position of the game as a FEN", "[everyday][examples]") {
  fs::path pgn = write_pgn("fens.pgn", "[White \"A\"]\n[Black \"B\"]\n\n1. Nf3 Nf6 2. g3 *\n");
  Run r = shell(example("replay_fens") + quoted(pgn));
  CHECK(r.code == 0);
  // Worked out by hand: knights out (halfmove clock 1, 2), then a pawn move resets it.
  std::vector<std::string> want = {
      "game 1: A - B",
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
      "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1",
      "rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 2 2",
      "rnbqkb1r/pppppppp/5n2/8/8/5NP1/PPPPPP1P/RNBQKB1R b KQkq - 0 2",
  };
  CHECK(lines_of(r.out) == want);
}

TEST_CASE("examples/replay_fens: an illegal move is reported, exit 1", "[everyday][examples]") {
  fs::path pgn = write_pgn("illegal.pgn", "1. e4 e5 2. Ke3 *\n");
  Run r = shell(example("replay_fens") + quoted(pgn));
  CHECK(r.code == 1);
  CHECK(lines_of(r.out).size() == 4);  // the title, the start and the two moves replayed
  // "2. Ke3" starts at column 13 of line 1.
  CHECK(contains(r.err, ":1:13: 2. Ke3: illegal move"));
}

TEST_CASE("examples/to_chinese: the game in Chinese notation", "[everyday][examples]") {
  fs::path pgn = write_pgn("zh.pgn", "1. Nf3 d5 2. e4 dxe4 3. Ng5 Qd4 4. Bb5+ c6 *\n");
  Run r = shell(example("to_chinese") + quoted(pgn));
  CHECK(r.code == 0);
  // 马 knight, 后 queen, 象 bishop; pawn moves keep their squares.
  CHECK(contains(r.out, "1. 马f3 d5 2. e4 dxe4 3. 马g5 后d4 4. 象b5+ c6 *"));
}

TEST_CASE("examples/position_query: games reaching a position by any move order", "[everyday][examples]") {
  fs::path pgn = write_pgn("db.pgn",
                           "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n"
                           "[White \"C\"]\n[Black \"D\"]\n\n1. d4 d5 *\n\n"
                           "[White \"E\"]\n[Black \"F\"]\n\n1. Nf3 Nc6 2. e4 e5 3. Bb5 *\n");
  fs::path db = pgn.parent_path() / "example.db";
  fs::remove(db);
  REQUIRE(run_qipu("import --db " + quoted(db) + " " + quoted(pgn)).code == 0);
  // Games 1 and 3 reach the position after 2...Nc6 (game 3 by transposition); 2 never does.
  Run r = shell(example("position_query") + quoted(db) + " \"1.e4 e5 2.马f3 Nc6\"");
  CHECK(r.code == 0);
  CHECK(lines_of(r.out) == std::vector<std::string>{"1\tA - B", "3\tE - F"});
  Run bad = shell(example("position_query") + quoted(db) + " \"1.e5\"");
  CHECK(bad.code == 2);
}
#endif

}  // namespace test_everyday
