// Searching the game database: SQL conditions built from user filters (every value a
// bound parameter), position search through the position index with each candidate
// verified against the game's moves, and the opening explorer's aggregation.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "qipu/board/game_state.hpp"
#include "qipu/db/store.hpp"

namespace qipu::db {

// Final material, White first: "KRPvKR"; pieces in the order K Q R B N P.
std::string material_signature(const Position& pos);
// A user's material spec in canonical form ("krp v kr" → "KRPvKR"), or nullopt.
std::optional<std::string> parse_material(std::string_view spec);

// Registers qipu_fold(text): lower case for ASCII, Latin, Greek and Cyrillic letters,
// so that LIKE compares names such as "Érdi" or "Карпов" without regard to case.
void register_search_functions(Connection& db);
// Opens the database read-only with those functions registered.
std::unique_ptr<Connection> open_for_search(const std::string& path);
std::string fold_case(std::string_view s);
// Escapes % _ and \ for LIKE ... ESCAPE '\'.
std::string escape_like(std::string_view s);

// Filters on the game table's columns; empty or unset means "any".
struct GameFilter {
  std::string white, black, player;  // substring, case-insensitive; whole name with exact
  bool exact = false;
  std::string result;                // 1-0, 0-1, 1/2-1/2, *, decisive, draw
  std::string eco;                   // C60, C60-C99, or a letter
  std::string event, site, opening;  // substring, case-insensitive
  std::string date_from, date_to;    // 1990, 1990.05, 1990.05.17
  std::optional<int> min_elo, max_elo;
  bool both_elo = false;  // both players in the Elo range, not either
  std::optional<int> min_plies, max_plies;
  std::optional<Termination> termination;
  std::string material;  // KRPvKR
};

// Adds the filter's conditions to q.where and their values to q.params. Returns what is
// wrong with the filter, or an empty string.
std::string add_conditions(const GameFilter& f, GameQuery& q);
// The termination named as in termination_name(), or nullopt.
std::optional<Termination> termination_from_name(std::string_view name);

// A position to find. With `exact_moves` only games whose moves begin with exactly
// these (codec symbols, from the standard start) match; otherwise any game that reaches
// the position at any ply.
struct PositionQuery {
  Position position;
  std::optional<std::string> exact_moves;
};

// Moves as a user writes them ("1.e4 c5 2.Nf3", any notation qipu reads, Chinese
// included), replayed from the standard start.
struct MoveList {
  Position position;      // after the moves
  std::string symbols;    // codec symbols, to compare with the stored moves
  std::vector<Key> keys;  // every position from the start, for naming the opening
  std::string error;      // what is wrong with the text, or empty
};
MoveList parse_move_list(std::string_view text);

// The ids of the games matching both the position and the query's conditions, in
// ascending order. Index hits are verified by replaying the game to the hit's ply; games
// stored without index entries are replayed whole, and counted in `replayed`.
// With `max`, only the first max of them (by id), read no further than they are.
std::vector<std::int64_t> find_position(Connection& db, const PositionQuery& pq, const GameQuery& filter,
                                        std::uint64_t* replayed = nullptr, std::size_t max = SIZE_MAX);

// What the collection played from one position.
struct MoveStats {
  Move move;
  std::uint64_t games = 0, white_wins = 0, draws = 0, black_wins = 0;
  double elo_sum = 0;
  std::uint64_t elo_games = 0;  // games with at least one Elo
  int last_year = 0;            // 0: no dated game
};
struct TopGame {
  std::int64_t id = 0;
  double average_elo = 0;
};
struct Exploration {
  MoveStats total;                 // move unset: every game reaching the position
  std::vector<MoveStats> moves;    // most played first
  std::vector<TopGame> top_games;  // highest average Elo first
  std::uint64_t replayed = 0;      // games without index entries, replayed to find the position
};
// Each game counts once, at the first time it reaches the position. Without a filter, an
// aggregated position (db/explore.hpp) is answered from the aggregate in about a
// millisecond at any database size; otherwise by explore_scan.
Exploration explore(Connection& db, const Position& pos, const GameQuery& filter, std::size_t top = 10);
// The same from the position index's hits, each verified (cost grows with the matches).
Exploration explore_scan(Connection& db, const Position& pos, const GameQuery& filter, std::size_t top = 10);

}  // namespace qipu::db
