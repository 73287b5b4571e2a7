// Tests of the notation tables (module notation, languages): every case of the Chinese
// notation specification (../shared/notation/zh-moves.tsv), the seed game both ways
// byte for byte, round trips through every language over the real corpora, German
// output against pgn-extract's, and xiangqi refused.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "qipu/game/pipeline.hpp"
#include "qipu/game/writer.hpp"
#include "qipu/notation/notation.hpp"

#include "cli_util.hpp"
#include "corpora.hpp"

// One namespace a file: the test files compile several to a unit (CMakeLists.txt).
namespace test_languages {

using namespace qipu;
using cli_test::split;
namespace fs = std::filesystem;

namespace {

// The first reading of the token that is legal in the position, in English SAN.
std::string read_as_san(const Position& pos, const std::string& token) {
  Result<MoveReadings> r = read_move(token);
  if (!r) return "(none: " + r.error() + ")";
  for (const auto& reading : r->readings) {
    Result<Move> res = resolve_san(pos, reading.san);
    if (res) return format_san(pos, *res);
  }
  return "(none legal)";
}

game::PipelineOptions any_notation(const Notation* from = nullptr) {
  game::PipelineOptions o;
  o.replay.notation = from;
  o.reader.words.pieces = all_piece_words();
  o.jobs = 2;
  return o;
}

// Every game of the inputs written with the given writer options, concatenated.
std::string rewrite(const std::vector<game::PipelineInput>& inputs, const game::WriterOptions& w, int* errors = nullptr,
                    const Notation* from = nullptr) {
  std::string out;
  game::PipelineCallbacks cb;
  cb.prepare = [&](game::GameRecord& rec) { rec.output = game::write_pgn(rec, w); };
  cb.game = [&](const game::InputReport&, game::GameRecord& rec) {
    out += rec.output;
    if (errors) *errors += rec.error_count();
  };
  game::run_pipeline(inputs, any_notation(from), cb);
  return out;
}

std::string rewrite_text(const std::string& text, const game::WriterOptions& w, const Notation* from = nullptr) {
  return rewrite({{"<test>", text}}, w, nullptr, from);
}

game::WriterOptions to(const char* code, bool spaced_default = true) {
  game::WriterOptions w;
  w.notation = find_notation(code);
  w.style.spaced = spaced_default && w.notation->space_after_piece;
  return w;
}

// The movetext of written games, lines joined, tags dropped.
std::string movetext(const std::string& pgn) {
  std::string out;
  std::istringstream in(pgn);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '[') continue;
    out += (out.empty() ? "" : " ") + line;
  }
  return out;
}

const std::string SeedEn =
    "1. e4 e5 2. Bc4 d6 3. Nf3 Nc6 4. Nc3 Bg4 5. h3 Bh5 6. d3 h6 7. Nxe5 Bxd1 8. Bxf7+ Ke7 9. Nd5# 1-0";
const std::string SeedZh =
    "1. e4 e5 2. 象 c4 d6 3. 马 f3 马 c6 4. 马 c3 象 g4 5. h3 象 h5 6. d3 h6 7. 马 xe5 象 xd1 8. 象 xf7+ 王 e7 9. 马 "
    "d5# 1-0";

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
  return s;
}

}  // namespace

TEST_CASE("zh-moves.tsv: every Chinese input form reads as its SAN", "[notation][zh]") {
  std::ifstream in(QIPU_TEST_DATA "/notation/zh-moves.tsv");
  REQUIRE(in);
  std::string line;
  std::getline(in, line);  // header
  int cases = 0;
  while (std::getline(in, line)) {
    auto f = split(line, '\t');
    if (f.size() < 4) continue;
    ++cases;
    auto pos = Position::from_fen(f[1]);
    INFO(f[0] << ": " << f[2] << " in " << f[1]);
    REQUIRE(pos);
    // Glyphs such as !? are NAGs, not part of the move; the reader hands them over apart.
    std::string san = f[3], glyphs;
    while (!san.empty() && (san.back() == '!' || san.back() == '?')) glyphs.insert(0, 1, san.back()), san.pop_back();
    CHECK(read_as_san(*pos, f[2]) == san);
  }
  CHECK(cases >= 40);
}

