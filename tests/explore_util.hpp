// What the explorer's tests share: an answer from rows import keeps (the aggregate, the deep
// positions) against the scan's, which reads the games themselves.
#pragma once

#include <catch2/catch.hpp>

#include "qipu/db/explore.hpp"
#include "qipu/db/search.hpp"

namespace explore_test {

inline void check_same(const qipu::db::MoveStats& a, const qipu::db::MoveStats& s) {
  CHECK(a.move == s.move);
  CHECK(a.games == s.games);
  CHECK(a.white_wins == s.white_wins);
  CHECK(a.draws == s.draws);
  CHECK(a.black_wins == s.black_wins);
  CHECK(a.elo_games == s.elo_games);
  CHECK(a.elo_sum == s.elo_sum);
  CHECK(a.last_year == s.last_year);
}

// The kept rows' answer for pos against the scan's; returns the scan's number of games.
inline std::uint64_t check_against_scan(qipu::db::Connection& c, const qipu::Position& pos,
                                        const qipu::db::Exploration& kept) {
  auto scan = qipu::db::explore_scan(c, pos, {}, 10);
  check_same(kept.total, scan.total);
  REQUIRE(kept.moves.size() == scan.moves.size());
  for (std::size_t i = 0; i < scan.moves.size(); ++i) check_same(kept.moves[i], scan.moves[i]);
  REQUIRE(kept.top_games.size() == scan.top_games.size());
  for (std::size_t i = 0; i < scan.top_games.size(); ++i) {
    CHECK(kept.top_games[i].id == scan.top_games[i].id);
    CHECK(kept.top_games[i].average_elo == scan.top_games[i].average_elo);
  }
  CHECK(qipu::db::count_aggregate(c, pos) == scan.total.games);
  return scan.total.games;
}

}  // namespace explore_test
