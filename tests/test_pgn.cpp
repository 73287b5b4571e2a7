// Tests of the PGN reader (module pgn). Expected event sequences are written
// by hand from the PGN text; corpus counts come from grep-able facts (the
// number of [Event lines, the MANIFEST).
#include <catch2/catch.hpp>
#include <tao/pegtl/contrib/analyze.hpp>
#include <zlib.h>
#include <zstd.h>
#include <sys/resource.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>

#include "qipu/grammar/pgn.hpp"
#include "qipu/pgn/line_counter.hpp"
#include "qipu/pgn/reader.hpp"

#include "cli_util.hpp"
#include "corpora.hpp"

// One namespace a file: the test files compile several to a unit (CMakeLists.txt).
namespace test_pgn {

using namespace qipu::pgn;
using cli_test::slurp;
namespace fs = std::filesystem;

namespace {

// Records events as a compact string: G1 [Name=value] e4 $1 {text} ( ) =1-0 /G !line:col
struct Recorder : Visitor {
  std::string out;
  std::vector<SyntaxError> errors;
  std::vector<GameInfo> games;
  std::vector<std::string> raws;
  std::string enc;
  bool positions = false;
  Visit skip_variations = Visit::Continue;
  std::uint64_t skip_game = 0, stop_game = 0;