TEST_CASE("the seed game in Chinese, both ways, both styles, both scripts", "[notation][zh]") {
  const std::string compact = replace_all(replace_all(replace_all(SeedZh, "象 ", "象"), "马 ", "马"), "王 ", "王");
  const std::string hant = replace_all(SeedZh, "马", "馬");
  const std::string hant_compact = replace_all(compact, "马", "馬");
  auto w = to("zh");
  CHECK(movetext(rewrite_text(SeedEn, w)) == SeedZh);
  w.style.spaced = false;
  CHECK(movetext(rewrite_text(SeedEn, w)) == compact);
  CHECK(movetext(rewrite_text(SeedEn, to("zh-Hant"))) == hant);
  CHECK(movetext(rewrite_text(SeedEn, to("zh-Hant", false))) == hant_compact);
  for (const auto& zh : {SeedZh, compact, hant, hant_compact}) CHECK(movetext(rewrite_text(zh, to("en"))) == SeedEn);
}

TEST_CASE("Chinese words: castling, results, generic castling, 后 only as a move", "[notation][zh]") {
  CHECK(movetext(rewrite_text("1. e4 e5 2. 马f3 马c6 3. 象c4 象c5 4. 短易位 马f6 白胜", to("en"))) ==
        "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O Nf6 1-0");
  // 王车易位 names no side: legal only where exactly one castling is
  CHECK(movetext(rewrite_text("1. e4 e5 2. 马f3 马c6 3. 象c4 象c5 4. 王车易位 *", to("en"))) ==
        "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O *");
  auto w = to("zh");
  w.style.castling = WriteStyle::Castling::Words;
  CHECK(movetext(rewrite_text("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O *", w)) ==
        "1. e4 e5 2. 马 f3 马 c6 3. 象 c4 象 c5 4. 短易位 *");
  // Tag values and comments are never rewritten, whatever words they hold.
  std::string pgn = "[White \"马群\"]\n[Black \"王皓\"]\n\n1. e4 {之后 后手 马 f3} e5 *";
  std::string zh = rewrite_text(pgn, to("zh"));
  CHECK(zh.find("[White \"马群\"]") != std::string::npos);
  CHECK(zh.find("{之后 后手 马 f3}") != std::string::npos);
}

TEST_CASE("xiangqi is refused by name", "[notation][zh]") {
  Result<MoveReadings> r = read_move("炮二平五");
  CHECK(!r);
  CHECK(r.kind() == Problem::unknown_move);
  CHECK(r.error().find("xiangqi") != std::string::npos);
  CHECK(read_move("马8进7").error().find("xiangqi") != std::string::npos);
  int errors = 0;
  std::string out = rewrite({{"<test>", std::string("1. 炮二平五 马8进7 *")}}, to("en"), &errors);
  CHECK(errors == 1);
  CHECK(out.find("炮二平五") != std::string::npos);  // kept as written, not lost
  // A xiangqi game is known by its Game tag or its ten-rank FEN, whatever its moves.
  for (std::string tags :
       {std::string("[Game \"Chinese Chess\"]\n"),
        std::string("[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\"]\n")}) {
    int n = 0;
    rewrite({{"<test>", tags + "\n1. e4 *"}}, to("en"), &n);
    CHECK(n == 1);
  }
}

