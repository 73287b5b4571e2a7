// Sorted runs of entries, stored as chunks of a few hundred entries each: the storage under
// the position index (tables segment and posting) and the explorer's aggregate
// (explore_segment and explore_posting). A run is one row of the first table (id, entries);
// its chunks are rows of the second (segment, first_key, last_key, data), found by
// (segment, last_key). A Codec says what an entry is:
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

// Writes entries in sorted order as chunks of one new run, as they come.
template <class Codec>
class Writer {
 public:
  using Entry = typename Codec::Entry;
  Writer(Connection& db, Tables t)
      : db_(db),
        t_(t),
        ins_(db.prepare(std::string("INSERT INTO ") + t.posting +
                        "(segment, first_key, last_key, data) VALUES (?, ?, ?, ?)")) {
    db.prepare(std::string("INSERT INTO ") + t.segment + "(entries) VALUES (0)").run();
    id_ = db.last_insert_id();
  }
  void add(const Entry& e) {
    chunk_.push_back(e);
    if (chunk_.size() == Codec::ChunkEntries) flush();
  }
  void finish() {
    while (!chunk_.empty()) flush();
    db_.prepare(std::string("UPDATE ") + t_.segment + " SET entries = ? WHERE id = ?")
        .bind(1, std::int64_t(count_))
        .bind(2, id_)
        .run();
  }

 private:
  // Writes the chunk's first entries that fit in ChunkBytes as one row; the rest wait.
  void flush() {
    const Entry* stop = Codec::encode(chunk_.data(), chunk_.data() + chunk_.size(), data_);
    auto n = std::size_t(stop - chunk_.data());
    ins_.bind(1, id_).bind(2, Codec::sql_key(chunk_.front())).bind(3, Codec::sql_key(stop[-1]));
    ins_.bind_blob(4, data_.data(), data_.size()).run();
    count_ += n;
    chunk_.erase(chunk_.begin(), chunk_.begin() + std::ptrdiff_t(n));
  }
  Connection& db_;
  Tables t_;
  Statement ins_;
  std::int64_t id_;
  std::uint64_t count_ = 0;
  std::vector<Entry> chunk_;
  std::string data_;
};

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

// Writes sorted entries as one new run.
template <class Codec>
void write(Connection& db, Tables t, const std::vector<typename Codec::Entry>& sorted) {
  if (sorted.empty()) return;
  Writer<Codec> w(db, t);
  for (const auto& e : sorted) w.add(e);
  w.finish();
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
