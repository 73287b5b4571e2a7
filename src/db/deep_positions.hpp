// The deep positions: positions past the aggregate's depth (db/explore.hpp) that many games
// reach, such as 10.d4 Nbd7 of the Breyer Ruy Lopez. The scan answers a position for about
// 5 µs a game at 10 M games: 180 ms for one that 38,000 games reach (bench_import.md).
//
// Which positions is found while importing: a batch's run or a merge of the position index
// in which a key is popular (ImportOptions::deep_positions: about one game in 50,000) makes
// that key popular, and every game imported after that which reaches a position of that
// key (past the aggregate's depth) is counted in rows of the aggregate's form (tables
// deep_segment, deep_posting). Each key's row in deep_position says the first game they
// count; the row of key -1 (the mark) the last. The explorer answers such a position from
// its rows plus a scan of the games outside that range: those before it (by estimate, not
// counted: about 80 for a position one game in 2,000 reaches, found by the first merge, of
// 160,000 games); and any stored past the mark by a qipu that did not count them, until the
// next import, which then starts afresh.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "qipu/db/explore.hpp"
#include "qipu/db/position_index.hpp"
#include "qipu/db/store.hpp"

namespace qipu::db {

// Whether the tables are ours (another program may own tables of those names): else import
// leaves them as they are, and the explorer scans.
bool deep_tables_ours(Connection& db);

// The games a deep position's rows count, or nothing when its rows cannot answer (not a
// popular key, another program's tables, or a key found to be an aggregated position's).
std::optional<IdRange> deep_range(Connection& db, Key key);

// Each game reaching `pos` whose id is outside `counted`, verified by replaying it, with the
// symbol of the move it played from there (EndSymbol: it ended there) and what the
// aggregate counts of it (search.cpp). Returns the games replayed without index entries.
std::uint64_t for_each_game_at(Connection& db, const Position& pos, IdRange counted,
                               const std::function<void(std::int64_t, std::uint8_t, const GameOutcome&)>& f);

// Import's side: counts each game's deep positions of popular keys, and makes keys popular.
class DeepPositions {
 public:
  // Reads the popular keys, or starts afresh (no keys, no rows) when the mark is not
  // `last_game`, the largest game id: games stored since by a qipu that did not count them.
  void load(Connection& db, std::int64_t last_game);
  void add_game(std::int64_t id, const EncodedGame& enc, const GameOutcome& outcome);
  // Writes the rows of the games added and the mark, and counts the `popular` keys (from the
  // position index's merges) from the next game on.
  void flush(Connection& db, const std::vector<std::uint64_t>& popular);

 private:
  // Two bits of one word a key (index keys are hashes: their bits are random).
  [[nodiscard]] static std::uint64_t filter_bits(std::uint64_t k) {
    return std::uint64_t(1) << (k % 64) | std::uint64_t(1) << (k / 64 % 64);
  }
  [[nodiscard]] bool maybe(std::uint64_t k) const {
    std::uint64_t bits = filter_bits(k);
    return (filter_[k / 4096 & (filter_.size() - 1)] & bits) == bits;
  }
  void rebuild_filter();

  HashSet64 popular_;                            // counted from their row's first game
  HashSet64 aggregated_;                         // popular keys of aggregated positions: not counted
  std::vector<std::uint64_t> newly_aggregated_;  // since the last flush
  std::vector<std::uint64_t> filter_ = std::vector<std::uint64_t>(4096);  // of popular_: a word for 4 keys or fewer
  ExploreWriter rows_{ExploreRows::deep};
  AggregatePositions game_;         // one game's deep positions of popular keys
  std::vector<std::size_t> plies_;  // and their plies
  std::string symbols_;
  std::int64_t last_ = 0;  // the last game added
};

}  // namespace qipu::db
