// Sorted runs of entries, stored as chunks of a few hundred entries each: the storage under
// the position index (tables segment and posting) and the explorer's aggregate
// (explore_segment and explore_posting). A run is one row of the first table (id, entries);
// its chunks are rows of the second (segment, first_key, last_key, data), found by
// (segment, last_key). A Codec says what an entry is (a Writer calls sql_key and encode on
// a codec object, so that those two may be members rather than static):
//
//   using Entry = ...;
//   static constexpr std::size_t ChunkEntries;        // at most, in one chunk
//   static std::int64_t sql_key(const Entry&);        // the chunk's key columns; ordered as entries are
//   static const Entry* encode(const Entry* begin, const Entry* end, std::string& out);
//                                                    // entries from begin (one at least) while
//                                                    // out stays within ChunkBytes; returns the stop
//   template <class F> static bool decode(std::int64_t first_key, std::string_view data, F&& f);
//                                                    // f(const Entry&) -> false to stop; false: damaged
//   static bool less(const Entry&, const Entry&);     // the run's order
//   static bool combine(Entry& into, const Entry& e); // merge e into `into` if they are one entry
#pragma once

#include <algorithm>
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "qipu/db/position_index.hpp"
#include "qipu/db/sqlite.hpp"

namespace qipu::db::runs {

// A chunk's bytes at most. Two rows of this size fill a 4,096-byte page of the posting
// table (a row is the chunk and about 32 bytes); rows of a fixed number of entries were
// about 1,850 bytes, so that many pages held one row and a quarter of the index's pages
// were empty (bench_import.md, 2026-12-01).
constexpr std::size_t ChunkBytes = 1984;

struct Tables {
  const char* segment;  // id, entries
  const char* posting;  // id, segment, first_key, last_key, data
};

// Writes entries in sorted order as chunks of one new run, as they come. The codec is an
// object so that one may carry state (the position index's batch encodes game ids as
// offsets from the batch's first); codecs of static functions are called the same way.
template <class Codec>
class Writer {
 public:
  using Entry = typename Codec::Entry;
  Writer(Connection& db, Tables t, Codec codec = {})
      : db_(db),
        t_(t),
        codec_(codec),
        ins_(db.prepare(std::string("INSERT INTO ") + t.posting +
                        "(segment, first_key, last_key, data) VALUES (?, ?, ?, ?)")) {
    db.prepare(std::string("INSERT INTO ") + t.segment + "(entries) VALUES (0)").run();
    id_ = db.last_insert_id();
  }
  void add(const Entry& e) {
    buffer_.push_back(e);
    if (buffer_.size() >= BufferedChunks * Codec::ChunkEntries) write_buffer(false);
  }
  // Sorted entries that follow those added before: written from the caller's array, not copied.
  void add(const Entry* begin, const Entry* end) {
    if (buffer_.empty()) begin = write_chunks(begin, end, false);
    buffer_.insert(buffer_.end(), begin, end);
    if (buffer_.size() >= BufferedChunks * Codec::ChunkEntries) write_buffer(false);
  }
  void finish() {
    write_buffer(true);
    db_.prepare(std::string("UPDATE ") + t_.segment + " SET entries = ? WHERE id = ?")
        .bind(1, std::int64_t(count_))
        .bind(2, id_)
        .run();
  }

 private:
  // Entries are kept until a few chunks' worth can be written, so that moving the rest to
  // the front of the buffer is rare (moving it after every chunk copied most entries
  // about twice: a fifth of the main thread's copying in an import).
  static constexpr std::size_t BufferedChunks = 8;

  // Writes chunks from [begin, end), each the first entries of the next ChunkEntries that
  // fit in ChunkBytes, while ChunkEntries are left (or, with `last`, to the end); returns
  // the first entry not written.
  const Entry* write_chunks(const Entry* begin, const Entry* end, bool last) {
    while (begin != end && (last || std::size_t(end - begin) >= Codec::ChunkEntries)) {
      const Entry* window = begin + std::min<std::size_t>(std::size_t(end - begin), Codec::ChunkEntries);
      const Entry* stop = codec_.encode(begin, window, data_);
      ins_.bind(1, id_).bind(2, codec_.sql_key(*begin)).bind(3, codec_.sql_key(stop[-1]));
      ins_.bind_blob(4, data_.data(), data_.size()).run();
      count_ += std::size_t(stop - begin);
      begin = stop;
    }
    return begin;
  }
  void write_buffer(bool last) {
    const Entry* rest = write_chunks(buffer_.data(), buffer_.data() + buffer_.size(), last);
    buffer_.erase(buffer_.begin(), buffer_.begin() + (rest - buffer_.data()));
  }

