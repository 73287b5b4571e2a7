// NameQuery::matches folds names into reused buffers, skips names that cannot hold a
// whole word of the query, and matches words as views (no allocation per name);
// NameQuery::matches_by_full_fold is the allocating reference through fold_name and
// name_words. They must agree on every name: the White and Black names of data/*.pgn
// and tests/data/players/*.pgn (Latin, Chinese), and hand-made accented, full-width,
// traditional, Cyrillic and odd names (apostrophes, stray bytes, no letters).
#include <catch2/catch.hpp>

#include <filesystem>
#include <regex>
#include <set>

#include "cli_util.hpp"
#include "qipu/game/names.hpp"

// One namespace a file: the test files compile several to a unit (CMakeLists.txt).
namespace test_names_fast {

using namespace qipu;
using game::NameMatch;
using game::NameQuery;

namespace {

// The White and Black tag values of the sample PGN files (no escapes in them).
std::set<std::string> sample_names() {
  std::set<std::string> names;
  const std::regex tag(R"re(\[(?:White|Black) "([^"]*)"\])re");
  for (const char* dir : {QIPU_SOURCE_DIR "/data", QIPU_SOURCE_DIR "/tests/data/players"})
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      if (entry.path().extension() != ".pgn") continue;
      std::string text = cli_test::slurp(entry.path().string());
      for (std::sregex_iterator it(text.begin(), text.end(), tag), end; it != end; ++it) names.insert((*it)[1].str());
    }
  return names;
}

const std::vector<std::string> hand_made = {"Grünfeld, Ernst",
                                            "ÉRDI Łukasz Øre",
                                            "Straße, Æsir",
                                            "ＣＡＲＬＳＥＮ，Ｍａｇｎｕｓ",
                                            "Ｃａｒｌｓｅｎ",
                                            "對局 國際象棋",
                                            "王\xE3\x80\x80皓",
                                            "丁立人",
                                            "Карпов, Анатолий",
                                            "КАРПОВ А.",
                                            "O'Kelly de Galway",
                                            "d`Amico, X",
                                            "O'",
                                            "'Kelly",
                                            "Anand, V.",
                                            "Anand,V",
                                            "Viswanathan Anand",
                                            "van Wely, Loek",
                                            "Loek van Wely",
                                            "bad \xFF byte",
                                            "\xC3",
                                            "",
                                            " , . - ",
                                            "Ĳssel-Œuvre_Þór",
                                            "Dvořák-Nováková",
                                            "Ｏ’Ｋｅｌｌｙ",
                                            "Ó'Ñeill",
                                            "ΑΛΕΞΑΝΔΡΟΣ",
                                            "Garry   Kasparov",
                                            "Kasparov,G.K."};

// Queries: the hand-made names and every word of the names, in every mode.
std::vector<std::string> queries_from(const std::set<std::string>& names) {
  std::set<std::string> qs(hand_made.begin(), hand_made.end());
  for (const auto& n : names)
    for (const auto& w : game::name_words(game::fold_name(n))) qs.insert(w);
  for (const char* q : {"anand", "v anand", "a", "kasparov g", "van wely", "o'kelly", "erdi", "карпов", "对局", "丁",
                        "CARLSEN", "m carlsen", "dvorak", "ij"})
    qs.insert(q);
  return {qs.begin(), qs.end()};
}

}  // namespace

TEST_CASE("the reused-buffer match agrees with the full fold on every name", "[names]") {
  auto names = sample_names();
  REQUIRE(names.size() > 50);  // 92 in the sample files, in Latin and Chinese script
  names.insert(hand_made.begin(), hand_made.end());
  auto queries = queries_from(names);
  for (NameMatch mode : {NameMatch::Words, NameMatch::Substring, NameMatch::Exact}) {
    std::size_t matched = 0, differ = 0;
    for (const auto& text : queries) {
      NameQuery q(text, mode);
      for (const auto& name : names) {
        bool fast = q.matches(name), full = q.matches_by_full_fold(name);
        matched += full;
        if (fast != full && ++differ <= 5) FAIL_CHECK("query '" << text << "' name '" << name << "': " << fast);
      }
    }
    INFO("mode " << int(mode));
    CHECK(differ == 0);
    CHECK(matched >= hand_made.size());  // not vacuous: each hand-made name at least matches itself
  }
}

TEST_CASE("the reused-buffer match on hand-made names", "[names]") {
  // Answers worked out by hand from the folding rules, through both paths.
  struct Case {
    const char* query;
    const char* name;
    bool expected;
  };
  for (const auto& c : std::vector<Case>{{"okelly", "O'Kelly de Galway", true},
                                         {"o kelly", "O'Kelly de Galway", false},
                                         {"damico", "d`Amico, X", true},
                                         {"carlsen m", "ＣＡＲＬＳＥＮ，Ｍａｇｎｕｓ", true},
                                         {"erdi lukasz", "ÉRDI Łukasz Øre", true},
                                         {"对局", "對局 國際象棋", true},
                                         {"карпов а", "КАРПОВ А.", true},
                                         {"anand", "Grischuk,A", false},
                                         {"v anand", "Anand, V.", true},
                                         {"oeuvre", "Ĳssel-Œuvre_Þór", true},
                                         {"thor ijssel", "Ĳssel-Œuvre_Þór", true}}) {
    NameQuery q(c.query, NameMatch::Words);
    INFO(c.query << " / " << c.name);
    CHECK(q.matches(c.name) == c.expected);
    CHECK(q.matches_by_full_fold(c.name) == c.expected);
  }
}

TEST_CASE("the reused buffers carry nothing from one name to the next", "[names]") {
  NameQuery q("anand", NameMatch::Words);
  CHECK(q.matches("Viswanathan Anand, a name far longer than the next one, to fill the buffers"));
  CHECK_FALSE(q.matches("Ana"));
  CHECK_FALSE(q.matches(""));
  CHECK(q.matches("Anand"));
}

}  // namespace test_names_fast
