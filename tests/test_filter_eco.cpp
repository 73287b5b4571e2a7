// filter --add-eco and --dedup take shortcuts for speed (the ECO look-up stops at the
// table's longest line; duplicate keys hash the moves a word at a time): their answers
// must stay those of `qipu eco` and of import's duplicate rule, game by game.
#include <regex>

#include "cli_util.hpp"

// One namespace a file: the test files compile several to a unit (CMakeLists.txt).
namespace test_filter_eco {

using namespace cli_test;

namespace {

const std::string EcoFile = "/usr/share/pgn-extract/eco.pgn";

// Openings reached by transposition, from set-up positions, after a bad move, beside a
// variation, and (after knight shuffles) only past the table's longest line.
constexpr const char* OddOpenings = R"([Event "transposed QGD"]

1. Nf3 d5 2. d4 Nf6 3. c4 e6 4. Nc3 Be7 5. Bg5 O-O *

[Event "English into four knights"]

1. c4 e5 2. Nc3 Nf6 3. Nf3 Nc6 4. g3 d5 *

[Event "Najdorf from a set-up position"]
[SetUp "1"]
[FEN "rnbqkbnr/pp2pppp/3p4/8/3pP3/5N2/PPP2PPP/RNBQKB1R w KQkq - 0 4"]

4. Nxd4 Nf6 5. Nc3 a6 6. Be3 e5 *

[Event "an endgame set up"]
[SetUp "1"]
[FEN "8/5k2/8/8/8/8/3K4/4R3 w - - 0 60"]

60. Re2 Kf6 61. Kd3 *

[Event "bad move in the opening"]

1. e4 c5 2. Nf3 d6 3. d4 Qxh8 4. Nc3 *

[Event "variation not counted"]

1. e4 (1. d4 d5 2. c4 e6) 1... c5 2. Nf3 (2. c3) 2... Nc6 *

[Event "Najdorf after the longest line"]

1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6 8. Ng1 Ng8
9. Nf3 Nf6 10. Ng1 Ng8 11. Nf3 Nf6 12. Ng1 Ng8 13. Nf3 Nf6 14. Ng1 Ng8 15. Nf3 Nf6
16. Ng1 Ng8 17. Nf3 Nf6 18. Ng1 Ng8 19. Nf3 Nf6 20. Ng1 Ng8 21. e4 c5 22. Nf3 d6 23. d4
cxd4 24. Nxd4 Nf6 25. Nc3 a6 *

[Event "no moves"]

*
)";

fs::path write_text(const std::string& name, const std::string& text) {
  fs::path p = temp_dir("filter-eco") / name;
  std::ofstream(p, std::ios::binary) << text;
  return p;
}

// A tag's value in one written game, unescaped; empty when the game has no such tag.
std::string tag_of(const std::string& game, const std::string& name) {
  std::smatch m;
  if (!std::regex_search(game, m, std::regex("\\[" + name + " \"((?:[^\"\\\\]|\\\\.)*)\"\\]"))) return {};
  return std::regex_replace(m[1].str(), std::regex(R"(\\(.))"), "$1");
}

// Every game's ECO, Opening and Variation tags from filter --add-eco equal the code and
// names qipu eco prints for it (in `lang`); the games' own tags are dropped first.
void check_same_as_eco(const std::string& path, const std::string& lang = "en") {
  INFO(path << " --to " << lang);
  auto lines = lines_of(run_qipu("eco --to " + lang + " '" + path + "'").out);
  Run f = run_qipu("filter --seven-tags --add-eco --to " + lang + " '" + path + "'");
  REQUIRE(f.code <= 1);
  auto games = pgn_games(f.out);
  REQUIRE(games.size() == lines.size());
  for (std::size_t i = 0; i < games.size(); ++i) {
    auto fields = split(lines[i], '\t');  // file:game, players, ECO, opening, variation
    REQUIRE(fields.size() == 5);
    INFO("game " << i + 1 << ": " << lines[i]);
    CHECK(tag_of(games[i], "ECO") == fields[2]);
    CHECK(tag_of(games[i], "Opening") == fields[3]);
    CHECK(tag_of(games[i], "Variation") == fields[4]);
  }
}

}  // namespace