  void add(const std::string& s) {
    if (!out.empty()) out += ' ';
    out += s;
  }
  LineCounter lines;
  std::string at(std::uint64_t offset) {
    if (!positions) return "";
    SourcePos p = lines.at(offset);
    return "@" + std::to_string(p.line) + ":" + std::to_string(p.column);
  }
  void encoding(std::string_view name) override { enc = name; }
  Visit begin_game(const GameInfo& g) override {
    games.push_back(g);
    lines = LineCounter(g.text, g.start);
    add("G" + std::to_string(g.index));
    if (g.index == stop_game) return Visit::Stop;
    return g.index == skip_game ? Visit::Skip : Visit::Continue;
  }
  Visit tag(std::string_view n, std::string_view v, std::uint64_t p) override {
    add("[" + std::string(n) + "=" + std::string(v) + "]" + at(p));
    return Visit::Continue;
  }
  Visit move(std::string_view t, std::uint64_t p) override {
    add(std::string(t) + at(p));
    return Visit::Continue;
  }
  Visit nag(int n, std::uint64_t p) override {
    add("$" + std::to_string(n) + at(p));
    return Visit::Continue;
  }
  Visit comment(std::string_view t, std::uint64_t p) override {
    add("{" + std::string(t) + "}" + at(p));
    return Visit::Continue;
  }
  Visit begin_variation(std::uint64_t p) override {
    add("(" + at(p));
    return skip_variations;
  }
  void end_variation() override { add(")"); }
  void result(std::string_view t, std::uint64_t p) override { add("=" + std::string(t) + at(p)); }
  Visit end_game(const GameEnd& e) override {
    add("/G");
    raws.emplace_back(e.raw);
    return Visit::Continue;
  }
  void syntax_error(const SyntaxError& e) override {
    errors.push_back(e);
    add("!" + std::to_string(e.pos.line) + ":" + std::to_string(e.pos.column));
  }
  bool has_error(const std::string& part) const {
    for (const auto& e : errors)
      if (e.message.find(part) != std::string::npos) return true;
    return false;
  }
};

ReadStats run(const std::string& pgn, Recorder& r, const ReaderOptions& o = {}) {
  auto src = memory_source(pgn);
  return read_pgn(*src, r, o);
}

std::string events(const std::string& pgn, const ReaderOptions& o = {}) {
  Recorder r;
  run(pgn, r, o);
  return r.out;
}

std::string events_at(const std::string& pgn) {
  Recorder r;
  r.positions = true;
  run(pgn, r);
  return r.out;
}

// Counts lines that start with [Event (after an optional BOM or blanks).
std::uint64_t event_lines(const std::string& text) {
  std::uint64_t n = 0;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::size_t i = line.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    if (line.compare(i, 7, "[Event ") == 0) ++n;
  }
  return n;
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

fs::path temp_dir() {
  fs::path d = fs::temp_directory_path() / ("qipu_pgn_test_" + std::to_string(::getpid()));
  fs::create_directories(d);
  return d;
}

}  // namespace

TEST_CASE("pgn grammar has no analysis problems", "[pgn]") {
  CHECK(tao::pegtl::analyze<qipu::grammar::pgn::game>(-1) == 0);
}

TEST_CASE("pgn tags: escapes, several per line, odd quotes", "[pgn]") {
  CHECK(events("[Event \"a \\\"b\\\" c\\\\d\"]\n\n1. e4 *") == "G1 [Event=a \"b\" c\\d] e4 =* /G");
  CHECK(events("[A \"1\"] [B \"2\"]\n*") == "G1 [A=1] [B=2] =* /G");
  CHECK(events("[Event \"The \"Big\" Game\"]\n*") == "G1 [Event=The \"Big\" Game] =* /G");
  CHECK(events("[Event \"\"]\n*") == "G1 [Event=] =* /G");
  // The chessops pathological header line: brackets inside values.
  CHECK(events("[C \"A]]\"] [D \"A]][\"] [G \"\\\"]\"]\n*") == "G1 [C=A]]] [D=A]][] [G=\"]] =* /G");
  // Escapes, inner quotes and line ends on either side of the 16-byte blocks the value
  // scan steps by (tag_value_length), and at the end of the text.
  for (std::size_t n : {0, 1, 14, 15, 16, 17, 31, 32, 33}) {
    std::string x(n, 'x');
    INFO(n << " bytes before");
    CHECK(events("[Event \"" + x + "\\\"y\"]\n*") == "G1 [Event=" + x + "\"y] =* /G");
    CHECK(events("[Event \"" + x + "\\\"]\"]\n*") == "G1 [Event=" + x + "\"]] =* /G");
    CHECK(events("[Event \"" + x + "\" z\\\\\"]\n*") == "G1 [Event=" + x + "\" z\\] =* /G");
    CHECK(events("[Event \"" + x + "\n[Site \"s\"]\n*") == "!1:1 G1 [Site=s] =* /G");  // a malformed tag
    CHECK(events("[Event \"" + x + "\"]") == "G1 [Event=" + x + "] /G");
  }
}

TEST_CASE("pgn malformed tag is an error, the game goes on", "[pgn]") {
  Recorder r;
  run("[Event \"x\"]\n[Site unquoted]\n[Round \"1\"]\n\n1. e4 *", r);
  CHECK(r.out == "G1 [Event=x] !2:1 [Round=1] e4 =* /G");
  CHECK(r.has_error("expected [Name \"value\"]"));
}

TEST_CASE("pgn comments: braces, multi-line, line comments and % lines", "[pgn]") {
  CHECK(events("{before} 1. e4 {two\nlines} e5 *") == "G1 {before} e4 {two\nlines} e5 =* /G");
  CHECK(events("1. e4 ({start of variation} 1. d4) *") == "G1 e4 ( {start of variation} d4 ) =* /G");
  CHECK(events("1. e4 ; rest of line {not a brace\n1... e5 *") == "G1 e4 { rest of line {not a brace} e5 =* /G");
  CHECK(events("% an escape line\n1. e4\n%another\ne5 *") == "G1 e4 e5 =* /G");
  CHECK(events("1. e4 {} *") == "G1 e4 {} =* /G");
  CHECK(events("1. e4 * {after the result}") == "G1 e4 =* {after the result} /G");
}

TEST_CASE("pgn features fixture", "[pgn]") {
  Recorder r;
  auto src = open_source(QIPU_TEST_DATA "/pgn/features.pgn");
  read_pgn(*src, r);
  CHECK(r.out ==
        "G1 [Event=Features \"quoted\" and \\ backslash] [Site=?] [Result=*] "
        "{A comment before the first move,\non two lines} e4 $1 e5 $5 Nf3 ( Nc3 "
        "{at the start? no} ( f4 exf4 ) Nc6 ) Nc6 { a rest-of-line comment} Bb5 a6 =* /G");
  CHECK(r.errors.empty());
}

TEST_CASE("pgn NAGs and suffix glyphs", "[pgn]") {
  CHECK(events("1. e4 $0 $255 e5! d4? d5!! c4?? c5!? Nc3?! *") ==
        "G1 e4 $0 $255 e5 $1 d4 $2 d5 $3 c4 $4 c5 $5 Nc3 $6 =* /G");
  CHECK(events("1. e4 ! e5 ?? *") == "G1 e4 $1 e5 $4 =* /G");
  Recorder r;
  run("1. e4 $256 e5 *", r);
  CHECK(r.out == "G1 e4 !1:7 e5 =* /G");
  CHECK(r.has_error("out of range"));
}

TEST_CASE("pgn move numbers in all forms", "[pgn]") {
  CHECK(events("1. e4 1... e5 2 . Nf3 2\xE2\x80\xA6 Nc6 3.Bb5 3...a6 4.Ba4 Nf6 *") ==
        "G1 e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 =* /G");
  CHECK(events("e4 e5 Nf3 *") == "G1 e4 e5 Nf3 =* /G");
  CHECK(events("12.Nf3 12...Nc6 *") == "G1 Nf3 Nc6 =* /G");
}

TEST_CASE("pgn results, normalised, and missing", "[pgn]") {
  CHECK(events("1. e4 1-0") == "G1 e4 =1-0 /G");
  CHECK(events("1. e4 0-1") == "G1 e4 =0-1 /G");
  CHECK(events("1. e4 1/2-1/2") == "G1 e4 =1/2-1/2 /G");
  CHECK(events("1. e4 \xC2\xBD-\xC2\xBD") == "G1 e4 =1/2-1/2 /G");
  CHECK(events("1. e4 \xE7\x99\xBD\xE8\x83\x9C") == "G1 e4 =1-0 /G");      // 白胜
  CHECK(events("1. e4 \xE9\xBB\x91\xE8\x83\x9C") == "G1 e4 =0-1 /G");      // 黑胜
  CHECK(events("1. e4 \xE5\x92\x8C\xE6\xA3\x8B") == "G1 e4 =1/2-1/2 /G");  // 和棋
  CHECK(events("1. e4 \xE5\x92\x8C\xE5\xB1\x80") == "G1 e4 =1/2-1/2 /G");  // 和局
  // Missing result: at the end of a game (next tags) and of the file.
  CHECK(events("[Event \"a\"]\n1. e4\n[Event \"b\"]\n1. d4") == "G1 [Event=a] e4 /G G2 [Event=b] d4 /G");
}

TEST_CASE("pgn move token forms pass through unchanged", "[pgn]") {
  CHECK(events("1. -- Z0 2. O-O O-O-O 3. 0-0 0-0-0 *") == "G1 -- Z0 O-O O-O-O 0-0 0-0-0 =* /G");
  CHECK(events("1. e8=Q e8Q e8(Q) e8/Q exd8=N+ *") == "G1 e8=Q e8Q e8(Q) e8/Q exd8=N+ =* /G");
  CHECK(events("1. exd6 e.p. exd6e.p. *") == "G1 exd6 exd6e.p. =* /G");
  CHECK(events("1. e2-e4 e7e5 2. Ng1-f3 Nb8xc6 Nf3xe5 *") == "G1 e2-e4 e7e5 Ng1-f3 Nb8xc6 Nf3xe5 =* /G");
  CHECK(events("1. Pe4 Nbd7 R1e2 Qh4xe1 Ke2+ Kf7# Qd8++ *") == "G1 Pe4 Nbd7 R1e2 Qh4xe1 Ke2+ Kf7# Qd8++ =* /G");
  CHECK(events("1. N@f3 e7e8q *") == "G1 N@f3 e7e8q =* /G");
}

TEST_CASE("pgn variations: nesting, skipping, errors", "[pgn]") {
  CHECK(events("1. e4 (1. d4 (1. c4) 1... d5) (1. Nf3) e5 *") == "G1 e4 ( d4 ( c4 ) d5 ) ( Nf3 ) e5 =* /G");
  Recorder r;
  r.skip_variations = Visit::Skip;
  run("1. e4 (1. d4 (1. c4) d5) e5 *", r);
  CHECK(r.out == "G1 e4 ( e5 =* /G");
  Recorder u;
  run("1. e4 (1. d4 e5", u);
  CHECK(u.out == "G1 e4 ( d4 e5 ) !1:16 /G");
  CHECK(u.has_error("expected ')'"));
  Recorder s;
  run("1. e4 ) e5 *", s);
  CHECK(s.out == "G1 e4 !1:7 e5 =* /G");
}

TEST_CASE("pgn 10,000 nested variations end in a clear error", "[pgn][hostile]") {
  std::string deep = "1. e4 ";
  for (int i = 0; i < 10000; ++i) deep += "( e4 ";
  for (int i = 0; i < 10000; ++i) deep += ") ";
  deep += "*\n[Event \"next\"]\n1. d4 *\n";
  Recorder r;
  ReadStats st = run(deep, r);
  REQUIRE(r.has_error("variations nested deeper than 1000"));
  CHECK(st.games == 2);
  CHECK(ends_with(r.out, " G2 [Event=next] d4 =* /G"));
  std::size_t opens = std::count(r.out.begin(), r.out.end(), '(');
  std::size_t closes = std::count(r.out.begin(), r.out.end(), ')');
  CHECK(opens == 1000);
  CHECK(closes == 1000);
}

TEST_CASE("pgn game boundaries", "[pgn]") {
  // No tags; tags without moves; no blank line between games.
  CHECK(events("1. e4 e5 1-0 1. d4 d5 0-1") == "G1 e4 e5 =1-0 /G G2 d4 d5 =0-1 /G");
  CHECK(events("[Event \"a\"]\n[Site \"x\"]\n\n[Event \"b\"]\n[Site \"y\"]\n") ==
        "G1 [Event=a] [Site=x] /G G2 [Event=b] [Site=y] /G");
  CHECK(events("[Event \"a\"]\n1. e4 *\n[Event \"b\"]\n1. d4 *\n") == "G1 [Event=a] e4 =* /G G2 [Event=b] d4 =* /G");
  // Headers and moves on the same line (chessops fixture style).
  CHECK(events("[V \"x\"] 1.e3 e6 { c }\n\n[V \"y\"]\n1.e3 *") == "G1 [V=x] e3 e6 { c } /G G2 [V=y] e3 =* /G");
}

TEST_CASE("pgn garbage between games is reported and skipped", "[pgn]") {
  Recorder r;
  ReadStats st = run("[Event \"a\"]\n1. e4 *\n\nThis is junk &&&\n\n[Event \"b\"]\n1. d4 *\n", r);
  CHECK(st.games == 2);
  CHECK(r.out == "G1 [Event=a] e4 =* /G !4:1 !4:6 !4:9 !4:14 G3 [Event=b] d4 =* /G");
  CHECK(r.has_error("unknown token \"This\""));
}

TEST_CASE("pgn junk_as_game reports a junk chunk as a game", "[pgn]") {
  ReaderOptions o;
  o.junk_as_game = true;
  Recorder r;
  ReadStats st = run("I'm not PGN\n", r, o);
  CHECK(st.games == 1);
  // Unknown words go to the visitor as move tokens, for its notation tables to judge.
  CHECK(r.out == "G1 I'm not PGN /G");
}

TEST_CASE("pgn unknown token: error at its place, game recovers", "[pgn]") {
  Recorder r;
  r.positions = true;
  run("[Event \"a\"]\n1. e4 e5 2. Xy9 Nc6 *", r);
  CHECK(r.out == "G1 [Event=a]@1:1 e4@2:4 e5@2:7 !2:13 Nc6@2:17 =*@2:21 /G");
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0].message.find("unknown token \"Xy9\": expected a move") == 0);
  CHECK(r.errors[0].game_index == 1);
}

