#include "qipu/db/position_index.hpp"

#include <algorithm>
#include <memory>

#include "qipu/board/position.hpp"
#include "qipu/db/codec.hpp"

namespace qipu::db {

namespace {

constexpr std::size_t ChunkEntries = 256;

using Entry = PositionIndexWriter::Entry;

// Chunk layout, per entry: key delta from the previous entry (the chunk's first key
// for the first); then the game id, as a delta from the previous entry's when the key
// repeats, else whole; then the ply.
std::string encode_chunk(const Entry* begin, const Entry* end) {
  std::string out;
  std::uint64_t prev_key = begin->key;
  std::int64_t prev_game = -1;
  for (const Entry* e = begin; e != end; ++e) {
    std::uint64_t delta = e->key - prev_key;
    put_varint(out, delta);
    bool same_key = delta == 0 && prev_game >= 0;
    put_varint(out, std::uint64_t(same_key ? e->game - prev_game : e->game));
    put_varint(out, std::uint64_t(e->ply));
    prev_key = e->key;
    prev_game = e->game;
  }
  return out;
}

template <class F>
bool decode_chunk(std::uint64_t first_key, std::string_view data, F&& f) {
  std::uint64_t key = first_key, delta, game_field, ply;
  std::int64_t prev_game = -1;
  while (!data.empty()) {
    if (!get_varint(data, delta) || !get_varint(data, game_field) || !get_varint(data, ply)) return false;
    key += delta;
    std::int64_t game =
        (delta == 0 && prev_game >= 0) ? prev_game + std::int64_t(game_field) : std::int64_t(game_field);
    if (!f(Entry{key, game, int(ply)})) return true;
    prev_game = game;
  }
  return true;
}

std::vector<std::int64_t> segment_ids(Connection& db) {
  std::vector<std::int64_t> ids;
  auto st = db.prepare("SELECT id FROM segment ORDER BY id");
  while (st.step()) ids.push_back(st.int64(0));
  return ids;
}

// Writes entries in sorted order as chunks of one new segment, as they come.
class SegmentWriter {
 public:
  explicit SegmentWriter(Connection& db)
      : db_(db), ins_(db.prepare("INSERT INTO posting(segment, first_key, last_key, data) VALUES (?, ?, ?, ?)")) {
    db.prepare("INSERT INTO segment(entries) VALUES (0)").run();
    id_ = db.last_insert_id();
  }
  void add(const Entry& e) {
    chunk_.push_back(e);
    if (chunk_.size() == ChunkEntries) flush();
  }
  void finish() {
    flush();
    db_.prepare("UPDATE segment SET entries = ? WHERE id = ?").bind(1, std::int64_t(count_)).bind(2, id_).run();
  }

 private:
  void flush() {
    if (chunk_.empty()) return;
    std::string data = encode_chunk(chunk_.data(), chunk_.data() + chunk_.size());
    ins_.bind(1, id_).bind(2, std::int64_t(chunk_.front().key)).bind(3, std::int64_t(chunk_.back().key));
    ins_.bind_blob(4, data.data(), data.size()).run();
    count_ += chunk_.size();
    chunk_.clear();
  }
  Connection& db_;
  Statement ins_;
  std::int64_t id_;
  std::uint64_t count_ = 0;
  std::vector<Entry> chunk_;
};

// Reads one segment's entries in order, a chunk at a time.
class SegmentCursor {
 public:
  SegmentCursor(Connection& db, std::int64_t segment)
      : st_(db.prepare("SELECT first_key, data FROM posting WHERE segment = ? ORDER BY last_key, id")) {
    st_.bind(1, segment);
    advance();
  }
  [[nodiscard]] bool done() const { return at_ >= chunk_.size(); }
  [[nodiscard]] const Entry& current() const { return chunk_[at_]; }
  void advance() {
    if (++at_ < chunk_.size()) return;
    chunk_.clear();
    at_ = 0;
    if (!st_.step()) return;
    decode_chunk(std::uint64_t(st_.int64(0)), st_.blob(1), [&](const Entry& e) {
      chunk_.push_back(e);
      return true;
    });
  }

