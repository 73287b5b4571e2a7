// Tests of the rating systems (db/rating.hpp, qipu rating): every branch of the club
// formula (级别积分制) and its boundaries, levels, FIDE's K rules, the 400-point cap, the
// dp table and performance ratings, each against numbers worked out by hand (in the
// comments); then one event replayed both ways through the program.
#include <catch2/catch.hpp>

#include "cli_util.hpp"
#include "qipu/db/rating.hpp"

// One namespace a file: the test files compile several to a unit (CMakeLists.txt).
namespace test_rating {

using namespace qipu;
using namespace cli_test;

TEST_CASE("club rating: draws", "[rating]") {
  CHECK(db::club_change(100, 109, 0.5) == 0);  // d = 9 < 10: nothing
  CHECK(db::club_change(109, 100, 0.5) == 0);
  CHECK(db::club_change(100, 110, 0.5) == 6);   // d = 10: (10 + 1)/2 = 5.5 → 6
  CHECK(db::club_change(110, 100, 0.5) == -6);  // the higher side loses as much
  CHECK(db::club_change(100, 115, 0.5) == 6);   // (10 + 1.5)/2 = 5.75 → 6
  CHECK(db::club_change(100, 150, 0.5) == 8);   // (10 + 5)/2 = 7.5 → 8
  CHECK(db::club_change(100, 199, 0.5) == 10);  // d = 99: (10 + 9.9)/2 = 9.95 → 10
  CHECK(db::club_change(100, 200, 0.5) == 25);  // d = 100: d/4
  CHECK(db::club_change(100, 230, 0.5) == 33);  // 130/4 = 32.5 → 33
  CHECK(db::club_change(500, 100, 0.5) == -100);
  CHECK(db::club_change(300, 300, 0.5) == 0);
}

TEST_CASE("club rating: the lower side wins", "[rating]") {
  CHECK(db::club_change(100, 100, 1) == 10);    // d = 0
  CHECK(db::club_change(100, 109, 1) == 10);    // d = 9 < 10: 10
  CHECK(db::club_change(100, 110, 1) == 11);    // d = 10: 10 + 1
  CHECK(db::club_change(100, 155, 1) == 16);    // 10 + 5.5 = 15.5 → 16
  CHECK(db::club_change(100, 199, 1) == 20);    // d = 99: 19.9 → 20
  CHECK(db::club_change(100, 200, 1) == 50);    // d = 100: d/2
  CHECK(db::club_change(100, 201, 1) == 51);    // 50.5 → 51
  CHECK(db::club_change(100, 400, 1) == 150);   // 300/2
  CHECK(db::club_change(400, 100, 0) == -150);  // the loser loses what the winner gains
}

TEST_CASE("club rating: the higher side wins", "[rating]") {
  CHECK(db::club_change(109, 100, 1) == 10);  // d = 9 < 10: 10
  CHECK(db::club_change(110, 100, 1) == 9);   // d = 10: 10 − 0.8 = 9.2 → 9
  CHECK(db::club_change(150, 100, 1) == 6);   // 10 − 4 = 6
  CHECK(db::club_change(170, 100, 1) == 4);   // 10 − 5.6 = 4.4 → 4
  CHECK(db::club_change(199, 100, 1) == 2);   // d = 99: 10 − 7.92 = 2.08 → 2
  CHECK(db::club_change(200, 100, 1) == 2);   // d = 100-199: 2
  CHECK(db::club_change(299, 100, 1) == 2);
  CHECK(db::club_change(300, 100, 1) == 0);  // d ≥ 200: nothing
  CHECK(db::club_change(100, 150, 0) == -6);
}

TEST_CASE("club rating: levels and the floor at 0", "[rating]") {
  CHECK(db::club_level(0) == 0);  // unrated
  CHECK(db::club_level(99) == 0);
  CHECK(db::club_level(100) == 30);
  CHECK(db::club_level(199) == 30);
  CHECK(db::club_level(200) == 29);
  CHECK(db::club_level(2999) == 2);
  CHECK(db::club_level(3000) == 1);
  CHECK(db::club_level(4500) == 1);
  db::RatingTable t(db::RatingSystem::Club);
  t.play("A", "B", 0);  // both unrated at 0: B gains 10, A stays at 0
  CHECK(t.find("A")->rating == 0);
  CHECK(t.find("B")->rating == 10);
  t.set_start("C", 5);
  t.play("C", "B", 0);  // B higher by 5: gains 10; C loses 5 of them
  CHECK(t.find("C")->rating == 0);
  CHECK(t.find("B")->rating == 20);
}

TEST_CASE("Elo: expected score, the 400-point cap and K", "[rating]") {
  CHECK(db::elo_expected(2000, 2000) == Approx(0.5));
  CHECK(db::elo_expected(2400, 2000) == Approx(1 / 1.1));                // 1/(1 + 10^-1)
  CHECK(db::elo_expected(2700, 2000) == Approx(1 / 1.1));                // 700 counts as 400
  CHECK(db::elo_expected(1500, 2500) == Approx(1 - 1 / 1.1));            // and −1000 as −400
  CHECK(db::elo_expected(2200, 2000) == Approx(1 / (1 + 0.316227766)));  // 10^-0.5
  CHECK(db::elo_k(1800, 0, false) == 40);                                // a new player
  CHECK(db::elo_k(2500, 29, false) == 40);                               // 29 games: still new
  CHECK(db::elo_k(2399, 30, false) == 20);
  CHECK(db::elo_k(2400, 30, false) == 10);
  CHECK(db::elo_k(2350, 30, true) == 10);  // once 2400, always 10
  db::RatingTable t(db::RatingSystem::Elo);
  t.set_start("A", 2000);
  t.set_start("B", 2000);
  t.play("A", "B", 1);  // K 20: ± 20 × 0.5
  CHECK(t.find("A")->rating == Approx(2010));
  CHECK(t.find("B")->rating == Approx(1990));
  t.play("N", "M", 1);  // unrated, no Elo tags: both 1400, K 40
  CHECK(t.find("N")->rating == Approx(1420));
  CHECK(t.find("M")->rating == Approx(1380));
  t.set_start("G", 2600);
  t.set_start("L", 2100);
  t.play("G", "L", 1);  // capped at 400: G (K 10) + 10 × 0.0909, L (K 20) − 20 × 0.0909
  CHECK(t.find("G")->rating == Approx(2600 + 10 / 11.0));
  CHECK(t.find("L")->rating == Approx(2100 - 20 / 11.0));
}

TEST_CASE("FIDE dp table and performance rating", "[rating]") {
  CHECK(db::fide_dp(1.0) == 800);
  CHECK(db::fide_dp(0.99) == 677);
  CHECK(db::fide_dp(0.75) == 193);
  CHECK(db::fide_dp(0.5) == 0);
  CHECK(db::fide_dp(0.25) == -193);
  CHECK(db::fide_dp(0.0) == -800);
  CHECK(db::fide_dp(2.0 / 3) == 125);  // p rounded to 0.67
  CHECK(db::fide_dp(0.514) == 7);      // 0.51
  CHECK(db::performance_rating(3 * 2500, 2, 3) == 2625);
  CHECK(db::performance_rating(2400 + 2600, 1, 2) == 2500);
  CHECK_FALSE(db::performance_rating(0, 0, 0));  // no games: no number
}

// tests/data/players/club.pgn: 1. Alpha–Beta 1-0, 2. Beta–Gamma ½, 3. Gamma–Alpha 1-0,
// 4. Alpha–Gamma * (left out).
TEST_CASE("qipu rating replays an event with the club system", "[rating][cli]") {
  std::string db = imported_db("club", "players/club.pgn");
  auto r = run_qipu("rating --system club --format tsv --db " + db + " --start " QIPU_TEST_DATA "/players/club-start.csv");
  REQUIRE(r.code == 0);
  // Alpha 250, Beta 180, Gamma unrated (0). 1: higher Alpha wins, d 70: 10 − 5.6 → 4 (254,
  // 176). 2: draw, d 176 ≥ 100: Gamma gains 44 (Beta 132). 3: lower Gamma wins, d 210:
  // 105 (Gamma 149, Alpha 149).
  auto lines = lines_of(r.out);
  REQUIRE(lines.size() == 4);
  CHECK(lines[1] == "1\tAlpha, Ann\t149\t30级\t250\t-101\t2\t1");
  CHECK(lines[2] == "2\tGamma, Cy\t149\t30级\t0\t+149\t2\t1.5");
  CHECK(lines[3] == "3\tBeta, Bo\t132\t30级\t180\t-48\t2\t0.5");
  CHECK(contains(r.err, "1 game(s) without a result (*) left out"));
}

TEST_CASE("qipu rating replays the same event with FIDE's Elo rules", "[rating][cli]") {
  std::string db = imported_db("elo", "players/club.pgn");
  auto r = run_qipu("rating --system elo --format tsv --db " + db);
  REQUIRE(r.code == 0);
  // Alpha 2200 and Beta 2000 from their Elo tags (K 20), Gamma unrated at 1400 (K 40).
  // 1: Alpha +20 × (1 − 0.75975) = +4.805. 2: Beta 1995.2 vs Gamma, capped at 400:
  // Beta −20 × 0.40909 = −8.18, Gamma +40 × 0.40909 = +16.36. 3: Gamma beats Alpha,
  // capped: Gamma +40 × 0.90909 = +36.36, Alpha −20 × 0.90909 = −18.18.
  auto lines = lines_of(r.out);
  REQUIRE(lines.size() == 4);
  CHECK(lines[1] == "1\tAlpha, Ann\t2186.6\t2200\t-13.4\t2\t1");
  CHECK(lines[2] == "2\tBeta, Bo\t1987.0\t2000\t-13.0\t2\t0.5");
  CHECK(lines[3] == "3\tGamma, Cy\t1452.7\t1400\t+52.7\t2\t1.5");
}

TEST_CASE("qipu rating: a bad start list is named by file and line", "[rating][cli]") {
  std::string db = imported_db("bad", "players/club.pgn");
  fs::path csv = temp_dir("rating") / "bad.csv";
  std::ofstream(csv) << "name,points\n\"Alpha, Ann\",250\nBeta, Bo,lots\n";
  auto r = run_qipu("rating --db " + db + " --start " + csv.string());
  CHECK(r.code == 2);
  CHECK(contains(r.err, csv.string() + ":3: expected NAME,RATING[,GAMES]"));
  CHECK(r.out.empty());
}

}  // namespace test_rating
