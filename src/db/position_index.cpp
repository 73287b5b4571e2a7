#include "qipu/db/position_index.hpp"

#include <algorithm>

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
    std::int64_t game = (delta == 0 && prev_game >= 0) ? prev_game + std::int64_t(game_field) : std::int64_t(game_field);
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

}  // namespace

void PositionIndexWriter::write_segment(Connection& db, const std::vector<Entry>& sorted) {
  if (sorted.empty()) return;
  auto seg = db.prepare("INSERT INTO segment(entries) VALUES (?)");
  seg.bind(1, std::int64_t(sorted.size())).run();
  std::int64_t id = db.last_insert_id();
  auto ins = db.prepare("INSERT INTO posting(segment, first_key, last_key, data) VALUES (?, ?, ?, ?)");
  for (std::size_t i = 0; i < sorted.size(); i += ChunkEntries) {
    const Entry* b = sorted.data() + i;
    const Entry* e = sorted.data() + std::min(sorted.size(), i + ChunkEntries);
    std::string data = encode_chunk(b, e);
    ins.bind(1, id).bind(2, std::int64_t(b->key)).bind(3, std::int64_t((e - 1)->key));
    ins.bind_blob(4, data.data(), data.size()).run();
  }
}

void PositionIndexWriter::flush(Connection& db) {
  std::sort(entries_.begin(), entries_.end());
  write_segment(db, entries_);
  entries_.clear();
  entries_.shrink_to_fit();
}

void compact_position_index(Connection& db) {
  auto ids = segment_ids(db);
  if (ids.size() < 2) return;
  std::vector<Entry> all;
  auto st = db.prepare("SELECT first_key, data FROM posting ORDER BY segment, id");
  while (st.step())
    decode_chunk(std::uint64_t(st.int64(0)), st.blob(1), [&](const Entry& e) {
      all.push_back(e);
      return true;
    });
  std::sort(all.begin(), all.end());
  db.exec("DELETE FROM posting; DELETE FROM segment;");
  PositionIndexWriter::write_segment(db, all);
}

std::vector<PositionHit> lookup_position(Connection& db, Key key) {
  std::uint64_t k = index_key(key);
  std::vector<PositionHit> hits;
  auto st = db.prepare(
      "SELECT first_key, data FROM posting WHERE segment = ? AND last_key >= ? ORDER BY last_key, id");
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
  std::sort(hits.begin(), hits.end(), [](const PositionHit& a, const PositionHit& b) { return a.game != b.game ? a.game < b.game : a.ply < b.ply; });
  return hits;
}

IndexStats position_index_stats(Connection& db) {
  IndexStats s;
  auto st = db.prepare("SELECT (SELECT count(*) FROM segment), (SELECT coalesce(sum(entries),0) FROM segment), (SELECT coalesce(sum(length(data)),0) FROM posting)");
  if (st.step()) {
    s.segments = std::uint64_t(st.int64(0));
    s.entries = std::uint64_t(st.int64(1));
    s.bytes = std::uint64_t(st.int64(2));
  }
  return s;
}

}  // namespace qipu::db
