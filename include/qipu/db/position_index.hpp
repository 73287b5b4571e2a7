// The position index: every mainline position of every game as (key, game, ply).
// Entries are kept in sorted runs ("segments"), each cut into chunks of delta-encoded
// entries that fill a database page each (8,096 bytes in the 8 KB pages of a new database),
// so a position costs a few bytes instead of a table row.
// Keys are stored as their top 48 bits: callers verify matches by replaying the game.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

#include "qipu/core/types.hpp"
#include "qipu/db/sqlite.hpp"

namespace qipu::db {

struct PositionHit {
  std::int64_t game;
  int ply;  // plies played before the position arose (0: the start position)
};

constexpr std::uint64_t index_key(Key k) { return k >> 16; }

// Which index keys are popular (the explorer's deep positions, src/db/deep_positions.hpp):
// those holding at least one in `per` of the entries a batch's run or a merge writes, and at
// least `min` of them. A share rather than a count, so that the first run or merge large
// enough to tell finds a key: 300 entries, fit for the merges of 1.28 M games, found keys
// shared by 0.06 % of the games only there, and its eighth in a batch's run was 0.19 % of a
// batch of 20,000 games but 0.02 % of one of 200,000.
struct Popularity {
  std::uint64_t per = 0, min = 0;  // per 0: no key is popular
  [[nodiscard]] std::uint64_t at(std::uint64_t entries) const {
    return per == 0 ? UINT64_MAX : std::max(min, entries / per);
  }
};
// A merge's least count is at most this: up to 10 M games the largest merges are of 160,000
// games (IndexUpperFanout), where one entry in four million is 3.3 and a batch's least count,
// 16, would be one game in 10,000, leaving positions that one in 10,000 to 50,000 games reach
// to the scan; 5 is that share's count and about one standard deviation more, so that a key
// below the share is seldom popular by chance.
constexpr std::uint64_t MergeLeastPopular = 5;

// Collects the entries of one transaction and writes them as one segment.
class PositionIndexWriter {
 public:
  // Every mainline position of a game (keys[ply]); games in increasing id order.
  void add_game(const std::vector<Key>& keys, std::int64_t game);
  // Writes the collected entries as a new segment (inside the caller's transaction). With
  // `popular`, adds to it the keys popular among them.
  void flush(Connection& db, Popularity rule = {}, std::vector<std::uint64_t>* popular = nullptr);
  [[nodiscard]] std::size_t pending() const { return entries_.size(); }

  struct Entry {
    std::uint64_t key;
    std::int64_t game;
    int ply;
    bool operator<(const Entry& o) const {
      return key != o.key ? key < o.key : game != o.game ? game < o.game : ply < o.ply;
    }
  };
  // An entry as the writer keeps it: 16 bytes, the game an offset from the batch's first.
  struct Packed {
    std::uint64_t key;
    std::uint32_t game, ply;
  };

 private:
  std::vector<Packed> entries_;
  std::int64_t base_ = 0;
};

// Segments are merged as they come, by size, in the manner of a log-structured merge
// tree: when the newest runs are of one level (sizes within a factor of the level's fanout
// of each other, above `base`), MergeFanout of them of level 0, or `upper` of a level above,
// they become one run of the next level. Each entry is so rewritten about once a level
// whatever the database's size, and a lookup reads at most a level's fanout of runs a
// level, and the sources of the merges in progress (merge_position_index).
constexpr std::uint64_t MergeFanout = 8;
// The position index merges 64 runs of a level above 0, not eight: up to 10 M games an
// entry is written twice (its batch, the merge of eight batches), not three times, and no
// step of a 10 M import holds a merge of 100 M entries. Its runs are smaller, so the index
// takes more bytes an entry (a chunk's keys are farther apart), and a lookup reads up to 70
// runs instead of 17 (bench_import.md, 2026-12-05).
constexpr std::uint64_t IndexUpperFanout = 64;
// Runs below MergeFanout times this many entries are of level 0. At most the entries of a
// default batch (20,000 games of 60-85 plies: 1.2-1.7 M), so that the merge of eight batches
// is a run of level 1: at 2^21 it was still of level 0 and was merged again with the next
// seven batches, writing each entry about 3.45 times by 2.5 M games instead of 3
// (bench_import.md, 2026-12-02, branch scale3).
constexpr std::uint64_t IndexRunBase = 1u << 20;
int run_level(std::uint64_t size, std::uint64_t base, std::uint64_t upper = MergeFanout);
// How many of the newest runs to merge into one, given the runs' sizes oldest first (0: none).
std::size_t runs_to_merge(const std::vector<std::uint64_t>& sizes, std::uint64_t base,
                          std::uint64_t upper = MergeFanout);
// How many of the newest runs are of level 0.
std::size_t small_runs(const std::vector<std::uint64_t>& sizes, std::uint64_t base);

// Merges segments while runs_to_merge says so (after each batch, in its transaction).
// Merges are done a part at a time: each call writes 1.25 times `added` (the entries the
// batch wrote), and at least IndexRunBase, into every merge in progress, so that a merge
// ends before the next of its level is due. With `popular`, the index keys popular in a
// merge (by the merge's whole size, and a least count of at most MergeLeastPopular) are
// added to it.
void merge_position_index(Connection& db, std::uint64_t added, Popularity rule = {},
                          std::vector<std::uint64_t>* popular = nullptr);

// Every (game, ply) whose stored key matches; in game order.
std::vector<PositionHit> lookup_position(Connection& db, Key key);
// The same one at a time, in game order (then ply), while f returns true: a caller that
// wants the first matches reads only as far as they are.
void for_each_hit(Connection& db, Key key, const std::function<bool(const PositionHit&)>& f);

// Games that have no index entries (imported with --no-position-index), as ranges of
// ids in ascending order: from the unindexed table, or, in a database made before that
// table, found by reading the whole index once for the games without a ply-0 entry.
struct IdRange {
  std::int64_t first, last;
};
std::vector<IdRange> unindexed_games(Connection& db);
// Makes the unindexed table in a database made before it, filled as above.
void add_unindexed_table(Connection& db);

// Index size, for reports: entries and bytes of chunk data.
struct IndexStats {
  std::uint64_t entries = 0, bytes = 0, segments = 0;
};
IndexStats position_index_stats(Connection& db);

}  // namespace qipu::db