TEST_CASE("pgn runtime piece words: Chinese and figurines", "[pgn]") {
  ReaderOptions o;  // the reader takes whatever words it is given; these are the test's own
  o.words.pieces = {"K", "Q", "R", "B", "N", "P", "\xE8\xB1\xA1", "\xE9\xA9\xAC", "\xE5\x90\x8E", "\xE2\x99\x98"};
  CHECK(events("1. e4 e5 2. \xE8\xB1\xA1 c4 d6 3. \xE9\xA9\xAC f3 \xE9\xA9\xAC"
               "c6 4. \xE9\xA9\xAC xe5 *",
               o) ==
        "G1 e4 e5 \xE8\xB1\xA1 c4 d6 \xE9\xA9\xAC f3 \xE9\xA9\xAC"
        "c6 \xE9\xA9\xAC xe5 =* /G");
  CHECK(events("1. \xE2\x99\x98"
               "f3 e8=\xE5\x90\x8E *",
               o) ==
        "G1 \xE2\x99\x98"
        "f3 e8=\xE5\x90\x8E =* /G");
  // Without the table the Chinese piece is an unknown token.
  Recorder r;
  run("1. \xE9\xA9\xAC"
      "f3 *",
      r);
  CHECK(r.has_error("unknown token"));
}

TEST_CASE("pgn positions with LF, CRLF, CR-only, tabs and UTF-8", "[pgn]") {
  std::string want = "G1 [A=1]@1:1 e4@3:4 e5@3:7 {x}@4:1 Nf3@4:5 =*@4:9 /G";
  CHECK(events_at("[A \"1\"]\n\n1. e4 e5\n{x} Nf3 *") == want);
  CHECK(events_at("[A \"1\"]\r\n\r\n1. e4 e5\r\n{x} Nf3 *") == want);
  CHECK(events_at("[A \"1\"]\r\r1. e4 e5\r{x} Nf3 *") == want);
  CHECK(events_at("1.\te4\t{\xC3\xA9\xC3\xA9}\te5 *") == "G1 e4@1:4 {\xC3\xA9\xC3\xA9}@1:7 e5@1:12 =*@1:15 /G");
  CHECK(events_at("{\xE7\x8E\x8B\n\xE7\x8E\x8B} e4 *") == "G1 {\xE7\x8E\x8B\n\xE7\x8E\x8B}@1:1 e4@2:4 =*@2:7 /G");
}

