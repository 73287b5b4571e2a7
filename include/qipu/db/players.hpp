// Players as people: the spellings of one person grouped into an identity (by FIDE id
// where the games carry one, else by the name's key, game/names.hpp), corrected by hand
// with merges and splits that the database keeps by spelling, and games read from one
// player's side.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "qipu/db/player_totals.hpp"
#include "qipu/db/store.hpp"
#include "qipu/game/names.hpp"

namespace qipu::db {

struct Spelling {
  std::int64_t player = 0;  // player.id
  std::string name;
  std::int64_t games = 0;
};

struct PlayerIdentity {
  std::string name;                 // the spelling with the most games
  std::string fide_id;              // empty when no game gives one
  std::vector<Spelling> spellings;  // most games first
  std::int64_t games = 0;
  std::int64_t wins = 0, draws = 0, losses = 0;  // games without a result are in none of these
  std::optional<int> min_elo, max_elo;
  int first_year = 0, last_year = 0;  // 0: no dated game
};

struct Identities {
  std::vector<PlayerIdentity> list;                         // most games first
  std::unordered_map<std::int64_t, std::size_t> of_player;  // player.id → index in list
  // The identity of a player row, or nullptr for an id that has no games.
  [[nodiscard]] const PlayerIdentity* find(std::int64_t player) const {
    auto it = of_player.find(player);
    return it == of_player.end() ? nullptr : &list[it->second];
  }
};

// Groups every player row into identities, applying the stored merges and splits.
Identities load_identities(Connection& db);

// The identities with a spelling that matches the query (words mode: "anand" finds
// "Anand, Viswanathan" and "Anand,V", not "Praggnanandhaa").
std::vector<const PlayerIdentity*> find_identities(const Identities& ids, std::string_view query,
                                                   game::NameMatch mode = game::NameMatch::Words);

// The player rows whose names match the query (a words query finds a person's rows
// across spellings: "anand" finds "Anand, Viswanathan" and "Anand,V").
std::vector<std::int64_t> matching_players(Connection& db, std::string_view query,
                                           game::NameMatch mode = game::NameMatch::Words);

// Stored corrections, by spelling, so that they outlive the games' rows (a re-import
// gives new ids): `merge` makes the spellings one person, `split` takes a spelling out
// of its automatic group (and drops the merges naming it). Both need a database opened
// for writing; they return what is wrong ("no player is spelt …"), or an empty string.
std::string merge_players(Connection& db, const std::string& a, const std::string& b);
std::string split_player(Connection& db, const std::string& name);
// The stored corrections: merges as pairs of spellings, splits with an empty second.
std::vector<std::pair<std::string, std::string>> player_corrections(Connection& db);

// One game as the player statistics read it.
struct PlayerGame {
  std::int64_t id = 0;
  std::int64_t white = 0, black = 0;  // player ids (0 unknown)
  std::string white_name, black_name;
  std::string result, eco, round, event;
  std::optional<int> white_elo, black_elo;
  std::int64_t date_sort = 0;          // 0: undated
  std::string white_team, black_team;  // WhiteTeam / BlackTeam tags
};
// The games matching q, in date, round and id order (the order ratings replay them in).
std::vector<PlayerGame> load_player_games(Connection& db, const GameQuery& q, bool with_teams = false);
// White's points from a result: 1, ½, 0, or nullopt when the game has none.
std::optional<double> white_points(std::string_view result);

// ---- team matches (场分 / 局分) ------------------------------------------------------
// Boards are paired into matches by round (the Round tag's part before the first ".",
// "3.2" being round 3, board 2) and the two teams (WhiteTeam, BlackTeam).
struct TeamMatch {
  std::string round;
  std::string teams[2];     // in the order first seen
  double game_points[2]{};  // 1 / ½ / 0 a board
  int boards = 0;
};
struct TeamRow {
  std::string team;
  int matches = 0, won = 0, drawn = 0, lost = 0;
  int match_points = 0;  // 2 a match won, 1 drawn
  double game_points = 0;
  std::map<std::string, double> against;  // game points scored against each opponent
};
struct TeamStandings {
  std::vector<TeamMatch> matches;  // in round order
  std::vector<TeamRow> table;      // ranked
  std::size_t left_out = 0;        // games without both team tags or without a result
};
// Ranked by match points, then game points (the Olympiad rule since 2008), or with
// by_game_points by game points, then match points (1976-2006); then by name.
TeamStandings team_standings(const std::vector<PlayerGame>& games, bool by_game_points);

}  // namespace qipu::db
