// Tests of the qipu command line (check, convert), run as a child process. Expected
// lines, columns, FENs and UCI moves are worked out by hand from the fixtures in
// tests/data/cli; Polyglot keys are the published ones from the Polyglot book format.
#include <catch2/catch.hpp>

#include <random>
#include <regex>

#include "cli_util.hpp"

// One namespace a file: the test files compile several to a unit (CMakeLists.txt).
namespace test_cli {

using namespace cli_test;

TEST_CASE("check: diagnostic lines, summary and exit code", "[cli]") {
  const std::string file = data("multi.pgn");
  Run r = run_qipu("check \"" + file + "\"");
  CHECK(r.code == 1);
  auto lines = lines_of(r.out);
  REQUIRE(lines.size() == 4);
  // FILE:LINE:COL: error|warning: game N (White – Black), move 31. Qxe1: message
  std::regex re(R"(^(.*):(\d+):(\d+): (error|warning): game (\d+) \((.*) – (.*)\)(, move ([^:]+))?: (.*)$)");
  struct Want {
    int line, col;
    const char* severity;
    int game;
    const char* white;
    const char* black;
    const char* move;
    const char* message_start;
  };
  // Game 2: "3. Ke3" starts at column 24 of line 13 (the king cannot go two squares).
  // Game 3: fool's mate scored 1-0, reported at the game's first line (15).
  // Game 4: knights b1 and f1 both reach d2; "Nd2" at column 4 of line 29.
  const Want want[] = {
      {13, 24, "error", 2, "Gamma", "Delta", "3. Ke3", "illegal move"},
      {15, 1, "warning", 3, "Eps", "Zeta", "", "result 1-0 but White is checkmated"},
      {29, 4, "error", 4, "Eta", "Theta", "1. Nd2", "ambiguous"},
  };
  for (int i = 0; i < 3; ++i) {
    std::smatch m;
    INFO(lines[i]);
    REQUIRE(std::regex_match(lines[i], m, re));
    CHECK(m[1] == file);
    CHECK(std::stoi(m[2]) == want[i].line);
    CHECK(std::stoi(m[3]) == want[i].col);
    CHECK(m[4] == want[i].severity);
    CHECK(std::stoi(m[5]) == want[i].game);
    CHECK(m[6] == want[i].white);
    CHECK(m[7] == want[i].black);
    CHECK(m[9] == want[i].move);
    CHECK(m[10].str().rfind(want[i].message_start, 0) == 0);
  }
  CHECK(lines[3] == "4 games, 2 valid, 2 invalid, 1 warnings");

  Run ok = run_qipu("check \"" + data("opera.pgn") + "\"");
  CHECK(ok.code == 0);
  CHECK(ok.out == "1 games, 1 valid, 0 invalid, 0 warnings\n");
}

TEST_CASE("check: exit code 2 for a missing file or a bad option", "[cli]") {
  CHECK(run_qipu("check \"" + data("no-such-file.pgn") + "\"").code == 2);
  CHECK(run_qipu("check --no-such-option \"" + data("opera.pgn") + "\"").code == 2);
  CHECK(run_qipu("check --jobs many \"" + data("opera.pgn") + "\"").code == 2);
  CHECK(run_qipu("check").code == 2);
  CHECK(run_qipu("no-such-command").code == 2);
  CHECK(run_qipu("convert --to xml \"" + data("opera.pgn") + "\"").code == 2);
  // A missing file among good ones still fails the run.
  CHECK(run_qipu("check \"" + data("opera.pgn") + "\" \"" + data("no-such-file.pgn") + "\"").code == 2);
}

TEST_CASE("check: --strict turns style warnings into errors", "[cli]") {
  fs::path dir = temp_dir();
  std::string f = (dir / "style.pgn").string();
  std::ofstream(f, std::ios::binary) << "[Event \"s\"]\n[White \"A\"]\n[Black \"B\"]\n\n1. Pe4 e5 2. Ng1f3 *\n";
  Run lax = run_qipu("check \"" + f + "\"");
  CHECK(lax.code == 0);
  CHECK(lax.out.substr(lax.out.rfind("1 games")) == "1 games, 1 valid, 0 invalid, 2 warnings\n");
  Run strict = run_qipu("check --strict \"" + f + "\"");
  CHECK(strict.code == 1);
  CHECK(contains(strict.out, f + ":5:4: error: game 1 (A – B), move 1. Pe4: "));
  CHECK(contains(strict.out, "1 games, 0 valid, 1 invalid, 0 warnings"));
  fs::remove_all(dir);
}

TEST_CASE("check: --rejects writes invalid games' bytes unchanged", "[cli]") {
  fs::path dir = temp_dir();
  // The fixture as is, with CRLF line ends, and with CRLF plus a Latin-1 byte in a name.
  std::string text = slurp(data("multi.pgn"));
  std::string crlf;
  for (char c : text) {
    if (c == '\n') crlf += '\r';
    crlf += c;
  }
  std::string latin1 = crlf;
  latin1.replace(latin1.find("Delta"), 5, "Delt\xE4");
  const std::string src = (dir / "crlf.pgn").string(), src1 = (dir / "latin1.pgn").string(),
                    rej = (dir / "rejects.pgn").string();
  std::ofstream(src, std::ios::binary) << crlf;
  std::ofstream(src1, std::ios::binary) << latin1;
  // The Latin-1 file fails today: rejects hold the game as decoded (UTF-8 "\xC3\xA4"), not
  // the original byte \xE4, because GameRecord::raw is the decoded text.
  for (const std::string& src_file : {data("multi.pgn"), src, src1}) {
    std::string bytes = slurp(src_file);
    INFO(src_file);
    Run r = run_qipu("check --rejects \"" + rej + "\" \"" + src_file + "\"");
    CHECK(r.code == 1);
    // Game 2 runs from its [Event to game 3's [Event; game 4 to the end of the file.
    std::size_t g2 = bytes.find("[Event \"Illegal\"]"), g3 = bytes.find("[Event \"Wrong result\"]"),
                g4 = bytes.find("[Event \"Ambiguous\"]");
    REQUIRE(g4 != std::string::npos);
    std::string game2 = bytes.substr(g2, g3 - g2), game4 = bytes.substr(g4);
    std::string got = slurp(rej);
    REQUIRE(got.size() >= game2.size() + game4.size());
    CHECK(got.substr(0, game2.size()) == game2);
    CHECK(got.substr(game2.size(), game4.size()) == game4);
    // Only line ends may follow, so the file stays valid PGN.
    CHECK(got.find_first_not_of("\r\n", game2.size() + game4.size()) == std::string::npos);
    // The rejects file holds exactly the two invalid games.
    Run again = run_qipu("check \"" + rej + "\"");
    CHECK(contains(again.out, "2 games, 0 valid, 2 invalid"));
  }
  fs::remove_all(dir);
}

TEST_CASE("check: --json carries the same facts", "[cli]") {
  Run r = run_qipu("check --json \"" + data("multi.pgn") + "\"");
  CHECK(r.code == 1);
  const std::string& j = r.out;
  INFO(j);
  CHECK(j.front() == '{');
  CHECK(j[j.find_last_not_of("\n")] == '}');
  CHECK(contains(j, "\"summary\":{\"games\":4,\"valid\":2,\"invalid\":2,\"warnings\":1}"));
  // Balanced braces and brackets outside strings: a cheap well-formedness test.
  int depth = 0;
  bool in_str = false, esc = false, balanced = true;
  for (char c : j) {
    if (in_str) {
      if (esc)
        esc = false;
      else if (c == '\\')
        esc = true;
      else if (c == '"')
        in_str = false;
      continue;
    }
    if (c == '"')
      in_str = true;
    else if (c == '{' || c == '[')
      ++depth;
    else if (c == '}' || c == ']')
      balanced &= --depth >= 0;
  }
  CHECK(balanced);
  CHECK(depth == 0);
  CHECK_FALSE(in_str);
  // The games with something to report, with their diagnostics.
  std::regex game_re(
      "\\{\"file\":\"[^\"]*multi.pgn\",\"game\":(\\d+),\"line\":(\\d+),\"white\":\"([^\"]*)\",\"black\":"
      "\"([^\"]*)\",\"valid\":(true|false),\"diagnostics\":\\[([^\\]]*)\\]\\}");
  std::vector<std::string> seen;
  for (auto it = std::sregex_iterator(j.begin(), j.end(), game_re); it != std::sregex_iterator(); ++it)
    seen.push_back((*it)[1].str() + " " + (*it)[2].str() + " " + (*it)[3].str() + " " + (*it)[5].str());
  CHECK(seen == std::vector<std::string>{"2 8 Gamma false", "3 15 Eps true", "4 22 Eta false"});
  CHECK(contains(j,
                 "{\"severity\":\"error\",\"code\":\"illegal_move\",\"line\":13,\"column\":24,\"ply\":5,\"move\":\"3. "
                 "Ke3\",\"message\":\"illegal move"));
  CHECK(contains(
      j, "{\"severity\":\"error\",\"code\":\"ambiguous_move\",\"line\":29,\"column\":4,\"ply\":1,\"move\":\"1. Nd2\""));
  CHECK(contains(j, "\"severity\":\"warning\""));
}

TEST_CASE("check: --jobs 1 and --jobs 2 give the same output", "[cli]") {
  // The bundled sample (0.8 MB, split across workers) and the small fixture.
  const std::string big = QIPU_SOURCE_DIR "/data/world-championships.pgn";
  for (const std::string& f : {big, data("multi.pgn")}) {
    Run one = run_qipu("check --jobs 1 \"" + f + "\"");
    Run two = run_qipu("check --jobs 2 \"" + f + "\"");
    INFO(f);
    CHECK(one.code == two.code);
    CHECK(one.out == two.out);
    CHECK(contains(one.out, " games, "));
    Run j1 = run_qipu("convert --to uci --jobs 1 \"" + f + "\"");
    Run j2 = run_qipu("convert --to uci --jobs 2 \"" + f + "\"");
    CHECK(j1.out == j2.out);
  }
}

// One job reads, replays and reports on one thread, several use queues: the reports of
// inputs that fail (missing, cut short) must come out alike, in the same places.
TEST_CASE("check: --jobs 1 and --jobs 2 report failing inputs alike", "[cli]") {
  fs::path dir = temp_dir("jobs");
  const std::string cut = (dir / "cut.pgn.gz").string();
  // Half of the bundled sample, compressed: games come before the error.
  const std::string big = QIPU_SOURCE_DIR "/data/world-championships.pgn";
  REQUIRE(shell("gzip -c \"" + big + "\" | head -c 100000 > " + cut).code == 0);
  const std::string latin1 = std::string(QIPU_TEST_DATA) + "/pgn/latin1.pgn";
  const std::string files =
      "\"" + data("multi.pgn") + "\" " + cut + " \"" + data("no-such-file.pgn") + "\" \"" + latin1 + "\"";
  for (std::string args : {"check ", "check --json ", "convert --to uci "}) {
    Run one = run_qipu(args + "--jobs 1 " + files), two = run_qipu(args + "--jobs 2 " + files);
    INFO(args << "\n" << one.out << one.err);
    CHECK(one.code == 2);
    CHECK(one.code == two.code);
    CHECK(one.out == two.out);
    CHECK(one.err == two.err);
    CHECK(contains(one.out + one.err, "cut.pgn.gz: truncated gzip data"));
    CHECK(contains(one.out + one.err, "no-such-file.pgn"));
  }
  fs::remove_all(dir);
}

// A file of text that is not PGN at all must not pass.
// The reader reports its tokens as errors but begins no game, so check counts nothing
// and exits 0: "0 games, 0 valid, 0 invalid, 0 warnings".
TEST_CASE("check: a file that is not PGN fails", "[cli]") {
  const std::string f = data("not-pgn.txt");
  Run r = run_qipu("check \"" + f + "\"");
  INFO(r.out);
  CHECK(r.code != 0);
}

// The Opera game (Morphy v Duke Karl / Count Isouard, Paris 1858), worked out by hand.
TEST_CASE("convert: the Opera game as UCI, FEN and JSON", "[cli]") {
  const std::string f = data("opera.pgn");
  SECTION("uci") {
    Run r = run_qipu("convert --to uci \"" + f + "\"");
    CHECK(r.code == 0);
    CHECK(r.out ==
          "e2e4 e7e5 g1f3 d7d6 d2d4 c8g4 d4e5 g4f3 d1f3 d6e5 f1c4 g8f6 f3b3 d8e7 b1c3 c7c6 c1g5 b7b5 c3b5 c6b5 "
          "c4b5 b8d7 e1c1 a8d8 d1d7 d8d7 h1d1 e7e6 b5d7 f6d7 b3b8 d7b8 d1d8\n");
  }
  SECTION("fen") {
    Run r = run_qipu("convert --to fen \"" + f + "\"");
    CHECK(r.code == 0);
    auto lines = lines_of(r.out);
    REQUIRE(lines.size() == 33);
    // No en passant square after 1. e4: no black pawn stands beside e4 to take.
    CHECK(lines[0] == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    CHECK(lines[1] == "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    CHECK(lines[2] == "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
    CHECK(lines[3] == "rnbqkbnr/ppp2ppp/3p4/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 3");
    // After 12. O-O-O: White has castled, Black keeps both rights.
    CHECK(lines[22] == "r3kb1r/p2nqppp/5n2/1B2p1B1/4P3/1Q6/PPP2PPP/2KR3R b kq - 2 12");
    CHECK(lines[32] == "1n1Rkb1r/p4ppp/4q3/4p1B1/4P3/8/PPP2PPP/2K5 b k - 1 17");
  }
  SECTION("json") {
    Run r = run_qipu("convert --to json \"" + f + "\"");
    CHECK(r.code == 0);
    const std::string& j = r.out;
    CHECK(lines_of(j).size() == 1);  // JSON Lines: one game, one line
    CHECK(contains(j, "\"start_fen\":null"));
    CHECK(contains(j, "\"start_key\":\"463b96181691fc9c\""));
    CHECK(contains(j,
                   "{\"ply\":1,\"san\":\"e4\",\"uci\":\"e2e4\",\"fen\":\"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR "
                   "b KQkq - 0 1\",\"key\":\"823c9b50fd114196\"}"));
    CHECK(contains(j, "{\"ply\":23,\"san\":\"O-O-O\",\"uci\":\"e1c1\""));
    CHECK(contains(j,
                   "{\"ply\":33,\"san\":\"Rd8#\",\"uci\":\"d1d8\",\"fen\":\"1n1Rkb1r/p4ppp/4q3/4p1B1/4P3/8/PPP2PPP/2K5 "
                   "b k - 1 17\""));
    CHECK(contains(j, "\"result\":\"1-0\""));
    CHECK(contains(j, "\"termination\":\"checkmate\""));
    CHECK(contains(j, "\"White\":\"Morphy, Paul\""));
    CHECK(contains(j, "\"errors\":[],\"warnings\":[]"));
  }
}

// Keys from the Polyglot book format specification's worked examples (two lines of play;
// the e.p. square counts only when a capture is possible, as after 3. c4 in the second).
TEST_CASE("convert: Polyglot keys of the published example lines", "[cli]") {
  Run r = run_qipu("convert --to json \"" + data("keys.pgn") + "\"");
  CHECK(r.code == 0);
  auto games = lines_of(r.out);
  REQUIRE(games.size() == 2);
  std::regex key_re("\"key\":\"([0-9a-f]{16})\"");
  auto keys_of = [&](const std::string& g) {
    std::vector<std::string> keys;
    for (auto it = std::sregex_iterator(g.begin(), g.end(), key_re); it != std::sregex_iterator(); ++it)
      keys.push_back((*it)[1]);
    return keys;
  };
  CHECK(keys_of(games[0]) == std::vector<std::string>{"823c9b50fd114196", "0756b94461c50fb0", "662fafb965db29d4",
                                                      "22a48b5a8e47ff78", "652a607ca3f242c1", "00fdd303c946bdd9"});
  auto k2 = keys_of(games[1]);
  REQUIRE(k2.size() == 7);
  CHECK(k2[4] == "3c8123ea7b067637");
  CHECK(k2[6] == "5c3f9b829b279560");
}

// Annotations and nested variations in JSON: the variation's moves are played from the
// position before the move they replace (FENs worked out by hand).
TEST_CASE("convert: JSON of comments, NAGs and nested variations", "[cli]") {
  Run r = run_qipu("convert --to json \"" + data("annotated.pgn") + "\"");
  CHECK(r.code == 0);
  const std::string& j = r.out;
  INFO(j);
  CHECK(contains(j, "\"ply\":1,\"san\":\"e4\",\"uci\":\"e2e4\""));
  CHECK(contains(
      j,
      "\"nags\":[1],\"comments_before\":[\"Start\"],\"comments\":[\"best by test\"],\"variations\":[[{\"ply\":1,"
      "\"san\":\"d4\",\"uci\":\"d2d4\",\"fen\":\"rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1\""));
  CHECK(contains(j,
                 "{\"ply\":2,\"san\":\"d5\",\"uci\":\"d7d5\",\"fen\":\"rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR "
                 "w KQkq - 0 2\""));
  CHECK(contains(j,
                 "\"variations\":[[{\"ply\":2,\"san\":\"Nf6\",\"uci\":\"g8f6\",\"fen\":\"rnbqkb1r/pppppppp/5n2/8/3P4/8/"
                 "PPP1PPPP/RNBQKBNR w KQkq - 1 2\""));
  CHECK(contains(j,
                 "]]},{\"ply\":2,\"san\":\"e5\",\"uci\":\"e7e5\",\"fen\":\"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/"
                 "RNBQKBNR w KQkq - 0 2\""));
}

TEST_CASE("convert: games with errors go to stderr, --skip-invalid leaves them out", "[cli]") {
  fs::path dir = temp_dir();
  std::string err = (dir / "err.txt").string();
  Run all = run_qipu("convert --to uci \"" + data("multi.pgn") + "\"", err);
  CHECK(all.code == 1);
  // Written up to the error: game 2 stops before 3. Ke3, game 4 has no move.
  CHECK(all.out ==
        "e2e4 e7e5 d1h5 b8c6 f1c4 g8f6 h5f7\n"
        "e2e4 e7e5 g1f3 b8c6\n"
        "f2f3 e7e5 g2g4 d8h4\n"
        "\n");
  std::string e = slurp(err);
  CHECK(contains(e, ":13:24: error: game 2 (Gamma – Delta), move 3. Ke3"));
  CHECK(contains(e, ":29:4: error: game 4 (Eta – Theta), move 1. Nd2"));
  CHECK_FALSE(contains(e, "warning"));
  Run skip = run_qipu("convert --to uci --skip-invalid \"" + data("multi.pgn") + "\"");
  CHECK(skip.out == "e2e4 e7e5 d1h5 b8c6 f1c4 g8f6 h5f7\nf2f3 e7e5 g2g4 d8h4\n");
  fs::remove_all(dir);
}

// Hostile inputs: each ends with a message and exit 1 or 2, in bounded memory, and no
// message repeats a huge token whole.
TEST_CASE("check: hostile inputs end with a message, exit 1 or 2, bounded memory", "[cli]") {
  fs::path dir = temp_dir();
  std::mt19937 rng(1234);
  std::string random_bytes(1 << 20, '\0');
  for (auto& c : random_bytes) c = char(rng());
  struct Case {
    const char* name;
    std::string text;
  };
  const std::string head = "[Event \"x\"]\n\n1. e4 ";
  std::vector<Case> cases = {
      {"random", random_bytes},
      {"long_line", head + std::string(20 << 20, 'a') + " *\n"},
      {"deep", head +
                   [] {
                     std::string s;
                     for (int i = 0; i < 10000; ++i) s += "( e4 ";
                     return s;
                   }() +
                   "*\n"},
      {"comment", head + "{" + std::string(1 << 20, 'c') + "\n"},  // never closed
      {"truncated", "[Event \"x\"]\n[White \"A\"]\n\n1. e4 e5 2. Nf3 N"},
      {"bad_utf8", "[Event \"\xff\xfe\xc0\xaf\"]\n\n1. e4 \xc3 *\n"},
      {"nul", std::string("[Event \"x\"]\n\n1. e4\0\0 e5 *\n", 25)},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    fs::path f = dir / (std::string(c.name) + ".pgn");
    {
      std::ofstream out(f, std::ios::binary);
      out << c.text;
    }
    Run r = run_qipu("check " + f.string());
    CHECK((r.code == 1 || r.code == 2));
    if (rss_is_meaningful) CHECK(r.peak_rss_kb < 200 * 1024);
    auto lines = lines_of(r.out);
    REQUIRE_FALSE(lines.empty());
    CHECK(contains(lines.back(), " games, "));
    CHECK(lines.front().find(": error: ") != std::string::npos);
    for (const auto& l : lines) CHECK(l.size() < 1000);
  }
  fs::remove_all(dir);
}

#ifdef QIPU_SANITIZED
TEST_CASE("the program's commands leak nothing (LeakSanitizer)", "[cli]") {
  // tests/setup.cpp turns the scan off for the programs the other tests launch.
  fs::path dir = temp_dir("leaks");
  const std::string db = (dir / "leaks.db").string(), bare = (dir / "bare.db").string();
  const std::string games = std::string(QIPU_SOURCE_DIR) + "/data/classics.pgn " + QIPU_SOURCE_DIR + "/data/chinese.pgn";
  const std::vector<std::string> commands = {
      "check " + games, "convert --to zh " + games, "filter --add-eco --dedup " + games, "eco " + games,
      "import --db " + db + " " + games, "import --db " + bare + " --no-position-index " + games,
      "search --db " + db + " --player Morphy", "search --db " + bare + " --moves 'e4 e5' --count",
      "explore --db " + db + " --moves e4", "show --db " + db + " 1", "export --db " + db + " --to zh",
      "stats --db " + db, "players --db " + db, "rating --db " + db, "rejects --db " + db,
      "perft startpos 3"};
  for (const auto& command : commands) {
    INFO(command);
    Run r = shell("ASAN_OPTIONS=\"$ASAN_OPTIONS:detect_leaks=1\" " + hang_guard + "\"" QIPU_BINARY "\" " + command);
    CHECK(!contains(r.err, "LeakSanitizer"));
    CHECK(r.code == 0);
  }
  fs::remove_all(dir);
}
#endif

}  // namespace test_cli