TEST_CASE("pgn LineCounter: any order of offsets, long ASCII runs, clamped", "[pgn]") {
  // A game starting at line 7, column 3, byte 100 of its input.
  std::string text = "[A \"1\"]\r\n" + std::string(40, 'x') + "\n\xE7\x8E\x8B e4";
  LineCounter lines(text, {7, 3, 100});
  auto at = [&](std::uint64_t offset) {
    SourcePos p = lines.at(offset);
    return std::to_string(p.line) + ":" + std::to_string(p.column) + "@" + std::to_string(p.offset);
  };
  std::uint64_t e4 = 100 + text.size() - 2;
  CHECK(at(e4) == "9:3@" + std::to_string(e4));  // after a 3-byte character: column 3
  CHECK(at(100 + 9 + 40) == "8:41@149");         // backwards: counted again from the start
  CHECK(at(103) == "7:6@103");
  CHECK(at(50) == "7:3@100");                     // before the game: its start
  CHECK(at(e4 + 1000) == at(100 + text.size()));  // past the end: the end
}

TEST_CASE("pgn game info and raw text", "[pgn]") {
  Recorder r;
  std::string text = "[Event \"a\"]\n1. e4 *\n\n[Event \"b\"]\n1. d4 *\n";
  run(text, r);
  REQUIRE(r.games.size() == 2);
  CHECK(r.games[0].index == 1);
  CHECK(r.games[0].start.line == 1);
  CHECK(r.games[0].start.offset == 0);
  CHECK(r.games[1].index == 2);
  CHECK(r.games[1].start.line == 4);
  CHECK(r.games[1].start.offset == 21);
  CHECK(r.raws[0] == "[Event \"a\"]\n1. e4 *\n\n");
  CHECK(r.raws[1] == "[Event \"b\"]\n1. d4 *\n");
  CHECK(r.enc == "utf-8");
}

TEST_CASE("pgn visitor skip and stop", "[pgn]") {
  std::string text = "[Event \"a\"]\n1. e4 *\n[Event \"b\"]\n1. d4 *\n[Event \"c\"]\n1. c4 *\n";
  Recorder r;
  r.skip_game = 2;
  CHECK(run(text, r).games == 3);
  CHECK(r.out == "G1 [Event=a] e4 =* /G G2 /G G3 [Event=c] c4 =* /G");
  Recorder s;
  s.stop_game = 2;
  run(text, s);
  CHECK(s.out == "G1 [Event=a] e4 =* /G G2 /G");
}

