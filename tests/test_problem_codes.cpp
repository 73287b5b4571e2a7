// Problem kinds and their codes (issue 15, "Errors a program can test"): each kind is
// produced by a small game whose fault is known by reading it (a king two squares away,
// a knight named by a file no other knight needs), and is checked through the library
// (Diagnostic::kind, SyntaxError::kind) and through what programs read: the "code" of
// check --json, the [code] of convert --to json and of the rejects table.
#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "cli_util.hpp"
#include "qipu/game/pipeline.hpp"
#include "qipu/game/replay.hpp"
#include "qipu/core/problem.hpp"
#include "qipu/pgn/reader.hpp"

// One namespace a file: the test files compile several to a unit (CMakeLists.txt).
namespace test_problem_codes {

using namespace qipu;
using cli_test::contains;

namespace {

struct Case {
  Problem kind;
  std::string pgn;
};

std::string repeat(const std::string& s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

// One game for each kind a game's text can produce; each fault is in plain sight.
std::vector<Case> cases() {
  return {
      {Problem::illegal_move, "1. e4 e5 2. Ke3 *"},  // the king is two squares from e3
      // Both rooks stand on the third rank with nothing between them and c3.
      {Problem::ambiguous_move, "1. a4 a5 2. h4 h5 3. Ra3 Ra6 4. Rh3 Rh6 5. Rc3 *"},
      {Problem::unknown_move, "1. e4 e5 2. Zq9 *"},
      {Problem::unknown_token, "1. e4 } e5 *"},
      {Problem::malformed_tag, "[Event Open]\n\n1. e4 *"},
      {Problem::tag_too_long, "[Event \"" + std::string(70000, 'x') + "\"]\n\n1. e4 *"},
      {Problem::stray_period, "1. e4 . e5 *"},
      {Problem::nag_out_of_range, "1. e4 $300 e5 *"},
      {Problem::unterminated_comment, "1. e4 { never closed"},
      {Problem::unclosed_variation, "1. e4 (1. d4 d5"},
      {Problem::unmatched_paren, "1. e4 ) e5 *"},
      {Problem::variation_too_deep, "1. e4 " + repeat("(1. d4 ", 1001) + "*"},
      {Problem::result_in_variation, "1. e4 (1. d4 1-0) e5 *"},
      {Problem::misplaced_variation, "(1. d4) 1. e4 *"},
      {Problem::text_before_game, "some words first\n\n[Event \"x\"]\n\n1. e4 *"},
      {Problem::bad_start_position, "[Variant \"crazyhouse\"]\n\n1. e4 *"},
      {Problem::fen_repaired, "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 0\"]\n\n1. Kd2 *"},  // fullmove 0
      // A UTF-8 game (中国), then one in GB18030 (中国国): the second is decoded on its own.
      {Problem::encoding_guessed,
       "[Event \"\xe4\xb8\xad\xe5\x9b\xbd\"]\n\n1. e4 *\n\n[Event \"\xd6\xd0\xb9\xfa\xb9\xfa\"]\n\n1. e4 *"},
      {Problem::setup_without_fen, "[SetUp \"1\"]\n\n1. e4 *"},
      {Problem::superfluous_disambiguation, "1. Ngf3 *"},  // only the g1 knight reaches f3
      {Problem::wrong_check_sign, "1. e4+ *"},
      {Problem::wrong_capture_sign, "1. Nf3 d5 2. Nxe5 *"},  // e5 is empty
      {Problem::nonstandard_san, "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. 0-0 *"},
      // Scholar's mate: White mates, so 0-1 cannot be the result.
      {Problem::result_contradicts_position, "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 0-1"},
      {Problem::result_tag_mismatch, "[Result \"1-0\"]\n\n1. e4 0-1"},
      {Problem::duplicate_tag, "[Event \"a\"]\n[Event \"b\"]\n\n1. e4 *"},
      {Problem::malformed_date, "[Date \"2020-01-31\"]\n\n1. e4 *"},
      {Problem::plycount_mismatch, "[PlyCount \"3\"]\n\n1. e4 e5 *"},
      {Problem::missing_result, "1. e4 e5"},
      // Past 10,000 tokens after an illegal move, the rest is left out.
      {Problem::movetext_left_out, "1. e4 e5 2. Ke3 " + repeat("Nf3 ", 10001) + "*"},
  };
}

std::vector<game::GameRecord> replay(const std::string& text,
                                     pgn::ReaderOptions reader = game::replay_reader_options()) {
  std::vector<game::GameRecord> out;
  game::Replayer r({}, [&](game::GameRecord& rec) {
    out.push_back(std::move(rec));
    return pgn::Visit::Continue;
  });
  auto src = pgn::memory_source(text);
  pgn::read_pgn(*src, r, reader);
  return out;
}

std::set<Problem> kinds_of(const game::GameRecord& rec) {
  std::set<Problem> out;
  for (const auto& d : rec.diagnostics) out.insert(d.kind);
  return out;
}

std::string codes_text(const game::GameRecord& rec) {
  std::string s;
  for (const auto& d : rec.diagnostics) s += std::string(problem_code(d.kind)) + ": " + d.message.substr(0, 80) + "\n";
  return s;
}

// Each case in a file of its own (an unterminated comment would swallow the next
// game), named by its index, under `dir`; returns the names, quoted for the shell.
std::string write_cases(const cli_test::fs::path& dir) {
  std::string args;
  auto all = cases();
  for (std::size_t i = 0; i < all.size(); ++i) {
    auto path = (dir / (std::to_string(i) + ".pgn")).string();
    std::ofstream(path, std::ios::binary) << all[i].pgn << "\n";
    args += " \"" + path + "\"";
  }
  return args;
}

// Codes per case index, from the game lines of check --json (one game a line).
std::map<int, std::set<std::string>> json_codes(const std::string& out) {
  std::map<int, std::set<std::string>> codes;
  static const std::regex game_re("^\\{\"file\":\"[^\"]*/([0-9]+)\\.pgn\""), code_re("\"code\":\"([a-z_]+)\"");
  for (const std::string& line : cli_test::lines_of(out)) {
    std::smatch m;
    if (!std::regex_search(line, m, game_re)) continue;
    auto& set = codes[std::stoi(m[1])];
    for (std::sregex_iterator it(line.begin(), line.end(), code_re), end; it != end; ++it) set.insert((*it)[1]);
  }
  return codes;
}

}  // namespace

TEST_CASE("every problem kind has its own snake_case code", "[problem_codes]") {
  std::set<std::string_view> seen;
  static const std::regex snake("[a-z]+(_[a-z]+)*");
  for (int i = 0; i < ProblemCount; ++i) {
    std::string_view code = problem_code(static_cast<Problem>(i));
    INFO(code);
    CHECK(std::regex_match(std::string(code), snake));
    CHECK(seen.insert(code).second);
  }
  CHECK(int(seen.size()) == ProblemCount);
  CHECK(problem_code(Problem::illegal_move) == "illegal_move");
  CHECK(problem_code(Problem::wrong_check_sign) == "wrong_check_sign");
}

TEST_CASE("README lists every code", "[problem_codes]") {
  std::string readme = cli_test::slurp(std::string(QIPU_TEST_DATA) + "/../../README.md");
  for (int i = 0; i < ProblemCount; ++i) {
    std::string code = "`" + std::string(problem_code(static_cast<Problem>(i))) + "`";
    INFO(code);
    CHECK(contains(readme, code));
  }
}

TEST_CASE("each fault gives a diagnostic of its kind", "[problem_codes]") {
  for (const Case& c : cases()) {
    auto games = replay(c.pgn);
    INFO("expected " << problem_code(c.kind) << " from " << c.pgn.substr(0, 80));
    REQUIRE(games.size() >= 1);
    INFO("got\n" << codes_text(games.back()));
    CHECK(kinds_of(games.back()).count(c.kind) == 1);
  }
}

TEST_CASE("the kinds of a clean game and of move faults are exact", "[problem_codes]") {
  CHECK(replay("1. e4 e5 2. Nf3 *").at(0).diagnostics.empty());
  // Only the illegal move: the moves before it are fine, the tags are well formed.
  auto games = replay("[Date \"2020.01.31\"]\n\n1. e4 e5 2. Ke3 *");
  const game::GameRecord& g = games.at(0);
  REQUIRE(g.diagnostics.size() == 1);
  CHECK(g.diagnostics[0].kind == Problem::illegal_move);
  CHECK(g.diagnostics[0].error);
  // An ambiguous move is not also called illegal.
  CHECK(kinds_of(replay("1. a4 a5 2. h4 h5 3. Ra3 Ra6 4. Rh3 Rh6 5. Rc3 *").at(0)) ==
        std::set<Problem>{Problem::ambiguous_move});
}

TEST_CASE("bytes invalid in a given encoding are invalid_bytes", "[problem_codes][cli]") {
  const std::string text = "[Event \"\xff\xff\"]\n\n1. e4 *\n";  // 0xFF is in no UTF-8 text
  pgn::ReaderOptions utf8 = game::replay_reader_options();
  utf8.encoding = "utf-8";
  auto games = replay(text, utf8);
  REQUIRE(games.size() == 1);
  CHECK(kinds_of(games[0]) == std::set<Problem>{Problem::invalid_bytes});

  auto dir = cli_test::temp_dir("problem_codes_bytes");
  auto path = (dir / "ff.pgn").string();
  std::ofstream(path, std::ios::binary) << text;
  auto r = cli_test::run_qipu("check --json --encoding utf-8 \"" + path + "\"");
  CHECK(contains(r.out, "\"code\":\"invalid_bytes\""));
  cli_test::fs::remove_all(dir);
}

TEST_CASE("reader errors carry their kind: game too large, input error", "[problem_codes]") {
  pgn::ReaderOptions small = game::replay_reader_options();
  small.max_game_bytes = 1000;
  std::vector<pgn::SyntaxError> errors;
  struct Collect : pgn::Visitor {
    std::vector<pgn::SyntaxError>* errors;
    void syntax_error(const pgn::SyntaxError& e) override { errors->push_back(e); }
  } v;
  v.errors = &errors;
  auto src = pgn::memory_source("[Event \"" + std::string(2000, 'x') + "\"]\n\n1. e4 *\n");
  pgn::read_pgn(*src, v, small);
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].kind == Problem::game_too_large);

