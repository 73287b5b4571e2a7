#include "qipu/db/position_index.hpp"

#include <algorithm>
#include <functional>
#include <string>
#include <memory>

#include "qipu/board/position.hpp"
#include "qipu/db/codec.hpp"
#include "index_codec.hpp"
#include "runs.hpp"

namespace qipu::db {

namespace {

using Entry = PositionIndexWriter::Entry;

// A batch's entries as the writer collects them, written as IndexCodec writes Entries.
struct BatchCodec {
  using Entry = PositionIndexWriter::Packed;
  static constexpr std::size_t MinEntryBytes = IndexCodec::MinEntryBytes;
  std::int64_t base;  // the batch's first game
  [[nodiscard]] std::int64_t sql_key(const Entry& e) const { return std::int64_t(e.key); }
  const Entry* encode(const Entry* begin, const Entry* end, std::size_t bytes, std::string& out) const {
    return encode_entries(begin, end, bytes, out, base);
  }
};

constexpr runs::Tables IndexTables{"segment", "posting", "segment_merge", true, IndexUpperFanout};

// The keys with at least `at` entries of sorted entries.
void add_popular(const std::vector<PositionIndexWriter::Packed>& entries, std::uint64_t at,
                 std::vector<std::uint64_t>& out) {
  for (std::size_t i = 0; i < entries.size();) {
    std::size_t j = i + 1;
    while (j < entries.size() && entries[j].key == entries[i].key) ++j;
    if (j - i >= at) out.push_back(entries[i].key);
    i = j;
  }
}

}  // namespace

void PositionIndexWriter::add_game(const std::vector<Key>& keys, std::int64_t game) {
  if (entries_.empty()) base_ = game;
  // Offsets from the batch's first game: one importer's ids follow each other.
  if (game < base_ || game - base_ > std::int64_t(UINT32_MAX))
    throw DbError("game id " + std::to_string(game) + " is out of the position index batch's range (from " +
                  std::to_string(base_) + ")");
  auto offset = std::uint32_t(game - base_);
  for (std::size_t ply = 0; ply < keys.size(); ++ply)
    entries_.push_back({index_key(keys[ply]), offset, std::uint32_t(ply)});
}

void PositionIndexWriter::flush(Connection& db, Popularity rule, std::vector<std::uint64_t>* popular) {
  if (entries_.empty()) return;
  // Games were added in id order and plies in order: sorted by key, then game, then ply.
  runs::sort_by_key(
      entries_, [](const Packed& e) { return e.key << 16; },
      [](const Packed& a, const Packed& b) {
        return a.key != b.key ? a.key < b.key : a.game != b.game ? a.game < b.game : a.ply < b.ply;
      });
  if (popular) add_popular(entries_, rule.at(entries_.size()), *popular);
  runs::Writer<BatchCodec> w(db, IndexTables, BatchCodec{base_});
  w.add(entries_.data(), entries_.data() + entries_.size());
  w.finish();
  entries_.clear();  // the memory is kept for the next batch, of about the same size
}

int run_level(std::uint64_t size, std::uint64_t base, std::uint64_t upper) {
  if (size < base * MergeFanout) return 0;
  // By division, so that no size (one read from a damaged file) overflows a product.
  int level = 1;
  for (std::uint64_t n = size / (base * MergeFanout); n >= upper; n /= upper) ++level;
  return level;
}

std::size_t runs_to_merge(const std::vector<std::uint64_t>& sizes, std::uint64_t base, std::uint64_t upper) {
  if (sizes.empty()) return 0;
  int level = run_level(sizes.back(), base, upper);
  std::size_t same = 0;
  while (same < sizes.size() && run_level(sizes[sizes.size() - 1 - same], base, upper) <= level) ++same;
  return same >= (level == 0 ? MergeFanout : upper) ? same : 0;
}

std::size_t small_runs(const std::vector<std::uint64_t>& sizes, std::uint64_t base) {
  std::size_t n = 0;
  while (n < sizes.size() && run_level(sizes[sizes.size() - 1 - n], base) == 0) ++n;
  return n;
}

void merge_position_index(Connection& db, std::uint64_t added, Popularity rule, std::vector<std::uint64_t>* popular) {
  runs::PopularKeys found{{rule.per, std::min(rule.min, MergeLeastPopular)}, {}};
  // A quarter more than the batch's own: a merge ends a little before the next of its level
  // is due (after as many entries again as it merges), so that one rarely waits for another.
  runs::merge_by_size<IndexCodec>(db, IndexTables, IndexRunBase, std::max(added + added / 4, IndexRunBase),
                                  popular ? &found : nullptr);
  if (popular)
    for (auto k : found.keys) popular->push_back(std::uint64_t(k));
}

std::vector<PositionHit> lookup_position(Connection& db, Key key) {
  std::uint64_t k = index_key(key);
  std::vector<PositionHit> hits;
  runs::for_each_of_key<IndexCodec>(db, IndexTables, std::int64_t(k), [&](const Entry& e) {
    hits.push_back({e.game, e.ply});
    return true;
  });
  std::sort(hits.begin(), hits.end(), [](const PositionHit& a, const PositionHit& b) {
    return a.game != b.game ? a.game < b.game : a.ply < b.ply;
  });
  return hits;
}

void for_each_hit(Connection& db, Key key, const std::function<bool(const PositionHit&)>& f) {
  std::uint64_t k = index_key(key);
  std::int64_t last = -1;
  runs::for_each_of_key<IndexCodec>(db, IndexTables, std::int64_t(k), [&](const Entry& e) {
    // Games get ever larger ids and merges join neighbouring runs, so runs hold consecutive
    // games, oldest first; a database that breaks this would make callers skip matches.
    if (e.game < last) throw DbError("the position index is not in game order: import the games into a new database");
    last = e.game;
    return f({e.game, e.ply});
  });
}

namespace {

bool has_unindexed_table(Connection& db) {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'unindexed'").step();
}

// Every game without a ply-0 entry, from one pass over the index and the game ids.
std::vector<IdRange> games_without_start_entry(Connection& db) {
  std::vector<std::int64_t> indexed;
  auto postings = db.prepare("SELECT first_key, data FROM posting");
  while (postings.step())
    IndexCodec::decode(postings.int64(0), postings.blob(1), [&](const Entry& e) {
      if (e.ply == 0) indexed.push_back(e.game);
      return true;
    });
  std::sort(indexed.begin(), indexed.end());
  std::vector<IdRange> out;
  auto ids = db.prepare("SELECT id FROM game ORDER BY id");
  while (ids.step()) {
    std::int64_t id = ids.int64(0);
    if (std::binary_search(indexed.begin(), indexed.end(), id)) continue;
    if (!out.empty() && out.back().last == id - 1)
      out.back().last = id;
    else
      out.push_back({id, id});
  }
  return out;
}

// True when every game has a ply-0 entry under the standard start: the usual database,
// made without --no-position-index and without set-up games. Reads one posting list.
bool every_game_indexed_from_start(Connection& db) {
  std::int64_t at_start = 0;
  for (const auto& hit : lookup_position(db, Position().key())) at_start += hit.ply == 0;
  auto games = db.prepare("SELECT count(*) FROM game");
  return games.step() && games.int64(0) == at_start;
}

}  // namespace

std::vector<IdRange> unindexed_games(Connection& db) {
  // A database made before the table is read whole only when a cheap count cannot
  // vouch for it; the next import adds the table (add_unindexed_table).
  if (!has_unindexed_table(db))
    return every_game_indexed_from_start(db) ? std::vector<IdRange>() : games_without_start_entry(db);
  std::vector<IdRange> out;
  auto st = db.prepare("SELECT first_game, last_game FROM unindexed ORDER BY first_game");
  while (st.step()) out.push_back({st.int64(0), st.int64(1)});
  return out;
}

void add_unindexed_table(Connection& db) {
  if (has_unindexed_table(db)) return;
  auto ranges = games_without_start_entry(db);
  db.exec("CREATE TABLE unindexed (first_game INTEGER NOT NULL, last_game INTEGER NOT NULL)");
  auto ins = db.prepare("INSERT INTO unindexed(first_game, last_game) VALUES (?, ?)");
  for (const auto& r : ranges) ins.bind(1, r.first).bind(2, r.last).run();
}

IndexStats position_index_stats(Connection& db) {
  IndexStats s;
  runs::Snapshot snapshot(db);
  auto r = runs::list(db, IndexTables);
  s.segments = r.ids.size();
  // A merge's target counts the entries its sources still hold.
  for (std::size_t i = 0; i < r.ids.size(); ++i)
    if (!r.source[i]) s.entries += r.sizes[i];
  auto st = db.prepare("SELECT coalesce(sum(length(data)), 0) FROM posting");
  if (st.step()) s.bytes = std::uint64_t(st.int64(0));
  return s;
}

}  // namespace qipu::db
