// Tests of players as people (game/names.hpp, db/players.hpp, qipu players, search's
// player options, stats --player and --teams, explore --player): name folding and word
// matching; grouping of real spellings from the corpora (tests/data/players/names.pgn,
// see its README) with merges and splits kept in the database; results from the
// player's side; team standings worked out by hand.
#include <catch2/catch.hpp>

#include <regex>

#include <algorithm>

#include "cli_util.hpp"
#include "qipu/game/names.hpp"

// One namespace a file: the test files compile several to a unit (CMakeLists.txt).
namespace test_players {

using namespace qipu;
using namespace cli_test;
using game::NameMatch;

TEST_CASE("names fold case, accents, full-width letters and traditional characters", "[players]") {
  CHECK(game::fold_name("Grünfeld, Ernst") == "grunfeld, ernst");
  CHECK(game::fold_name("ÉRDI Łukasz Øre") == "erdi lukasz ore");
  CHECK(game::fold_name("Straße Æsir") == "strasse aesir");
  CHECK(game::fold_name("ＣＡＲＬＳＥＮ，Ｍ") == "carlsen,m");  // the comma is full-width too
  CHECK(game::fold_name("Карпов") == "карпов");
  CHECK(game::fold_name("對局") == "对局");
  CHECK(game::fold_name("國際象棋") == "国际象棋");
  CHECK(game::fold_name("对局") == "对局");               // simplified stays
  CHECK(game::fold_name("王\xE3\x80\x80皓") == "王 皓");  // ideographic space
  CHECK(game::fold_name("bad \xFF byte") == "bad \xFF byte");
}

TEST_CASE("names match by words, with initials and any order", "[players]") {
  CHECK(game::name_matches("Anand, Viswanathan", "anand", NameMatch::Words));
  CHECK(game::name_matches("Anand,V", "anand", NameMatch::Words));
  CHECK_FALSE(game::name_matches("Praggnanandhaa,R", "anand", NameMatch::Words));
  CHECK(game::name_matches("Praggnanandhaa,R", "anand", NameMatch::Substring));
  CHECK(game::name_matches("Anand,V", "Viswanathan Anand", NameMatch::Words));  // V is an initial
  CHECK(game::name_matches("Anand, Viswanathan", "Anand V.", NameMatch::Words));
  CHECK(game::name_matches("Carlsen,M", "Magnus Carlsen", NameMatch::Words));
  CHECK_FALSE(game::name_matches("Carlsen,M", "Henrik Carlsen", NameMatch::Words));
  CHECK_FALSE(game::name_matches("Grischuk,A", "anand", NameMatch::Words));  // an initial alone is not enough
  CHECK(game::name_matches("O'Kelly de Galway, Alberto", "okelly", NameMatch::Words));
  CHECK(game::name_words("o'kelly, %' x") == std::vector<std::string>{"okelly", "%'", "x"});
  CHECK_FALSE(game::name_matches("%_\"", "%' --", NameMatch::Words));  // "%'" is not the word "%"
  CHECK(game::name_matches("Vachier-Lagrave,M", "lagrave", NameMatch::Words));
  CHECK(game::name_matches("Grünfeld, Ernst", "GRUNFELD", NameMatch::Words));
  CHECK(game::name_matches("Carlsen,Magnus", "ｃａｒｌｓｅｎ", NameMatch::Words));
  CHECK(game::name_matches("王皓", "王", NameMatch::Words));  // Chinese: no spaces between words
  CHECK(game::name_matches("王皓", "王皓", NameMatch::Exact));
  CHECK_FALSE(game::name_matches("王皓", "王", NameMatch::Exact));
  CHECK(game::name_matches("Carlsen, Magnus", "carlsen, MAGNUS", NameMatch::Exact));
  CHECK(game::name_matches("Carlsen, Magnus", "^carl.*nus$", NameMatch::Regex));
  CHECK_FALSE(game::name_matches("Carlsen, Magnus", "^nus", NameMatch::Regex));
  CHECK(game::name_query_error("(", NameMatch::Regex) != "");
  CHECK(game::name_query_error("carlsen", NameMatch::Words) == "");
}

TEST_CASE("name keys: surname and given name in every order", "[players]") {
  auto key = [](const char* n) { return game::name_key(n).text(); };
  CHECK(key("Anand, Viswanathan") == "anand viswanathan");
  CHECK(key("Anand,V") == "anand v");
  CHECK(key("Anand V.") == "anand v");
  CHECK(key("Viswanathan Anand") == "anand viswanathan");
  CHECK(key("Loek van Wely") == "van wely loek");
  CHECK(key("Van Wely, Loek") == "van wely loek");
  CHECK(key("王皓") == "王皓");
  CHECK(key("Sokolov,And1") == "sokolov a");  // not a name to group by: its initial
  CHECK(game::name_key("Ding Liren").alternative.surname == "ding");
}

namespace {

std::string names_db() { return imported_db("names", "players/names.pgn"); }

// The spellings column of `qipu players --name QUERY`, one line per identity.
std::vector<std::string> spellings(const std::string& db, const std::string& query) {
  auto r = run_qipu("players --format tsv --lang en --db " + db + " --name '" + query + "'");
  REQUIRE(r.code == 0);
  std::vector<std::string> out;
  for (const auto& line : lines_of(r.out)) {
    auto tab = line.rfind('\t');
    if (line.rfind("player\t", 0) != 0) out.push_back(line.substr(tab + 1));
  }
  return out;
}

}  // namespace

TEST_CASE("players groups real spellings into people", "[players][cli]") {
  std::string db = names_db();
  CHECK(spellings(db, "anand") == std::vector<std::string>{"Anand, Viswanathan (1); Anand,V (1)"});
  CHECK(spellings(db, "sokolov ivan") ==
        std::vector<std::string>{"Sokolov, Ivan (1); Sokolov,I (1); Sokolov,Ivan (1); Sokolov,Iv (1)"});
  CHECK(spellings(db, "sokolov andrei") == std::vector<std::string>{"Sokolov, Andrei (1); Sokolov,And1 (1)"});
  CHECK(spellings(db, "carlsen") == std::vector<std::string>{"Carlsen,M (1); Carlsen,Magnus (1); Magnus Carlsen (1)"});
  CHECK(spellings(db, "nakamura") == std::vector<std::string>{"Nakamura,Hi (1); Nakamura,H (1)"});
  // Surname first, as the other Ding's spelling shows; not Ding Zhiyuan.
  CHECK(spellings(db, "ding").size() == 2);
  // The same FIDE id joins two transliterations; different ids keep one name apart.
  CHECK(spellings(db, "praggnanandhaa") == std::vector<std::string>{"Praggnanandhaa,R (1); Pragnanandha,R (1)"});
  CHECK(spellings(db, "erigaisi").size() == 2);
  CHECK(spellings(db, "kasparov") == std::vector<std::string>{"Kasparov, Gary (1); Kasparov,G (1)", "Kasparov,S (1)"});
  auto fide = run_qipu("players --format tsv --db " + db + " --name pragnanandha");
  CHECK(contains(fide.out, "\t25059530\t2\t"));
  // stats counts people, not spellings: the four Ivan Sokolov spellings are one player.
  auto stats = run_qipu("stats --db " + db);
  // (an aligned table: cells two or more blanks apart)
  CHECK(std::regex_search(stats.out, std::regex("\n  Sokolov, Ivan {2,}4 games {2,}2/4 {2,}50\\.0%\n")));
  CHECK(std::regex_search(stats.out, std::regex("\n  Carlsen,M {2,}3 games {2,}")));
}

TEST_CASE("players merge and split are kept across imports and exports", "[players][cli]") {
  std::string db = names_db();
  auto m = run_qipu("players merge --db " + db + " 'Kasparov,S' 'Kasparov, Gary'");
  REQUIRE(m.code == 0);
  CHECK(spellings(db, "kasparov") == std::vector<std::string>{"Kasparov, Gary (1); Kasparov,G (1); Kasparov,S (1)"});
  REQUIRE(run_qipu("players split --db " + db + " 'Sokolov,Iv'").code == 0);
  CHECK(spellings(db, "sokolov ivan") ==
        std::vector<std::string>{"Sokolov, Ivan (1); Sokolov,I (1); Sokolov,Ivan (1)"});
  // More games of the same spellings, imported later: the corrections still hold.
  fs::path more = temp_dir("players") / "more.pgn";
  std::ofstream(more) << "[White \"Kasparov,S\"]\n[Black \"Sokolov,Iv\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n";
  REQUIRE(run_qipu("import --db " + db + " " + more.string()).code == 0);
  CHECK(spellings(db, "kasparov") == std::vector<std::string>{"Kasparov,S (2); Kasparov, Gary (1); Kasparov,G (1)"});
  auto sokolov = spellings(db, "sokolov");
  CHECK(std::count(sokolov.begin(), sokolov.end(), "Sokolov,Iv (2)") == 1);
  // Through an export: the corrections are printed as commands and applied to the new
  // database the exported games go into.
  auto corrections = run_qipu("players --db " + db + " --corrections");
  CHECK(corrections.out ==
        "qipu players split 'Sokolov,Iv'\n"
        "qipu players merge 'Kasparov,S' 'Kasparov, Gary'\n");
  fs::path pgn = temp_dir("players") / "export.pgn";
  REQUIRE(run_qipu("export --db " + db + " -o " + pgn.string()).code == 0);
  std::string copy = imported_db("copy", pgn.string());
  for (const auto& line : lines_of(corrections.out)) REQUIRE(run_qipu(line.substr(5) + " --db " + copy).code == 0);
  CHECK(spellings(copy, "kasparov") == spellings(db, "kasparov"));
  CHECK(spellings(copy, "sokolov") == spellings(db, "sokolov"));
  CHECK(run_qipu("players merge --db " + db + " 'Nobody' 'Kasparov,S'").code == 2);
  CHECK(run_qipu("players split --db " + (temp_dir("players") / "none.db").string() + " X").code == 2);
}

TEST_CASE("search finds names by words, folded, and results from the player's side", "[players][cli]") {
  std::string d = " --db " + names_db();
  auto count = [&](const std::string& args) { return run_qipu("search" + d + " " + args + " --count").out; };
  CHECK(count("--player anand") == "2\n");
  CHECK(count("--player anand --substring") == "4\n");  // and the two Praggnanandhaa spellings
  CHECK(count("--player 'Viswanathan Anand'") == "2\n");
  CHECK(count("--player 'Carlsen M'") == "2\n");
  CHECK(count("--player ＣＡＲＬＳＥＮ") == "2\n");
  CHECK(count("--player grunfeld") == "1\n");
  CHECK(count("--player 王") == "2\n");
  CHECK(count("--event 對局") == "1\n");
  CHECK(count("--player '^anand' --regex") == "2\n");
  CHECK(run_qipu("search" + d + " --player '(' --regex --count").code == 2);

  std::string c = " --db " + imported_db("side", "players/club.pgn");
  auto side = [&](const std::string& args) { return run_qipu("search" + c + " " + args + " --count").out; };
  CHECK(side("--player alpha --won") == "1\n");   // game 1, with White
  CHECK(side("--player alpha --lost") == "1\n");  // game 3, with Black
  CHECK(side("--player alpha --won --color black") == "0\n");
  CHECK(side("--player alpha --color white") == "2\n");
  CHECK(side("--player beta --drew") == "1\n");
  CHECK(side("--player gamma --won --color white") == "1\n");
  auto no_player = run_qipu("search" + c + " --won --count");
  CHECK(no_player.code == 2);
  CHECK(contains(no_player.err, "qipu search: --won: is the player's side: give the player's name too"));
}

TEST_CASE("stats --player: score and performance by colour, year and ECO family", "[players][cli]") {
  std::string c = " --db " + imported_db("stats", "players/club.pgn");
  auto r = run_qipu("stats" + c + " --player beta --format tsv");
  REQUIRE(r.code == 0);
  // Beta: lost to Alpha (2200) with Black, drew Gamma (no Elo) with White. Rated games:
  // one, score 0: 2200 + dp(0) = 1400.
  CHECK(contains(r.out, "all\t2\t½\t25.0%\t2200\t1400\n"));
  CHECK(contains(r.out, "Black\t1\t0\t0.0%\t2200\t1400\n"));
  CHECK(contains(r.out, "White\t1\t½\t50.0%\t\t\n"));  // no rated opponent: no performance
  CHECK(contains(r.out, "2026\t2\t½\t25.0%"));
  CHECK(run_qipu("stats" + c + " --player nobody").code == 2);
}

// tests/data/players/teams.pgn, worked out by hand: round 1 Red–Blue 2½–1½, Green–Gold
// 2–2; round 2 Red–Green 2½–1½, Blue–Gold 0–4; round 3 Red–Gold 1–3, Blue–Green 0–4.
// Match points: Gold 5 (game points 9), Red 4 (6), Green 3 (7½), Blue 0 (1½).
TEST_CASE("stats --teams: matches, match points and game points, both rankings", "[players][cli]") {
  std::string db = imported_db("teams", "players/teams.pgn");
  auto r = run_qipu("stats --db " + db + " --event 'Four Teams' --teams --format tsv");
  REQUIRE(r.code == 0);
  CHECK(contains(r.out, "Four Teams Cup: 6 matches, 4 teams (1 game(s) without both team tags or a result left out)"));
  CHECK(contains(r.out, "1\tRed – Blue\t2½–1½\n"));
  CHECK(contains(r.out, "2\tBlue – Gold\t0–4\n"));
  CHECK(contains(r.out, "1\tGold\t3\t2\t1\t0\t5\t9\tx\t3\t2\t4\n"));
  CHECK(contains(r.out, "2\tRed\t3\t2\t0\t1\t4\t6\t1\tx\t2½\t2½\n"));
  CHECK(contains(r.out, "3\tGreen\t3\t1\t1\t1\t3\t7½\t2\t1½\tx\t4\n"));
  CHECK(contains(r.out, "4\tBlue\t3\t0\t0\t3\t0\t1½\t0\t1½\t0\tx\n"));
  auto gp = run_qipu("stats --db " + db + " --event 'Four Teams' --teams --rank-by game-points --format tsv");
  CHECK(contains(gp.out, "2\tGreen\t3\t1\t1\t1\t3\t7½"));
  CHECK(contains(gp.out, "3\tRed\t3\t2\t0\t1\t4\t6"));
  auto teams = [&](const char* lang) {
    return shell(std::string(lang) + " " + hang_guard + "\"" QIPU_BINARY "\" stats --db " + db +
                 " --event 'Four Teams' --teams --format tsv")
        .out;
  };
  CHECK(contains(teams("env QIPU_LANG=zh"), "场分\t局分"));
  CHECK(contains(teams("env QIPU_LANG=zh-Hant"), "場分\t局分"));
  CHECK_FALSE(contains(teams("env -u QIPU_LANG"), "场分"));
  CHECK(run_qipu("stats --db " + db + " --teams").code == 2);  // which event?
}

TEST_CASE("explore --player: the player's score and performance per move", "[players][cli]") {
  std::string c = " --db " + imported_db("explore", "players/club.pgn");
  // Alpha's games with Black: game 3 only, lost to Gamma (unrated): 0 %, no performance.
  auto black = run_qipu("explore" + c + " --moves '1.e4' --player alpha --color black --format json");
  REQUIRE(black.code == 0);
  CHECK(contains(black.out, "\"games\": 1,"));
  CHECK(contains(black.out, "\"player_score\": 0.0, \"performance\": null"));
  // With White: won game 1 against Beta (2000); game 4 has no result and does not count
  // for the score: 100 %, performance 2000 + dp(1) = 2800.
  auto white = run_qipu("explore" + c + " --moves '1.e4' --player alpha --color white --format json");
  CHECK(contains(white.out, "\"games\": 2,"));
  CHECK(contains(white.out, "\"player_score\": 100.0, \"performance\": 2800"));
}

}  // namespace test_players
