// Each player row's games, results, Elo range, dates and FIDE ids, kept by import with the
// games (tables player_total_run, player_total_chunk and player_fide), so that grouping
// players into people (db/players.hpp: qipu players, stats, rating) reads an entry a player
// instead of every game and its tags: 24.6 s for qipu players at 10 M games, now 0.10 s
// (bench/bench_search.md, 2026-12-04). Games stored by
// an older qipu, past the rows' last counted game, are counted from their rows when read and
// added to the rows by the next import, as db/summary.hpp does.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "qipu/db/sqlite.hpp"

namespace qipu::db {

struct PlayerTotal {
  std::int64_t games = 0, wins = 0, draws = 0, losses = 0;  // a game without a result is in games only
  std::optional<std::int64_t> min_elo, max_elo;             // of the player's own Elo
  std::optional<std::int64_t> first_date, last_date;        // date_sort; none without a dated game
  std::map<std::string, std::int64_t> fide_ids;             // games giving each FIDE id
};
using PlayerTotals = std::unordered_map<std::int64_t, PlayerTotal>;  // by player.id

// One side of a game as the totals count it.
struct PlayerSide {
  std::optional<std::int64_t> player, elo;
  std::string_view fide_id;  // the side's FideId tag; empty without one
};

// Collects an import's games and adds them to the rows (inside the importer's transaction).
class PlayerTotalsWriter {
 public:
  struct Entry {  // one player's totals
    std::int64_t player = 0;
    PlayerTotal total;
  };
  // Games in increasing id order.
  void add_game(std::int64_t id, const PlayerSide& white, const PlayerSide& black,
                std::optional<std::string_view> result, std::optional<std::int64_t> date_sort);
  void flush(Connection& db);

 private:
  // A game's side, kept small until the batch's sides are added up by player: a PlayerTotal
  // a side spent 0.74 s of an import of 2 M games moving them in the sort.
  struct Side {
    std::int64_t player = 0;
    std::optional<std::int64_t> elo, date;
    std::uint32_t fide = 0;  // 1 + the FIDE id's index in fide_ids_; 0: none
    std::int8_t points = 0;  // in halves: 2 a win, 1 a draw, 0 a loss; -1: no result
  };
  std::vector<Entry> added_up();

  std::vector<Side> pending_;
  std::vector<std::string> fide_ids_;
  std::int64_t first_ = 0, last_ = 0;  // the pending games' ids; 0: none
};

// Every player row's totals, in one read transaction; rows without games are absent.
PlayerTotals read_player_totals(Connection& db);

// The FIDE id a side's tag gives: none for "", "0", "-" and "?", which say there is none.
bool is_fide_id(std::string_view value);

}  // namespace qipu::db