TEST_CASE("filter --add-eco: every game classified as qipu eco classifies it", "[filter]") {
  if (!fs::exists(EcoFile)) return;
  fs::path odd = write_text("odd.pgn", OddOpenings);
  check_same_as_eco(odd.string());
  // The odd games themselves, by hand: the shortcut must not lose these.
  auto games = pgn_games(run_qipu("filter --seven-tags --add-eco " + odd.string()).out);
  REQUIRE(games.size() == 8);
  CHECK(tag_of(games[0], "ECO").substr(0, 2) == "D3");  // Queen's Gambit Declined, by transposition
  CHECK(tag_of(games[2], "ECO") == "B90");              // the Najdorf, from the FEN
  CHECK(tag_of(games[3], "ECO").empty());               // an endgame is no opening
  CHECK(tag_of(games[4], "ECO").substr(0, 1) == "B");   // a Sicilian up to the bad move
  CHECK(tag_of(games[5], "ECO").substr(0, 1) == "B");   // the variations' 1.d4 is not the game's
  CHECK(tag_of(games[6], "ECO") != "B90");              // the Najdorf comes after ply 40: not looked for
  for (const char* file : {"world-championships.pgn", "world-championships-zh.pgn", "classics.pgn", "chinese.pgn"})
    check_same_as_eco(std::string(QIPU_SOURCE_DIR) + "/data/" + file);
  for (const char* file : {"search/fixture.pgn", "cli/multi.pgn", "game/fuzz-warning-before-fen.pgn"})
    check_same_as_eco(std::string(QIPU_TEST_DATA) + "/" + file);
  check_same_as_eco(std::string(QIPU_SOURCE_DIR) + "/data/world-championships.pgn", "zh");
}

TEST_CASE("filter --add-eco: pgnmentor games classified as qipu eco classifies them", "[filter][corpus]") {
  QIPU_NEEDS_CORPORA("real/pgnmentor/data__pgn__Adams.pgn", "real/pgnmentor/data__pgn__Anand.pgn");
  if (!fs::exists(EcoFile)) return;
  fs::path pgn = write_pgnmentor(temp_dir("filter-eco") / "pm.pgn", {"Adams", "Anand"});
  check_same_as_eco(pgn.string());
}

namespace {

// The real game's movetext cut after `plies` plies, with its tags and result: a game of
// other moves (whose move bytes end inside or at the end of a hashed word).
std::string cut_game(const std::string& game, int plies) {
  std::size_t movetext = game.find("\n\n") + 2;
  std::string moves = game.substr(movetext);
  int seen = 0;
  std::size_t at = 0;
  static const std::regex token(R"(\s*(\d+\.+\s*)?\S+)");
  for (std::sregex_iterator it(moves.begin(), moves.end(), token), end; it != end && seen < plies; ++it, ++seen)
    at = std::size_t(it->position() + it->length());
  return game.substr(0, movetext) + moves.substr(0, at) + " " + tag_of(game, "Result") + "\n\n";
}

// Each game's text, split at "[Event " (write_sample_games' games all start with one).
std::vector<std::string> sample_games(const fs::path& path) { return pgn_games(slurp(path.string())); }

}  // namespace

TEST_CASE("filter --dedup: the kept games are those import keeps, the left-out ones its duplicates", "[filter]") {
  fs::path dir = temp_dir("filter-dedup");
  std::string text = tricky_duplicates();
  // Real games, some twice; some cut short at every length modulo the hash's word (four
  // plies), and each of those twice, so that games differing only in their last moves
  // are told apart and equal ones are not.
  auto real = sample_games(write_sample_games(dir / "sample.pgn", 100, 40));
  for (std::size_t i = 0; i < real.size(); ++i) {
    text += real[i] + "\n";
    if (i % 3 == 0) text += real[i] + "\n";
  }
  for (int plies = 24; plies < 32; ++plies) {
    std::string cut = cut_game(real[0], plies);
    text += cut + cut_game(real[1], plies) + cut;
  }
  fs::path pgn = dir / "games.pgn";
  std::ofstream(pgn, std::ios::binary) << text;
  std::size_t games = pgn_games(text).size();
  // --dedup keeps the games import keeps, by count ...
  Run imp = run_qipu("import --db '" + (dir / "all.db").string() + "' '" + pgn.string() + "'");
  REQUIRE(imp.code == 0);
  std::smatch m;
  REQUIRE(std::regex_search(imp.out, m, std::regex(R"((\d+) duplicates skipped)")));
  std::size_t skipped = std::stoul(m[1]);
  CHECK(skipped == 3 + 14 + 8);  // tricky_duplicates' three, every third real game, the cuts read twice
  fs::path dups = dir / "dups.pgn", kept = dir / "kept.pgn";
  REQUIRE(
      run_qipu("filter --dedup --duplicates '" + dups.string() + "' -o '" + kept.string() + "' '" + pgn.string() + "'")
          .code == 0);
  CHECK(pgn_games(slurp(kept.string())).size() == games - skipped);
  CHECK(pgn_games(slurp(dups.string())).size() == skipped);
  // ... and by identity: import finds no duplicate among the kept games, and finds every
  // game left out to be a duplicate of a kept one.
  std::string db = "--db '" + (dir / "kept.db").string() + "' ";
  Run kept_imp = run_qipu("import " + db + "'" + kept.string() + "'");
  REQUIRE(kept_imp.code == 0);
  CHECK(contains(kept_imp.out, "; 0 duplicates skipped"));
  Run dups_imp = run_qipu("import " + db + "'" + dups.string() + "'");
  REQUIRE(dups_imp.code == 0);
  CHECK(contains(dups_imp.out, "; " + std::to_string(skipped) + " duplicates skipped"));
}

}  // namespace test_filter_eco