  Connection& db_;
  Tables t_;
  Codec codec_;
  Statement ins_;
  std::int64_t id_;
  std::uint64_t count_ = 0;
  std::vector<Entry> buffer_;
  std::string data_;
};

namespace detail {

// Moves [from, to) into `out` by the byte of key(e) at `shift`, keeping their order;
// `bounds` gets where each of the 256 buckets starts in `out`, and its end.
template <class T, class KeyOf>
void spread(const T* from, const T* to, T* out, int shift, KeyOf& key, std::array<std::size_t, 257>& bounds) {
  bounds.fill(0);
  for (const T* e = from; e != to; ++e) ++bounds[((key(*e) >> shift) & 255) + 1];
  for (std::size_t b = 1; b < bounds.size(); ++b) bounds[b] += bounds[b - 1];
  std::array<std::size_t, 256> next;
  std::copy(bounds.begin(), bounds.end() - 1, next.begin());
  for (const T* e = from; e != to; ++e) out[next[(key(*e) >> shift) & 255]++] = *e;
}

}  // namespace detail

// Sorts a batch's entries by `less`, a strict total order whose first criterion is
// `key(e)`, 64 bits spread evenly as Zobrist keys are. Two radix passes on the key's top
// two bytes, the second within buckets small enough for the cache, leave buckets of a few
// dozen entries (but for a popular position's), each then sorted by `less`. The LSD radix
// sorts this replaced passed four times over the whole batch (most of the main thread's
// cache misses in an import); an in-place pass was slower still, each move waiting for
// the miss of the one before.
template <class T, class KeyOf, class Less>
void sort_by_key(std::vector<T>& v, KeyOf key, Less less) {
  if (v.size() < 512) {
    std::sort(v.begin(), v.end(), less);
    return;
  }
  std::vector<T> scratch(v.size());
  std::array<std::size_t, 257> top, sub;
  detail::spread(v.data(), v.data() + v.size(), scratch.data(), 56, key, top);
  for (std::size_t b = 0; b < 256; ++b) {
    T* out = v.data() + top[b];
    detail::spread(scratch.data() + top[b], scratch.data() + top[b + 1], out, 48, key, sub);
    for (std::size_t c = 0; c < 256; ++c)
      if (sub[c + 1] - sub[c] > 1) std::sort(out + sub[c], out + sub[c + 1], less);
  }
}

// Reads one run's entries in order, a chunk at a time.
template <class Codec>
class Cursor {
 public:
  using Entry = typename Codec::Entry;
  Cursor(Connection& db, Tables t, std::int64_t segment)
      : st_(db.prepare(std::string("SELECT first_key, data FROM ") + t.posting +
                       " WHERE segment = ? ORDER BY last_key, id")) {
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
    Codec::decode(st_.int64(0), st_.blob(1), [&](const Entry& e) {
      chunk_.push_back(e);
      return true;
    });
  }

 private:
  Statement st_;
  std::vector<Entry> chunk_;
  std::size_t at_ = std::size_t(-1);
};

struct Runs {
  std::vector<std::int64_t> ids;
  std::vector<std::uint64_t> sizes;
};

inline Runs list(Connection& db, Tables t) {
  Runs r;
  auto st = db.prepare(std::string("SELECT id, entries FROM ") + t.segment + " ORDER BY id");
  while (st.step()) {
    r.ids.push_back(st.int64(0));
    r.sizes.push_back(std::uint64_t(st.int64(1)));
  }
  return r;
}

// A k-way merge of the newest n runs (oldest first) into one new run, a chunk of each in
// memory at a time; entries the codec combines become one. Ties go to the older run.
template <class Codec>
void merge_newest(Connection& db, Tables t, const Runs& r, std::size_t n) {
  using Entry = typename Codec::Entry;
  std::vector<std::int64_t> ids(r.ids.end() - std::ptrdiff_t(n), r.ids.end());
  std::vector<std::unique_ptr<Cursor<Codec>>> cursors;
  for (auto id : ids) cursors.push_back(std::make_unique<Cursor<Codec>>(db, t, id));
  Writer<Codec> out(db, t);
  std::optional<Entry> pending;
  for (;;) {
    Cursor<Codec>* best = nullptr;
    for (auto& c : cursors)
      if (!c->done() && (!best || Codec::less(c->current(), best->current()))) best = c.get();
    if (!best) break;
    if (!pending || !Codec::combine(*pending, best->current())) {
      if (pending) out.add(*pending);
      pending = best->current();
    }
    best->advance();
  }
  if (pending) out.add(*pending);
  out.finish();
  cursors.clear();
  auto del_postings = db.prepare(std::string("DELETE FROM ") + t.posting + " WHERE segment = ?");
  auto del_segment = db.prepare(std::string("DELETE FROM ") + t.segment + " WHERE id = ?");
  for (auto id : ids) {
    del_postings.bind(1, id).run();
    del_segment.bind(1, id).run();
  }
}

// Merges runs while runs_to_merge says so.
template <class Codec>
void merge_by_size(Connection& db, Tables t, std::uint64_t base) {
  for (;;) {
    auto r = list(db, t);
    std::size_t n = runs_to_merge(r.sizes, base);
    if (n == 0) return;
    merge_newest<Codec>(db, t, r, n);
  }
}

// The runs of level 0 merged into one.
template <class Codec>
void merge_small(Connection& db, Tables t, std::uint64_t base) {
  auto r = list(db, t);
  if (std::size_t n = small_runs(r.sizes, base); n > 1) merge_newest<Codec>(db, t, r, n);
}

// Calls f(entry) for the entries of every run from the first chunk that may hold `key`
// (sql_key order) while f returns true, run by run, oldest first.
template <class Codec, class F>
void for_each_from(Connection& db, Tables t, std::int64_t key, F&& f) {
  auto st = db.prepare(std::string("SELECT first_key, data FROM ") + t.posting +
                       " WHERE segment = ? AND last_key >= ? ORDER BY last_key, id");
  for (std::int64_t run : list(db, t).ids) {
    st.bind(1, run).bind(2, key);
    bool more = true;
    while (more && st.step()) {
      if (st.int64(0) > key) break;
      Codec::decode(st.int64(0), st.blob(1), [&](const typename Codec::Entry& e) { return more = f(e); });
    }
    st.reset();
  }
}

}  // namespace qipu::db::runs
