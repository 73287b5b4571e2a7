// What a user asks of a game (players, result, dates, ratings, tags, time control,
// opening, moves and positions, outcome), held once for every command that selects
// games: search turns it into SQL (db/search.hpp), filter tests it on each record read
// (Matcher below). Problems are told in words; the command line adds its flags.
#pragma once

#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "qipu/game/names.hpp"
#include "qipu/game/record.hpp"
#include "qipu/game/replay.hpp"

namespace qipu::game {

// A test on any tag: its value equal to `value`, or matching it as a regular expression.
struct TagTest {
  std::string name, value;
  bool regex = false;
};

// Empty or unset means "any". Each criterion has a name (CriteriaProblem::criterion,
// Criteria::negated): the field's name with '-' for '_' ("date-from", "min-elo").
struct Criteria {
  std::string white, black, player;        // see name_mode
  NameMatch names = NameMatch::Substring;  // players' names (the command line's default is Words)
  bool exact = false;                      // whole names (players, event, site)
  bool regex = false;                      // names as regular expressions
  std::string color;                       // with player: white or black, the player's side
  std::string outcome;                     // with player: won, lost or drew, from the player's side
  std::string result;                      // 1-0, 0-1, 1/2-1/2, *, decisive, draw
  std::string eco;                         // C60, C60-C99, or a letter
  std::string event, site, opening;        // substring, case-insensitive
  std::string round, annotator;
  std::string date_from, date_to;  // 1990, 1990.05, 1990.05.17
  std::optional<int> min_elo, max_elo;
  bool both_elo = false;        // both players in the Elo range, not either
  std::optional<int> elo_diff;  // the ratings differ by at most this
  std::optional<int> min_plies, max_plies;
  std::string plies;  // "MIN-MAX", "MIN-" or "-MAX": the same as min_plies/max_plies
  std::optional<Termination> termination;
  std::string material;  // KRPvKR
  int stable = 1;        // plies the material must be held (filter; search: the final position)
  std::vector<TagTest> tags;
  std::string time_control;  // the TimeControl tag, as written
  std::string speed;         // ultrabullet, bullet, blitz, rapid, classical, correspondence
  std::string fen;           // a position reached at any mainline ply
  std::string moves;         // the game begins with these moves (any notation)
  bool transpose = false;    // moves: the position they reach, by any move order
  bool valid = false, invalid = false;
  bool with_comments = false, with_variations = false;
  std::set<std::string> negated;  // criteria names to negate; tag tests as "tag1", "tag2", …

  [[nodiscard]] NameMatch name_mode() const { return regex ? NameMatch::Regex : exact ? NameMatch::Exact : names; }
  // Events, sites and annotators are found by part of their name, not by words ("champ").
  [[nodiscard]] NameMatch place_mode() const {
    return name_mode() == NameMatch::Words ? NameMatch::Substring : name_mode();
  }
};

struct CriteriaProblem {
  std::string criterion;  // its name, as in Criteria
  std::string message;    // what is wrong and what is wanted
};
// The first problem with the criteria, checked before any game is read.
std::optional<CriteriaProblem> check_criteria(const Criteria& c);

// Final material, White first: "KRPvKR"; pieces in the order K Q R B N P.
std::string material_signature(const Position& pos);
// A user's material spec in canonical form ("krp v kr" → "KRPvKR"), or nullopt.
std::optional<std::string> parse_material(std::string_view spec);
// The termination named as in termination_name(), or nullopt.
std::optional<Termination> termination_from_name(std::string_view name);
// A partial date "1990", "1990.05" or "1990.05.17" as YYYYMMDD; the missing parts the
// lowest (from) or highest (to) they can be. nullopt when it is no such date.
std::optional<std::int64_t> date_bound(std::string_view s, bool upper);
// A Date tag as YYYYMMDD with unknown month or day 00; nullopt without a year.
std::optional<std::int64_t> date_value(std::string_view tag);
// An ECO range from "C60", "C60-C99" or "C" as its first and last code; nullopt if bad.
std::optional<std::pair<std::string, std::string>> eco_range(std::string_view spec);
// The speed lichess gives a TimeControl tag ("180+2": blitz): the estimated duration,
// base + 40 × increment seconds, under 30 ultrabullet, 180 bullet, 480 blitz, 1500 rapid,
// else classical; "-" correspondence. Empty when the tag says nothing ("?", missing).
std::string speed_of(std::string_view time_control);

// Moves as a user writes them ("1.e4 c5 2.Nf3", any notation qipu reads), replayed from
// the standard start.
struct MoveListText {
  std::vector<Move> moves;
  std::vector<Key> keys;  // every position from the start
  Position position;      // after the moves
};
// Failing, the first error of the moves' replay, or what was expected.
Result<MoveListText> read_move_list(std::string_view text);

// The Polyglot keys of a game's mainline positions, from ply 0 (what ECO tables and
// position criteria look up).
std::vector<Key> position_keys(const GameRecord& rec);

// An opening named by the ECO table for a game's positions.
struct OpeningNames {
  std::string eco, name, variation;
};
// The opening of a game from its keys (from ply 0), or nullopt (db::EcoTable::classify).
using Classifier = std::function<std::optional<OpeningNames>(const std::vector<Key>& keys)>;

// The criteria made ready to test records (a regex compiled, a FEN read, …); one per
// thread. `classify` is needed for eco and opening.
class Matcher {
 public:
  // Criteria that check_criteria accepts.
  explicit Matcher(const Criteria& c, Classifier classify = {});
  ~Matcher();
  Matcher(Matcher&&) noexcept;
  [[nodiscard]] bool matches(const GameRecord& rec) const;
  // The tests that need the tags only (names, dates, ratings, tags, time control): false
  // when the game cannot match, before its moves are replayed (ReplayOptions::wanted).
  [[nodiscard]] bool matches_tags(const GameRecord& rec) const;
  // matches() for a game whose tags matches_tags has passed: the other tests only.
  [[nodiscard]] bool matches_after_tags(const GameRecord& rec) const { return matches_rest(rec, false); }
  // Whether a position criterion (--fen, --moves, --material, not negated) lets the
  // replay stop early: then `watch` is ReplayOptions::watch.
  [[nodiscard]] bool watches() const;
  // Skip once the game can no longer meet that criterion (a pawn left a square the
  // target has it on, fewer pieces than the target's, a castling right lost, a move
  // that differs), Whole once it has met it: games skipped do not match.
  [[nodiscard]] Watch watch(const GameRecord& rec, const Position& now) const;

 private:
  [[nodiscard]] bool matches_rest(const GameRecord& rec, bool with_tags) const;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace qipu::game