 private:
  Statement st_;
  std::vector<Entry> chunk_;
  std::size_t at_ = std::size_t(-1);
};

// Stable LSD radix sort on the 48-bit key: entries arrive in game and ply order, so
// the result is ordered by (key, game, ply) without comparing games.
void sort_by_key(std::vector<Entry>& v) {
  std::vector<Entry> tmp(v.size());
  for (int shift = 0; shift < 48; shift += 12) {
    std::vector<std::size_t> count(4097, 0);
    for (const auto& e : v) ++count[((e.key >> shift) & 4095) + 1];
    for (std::size_t i = 1; i < count.size(); ++i) count[i] += count[i - 1];
    for (const auto& e : v) tmp[count[(e.key >> shift) & 4095]++] = e;
    v.swap(tmp);
  }
}

}  // namespace

void PositionIndexWriter::write_segment(Connection& db, const std::vector<Entry>& sorted) {
  if (sorted.empty()) return;
  SegmentWriter w(db);
  for (const auto& e : sorted) w.add(e);
  w.finish();
}

void PositionIndexWriter::flush(Connection& db) {
  sort_by_key(entries_);
  write_segment(db, entries_);
  entries_.clear();
  entries_.shrink_to_fit();
}

// A k-way merge of the sorted segments, a chunk of each in memory at a time. Ties go
// to the older segment, whose games are older, so the (key, game) order holds.
void compact_position_index(Connection& db) {
  auto ids = segment_ids(db);
  if (ids.size() < 2) return;
  std::vector<std::unique_ptr<SegmentCursor>> cursors;
  for (auto id : ids) cursors.push_back(std::make_unique<SegmentCursor>(db, id));
  SegmentWriter out(db);
  for (;;) {
    SegmentCursor* best = nullptr;
    for (auto& c : cursors)
      if (!c->done() && (!best || c->current() < best->current())) best = c.get();
    if (!best) break;
    out.add(best->current());
    best->advance();
  }
  out.finish();
  cursors.clear();
  for (auto id : ids) {
    db.prepare("DELETE FROM posting WHERE segment = ?").bind(1, id).run();
    db.prepare("DELETE FROM segment WHERE id = ?").bind(1, id).run();
  }
}

std::vector<PositionHit> lookup_position(Connection& db, Key key) {
  std::uint64_t k = index_key(key);
  std::vector<PositionHit> hits;
  auto st = db.prepare("SELECT first_key, data FROM posting WHERE segment = ? AND last_key >= ? ORDER BY last_key, id");
  for (std::int64_t seg : segment_ids(db)) {
    st.bind(1, seg).bind(2, std::int64_t(k));
    while (st.step()) {
      auto first = std::uint64_t(st.int64(0));
      if (first > k) break;
      decode_chunk(first, st.blob(1), [&](const Entry& e) {
        if (e.key == k) hits.push_back({e.game, e.ply});
        return e.key <= k;
      });
    }
    st.reset();
  }
  std::sort(hits.begin(), hits.end(), [](const PositionHit& a, const PositionHit& b) {
    return a.game != b.game ? a.game < b.game : a.ply < b.ply;
  });
  return hits;
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
    decode_chunk(std::uint64_t(postings.int64(0)), postings.blob(1), [&](const Entry& e) {
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
  auto st = db.prepare(
      "SELECT (SELECT count(*) FROM segment), (SELECT coalesce(sum(entries),0) FROM segment), (SELECT "
      "coalesce(sum(length(data)),0) FROM posting)");
  if (st.step()) {
    s.segments = std::uint64_t(st.int64(0));
    s.entries = std::uint64_t(st.int64(1));
    s.bytes = std::uint64_t(st.int64(2));
  }
  return s;
}

}  // namespace qipu::db
