// Rating systems replayed over games: the Chinese club level-and-points system
// (级别积分制) and FIDE's Elo rules, and FIDE's performance rating. The choices where the
// rules are ambiguous are in docs/ratings.md; the tests check each of them.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace qipu::db {

// ---- the club system ------------------------------------------------------------
// Points are whole numbers; a level is 100 points (unrated below 100, 30 级 from 100, up
// to 1 级 from 3000). After a game the loser loses what the winner gains, and in a draw
// the higher side loses what the lower side gains.

// The change of a player's points after a game scoring `score` (1, ½ or 0) against an
// opponent with `theirs` points, before the floor at 0 (club_apply).
int club_change(int mine, int theirs, double score);
// The level of a number of points: 0 unrated, else 30 (级) down to 1.
int club_level(int points);

// ---- FIDE's Elo rules -------------------------------------------------------------
// The expected score against an opponent, a difference over 400 counted as 400.
double elo_expected(double mine, double theirs);
// The development coefficient: 40 for a player's first 30 games, 10 once the rating has
// reached 2400, else 20.
int elo_k(double rating, int games, bool reached_2400);
// FIDE's dp table (Handbook B.02, 8.1a): the rating difference for a score fraction
// (0 to 1), -800 and +800 at the ends.
int fide_dp(double fraction);
// Performance rating: the opponents' average plus dp of the score fraction; nullopt
// without games.
std::optional<int> performance_rating(double opponents_sum, double score, int games);

enum class RatingSystem { Club, Elo };

struct RatedPlayer {
  std::string name;
  double rating = 0;  // club: whole points; Elo: unrounded
  double start = 0;   // the rating before the first game
  int games = 0;      // games in this replay
  double score = 0;
  int prior_games = 0;        // games before the replay (Elo's K), from the start list
  bool reached_2400 = false;  // Elo: K stays 10 once reached
};

// A list of players whose ratings change game by game.
class RatingTable {
 public:
  explicit RatingTable(RatingSystem system) : system_(system) {}
  // A player's rating before the first game (the start list); prior_games counts for
  // Elo's K (a player on the start list without a count is treated as established).
  void set_start(const std::string& name, double rating, int prior_games = 30);
  // One game; white_score 1, ½ or 0. Elo tags give an unlisted player's start in the Elo
  // system (a player with neither starts at DefaultElo, as new: K 40).
  void play(const std::string& white, const std::string& black, double white_score,
            std::optional<int> white_elo = std::nullopt, std::optional<int> black_elo = std::nullopt);
  // Every player, highest rating first, then by name.
  [[nodiscard]] std::vector<RatedPlayer> standings() const;
  [[nodiscard]] const RatedPlayer* find(const std::string& name) const;

  static constexpr double DefaultElo = 1400;  // FIDE's rating floor
  static constexpr double DefaultClub = 0;    // unrated

 private:
  RatedPlayer& player(const std::string& name, std::optional<int> elo);
  RatingSystem system_;
  std::map<std::string, RatedPlayer> players_;
};

}  // namespace qipu::db
