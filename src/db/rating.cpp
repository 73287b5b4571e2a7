#include "qipu/db/rating.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace qipu::db {

namespace {

// a / b rounded half up, for a ≥ 0 and b > 0: the club's fractions ("d/12.5") are
// computed in whole numbers so that no boundary depends on floating point.
int div_round(int a, int b) { return (2 * a + b) / (2 * b); }

// What the winner gains, as the reference texts give it; d ≥ 0 is the difference.
int club_win(int d, bool lower_won) {
  if (lower_won) {
    if (d >= 100) return div_round(d, 2);        // d/2
    if (d >= 10) return div_round(100 + d, 10);  // 10 + d/10
    return 10;
  }
  if (d >= 200) return 0;
  if (d >= 100) return 2;
  if (d >= 10) return div_round(1000 - 8 * d, 100);  // 10 − d/12.5
  return 10;
}

// What the lower side gains in a draw.
int club_draw(int d) {
  if (d >= 100) return div_round(d, 4);        // d/4
  if (d >= 10) return div_round(100 + d, 20);  // (10 + d/10)/2
  return 0;
}

// FIDE table 8.1a: dp for p = 1.00, 0.99, …, 0.50.
constexpr int DpTable[51] = {800, 677, 589, 538, 501, 470, 444, 422, 401, 383, 366, 351, 336, 322, 309, 296, 284,
                             273, 262, 251, 240, 230, 220, 211, 202, 193, 184, 175, 166, 158, 149, 141, 133, 125,
                             117, 110, 102, 95,  87,  80,  72,  65,  57,  50,  43,  36,  29,  21,  14,  7,   0};

}  // namespace

int club_change(int mine, int theirs, double score) {
  int d = std::abs(mine - theirs);
  bool lower = mine < theirs;
  if (score >= 1) return club_win(d, lower);
  if (score <= 0) return -club_win(d, theirs < mine);
  int gain = club_draw(d);
  return lower ? gain : -gain;
}

int club_level(int points) {
  if (points < 100) return 0;
  return std::max(1, 31 - points / 100);
}

double elo_expected(double mine, double theirs) {
  double d = std::clamp(mine - theirs, -400.0, 400.0);
  return 1 / (1 + std::pow(10.0, -d / 400));
}

int elo_k(double rating, int games, bool reached_2400) {
  if (games < 30) return 40;
  if (reached_2400 || rating >= 2400) return 10;
  return 20;
}

int fide_dp(double fraction) {
  int p = int(std::lround(std::clamp(fraction, 0.0, 1.0) * 100));  // FIDE rounds p to two places
  return p >= 50 ? DpTable[100 - p] : -DpTable[p];
}

std::optional<int> performance_rating(double opponents_sum, double score, int games) {
  if (games <= 0) return std::nullopt;
  return int(std::lround(opponents_sum / games)) + fide_dp(score / games);
}

void RatingTable::set_start(const std::string& name, double rating, int prior_games) {
  RatedPlayer& p = players_[name];
  p.name = name;
  p.rating = p.start = rating;
  p.prior_games = prior_games;
  p.reached_2400 = rating >= 2400;
}

RatedPlayer& RatingTable::player(const std::string& name, std::optional<int> elo) {
  auto [it, added] = players_.try_emplace(name);
  RatedPlayer& p = it->second;
  if (!added) return p;
  p.name = name;
  if (system_ == RatingSystem::Club) {
    p.rating = DefaultClub;
  } else if (elo) {  // rated already: an established player
    p.rating = *elo;
    p.prior_games = 30;
  } else {
    p.rating = DefaultElo;
  }
  p.start = p.rating;
  p.reached_2400 = p.rating >= 2400;
  return p;
}

void RatingTable::play(const std::string& white, const std::string& black, double white_score,
                       std::optional<int> white_elo, std::optional<int> black_elo) {
  RatedPlayer& w = player(white, white_elo);
  RatedPlayer& b = player(black, black_elo);
  if (&w == &b) return;  // a game against oneself rates nothing
  if (system_ == RatingSystem::Club) {
    int wp = int(w.rating), bp = int(b.rating);
    int change = club_change(wp, bp, white_score);
    // Points do not go below 0; the winner still gains the whole amount.
    w.rating = change < 0 ? std::max(0, wp + change) : wp + change;
    b.rating = change > 0 ? std::max(0, bp - change) : bp - change;
  } else {
    double we = elo_expected(w.rating, b.rating);
    int wk = elo_k(w.rating, w.prior_games + w.games, w.reached_2400);
    int bk = elo_k(b.rating, b.prior_games + b.games, b.reached_2400);
    double w_before = w.rating;
    w.rating += wk * (white_score - we);
    b.rating += bk * ((1 - white_score) - elo_expected(b.rating, w_before));
    w.reached_2400 = w.reached_2400 || w.rating >= 2400;
    b.reached_2400 = b.reached_2400 || b.rating >= 2400;
  }
  ++w.games;
  ++b.games;
  w.score += white_score;
  b.score += 1 - white_score;
}

std::vector<RatedPlayer> RatingTable::standings() const {
  std::vector<RatedPlayer> out;
  for (const auto& [name, p] : players_) out.push_back(p);
  std::stable_sort(out.begin(), out.end(),
                   [](const RatedPlayer& a, const RatedPlayer& b) { return a.rating > b.rating; });
  return out;
}

const RatedPlayer* RatingTable::find(const std::string& name) const {
  auto it = players_.find(name);
  return it == players_.end() ? nullptr : &it->second;
}

}  // namespace qipu::db
