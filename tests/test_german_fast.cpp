// The replayer's fast path for letter languages (issue 16): a piece move in a German,
// Spanish, Czech, … game takes its piece from the game's table, also when English reads
// the letter as another piece (Spanish R is a king, Polish H a queen, Czech S a bishop
// where German's S is a knight). The data/ samples written in each letter language by
// `qipu convert` read back to exactly the English games: disambiguated moves (Ngf6,
// R1e2), promotions (e8D), captures, castling, one language after another in one file.
#include <catch2/catch.hpp>

#include <fstream>
#include <regex>

#include "cli_util.hpp"
#include "qipu/notation/notation.hpp"

// One namespace a file: the test files compile several to a unit (CMakeLists.txt).
namespace test_german_fast {

using namespace cli_test;

namespace {

// Every table whose piece words are single ASCII capitals (the fast path's letters) but
// two that read wrongly before the fast path too, for want of a game's language before
// its first piece move: Dutch's knight P is also the pawn letter (Pf3 reads as f2-f3),
// and Hungarian's knight H is Polish's queen, the table tried first (Hf3 as Qf3).
std::vector<std::string> letter_languages() {
  std::vector<std::string> codes;
  for (const qipu::Notation& n : qipu::notations()) {
    bool letters = n.code != "en" && n.code != "nl" && n.code != "hu";
    for (int p = qipu::Knight; p <= qipu::King; ++p) {
      std::string_view w = n.names.pieces[p];
      letters = letters && w.size() == 1 && w[0] >= 'A' && w[0] <= 'Z';
    }
    if (letters) codes.emplace_back(n.code);
  }
  return codes;
}

// `pgn` written by convert in `code`, checked to succeed.
std::string convert_to(const std::string& code, const std::string& pgn, const fs::path& out) {
  Run r = run_qipu("convert --jobs 1 --to " + code + " \"" + pgn + "\" -o \"" + out.string() + "\"");
  INFO(r.err);
  REQUIRE(r.code == 0);
  return slurp(out.string());
}

}  // namespace

TEST_CASE("german fast: letter-language games read back to the English games' moves", "[notation][replay]") {
  fs::path dir = temp_dir("german_fast");
  std::string sample = QIPU_SOURCE_DIR "/data/world-championships.pgn";
  std::string english = convert_to("en", sample, dir / "en.pgn");
  // The sample has the moves a misreading would show: without them the test proves little.
  CHECK(std::regex_search(english, std::regex(R"([NBRQ][a-h1-8]x?[a-h][1-8])")));
  CHECK(std::regex_search(english, std::regex(R"([a-h][18]=[QRBN])")));
  CHECK(english.find("O-O-O") != std::string::npos);
  CHECK(english.find("Kx") != std::string::npos);

  std::vector<std::string> codes = letter_languages();
  for (const char* must : {"de", "es", "cs", "pl", "pt"})
    REQUIRE(std::find(codes.begin(), codes.end(), must) != codes.end());
  std::ofstream mixed(dir / "mixed.pgn", std::ios::binary);
  std::string expected;
  for (const std::string& code : codes) {
    INFO("language " << code);
    std::string written = convert_to(code, (dir / "en.pgn").string(), dir / (code + ".pgn"));
    CHECK(written != english);  // the pieces are written in the language's letters
    CHECK(convert_to("en", (dir / (code + ".pgn")).string(), dir / (code + ".back.pgn")) == english);
    mixed << written;
    expected += english;
  }
  // Games of languages where one letter means different pieces, one after another: each
  // game's letters are its own language's, whatever the game before it was written in.
  mixed.close();
  REQUIRE(mixed);
  CHECK(convert_to("en", (dir / "mixed.pgn").string(), dir / "mixed.back.pgn") == expected);
  fs::remove_all(dir);
}

}  // namespace test_german_fast