TEST_CASE("pgn chunker yields raw games with positions", "[pgn]") {
  auto src = memory_source("\n\n[Event \"a\"]\r\n1. e4 1-0 1. d4 *\r\n[Event \"c\"]\r\n*");
  ReaderOptions o;
  GameChunker chunker(*src, o);
  RawGame g;
  std::vector<std::tuple<std::string, std::uint64_t, std::uint64_t, std::uint32_t, std::uint32_t>> got;
  while (chunker.next(g)) got.emplace_back(std::string(g.text), g.index, g.byte_offset, g.line, g.column);
  REQUIRE(got.size() == 3);
  CHECK(got[0] == std::make_tuple(std::string("[Event \"a\"]\r\n1. e4 1-0 "), 1u, 2u, 3u, 1u));
  CHECK(got[1] == std::make_tuple(std::string("1. d4 *\r\n"), 2u, 25u, 4u, 11u));
  CHECK(got[2] == std::make_tuple(std::string("[Event \"c\"]\r\n*"), 3u, 34u, 5u, 1u));
}

TEST_CASE("pgn oversized game is skipped with a message", "[pgn][hostile]") {
  std::string big = "[Event \"big\"]\n1. e4 {" + std::string(5000, 'x') + "} *\n";
  std::string text = big + "[Event \"small\"]\n1. d4 *\n";
  ReaderOptions o;
  o.max_game_bytes = 1000;
  o.block_size = 256;
  Recorder r;
  run(text, r, o);
  CHECK(r.has_error("game larger than 1000 bytes"));
  CHECK(r.out == "!1:1 G2 [Event=small] d4 =* /G");
}

TEST_CASE("pgn hostile inputs end in messages, not crashes", "[pgn][hostile]") {
  SECTION("random bytes") {
    std::mt19937 rng(42);
    std::string junk(1 << 20, '\0');
    for (auto& c : junk) c = static_cast<char>(rng());
    Recorder r;
    ReadStats st = run(junk, r);
    CHECK(st.errors > 0);
  }
  SECTION("a 20 MB line") {
    std::string line(20u << 20, 'a');
    Recorder r;
    ReadStats st = run("[Event \"x\"]\n1. e4 " + line + " e5 *\n[Event \"y\"]\n1. d4 *", r);
    CHECK(st.games == 2);
    CHECK(r.has_error("unknown token \"aaaa"));
    CHECK(ends_with(r.out, " G2 [Event=y] d4 =* /G"));
  }
  SECTION("a 1 MB comment, closed and unclosed") {
    std::string body(1u << 20, 'c');
    CHECK(events("1. e4 {" + body + "} e5 *").size() == (1u << 20) + 17);
    Recorder r;
    run("[Event \"x\"]\n1. e4 {" + body + "\n\n[Event \"y\"]\n1. d4 *", r);
    CHECK(r.has_error("unterminated comment"));
    CHECK(ends_with(r.out, " G2 [Event=y] d4 =* /G"));
  }
  SECTION("a truncated file") {
    Recorder r;
    run("[Event \"x\"]\n1. e4 e5 2. Nf3 {unfinish", r);
    CHECK(r.has_error("unterminated comment"));
    Recorder t;
    run("[Event \"x", t);
    CHECK(t.has_error("malformed tag"));
  }
  SECTION("invalid UTF-8 after a valid start") {
    std::string text = "[Event \"a\"]\n1. e4 *\n";
    text += std::string(1100000, ' ');  // past the 1 MB detection prefix
    text += "[Event \"b\xff\"]\n1. \xc3\x28 *\n";
    Recorder r;
    ReadStats st = run(text, r);
    CHECK(st.encoding == "utf-8");
    CHECK(st.games == 2);
    CHECK(r.has_error("not valid UTF-8, decoded as windows-1252"));  // the game, not the file
    CHECK(r.out.find("[Event=b\xC3\xBF]") != std::string::npos);     // 0xFF read as ÿ
    // A game that is UTF-8 but for one byte keeps its UTF-8, the byte read as Windows-1252.
    Recorder m;
    run("[Event \"a\"]\n1. e4 *\n\n[Event \"M\xc3\xbcller \xe9\"]\n1. d4 *\n", m);
    CHECK(m.has_error("1 byte(s) invalid in the input encoding were read as Windows-1252"));
    CHECK(m.out.find("[Event=M\xC3\xBCller \xC3\xA9]") != std::string::npos);
  }
  SECTION("NUL bytes") {
    Recorder r;
    ReadStats st = run(std::string("[Event \"a\"]\n1. e4 \0\0\0 e5 *\n", 27), r);
    CHECK(st.games == 1);
    CHECK(r.has_error("unknown token"));
    CHECK(r.out.find("e5 =*") != std::string::npos);
  }
}

TEST_CASE("pgn GB18030 and Latin-1 files decode to UTF-8", "[pgn][encoding]") {
  Recorder g;
  ReadStats sg = read_pgn_file(QIPU_TEST_DATA "/pgn/gb18030.pgn", g);
  CHECK(sg.encoding == "gb18030");
  CHECK(g.enc == "gb18030");
  CHECK(g.out == "G1 [Event=Rapid] [White=王皓] [Black=马群] [Result=1/2-1/2] e4 e5 {和棋} =1/2-1/2 /G");
  Recorder l;
  ReadStats sl = read_pgn_file(QIPU_TEST_DATA "/pgn/latin1.pgn", l);
  CHECK(sl.encoding == "windows-1252");
  CHECK(l.out == "G1 [Event=Café Open] [White=José Müller] [Result=1-0] d4 {“quoted”} =1-0 /G");
  CHECK(l.errors.empty());
}

