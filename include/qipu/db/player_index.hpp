// The player index: each game under its White and its Black player, as (player, side, game)
// entries in sorted runs like the position index's (tables player_segment and
// player_posting), appended by every import and merged by size. As SQLite indexes on
// game(white) and game(black) they took a quarter of a 1 M-game import into 9 M games
// without the position index (22.7 s against 17.2): a batch's entries landed on a page of
// their own each, every page read and written back (bench_import.md, 2026-12-03).
// An entry keeps its game's result too (in the ply field), so that a player's wins, losses
// or draws are found without reading each game's row.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "qipu/db/position_index.hpp"
#include "qipu/db/sqlite.hpp"

namespace qipu::db {

// Which of a player's games: as White, as Black, or both.
struct Sides {
  bool white = true, black = true;
};

// A player's result in the game, from their side: any game, or the ones they won, drew or lost.
enum class Outcome { Any, Won, Drew, Lost };
// The Result tag that gives the player of this side this outcome ("1-0" for White's wins);
// nullptr for Any.
const char* outcome_result(Outcome outcome, bool white);

// Collects the entries of one transaction and writes them as one run.
class PlayerIndexWriter {
 public:
  // A game's players (nullopt: no name) and Result tag; games in increasing id order.
  void add_game(std::int64_t game, std::optional<std::int64_t> white, std::optional<std::int64_t> black,
                std::optional<std::string_view> result);
  // Writes the collected entries as a new run and merges runs by size (inside the caller's
  // transaction).
  void flush(Connection& db);

 private:
  std::vector<PositionIndexWriter::Entry> entries_;
};

// Ids of the games in which one of `players` had one of `sides` and that outcome, ascending,
// each once. A database made before the player index (version 3) is read through its
// SQLite indexes; entries written before results were kept, through their games' rows.
std::vector<std::int64_t> player_games(Connection& db, const std::vector<std::int64_t>& players, Sides sides,
                                       Outcome outcome = Outcome::Any);

// Whether the database has the player index's tables.
bool has_player_index(Connection& db);
// Makes and fills the player index from the game table, and drops game_white and
// game_black (the upgrade of a version 3 database; inside the caller's transaction).
void build_player_index(Connection& db);

}  // namespace qipu::db
