// Searching the game database: SQL conditions built from user filters (every value a
// bound parameter), position search through the position index with each candidate
// verified against the game's moves, and the opening explorer's aggregation.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "qipu/board/game_state.hpp"
#include "qipu/db/player_index.hpp"
#include "qipu/db/store.hpp"
#include "qipu/game/criteria.hpp"

namespace qipu::db {

using game::material_signature;
using game::parse_material;

// Registers qipu_fold(text), game::fold_name (case, accents, full-width letters,
// traditional characters), and qipu_name_match(name, query, mode), game::name_matches
// with mode a game::NameMatch as a number.
void register_search_functions(Connection& db);
// Opens the database read-only with those functions registered.
std::unique_ptr<Connection> open_for_search(const std::string& path);
// Escapes % _ and \ for LIKE ... ESCAPE '\'.
std::string escape_like(std::string_view s);

// Filters on the game table's columns (game/criteria.hpp): the criteria that the
// database keeps columns for; material is the final position's.
using GameFilter = game::Criteria;

// Adds the filter's conditions to q.where and their values to q.params. Returns what is
// wrong with the filter (game::check_criteria's message), or an empty string. Player names
// are looked up in `db` now (games_condition); the query is for that connection.
Result<void> add_conditions(Connection& db, const GameFilter& f, GameQuery& q);
using game::termination_from_name;

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
};
// Failing, what is wrong with the text (the first error of its replay).
Result<MoveList> parse_move_list(std::string_view text);

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
  // From one player's side (explore's `player`): their points, and their points and
  // opponents' ratings in the games against rated opponents (performance rating).
  double player_points = 0, rated_points = 0, opponent_elo_sum = 0;
  std::uint64_t player_games = 0, rated_games = 0;  // games with a result
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
// Each game counts once, at the first time it reaches the position. Without a filter or a
// player, an aggregated position (db/explore.hpp) is answered from the aggregate in about a
// millisecond at any database size; otherwise by explore_scan. With `player` (the player
// rows of one person), MoveStats also counts that player's points.
Exploration explore(Connection& db, const Position& pos, const GameQuery& filter, std::size_t top = 10,
                    const std::vector<std::int64_t>* player = nullptr);
// The same from the position index's hits, each verified (cost grows with the matches).
Exploration explore_scan(Connection& db, const Position& pos, const GameQuery& filter, std::size_t top = 10,
                         const std::vector<std::int64_t>* player = nullptr);
}  // namespace qipu::db

namespace qipu::db {

// Pages of search results (qipu search, qipu serve). The sort keys a user may name
// ("date", "white-elo", …), each to its ORDER BY term: the user picks a name, never SQL.
const std::map<std::string, std::string>& sort_columns();
// The same games with sorting and paging (q.order, q.limit, q.offset) done on ids alone, in
// a subquery: only the rows shown are then joined with names and decoded.
GameQuery paged(const GameQuery& q);
// How many games the query's conditions match (its order and paging aside). When its only
// condition is a table of ids (games_condition, restrict_to), the table's rows are counted
// without reading the games: its ids come from the database's own indexes, as SQLite's
// count over an index trusts the index.
std::int64_t count_games(Connection& c, const GameQuery& q);
// A condition on g.id for a query's where: these games, put into a temporary table of the
// connection (allowed on a read-only one), so that the query is for that connection.
std::string games_condition(Connection& c, const std::vector<std::int64_t>& ids);
// Narrows the query to these games (a position search's hits, a player's games) in place of
// its conditions, so that sorting and paging stay in SQL.
void restrict_to(Connection& c, const std::vector<std::int64_t>& ids, GameQuery& q);

}  // namespace qipu::db