TEST_CASE("pgn encoding option forces a decoder", "[pgn][encoding]") {
  ReaderOptions o;
  o.encoding = "latin1";
  Recorder r;
  ReadStats st = read_pgn_file(QIPU_TEST_DATA "/pgn/gb18030.pgn", r, o);
  CHECK(st.encoding == "windows-1252");
  CHECK(r.out.find("[White=Íõð©]") != std::string::npos);  // CD F5 F0 A9 as Latin-1
  o.encoding = "utf-8";
  Recorder u;
  CHECK(run("\xEF\xBB\xBF[Event \"bom\"]\n*", u, o).encoding == "utf-8");
  CHECK(u.out == "G1 [Event=bom] =* /G");
  CHECK(u.games[0].start.column == 1);
}

namespace {
std::string gzip(const std::string& in) {
  z_stream z{};
  deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&z, in.size()) + 64, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}
std::string zstd(const std::string& in) {
  std::string out(ZSTD_compressBound(in.size()), '\0');
  out.resize(ZSTD_compress(out.data(), out.size(), in.data(), in.size(), 3));
  return out;
}
void write_file(const fs::path& p, const std::string& bytes) {
  std::ofstream f(p, std::ios::binary);
  f << bytes;
}
}  // namespace

TEST_CASE("pgn gzip and zstd inputs are found by magic bytes", "[pgn][compression]") {
  std::string text;
  for (int i = 1; i <= 300; ++i) text += "[Event \"g" + std::to_string(i) + "\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n";
  fs::path dir = temp_dir();
  write_file(dir / "games.pgn.gz", gzip(text));
  write_file(dir / "games.bin", zstd(text));              // no telling extension
  write_file(dir / "twice.gz", gzip(text) + gzip(text));  // two gzip members
  for (auto [name, games] : {std::pair{"games.pgn.gz", 300}, {"games.bin", 300}, {"twice.gz", 600}}) {
    Recorder r;
    ReadStats st = read_pgn_file((dir / name).string(), r);
    CHECK(st.games == static_cast<std::uint64_t>(games));
    CHECK(st.errors == 0);
  }
  std::string gz = gzip(text);
  write_file(dir / "cut.gz", gz.substr(0, gz.size() / 2));
  std::string zs = zstd(text);
  write_file(dir / "cut.zst", zs.substr(0, zs.size() / 2));
  for (const char* name : {"cut.gz", "cut.zst"}) {
    Recorder r;
    ReadStats st = read_pgn_file((dir / name).string(), r);
    CHECK(st.errors >= 1);
    CHECK(r.has_error("truncated"));
  }
  // The games before the cut are read, then the error is reported: a file of 6,000
  // games (250 KB: two zstd blocks of 128 KB) cut at three quarters of its compressed size.
  std::string big;
  for (int i = 1; i <= 6000; ++i) big += "[Event \"g" + std::to_string(i) + "\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n";
  gz = gzip(big);
  zs = zstd(big);
  write_file(dir / "cut.gz", gz.substr(0, gz.size() * 3 / 4));
  write_file(dir / "cut.zst", zs.substr(0, zs.size() * 3 / 4));
  for (const char* name : {"cut.gz", "cut.zst"}) {
    Recorder r;
    ReadStats st = read_pgn_file((dir / name).string(), r);
    INFO(name << ": " << st.games << " games");
    CHECK(st.games >= 1000);
    CHECK(st.games < 6000);
    CHECK(r.has_error("truncated"));
  }
  CHECK_THROWS_AS(open_source((dir / "missing.pgn").string()), SourceError);
  fs::remove_all(dir);
}

TEST_CASE("pgn edge corpus reads without crashing", "[pgn][corpus]") {
  QIPU_NEEDS_CORPORA("edge");
  // Files where the number of games is not the number of [Event lines:
  // games without an Event tag, or junk that forms extra chunks.
  const std::map<std::string, std::uint64_t> known = {
      {"chessops/data__headers-and-moves-on-the-same-line.pgn", 3},  // three [Variant games
      {"chessops/data__leading-whitespace.pgn", 3},
      {"kokopu/test__resources__pgns__headers__database.pgn", 16},  // one game has no Event tag
      {"python-chess/data__pgn__utf8-bom.pgn", 2},
  };
  std::uint64_t files = 0;
  for (const auto& e : fs::recursive_directory_iterator(corpora::path("edge"))) {
    if (!e.is_regular_file()) continue;
    std::string rel = fs::relative(e.path(), corpora::path("edge")).string();
    Recorder r;
    ReadStats st = read_pgn_file(e.path().string(), r);
    ++files;
    auto it = known.find(rel);
    if (it != known.end()) {
      CHECK(st.games == it->second);
    } else if (e.path().extension() == ".pgn" && st.errors == 0) {
      INFO(rel);
      std::uint64_t want = event_lines(slurp(e.path()));
      if (want > 0) CHECK(st.games == want);
    }
  }
  CHECK(files > 400);
}

