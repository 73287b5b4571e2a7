// Every common way Chinese books, magazines and forums write moves (issue 16), read back
// to the moves of the same game written in English SAN (the independently known answer,
// tests/data/notation/zh-forms.tsv): in a PGN file, as check, convert and import read
// files, and as a --moves list, as search and explore read it (db::parse_move_list).
// Then what must not change around them: comments, variations, and tokens that stay
// unreadable.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>

#include "cli_util.hpp"
#include "qipu/db/search.hpp"
#include "qipu/game/pipeline.hpp"
#include "qipu/game/writer.hpp"
#include "qipu/pgn/reader.hpp"

// One namespace a file: the test files compile several to a unit (CMakeLists.txt).
namespace test_zh_forms {

using namespace qipu;
using cli_test::contains;
using cli_test::split;

namespace {

struct Form {
  std::string description, before, input, san;
};

// The rows of zh-forms.tsv: the moves before the form, the form, and the same in SAN.
std::vector<Form> forms() {
  std::ifstream in(QIPU_TEST_DATA "/notation/zh-forms.tsv");
  std::vector<Form> out;
  std::string line;
  std::getline(in, line);  // the heading
  while (std::getline(in, line)) {
    std::vector<std::string> f = split(line, '\t');
    if (f.size() == 3) f.insert(f.begin() + 1, "");  // no moves before
    REQUIRE(f.size() == 4);
    out.push_back({f[0], f[1], f[2], f[3]});
  }
  return out;
}

std::string after(const std::string& before, const std::string& moves) {
  return before.empty() ? moves : before + " " + moves;
}

// The one game of a PGN text, replayed and written back in English SAN, with its errors.
struct Written {
  std::string pgn;
  int errors = 0;
  std::string first_error;
};
// The movetext of a written game on one line.
std::string one_line(std::string pgn) {
  std::replace(pgn.begin(), pgn.end(), '\n', ' ');
  return pgn;
}

Written replayed(const std::string& movetext) {
  Written w;
  game::PipelineOptions o;
  o.jobs = 1;
  game::PipelineCallbacks cb;
  cb.game = [&](const game::InputReport&, game::GameRecord& rec) {
    w.pgn += one_line(game::write_pgn(rec));
    w.errors += rec.error_count();
    for (const auto& d : rec.diagnostics)
      if (d.error && w.first_error.empty()) w.first_error = d.move + ": " + d.message;
  };
  game::run_pipeline(std::vector<game::PipelineInput>{{"<form>", "[Event \"form\"]\n\n" + movetext + " *\n"}}, o, cb);
  return w;
}

// The move tokens the reader hands on, one per line.
struct Tokens : pgn::Visitor {
  std::string out;
  pgn::Visit move(std::string_view token, std::uint64_t) override {
    out.append(token).append("\n");
    return pgn::Visit::Continue;
  }
};

}  // namespace

TEST_CASE("zh forms: each reads in a PGN file as the same game in SAN", "[notation][zh]") {
  std::vector<Form> all = forms();
  REQUIRE(all.size() >= 30);
  for (const Form& f : all) {
    INFO(f.description << ": " << f.input);
    Written english = replayed(after(f.before, f.san)), chinese = replayed(after(f.before, f.input));
    REQUIRE(english.errors == 0);
    CHECK(chinese.first_error == "");
    CHECK(chinese.pgn == english.pgn);
  }
}

TEST_CASE("zh forms: each reads as a --moves list as the same moves in SAN", "[notation][zh]") {
  for (const Form& f : forms()) {
    INFO(f.description << ": " << f.input);
    auto english = db::parse_move_list(after(f.before, f.san)), chinese = db::parse_move_list(after(f.before, f.input));
    REQUIRE(english.error() == "");
    REQUIRE(chinese.error() == "");
    CHECK(chinese->keys == english->keys);
  }
}

TEST_CASE("zh forms: the grammar alone reads them into the same events as the reader's scan", "[pgn][zh]") {
  for (const Form& f : forms()) {
    INFO(f.description << ": " << f.input);
    std::string text = "[Event \"form\"]\n\n" + after(f.before, f.input) + " *\n";
    pgn::ReaderOptions fast = game::replay_reader_options(), slow = fast;
    slow.grammar_only = true;
    Tokens a, b;
    pgn::read_pgn(*pgn::memory_source(text), a, fast);
    pgn::read_pgn(*pgn::memory_source(text), b, slow);
    CHECK(a.out == b.out);
  }
}

TEST_CASE("zh forms: a spaced piece word and its move are one token", "[pgn][zh]") {
  Tokens t;
  pgn::read_pgn(*pgn::memory_source("1. e4 e5 2. 后 吃f7 马 吃 e5 皇后 h5＋ 马 ：e5 e4，e5；马F3 *"), t,
                game::replay_reader_options());
  CHECK(t.out == "e4\ne5\n后 吃f7\n马 吃 e5\n皇后 h5＋\n马 ：e5\ne4\ne5\n马F3\n");
}

TEST_CASE("zh forms: list punctuation swallows no moves or comments", "[notation][zh]") {
  // A semicolon starts a comment to the end of the line; the full-width one separates moves.
  CHECK(db::parse_move_list("1. e4；e5 2. Nf3")->keys.size() == 4);
  Written w = replayed("1. e4，{白方先走；黑方应以 e5} e5；2. 马f3 ; a comment to the end of the line\n马c6");
  CHECK(w.errors == 0);
  CHECK(contains(w.pgn, "1. e4 {白方先走；黑方应以 e5} 1... e5 2. Nf3 { a comment to the end of the line} 2... Nc6"));
}

TEST_CASE("zh forms: words in comments stay words, parentheses stay variations", "[notation][zh]") {
  Written words = replayed("1. e4 {将 是一个词，后 吃f7 也是} e5 2. Nf3 (2. Bc4 {后 吃f7}) 2... Nc6");
  CHECK(words.errors == 0);
  CHECK(contains(words.pgn, "1. e4 {将 是一个词，后 吃f7 也是} 1... e5 2. Nf3 (2. Bc4 {后 吃f7}) 2... Nc6"));
  // In an English game "(Q)" is a promotion only right after the square.
  Written promotion = replayed("1. e4 d5 2. exd5 c6 3. dxc6 Nf6 4. cxb7 Nbd7 5. bxa8(Q) (5. bxa8=N) e5");
  CHECK(promotion.errors == 0);
  CHECK(contains(promotion.pgn, "5. bxa8=Q (5. bxa8=N) 5... e5"));
}

TEST_CASE("zh forms: a token that cannot be read is written back unchanged", "[notation][zh]") {
  Written bad = replayed("１.ｅ９ e5");
  CHECK(bad.first_error == "1. ｅ９: unknown move token 'ｅ９': expected a destination square such as e4");
  CHECK(contains(bad.pgn, " 1. ｅ９ e5 *"));
  Written later = replayed("1. e4 e5 2. 马 吃 e9 马c6");
  CHECK(later.errors == 1);
  CHECK(later.first_error == "2. 马 吃 e9: unknown move token '马 吃 e9': expected a destination square such as e4");
  CHECK(contains(later.pgn, " 1. e4 e5 2. 马 吃 e9 马c6 *"));
  // Nor does a spaced piece word swallow a result or a move number after it.
  Written result = replayed("1. e4 e5 2. 马 1-0");
  CHECK(result.first_error == "2. 马: unknown move token '马': expected a destination square such as e4");
  CHECK(contains(result.pgn, " 1. e4 e5 2. 马 1-0"));
}

}  // namespace test_zh_forms