TEST_CASE("letter languages read back what they write, and French R is a king in a French game", "[notation]") {
  // A French game: C, F, T, D, and R for the king (18. Rh1).
  std::string fr =
      "1. e4 e5 2. Cf3 Cc6 3. Fb5 a6 4. Fa4 Cf6 5. O-O Fe7 6. Te1 b5 7. Fb3 d6 8. c3 O-O 9. h3 Ca5 "
      "10. Fc2 c5 11. d4 Dc7 12. Cbd2 cxd4 13. cxd4 Fb7 14. d5 Tac8 15. Fd3 Cd7 16. Cf1 f5 17. exf5 "
      "Fxd5 18. Rh1 *";
  std::string en = movetext(rewrite_text(fr, to("en")));
  CHECK(en.find("18. Kh1") != std::string::npos);
  CHECK(movetext(rewrite_text(en, to("fr"))) == fr);
  for (const auto& n : notations()) {
    INFO(n.code);
    std::string written = rewrite_text(en, to(std::string(n.code).c_str()));
    CHECK(movetext(rewrite_text(written, to("en"), &n)) == en);  // told the language
    // Detected from the game's moves, Dutch Pf3 and Hungarian Hf3 too (test_lang_guess.cpp).
    CHECK(movetext(rewrite_text(written, to("en"))) == en);
  }
}

TEST_CASE("German output agrees with pgn-extract's on the moves", "[notation][corpus]") {
  QIPU_NEEDS_CORPORA("lang/pgn-extract", "edge/pgn-extract");
  std::ifstream expected_file(corpora::path("lang/pgn-extract/test__outfiles__test-Wdeutsch-out.pgn"));
  std::stringstream expected;
  expected << expected_file.rdbuf();
  std::string de =
      rewrite({{corpora::path("edge/pgn-extract/test__infiles__barnes-horton.pgn"), std::nullopt}}, to("de"));
  // Compare the move tokens only: layout, comment wrapping and NAG forms differ by design.
  auto moves = [](const std::string& pgn) {
    std::string text, mt = movetext(pgn);
    int depth = 0;
    for (char c : mt) {  // comments out, parentheses to spaces
      if (c == '{')
        ++depth;
      else if (c == '}')
        --depth;
      else if (depth == 0)
        text += (c == '(' || c == ')') ? ' ' : c;
    }
    std::vector<std::string> out;
    std::istringstream in(text);
    std::string tok;
    while (in >> tok)
      if (tok.front() != '$' && !std::isdigit(static_cast<unsigned char>(tok.front()))) out.push_back(tok);
    return out;
  };
  auto ours = moves(de), theirs = moves(expected.str());
  REQUIRE(ours.size() > 60);
  CHECK(ours == theirs);
}

TEST_CASE("en → zh → en gives back every real game, and zh-Hant, fan and de a third of them each", "[notation][corpus][slow]") {
  QIPU_NEEDS_CORPORA("real");
  std::vector<std::string> paths;
  for (const auto& dir : fs::recursive_directory_iterator(corpora::path("real")))
    if (dir.is_regular_file()) paths.push_back(dir.path().string());
  std::sort(paths.begin(), paths.end());
  REQUIRE(paths.size() > 20);
  // Every game through simplified Chinese; each third of the files also through one of the
  // other three, which differ from it only in their words (the whole round of four took a
  // fifth of the Release tests' CPU).
  const char* others[] = {"zh-Hant", "fan", "de"};
  std::vector<game::PipelineInput> thirds[3];
  for (std::size_t i = 0; i < paths.size(); ++i) thirds[i % 3].push_back({paths[i], std::nullopt});
  std::size_t total = 0;
  for (int k = 0; k < 3; ++k) {
    std::string en = rewrite(thirds[k], to("en"));
    total += en.size();
    for (const char* code : {"zh", others[k]}) {
      INFO(code << " over the files " << k << ", " << k + 3 << ", ...");
      std::string other = rewrite({{"<en>", en}}, to(code));
      std::string back = rewrite({{std::string("<") + code + ">", other}}, to("en"));
      CHECK(back.size() == en.size());
      CHECK((back == en));
    }
  }
  CHECK(total > 50'000'000);
}

}  // namespace test_languages