  std::vector<pgn::SyntaxError> input_errors;
  game::PipelineOptions opts;
  opts.jobs = 1;
  game::PipelineCallbacks cb;
  cb.input_done = [&](const game::InputReport& in) { input_errors = in.input_errors; };
  game::run_pipeline(std::vector<std::string>{"/nonexistent/qipu/problems.pgn"}, opts, cb);
  REQUIRE(input_errors.size() == 1);
  CHECK(input_errors[0].kind == Problem::input_error);
}

TEST_CASE("check --json gives each diagnostic its code", "[problem_codes][cli]") {
  auto dir = cli_test::temp_dir("problem_codes");
  auto r = cli_test::run_qipu("check --json" + write_cases(dir));
  CHECK(r.code == 1);  // some games have errors
  auto codes = json_codes(r.out);
  auto all = cases();
  REQUIRE(codes.size() == all.size());
  for (std::size_t i = 0; i < all.size(); ++i) {
    INFO("case " << i << ": expected " << problem_code(all[i].kind));
    CHECK(codes[int(i)].count(std::string(problem_code(all[i].kind))) == 1);
  }
  cli_test::fs::remove_all(dir);
}

TEST_CASE("convert --to json and the rejects table lead each error with its code", "[problem_codes][cli]") {
  auto dir = cli_test::temp_dir("problem_codes_rejects");
  auto pgn = (dir / "two.pgn").string();
  std::ofstream(pgn) << "1. e4 e5 2. Ke3 *\n\n1. Ngf3 *\n";
  auto conv = cli_test::run_qipu("convert --to json \"" + pgn + "\"");
  REQUIRE(conv.code == 1);
  auto lines = cli_test::lines_of(conv.out);
  REQUIRE(lines.size() == 2);
  CHECK(contains(lines[0], "\"errors\":[\"[illegal_move] 1:13: move 2. Ke3: "));
  CHECK(contains(lines[1], "\"errors\":[],\"warnings\":[\"[superfluous_disambiguation] 3:4: move 1. Ngf3: "));

  auto db = (dir / "q.db").string();
  auto imp = cli_test::run_qipu("import --no-position-index --eco-file '' --db \"" + db + "\" \"" + pgn + "\"");
  REQUIRE(imp.code <= 1);
  auto rej = cli_test::run_qipu("rejects --db \"" + db + "\"");
  REQUIRE(rej.code == 0);
  CHECK(contains(rej.out, "    [illegal_move] 1:13: move 2. Ke3: "));
  cli_test::fs::remove_all(dir);
}

TEST_CASE("check --json gives the errors of an input, outside any game, their codes", "[problem_codes][cli]") {
  auto dir = cli_test::temp_dir("problem_codes_inputs");
  auto good = (dir / "good.pgn").string();
  std::ofstream(good) << "1. e4 e5 *\n";
  auto missing = (dir / "missing.pgn").string();
  auto r = cli_test::run_qipu("check --json \"" + good + "\" \"" + missing + "\"");
  CHECK(r.code == 2);  // an input that cannot be read
  // The missing file's entry holds one error object with the input_error code.
  auto at = r.out.find("missing.pgn\"");
  REQUIRE(at != std::string::npos);
  std::string entry = r.out.substr(at, r.out.find('\n', at) - at);
  CHECK(contains(entry, "\"errors\":[{\"severity\":\"error\",\"code\":\"input_error\","));
  CHECK(contains(entry, "No such file or directory\"}]"));
  CHECK(contains(r.out, "good.pgn\",\"encoding\":\"utf-8\",\"compression\":\"plain\",\"bytes\":11,\"errors\":[]"));
  cli_test::fs::remove_all(dir);
}

}  // namespace test_problem_codes
