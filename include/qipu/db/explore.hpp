// The explorer's aggregate: per position, the moves played from it with their games,
// results, Elo sums, last year and best-rated games, kept up to date by import so that
// exploring a position costs the same at any database size.
//
// Which positions: those with at most AggregateDepth of the 32 units (pieces and pawns) off
// their start squares, moved or captured. That is a property of the position alone, so an
// aggregated position is aggregated in every game that reaches it, at whatever ply: the
// aggregate's answer is exact, with no scan beyond it. Positions past it (the middle game,
// where few games share a position) are answered by the scan over the position index
// (db::explore_scan), except those that many games reach: import counts them too, from the
// game after the position index's merges find them popular (src/db/deep_positions.hpp), so
// that only the games before are scanned. bench/bench_import.md says how the depth was chosen.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "qipu/board/position.hpp"
#include "qipu/db/sqlite.hpp"

namespace qipu::db {

struct Exploration;

constexpr int AggregateDepth = 12;
// Best-rated games kept per position and move; `explore --top` beyond it scans.
constexpr std::size_t TopKept = 10;
// The symbol of "the game ended here" in the aggregate (move symbols are below 255).
constexpr std::uint8_t EndSymbol = 255;
// Runs of the aggregate below this many rows are of level 0 (runs_to_merge).
constexpr std::uint64_t AggregateRunBase = 1u << 17;

// How many of the 32 units stand off their start squares (moved, or captured).
int units_off_start(const Position& pos);
// Whether the aggregate keeps the position: units_off_start(pos) <= AggregateDepth.
bool aggregated(const Position& pos);
// True when no position after this one in a game can be aggregated: pawns never return
// to their start squares and captured units never come back.
bool past_aggregate(const Position& pos);

// A game's aggregated positions, each at its first occurrence, with the symbol of the
// move the game played from it (EndSymbol where the game ended).
using AggregatePositions = std::vector<std::pair<Key, std::uint8_t>>;
// Adds a position to a game's list unless it is there already (or not aggregated). The
// list holds the game's positions in order, at most one a ply: a position can only repeat
// one of the last halfmove_clock() plies, and only those entries are looked at.
void add_aggregate_position(AggregatePositions& list, const Position& pos, std::uint8_t symbol);

// What of a game the aggregate counts.
struct GameOutcome {
  std::string_view result;             // the Result tag: 1-0, 0-1, 1/2-1/2, or anything else
  std::optional<std::int64_t> elo[2];  // WhiteElo, BlackElo
  std::optional<std::int64_t> date_sort;
};

// Which runs an ExploreWriter writes: the aggregate's, or those of the deep positions that
// many games reach (src/db/deep_positions.hpp), in the same form.
enum class ExploreRows { aggregate, deep };

// Collects one batch's games and writes them as one run of the aggregate (inside the
// caller's transaction), then merges runs by size as the position index does.
class ExploreWriter {
 public:
  explicit ExploreWriter(ExploreRows rows = ExploreRows::aggregate) : rows_(rows) {}
  void add(std::int64_t game, const AggregatePositions& positions, const GameOutcome& outcome);
  void flush(Connection& db);
  [[nodiscard]] std::size_t pending() const { return occurrences_.size(); }

  struct Occurrence {
    Key key;
    std::uint32_t game;  // index in games_
    std::uint8_t move;
  };
  struct Game {
    std::int64_t id;
    char result;        // 'w', 'd', 'b', or '?' (not counted as any)
    std::int32_t elo2;  // twice the mean of the known ratings; -1: none
    std::int32_t year;  // 0: no date
  };

 private:
  ExploreRows rows_;
  std::vector<Occurrence> occurrences_;
  std::vector<Game> games_;
};

// True when the database keeps the aggregate: schema 3 on, unless its first games were
// imported without the position index (Importer::keeps_aggregate). An aggregate covers
// every game of its database; without one, explore scans.
bool has_aggregate(Connection& db);
// Fills the aggregate from the stored games (a database made before it), in batches.
void build_aggregate(Connection& db);
// The exploration of an aggregated position, or of a deep position many games reach (its
// rows, and a scan of the few games they do not count), or nullopt when neither can answer
// (another position past AggregateDepth, more than TopKept top games, no aggregate).
std::optional<Exploration> explore_aggregate(Connection& db, const Position& pos, std::size_t top);
// The number of games reaching the position, from the same rows, or nullopt as above.
std::optional<std::uint64_t> count_aggregate(Connection& db, const Position& pos);

}  // namespace qipu::db