TEST_CASE("pgn real corpus: one game per Event tag line (MANIFEST)", "[pgn][corpus]") {
  QIPU_NEEDS_CORPORA("MANIFEST.tsv", "real");
  std::ifstream manifest(corpora::path("MANIFEST.tsv"));
  std::string line;
  std::getline(manifest, line);  // header
  int files = 0;
  while (std::getline(manifest, line)) {
    std::vector<std::string> col;
    std::stringstream s(line);
    for (std::string c; std::getline(s, c, '\t');) col.push_back(c);
    if (col.size() < 8 || col[0].rfind("real/", 0) != 0) continue;
    Recorder r;
    ReadStats st = read_pgn_file(corpora::path(col[0]), r);
    INFO(col[0]);
    CHECK(st.games == std::stoull(col[7]));
    ++files;
  }
  CHECK(files >= 80);
}

namespace {
// Repeats one game n times without holding the whole input.
class RepeatSource : public Source {
 public:
  RepeatSource(std::string game, std::uint64_t n) : game_(std::move(game)), left_(n) {}
  std::size_t read(char* buf, std::size_t n) override {
    std::size_t done = 0;
    while (done < n && left_ > 0) {
      std::size_t k = std::min(n - done, game_.size() - pos_);
      std::memcpy(buf + done, game_.data() + pos_, k);
      done += k;
      pos_ += k;
      if (pos_ == game_.size()) pos_ = 0, --left_;
    }
    return done;
  }
  const std::string& name() const override { return name_; }

 private:
  std::string game_, name_ = "<repeat>";
  std::size_t pos_ = 0;
  std::uint64_t left_;
};

long max_rss_mb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss / 1024;
}
}  // namespace

TEST_CASE("pgn memory does not grow with input size", "[pgn][memory]") {
  std::string game = "[Event \"m\"]\n[Site \"?\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 {a comment} 4. Ba4 Nf6 1-0\n\n";
  const std::uint64_t n = (256u << 20) / game.size();  // 256 MB of PGN
  RepeatSource src(game, n);
  Visitor v;
  [[maybe_unused]] long before = max_rss_mb();
  ReadStats st = read_pgn(src, v);
  CHECK(st.games == n);
#ifndef QIPU_SANITIZED  // AddressSanitizer's shadow memory and quarantine inflate RSS
  CHECK(max_rss_mb() - before < 40);
#endif
}

// Found by fuzzing under UBSan: a NUL after a BOM and invalid bytes made the decoder
// append zero bytes to a buffer not yet allocated (memcpy from a null pointer). Run the
// suite with -DQIPU_SANITIZE=ON to see this one fail without the fix.
TEST_CASE("pgn fuzz input: zero-byte append before the first buffer", "[pgn]") {
  Recorder r;
  ReadStats st = read_pgn_file(QIPU_TEST_DATA "/pgn/fuzz-empty-append.pgn", r);
  CHECK(st.games == 1);
}

namespace {

// The hand-written scan of plain movetext must give exactly the grammar's events,
// positions included, on every file (and on the Chinese notation files, whose piece
// words the scan reads through the same word table).
void check_scan_equals_grammar(const std::vector<fs::path>& files) {
  ReaderOptions fast, slow;
  fast.words.pieces = slow.words.pieces = {"N", "B", "R", "Q", "K", "P", "\xE9\xA9\xAC", "\xE8\xB1\xA1", "gy", "p"};
  slow.grammar_only = true;
  for (const auto& f : files) {
    INFO(f.string());
    Recorder a, b;
    a.positions = b.positions = true;
    read_pgn_file(f.string(), a, fast);
    read_pgn_file(f.string(), b, slow);
    CHECK(a.out == b.out);
  }
}

// Every regular file below dir.
std::vector<fs::path> files_below(const std::string& dir) {
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) files.push_back(e.path());
  return files;
}

}  // namespace

TEST_CASE("pgn movetext scan gives the grammar's events", "[pgn]") {
  std::vector<fs::path> files = files_below(QIPU_TEST_DATA);
  for (const auto& more : files_below(QIPU_SOURCE_DIR "/data")) files.push_back(more);
  check_scan_equals_grammar(files);
  CHECK(files.size() > 20);
}

TEST_CASE("pgn movetext scan gives the grammar's events on the corpora", "[pgn][corpus]") {
  QIPU_NEEDS_CORPORA("edge", "lang", "real");
  std::vector<fs::path> files = files_below(corpora::path("edge"));
  for (const auto& more : files_below(corpora::path("lang"))) files.push_back(more);
  for (const char* real :
       {"chessjs-bench/benchmarks__benchmark.pgn", "lichess-twic/pgn-reader__benches__lichess_db_1000k.pgn",
        "lichess-twic/pgn-reader__benches__twic1599_1000k.pgn", "pgnmentor/data__pgn__Anand.pgn"})
    files.push_back(corpora::path(std::string("real/") + real));
  check_scan_equals_grammar(files);
  CHECK(files.size() > 400);
}

namespace {

struct Chunk {
  std::string text, problem;
  std::uint64_t index, offset, first_invalid;
  std::uint32_t line, column, invalid;
  bool operator==(const Chunk&) const = default;
};

std::vector<Chunk> chunks_of(const std::string& bytes, std::size_t block) {
  auto src = memory_source(bytes);
  ReaderOptions o;
  o.block_size = block;
  GameChunker chunker(*src, o);
  RawGame g;
  std::vector<Chunk> out;
  while (chunker.next(g))
    out.push_back(
        {std::string(g.text), g.problem, g.index, g.byte_offset, g.first_invalid, g.line, g.column, g.invalid_bytes});
  return out;
}

std::string repeated(const std::string& s, std::size_t n) {
  std::string r;
  for (std::size_t i = 0; i < n; ++i) r += s;
  return r;
}

}  // namespace

// The chunker scans blocks of bytes with pointer arithmetic (src/pgn/byte_scan.hpp), so
// this checks it against what a byte-by-byte reading says: every chunk is the input's
// text at its offset, only blank space lies between chunks, line and column are recounted
// one byte at a time (LF, CR and CRLF end a line; columns count UTF-8 characters), and
// cutting the input into 4099-byte blocks (the first read is 1 MB, for encoding
// detection) gives the same chunks as 1 MB blocks.
TEST_CASE("pgn chunker agrees with a byte-by-byte recount at any block size", "[pgn][chunker]") {
  const std::string game = "[Event \"x\"]\n[White \"a\"]\n\n1. e4 e5 2. Nf3 {c} 1-0\n\n";
  std::vector<std::pair<std::string, std::string>> inputs = {
      {"long line", game + "1. " + std::string(3'000'000, 'a') + " *\n" + game},
      {"long comment", repeated(game, 20000) + "{" + std::string(2'000'000, 'z') + "\n[Even} *\n" + game},
      {"blank runs", repeated("  \n", 500'000) + game + std::string(1'500'000, '\n') + game + "\n \n"},
      {"nul bytes", repeated(game + std::string(100, '\0'), 20000) + "1. e4\0e5 *\n"},
      {"cr only", repeated("[Event \"x\"]\r[White \"a\"]\r\r1. e4 e5 1-0\r\r", 60000)},
      {"crlf", repeated("[Event \"x\"]\r\n[White \"a\"]\r\n\r\n1. e4 e5 1-0\r\n\r\n", 60000)},
      {"unclosed comments", repeated(game + "1. d4 { never closed\n", 30000)},
      {"tags only", repeated("[Event \"x\"]\n[Event \"y\"]\n\n[Event \"z\"]\n", 40000)},
      {"no tags", repeated("1. e4 e5 1-0 1. d4 d5 0-1 1. c4 (1. b3 *) 1/2-1/2 * ", 40000)},
      {"percent lines and escapes",
       repeated("% [Event\n[Event \"a\\\"]b\"] [Site \"[x\"]\n1. e4 {a\n%b} ; [x\n*\n", 30000)},
      {"chinese", repeated("[Event \"比赛\"]\n1. e4 e5 和棋 1. d4 白胜 黑胜 ½-½ x\n", 30000)},
      {"mixed breaks",  // leading CRLFs split between blocks; games mid-line after multi-byte characters
       repeated("\r\n", 700'000) +
           repeated("[Event \"é\"]\r[White \"和\"]\n\r\n1. e4 {é\r} 1-0 1. d4 ½-½\n\r \r\n", 40000)},
  };
  // The bundled sample, English then Chinese: real games, multi-byte characters.
  inputs.emplace_back("data/world-championships*.pgn", slurp(QIPU_SOURCE_DIR "/data/world-championships.pgn") +
                                                           slurp(QIPU_SOURCE_DIR "/data/world-championships-zh.pgn"));
  for (const auto& input : inputs) {
    const std::string& text = input.second;  // not a structured binding: clang 14 cannot capture those
    INFO(input.first);
    REQUIRE(text.size() > (std::size_t{1} << 20));
    auto chunks = chunks_of(text, std::size_t{1} << 20);
    REQUIRE(!chunks.empty());
    CHECK((chunks_of(text, 4099) == chunks));
    std::uint64_t pos = 0, line = 1, column = 1, index = 0;
    auto walk = [&](std::uint64_t to) {  // the naive recount
      for (; pos < to; ++pos) {
        char c = text[pos];
        if (c == '\r' || (c == '\n' && !(pos > 0 && text[pos - 1] == '\r')))
          ++line, column = 1;
        else if (c != '\n' && (static_cast<unsigned char>(c) & 0xC0) != 0x80)
          ++column;
      }
    };
    for (const auto& c : chunks) {
      REQUIRE(c.problem.empty());
      REQUIRE(c.index == ++index);
      REQUIRE(c.offset >= pos);
      for (std::uint64_t i = pos; i < c.offset; ++i) REQUIRE(std::isspace(static_cast<unsigned char>(text[i])));
      walk(c.offset);
      REQUIRE(c.line == line);
      REQUIRE(c.column == column);
      REQUIRE(text.compare(c.offset, c.text.size(), c.text) == 0);
      walk(c.offset + c.text.size());
    }
    for (; pos < text.size(); ++pos) REQUIRE(std::isspace(static_cast<unsigned char>(text[pos])));
  }
}

}  // namespace test_pgn
