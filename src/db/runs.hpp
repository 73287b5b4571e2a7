// Sorted runs of entries, stored as chunks of a few hundred entries each: the storage under
// the position index (tables segment and posting) and the explorer's aggregate
// (explore_segment and explore_posting). A run is one row of the first table (id, entries);
// its chunks are rows of the second (segment, first_key, last_key, data), found by
// (segment, last_key). Where a third table is given, merges are done a part at a time,
// between batches (merge_by_size, advance). A Codec says what an entry is (a Writer calls
// sql_key and encode on a codec object, so that those two may be members rather than
// static):
//
//   using Entry = ...;
//   static constexpr std::size_t MinEntryBytes;       // the fewest bytes an encoded entry takes
//   static std::int64_t sql_key(const Entry&);        // the chunk's key columns; ordered as entries are
//   static const Entry* encode(const Entry* begin, const Entry* end, std::size_t bytes, std::string& out);
//                                                    // entries from begin (one at least) while
//                                                    // out stays within `bytes`; returns the stop
//   template <class F> static bool decode(std::int64_t first_key, std::string_view data, F&& f);
//                                                    // f(const Entry&) -> false to stop; false: damaged
//   static bool less(const Entry&, const Entry&);     // the run's order
//   static bool combine(Entry& into, const Entry& e); // merge e into `into` if they are one entry
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "qipu/db/position_index.hpp"
#include "qipu/db/sqlite.hpp"

namespace qipu::db::runs {

// A chunk's bytes at most in a database of pages of `page_size` bytes: a row of this size
// fills a page of the posting table alone (the chunk, at most 30 bytes of record, 13 of
// cell and 8 of page header) without spilling to an overflow page, which begins 35 bytes
// short of the page. Each row costs a B-tree insert, read and delete in every merge:
// chunks of half a page made twice the rows, and the 1 M-game step into 6 M took 37.3 s on
// average with them, 33.9 with a page each (bench_import.md, 2026-12-03); pages of 8 KB
// and chunks to match took the step into 2 M from 31.0 s to 29.1 (2026-12-05).
constexpr std::size_t chunk_bytes_for(std::size_t page_size) { return page_size - 96; }

// The chunks of tables that a lookup reads one key of (Tables::whole_pages false): the
// lookup decodes the chunk up to its key, and in 16 KB pages a player's search at 1 M
// games took 19.8 ms with chunks of a page, 18.0 with these (bench_import.md, 2026-12-05).
constexpr std::size_t LookupChunkBytes = chunk_bytes_for(4096);

// A codec's encode, the entries' own layout left to `put`: entries from `begin` on, until the
// chunk holds more than `bytes` (one entry at least). put(entry, previous entry or nullptr
// for the chunk's first, at) writes the entry at `at`, in at most `entry_bytes`, and returns
// where it ends. Returns the first entry left out.
template <class E, class Put>
const E* encode_chunk(const E* begin, const E* end, std::size_t bytes, std::string& out, std::size_t entry_bytes,
                      Put&& put) {
  out.resize(bytes + entry_bytes);
  char* p = out.data();
  const E* e = begin;
  for (; e != end; ++e) {
    char* q = put(*e, e == begin ? nullptr : e - 1, p);
    if (std::size_t(q - out.data()) > bytes && e != begin) break;
    p = q;
  }
  out.resize(std::size_t(p - out.data()));
  return e;
}

struct Tables {
  const char* segment;  // id, entries
  const char* posting;  // id, segment, first_key, last_key, data
  // Merges in progress (target, first_source, boundary, written): the runs first_source to
  // target - 1 are being merged into run `target`, whose entries column already holds their
  // sum. Entries whose sql_key is below `boundary` are in the target and no longer count in
  // the sources; `written` is how many the target holds. Without this table (nullptr) every
  // merge is done whole when it is due.
  const char* merge = nullptr;
  // Chunks fill a page, however large (the position index, most of an import's rows);
  // otherwise they stay within LookupChunkBytes.
  bool whole_pages = false;
  // Runs of a level above 0 merged at a time (runs_to_merge).
  std::uint64_t upper_fanout = MergeFanout;
};

// The chunk size of t's posting table in db.
inline std::size_t chunk_bytes(Connection& db, const Tables& t) {
  auto st = db.prepare("PRAGMA page_size");
  // SQLite's pages are 512 to 65,536 bytes: anything else is not its answer.
  std::int64_t page = st.step() ? st.int64(0) : 0;
  if (page < 512 || page > 65536) throw DbError("the database reports a page size of " + std::to_string(page));
  std::size_t whole = chunk_bytes_for(std::size_t(page));
  return t.whole_pages ? whole : std::min(whole, LookupChunkBytes);
}

// The boundary of a run no merge is reading: every entry counts.
constexpr std::int64_t WholeRun = INT64_MIN;
// Where merges are done in parts, new runs' ids are this far apart, so that a merge that
// comes due over runs older than the newest can give its target the id after its last
// source: runs are read in id order, which must stay the games' order.
constexpr std::int64_t RunIdGap = 1 << 16;

// Cuts entries, given in sorted order, into chunks of at most `bytes` (chunk_bytes) and
// hands each to `emit` (its first and last sql_key, its bytes and how many entries it
// holds). The codec is an object so that one may carry state (the position index's batch
// encodes game ids as offsets from the batch's first); codecs of static functions are
// called the same way.
template <class Codec>
class Chunker {
 public:
  using Entry = typename Codec::Entry;
  using Emit = std::function<void(std::int64_t first, std::int64_t last, const std::string& data, std::size_t n)>;
  Chunker(Codec codec, std::size_t bytes, Emit emit)
      : codec_(codec), bytes_(bytes), most_(bytes / Codec::MinEntryBytes + 1), emit_(std::move(emit)) {}
  void add(const Entry& e) {
    buffer_.push_back(e);
    if (buffer_.size() >= BufferedChunks * most_) write_buffer(false);
  }
  // Sorted entries that follow those added before: cut from the caller's array, not copied.
  void add(const Entry* begin, const Entry* end) {
    if (buffer_.empty()) begin = write_chunks(begin, end, false);
    buffer_.insert(buffer_.end(), begin, end);
    if (buffer_.size() >= BufferedChunks * most_) write_buffer(false);
  }
  void finish() { write_buffer(true); }

 private:
  // Entries are kept until a few chunks' worth can be written, so that moving the rest to
  // the front of the buffer is rare (moving it after every chunk copied most entries
  // about twice: a fifth of the main thread's copying in an import).
  static constexpr std::size_t BufferedChunks = 8;

  // Writes chunks from [begin, end), each the first entries that fit in bytes_, while more
  // are left than a chunk can hold (or, with `last`, to the end); returns the first entry
  // not written.
  const Entry* write_chunks(const Entry* begin, const Entry* end, bool last) {
    while (begin != end && (last || std::size_t(end - begin) >= most_)) {
      const Entry* window = begin + std::min<std::size_t>(std::size_t(end - begin), most_);
      const Entry* stop = codec_.encode(begin, window, bytes_, data_);
      emit_(codec_.sql_key(*begin), codec_.sql_key(stop[-1]), data_, std::size_t(stop - begin));
      begin = stop;
    }
    return begin;
  }
  void write_buffer(bool last) {
    const Entry* rest = write_chunks(buffer_.data(), buffer_.data() + buffer_.size(), last);
    buffer_.erase(buffer_.begin(), buffer_.begin() + (rest - buffer_.data()));
  }

  Codec codec_;
  std::size_t bytes_;
  std::size_t most_;  // entries a chunk may hold
  Emit emit_;
  std::vector<Entry> buffer_;
  std::string data_;
};

// Writes entries in sorted order as chunks of one new run, as they come (or chunks another
// thread cut, with put).
template <class Codec>
class Writer {
 public:
  using Entry = typename Codec::Entry;
  Writer(Connection& db, Tables t, Codec codec = {}) : Writer(db, t, new_run(db, t), codec) { counts_run_ = true; }
  // Appends to run `id` (entries after its last), leaving its entries column to the caller.
  Writer(Connection& db, Tables t, std::int64_t id, Codec codec = {})
      : db_(db),
        t_(t),
        ins_(db.prepare(std::string("INSERT INTO ") + t.posting +
                        "(segment, first_key, last_key, data) VALUES (?, ?, ?, ?)")),
        bytes_(chunk_bytes(db, t)),
        chunks_(codec, bytes_,
                [this](std::int64_t first, std::int64_t last, const std::string& data, std::size_t n) {
                  put(first, last, data, n);
                }),
        id_(id) {}
  void add(const Entry& e) { chunks_.add(e); }
  void add(const Entry* begin, const Entry* end) { chunks_.add(begin, end); }
  // A chunk of n entries, cut by a Chunker of the same codec.
  void put(std::int64_t first, std::int64_t last, const std::string& data, std::size_t n) {
    ins_.bind(1, id_).bind(2, first).bind(3, last).bind_blob(4, data.data(), data.size()).run();
    count_ += n;
  }
  // Writes what is buffered; a new run's entries column gets its count.
  void finish() {
    chunks_.finish();
    if (!counts_run_) return;
    db_.prepare(std::string("UPDATE ") + t_.segment + " SET entries = ? WHERE id = ?")
        .bind(1, std::int64_t(count_))
        .bind(2, id_)
        .run();
  }
  [[nodiscard]] std::uint64_t count() const { return count_; }
  [[nodiscard]] std::size_t chunk_size() const { return bytes_; }

 private:
  static std::int64_t new_run(Connection& db, Tables t) {
    const std::int64_t gap = t.merge ? RunIdGap : 1;
    auto last = db.prepare(std::string("SELECT coalesce(max(id), 0) FROM ") + t.segment);
    std::int64_t id = last.step() ? last.int64(0) : 0;
    // Room for the new run and the targets that may follow it (one id each): a damaged
    // file's largest id made SQLite's sum a real number ("datatype mismatch").
    if (id > INT64_MAX - 2 * gap)
      throw DbError(std::string("the runs of ") + t.segment +
                    " have no ids left (a damaged file): import the games into a new database");
    db.prepare(std::string("INSERT INTO ") + t.segment + "(id, entries) VALUES (?, 0)").bind(1, id + gap).run();
    return id + gap;
  }

  Connection& db_;
  Tables t_;
  Statement ins_;
  std::size_t bytes_;
  Chunker<Codec> chunks_;
  std::int64_t id_;
  bool counts_run_ = false;
  std::uint64_t count_ = 0;
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

// A merge in progress (Tables::merge).
struct Merge {
  std::int64_t target, first_source, boundary;
  std::uint64_t written;
};

// True when t has a merge table and the database has it (one made before it has not).
inline bool merges_kept(Connection& db, Tables t) {
  return t.merge && db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?")
                        .bind(1, std::string_view(t.merge))
                        .step();
}

// The merges in progress; refuses a table whose merges overlap or lack their target, which
// merging on would lose entries from (a damaged file: qipu never writes one).
inline std::vector<Merge> merges(Connection& db, Tables t) {
  std::vector<Merge> out;
  if (!merges_kept(db, t)) return out;
  auto st = db.prepare(std::string("SELECT target, first_source, boundary, written, (SELECT count(*) FROM ") +
                       t.segment + " s WHERE s.id = m.target) FROM " + t.merge + " m ORDER BY target");
  while (st.step()) {
    Merge m{st.int64(0), st.int64(1), st.int64(2), std::uint64_t(st.int64(3))};
    if (st.int64(4) != 1 || m.first_source >= m.target || (!out.empty() && m.first_source <= out.back().target))
      throw DbError(std::string("the table ") + t.merge + " of merges in progress is damaged (merge into run " +
                    std::to_string(m.target) + "): import the games into a new database");
    out.push_back(m);
  }
  return out;
}

// The runs, oldest first, with their sizes and, for the sources of a merge in progress,
// the key below which their entries are in its target (WholeRun for the others).
struct Runs {
  std::vector<std::int64_t> ids;
  std::vector<std::uint64_t> sizes;
  std::vector<std::int64_t> from;
  std::vector<bool> source;  // of a merge in progress
};

inline Runs list(Connection& db, Tables t) {
  Runs r;
  std::string sql = std::string("SELECT s.id, s.entries, 0, 0 FROM ") + t.segment + " s ORDER BY s.id";
  if (merges_kept(db, t))
    sql = std::string("SELECT s.id, s.entries, m.target IS NOT NULL, coalesce(m.boundary, 0) FROM ") + t.segment +
          " s LEFT JOIN " + t.merge + " m ON s.id >= m.first_source AND s.id < m.target ORDER BY s.id";
  auto st = db.prepare(sql);
  while (st.step()) {
    if (!r.ids.empty() && r.ids.back() == st.int64(0)) continue;  // a damaged file's overlapping merges
    r.ids.push_back(st.int64(0));
    r.sizes.push_back(std::uint64_t(st.int64(1)));
    r.source.push_back(st.int64(2) != 0);
    r.from.push_back(r.source.back() ? st.int64(3) : WholeRun);
  }
  return r;
}

// The entries of one run, decoded a chunk at a time from the chunks it is given.
template <class Codec>
struct RunBuffer {
  std::deque<std::pair<std::int64_t, std::string>> chunks;  // first key, data: not decoded yet
  bool ended = false;                                       // no more chunks will come
  std::vector<typename Codec::Entry> entries;
  std::size_t at = 0;
};

// The CPU of a merge (decoding the runs' chunks, the k-way merge, encoding the merged
// run's) on a thread of its own, while the caller's thread reads the runs' chunks from the
// database and inserts the merged run's (the connection is not shared). Merges were a fifth
// of the importer's thread at 3 M games and grow with the database, while the import's
// workers, which wait for that thread, had half of their time idle (bench_import.md,
// 2026-12-02). Chunks are given in the order of their first keys, so that a run the merge
// waits for is never behind chunks that wait for room.
// The keys popular in a merge's output by `rule` (in sql_key order, found while merging; a
// merge done in parts ends its parts between keys, so none is counted in two).
struct PopularKeys {
  Popularity rule;
  std::vector<std::int64_t> keys;
};

template <class Codec>
class ParallelMerge {
 public:
  using Entry = typename Codec::Entry;
  using Chunk = std::tuple<std::int64_t, std::int64_t, std::string, std::size_t>;  // first, last, data, n
  // Merges the entries from sql_key `from` on into chunks of `bytes`; stops once `budget`
  // entries are cut and a key ends (boundary() then says where).
  // With `popular`, the keys popular in a merge of `merged` entries in all (its parts
  // together) are added to it (read it once take has returned false).
  ParallelMerge(std::size_t runs, std::int64_t from, std::size_t bytes, std::uint64_t budget,
                PopularKeys* popular = nullptr, std::uint64_t merged = 0)
      : runs_(runs),
        from_(from),
        bytes_(bytes),
        budget_(budget),
        popular_(popular),
        popular_at_(popular ? popular->rule.at(merged) : UINT64_MAX),
        thread_([this] { run(); }) {}
  ~ParallelMerge() {
    {
      std::lock_guard lock(mu_);
      stop_ = true;
    }
    chunks_.notify_one();
    thread_.join();
  }
  // The next chunk of run i. When the queue is full and the merge needs none of its chunks,
  // waits until the merge has decoded half of it, so that the two threads take turns by the
  // hundred chunks, not by the chunk: a wake-up for each chunk cost more than decoding it
  // (futexes and rescheduling interrupts). False once the merge has stopped: it needs no more.
  bool give(std::size_t i, std::int64_t first_key, std::string data) {
    std::unique_lock lock(mu_);
    if (queued_ >= MaxQueued) {
      giver_waits_ = true;
      room_.wait(lock, [&] { return queued_ <= MaxQueued / 2 || starved_ || stop_ || done_; });
      giver_waits_ = false;
    }
    if (done_) return false;
    runs_[i].chunks.emplace_back(first_key, std::move(data));
    ++queued_;
    if (waited_run_ == i) chunks_.notify_one();
    return true;
  }
  void end(std::size_t i) {
    std::lock_guard lock(mu_);
    runs_[i].ended = true;
    if (waited_run_ == i) chunks_.notify_one();
  }
  // Moves the merged chunks cut so far into `out`; false once the merge is over and all are taken.
  bool take(std::vector<Chunk>& out, bool wait) {
    std::unique_lock lock(mu_);
    if (wait) cut_.wait(lock, [&] { return !out_.empty() || done_; });
    if (error_) std::rethrow_exception(error_);
    for (auto& c : out_) out.push_back(std::move(c));
    out_.clear();
    return !(done_ && out.empty());
  }
  // Once take has returned false: the key the merge stopped before, or nothing at the runs' end.
  [[nodiscard]] std::optional<std::int64_t> boundary() const { return boundary_; }

 private:
  static constexpr std::size_t MaxQueued = 256;  // chunks given, not yet decoded: 1-2 MB

  // The current entry of run i, decoding its next chunk when needed; nullptr at its end.
  // A loop, not a call for each chunk that gives no entry: a damaged file's run of a
  // million empty chunks overflowed the thread's stack.
  const Entry* current(RunBuffer<Codec>& r) {
    while (r.at >= r.entries.size()) {
      std::pair<std::int64_t, std::string> chunk;
      {
        std::unique_lock lock(mu_);
        if (r.chunks.empty() && !r.ended) {
          starved_ = true;
          waited_run_ = std::size_t(&r - runs_.data());
          room_.notify_one();
          chunks_.wait(lock, [&] { return !r.chunks.empty() || r.ended || stop_; });
          waited_run_ = NoRun;
          starved_ = false;
        }
        if (r.chunks.empty()) return nullptr;
        chunk = std::move(r.chunks.front());
        r.chunks.pop_front();
        if (--queued_ <= MaxQueued / 2 && giver_waits_) room_.notify_one();
      }
      r.entries.clear();
      r.at = 0;
      if (!Codec::decode(chunk.first, chunk.second, [&](const Entry& e) {
            if (Codec::sql_key(e) >= from_) r.entries.push_back(e);
            return true;
          }))
        throw DbError(
            "a chunk of a run being merged does not decode (a damaged file): import the games into a new "
            "database");
    }
    return &r.entries[r.at];
  }

  // Not bounded: the caller's thread takes the cut chunks after each chunk it gives, and the
  // merge cuts no more than it was given.
  void emit(std::int64_t first, std::int64_t last, const std::string& data, std::size_t n) {
    std::lock_guard lock(mu_);
    out_.emplace_back(first, last, data, n);
    cut_.notify_one();
  }

  // The k-way merge: ties go to the older run; entries the codec combines become one.
  void run() {
    try {
      Chunker<Codec> out(Codec{}, bytes_, [this](std::int64_t f, std::int64_t l, const std::string& d, std::size_t n) {
        emit(f, l, d, n);
      });
      std::optional<Entry> pending;
      const std::size_t n = runs_.size();
      std::vector<const Entry*> heads(n + 1, nullptr);  // heads[n]: no run
      for (std::size_t i = 0; i < n; ++i) heads[i] = current(runs_[i]);
      // A winner tree: each node holds the run whose head comes first below it, so that
      // the next entry costs log2(n) comparisons, not n - 1 (a third of a merge's time).
      // The left child's runs are the older: a tie goes to it.
      std::size_t leaves = 1;
      while (leaves < n) leaves *= 2;
      std::vector<std::size_t> tree(2 * leaves, n);
      for (std::size_t i = 0; i < n; ++i) tree[leaves + i] = i;
      auto play = [&](std::size_t node) {
        std::size_t a = tree[2 * node], b = tree[2 * node + 1];
        tree[node] = !heads[a] || (heads[b] && Codec::less(*heads[b], *heads[a])) ? b : a;
      };
      for (std::size_t node = leaves - 1; node >= 1; --node) play(node);
      std::uint64_t cut = 0;
      for (;;) {
        std::size_t best = tree[1];
        if (!heads[best] || stop_) break;
        // At a key above the last one cut, so that the boundary always moves on: in a damaged
        // run whose keys go back it could stay where it was, and every part then wrote the
        // same entries into the target again, a merge that never ends.
        if (pending && cut >= budget_ && Codec::sql_key(*heads[best]) > Codec::sql_key(*pending)) {
          boundary_ = Codec::sql_key(*heads[best]);
          break;
        }
        if (!pending || !Codec::combine(*pending, *heads[best])) {
          if (pending) {
            out.add(*pending);
            ++cut;
            count(*pending);
          }
          pending = *heads[best];
        }
        auto& r = runs_[best];
        heads[best] = ++r.at < r.entries.size() ? &r.entries[r.at] : current(r);
        for (std::size_t node = (leaves + best) / 2; node >= 1; node /= 2) play(node);
      }
      if (pending && !stop_) {
        out.add(*pending);
        count(*pending);
        count_end();
      }
      if (!stop_) out.finish();
    } catch (...) {
      std::lock_guard lock(mu_);
      error_ = std::current_exception();
    }
    std::lock_guard lock(mu_);
    done_ = true;
    room_.notify_one();
    cut_.notify_one();
  }
  // Counts the entries of each key written, for popular_.
  void count(const Entry& e) {
    if (!popular_) return;
    if (counted_ > 0 && Codec::sql_key(e) == counted_key_) {
      ++counted_;
      return;
    }
    count_end();
    counted_key_ = Codec::sql_key(e);
    counted_ = 1;
  }
  void count_end() {
    if (popular_ && counted_ >= popular_at_) popular_->keys.push_back(counted_key_);
    counted_ = 0;
  }

  std::vector<RunBuffer<Codec>> runs_;
  const std::int64_t from_;
  const std::size_t bytes_;
  const std::uint64_t budget_;
  PopularKeys* const popular_;
  const std::uint64_t popular_at_;
  std::int64_t counted_key_ = 0;
  std::uint64_t counted_ = 0;
  std::optional<std::int64_t> boundary_;  // written by the merge thread before done_
  static constexpr std::size_t NoRun = SIZE_MAX;
  std::mutex mu_;
  // One for each thread's reason to wait, so that a thread wakes only when it can go on:
  // the giver for room, the merge for the run it waits on, the taker for cut chunks.
  std::condition_variable room_, chunks_, cut_;
  std::size_t queued_ = 0;
  std::size_t waited_run_ = NoRun;  // the run whose chunk the merge waits for
  bool starved_ = false, done_ = false, giver_waits_ = false;
  std::atomic<bool> stop_ = false;  // the caller gave up (an error): set under mu_, read without
  std::deque<Chunk> out_;
  std::exception_ptr error_;
  std::thread thread_;  // last: starts once the rest is made
};

// A k-way merge of the runs `ids` (oldest first) from sql_key `from` into `out`, a few
// chunks of each in memory at a time (ParallelMerge); entries the codec combines become one,
// ties go to the older run. Stops once about `budget` entries are written and a key ends:
// returns the key it stopped before, or nothing when it reached the runs' end.
template <class Codec>
std::optional<std::int64_t> merge_into(Connection& db, Tables t, const std::vector<std::int64_t>& ids,
                                       Writer<Codec>& out, std::int64_t from, std::uint64_t budget,
                                       PopularKeys* popular = nullptr, std::uint64_t merged = 0) {
  const std::size_t n = ids.size();
  std::vector<Statement> reads;
  for (auto id : ids) {
    reads.push_back(db.prepare(std::string("SELECT first_key, data FROM ") + t.posting +
                               " WHERE segment = ? AND last_key >= ? ORDER BY last_key, id"));
    reads.back().bind(1, id).bind(2, from);
  }
  ParallelMerge<Codec> merge(n, from, out.chunk_size(), budget, popular, merged);
  std::vector<typename ParallelMerge<Codec>::Chunk> cut;
  auto insert = [&](bool wait) {
    bool more = merge.take(cut, wait);
    for (auto& [first, last, data, count] : cut) out.put(first, last, data, count);
    cut.clear();
    return more;
  };
  // The runs' next chunks, given in the order of their first keys (ties: the older run).
  std::vector<bool> has(n);
  for (std::size_t i = 0; i < n; ++i)
    if (!(has[i] = reads[i].step())) merge.end(i);
  for (;;) {
    std::size_t next = n;
    for (std::size_t i = 0; i < n; ++i)
      if (has[i] && (next == n || reads[i].int64(0) < reads[next].int64(0))) next = i;
    if (next == n) break;
    auto data = reads[next].blob(1);
    if (!merge.give(next, reads[next].int64(0), std::string(data))) break;
    if (!(has[next] = reads[next].step())) merge.end(next);
    insert(false);
  }
  reads.clear();
  while (insert(true)) {}
  return merge.boundary();
}

inline void delete_runs(Connection& db, Tables t, const std::vector<std::int64_t>& ids) {
  auto del_postings = db.prepare(std::string("DELETE FROM ") + t.posting + " WHERE segment = ?");
  auto del_segment = db.prepare(std::string("DELETE FROM ") + t.segment + " WHERE id = ?");
  for (auto id : ids) {
    del_postings.bind(1, id).run();
    del_segment.bind(1, id).run();
  }
}

// The newest n runs merged into one new run, whole.
template <class Codec>
void merge_newest(Connection& db, Tables t, const Runs& r, std::size_t n, PopularKeys* popular = nullptr) {
  std::vector<std::int64_t> ids(r.ids.end() - std::ptrdiff_t(n), r.ids.end());
  std::uint64_t merged = 0;
  for (std::size_t i = r.sizes.size() - n; i < r.sizes.size(); ++i) merged += r.sizes[i];
  Writer<Codec> out(db, t);
  merge_into(db, t, ids, out, WholeRun, UINT64_MAX, popular, merged);
  out.finish();
  delete_runs(db, t, ids);
}

// Starts the merge of runs [first, last) of r into a new run with the id after the last
// (advance writes it). Its entries column says the size it will have, so that the size
// policy counts it at its level from the start.
inline void start_merge(Connection& db, Tables t, const Runs& r, std::size_t first, std::size_t last) {
  std::uint64_t total = 0;
  for (std::size_t i = first; i < last; ++i) total += r.sizes[i];
  std::int64_t target = r.ids[last - 1] + 1;
  db.prepare(std::string("INSERT INTO ") + t.segment + "(id, entries) VALUES (?, ?)")
      .bind(1, target)
      .bind(2, std::int64_t(total))
      .run();
  db.prepare(std::string("INSERT INTO ") + t.merge + "(target, first_source, boundary, written) VALUES (?, ?, ?, 0)")
      .bind(1, target)
      .bind(2, r.ids[first])
      .bind(3, WholeRun)
      .run();
}

// The runs as they will be once the merges in progress are done: their targets, which
// already count their sources' entries, without the sources.
inline Runs without_sources(const Runs& r) {
  Runs out;
  for (std::size_t i = 0; i < r.ids.size(); ++i) {
    if (r.source[i]) continue;
    out.ids.push_back(r.ids[i]);
    out.sizes.push_back(r.sizes[i]);
    out.from.push_back(r.from[i]);
    out.source.push_back(false);
  }
  return out;
}

// Writes about `budget` more entries of merge m; at the end of its sources, deletes them.
// Sources' chunks wholly below the new boundary go at once, so that the merge's pages are
// freed (and reused by the next batches) as it goes.
template <class Codec>
void advance(Connection& db, Tables t, const Merge& m, std::uint64_t budget, PopularKeys* popular = nullptr) {
  std::vector<std::int64_t> ids;
  auto st = db.prepare(std::string("SELECT id FROM ") + t.segment + " WHERE id >= ? AND id < ? ORDER BY id");
  st.bind(1, m.first_source).bind(2, m.target);
  while (st.step()) ids.push_back(st.int64(0));
  // The target's entries column says the merge's whole size (start_merge).
  auto size = db.prepare(std::string("SELECT entries FROM ") + t.segment + " WHERE id = ?");
  size.bind(1, m.target);
  std::uint64_t merged = size.step() ? std::uint64_t(std::max<std::int64_t>(size.int64(0), 0)) : 0;
  Writer<Codec> out(db, t, m.target);
  auto boundary = merge_into(db, t, ids, out, m.boundary, budget, popular, merged);
  out.finish();
  std::int64_t written = std::int64_t(m.written + out.count());
  if (!boundary) {
    delete_runs(db, t, ids);
    db.prepare(std::string("UPDATE ") + t.segment + " SET entries = ? WHERE id = ?")
        .bind(1, written)
        .bind(2, m.target)
        .run();
    db.prepare(std::string("DELETE FROM ") + t.merge + " WHERE target = ?").bind(1, m.target).run();
    return;
  }
  db.prepare(std::string("UPDATE ") + t.merge + " SET boundary = ?, written = ? WHERE target = ?")
      .bind(1, *boundary)
      .bind(2, written)
      .bind(3, m.target)
      .run();
  auto del = db.prepare(std::string("DELETE FROM ") + t.posting + " WHERE segment = ? AND last_key < ?");
  for (auto id : ids) del.bind(1, id).bind(2, *boundary).run();
}

// The runs [first, last) of r (the runs without merges' sources) that the size policy
// would merge were the runs after them not there, and that may be merged now: none is the
// target of a merge in progress, and the id after the last is free for the new target.
// The newest groups first. A merge that came due while its runs were being written
// (the eighth run of a level is a merge's target) is so started once they are.
inline std::optional<std::pair<std::size_t, std::size_t>> due_merge(Connection& db, Tables t, const Runs& r,
                                                                    std::uint64_t base) {
  auto in_progress = merges(db, t);
  auto id_taken = db.prepare(std::string("SELECT 1 FROM ") + t.segment + " WHERE id = ?");
  for (std::size_t last = r.ids.size(); last > 0; --last) {
    std::size_t n =
        runs_to_merge(std::vector<std::uint64_t>(r.sizes.begin(), r.sizes.begin() + last), base, t.upper_fanout);
    if (n == 0) continue;
    std::int64_t first_id = r.ids[last - n], last_id = r.ids[last - 1];
    if (last_id == INT64_MAX) continue;  // no id after it (a damaged file)
    if (std::any_of(in_progress.begin(), in_progress.end(),
                    [&](const Merge& m) { return m.target >= first_id && m.target <= last_id; }))
      continue;
    bool taken = id_taken.bind(1, last_id + 1).step();
    id_taken.reset();
    if (!taken) return std::pair(last - n, last);
  }
  return std::nullopt;
}

// Merges runs while runs_to_merge says so. With a merge table, a merge is started rather
// than done, and every merge in progress then writes `budget` entries more: the largest
// merge (860 M entries at 10.24 M games) spread over the batches that follow, not held by one
// (bench_import.md, "Merges a part at a time").
template <class Codec>
void merge_by_size(Connection& db, Tables t, std::uint64_t base, std::uint64_t budget = UINT64_MAX,
                   PopularKeys* popular = nullptr) {
  if (!merges_kept(db, t)) {
    for (;;) {
      auto r = list(db, t);
      std::size_t n = runs_to_merge(r.sizes, base, t.upper_fanout);
      if (n == 0) return;
      merge_newest<Codec>(db, t, r, n, popular);
    }
  }
  auto start_due = [&] {
    for (;;) {
      auto r = without_sources(list(db, t));
      auto due = due_merge(db, t, r, base);
      if (!due) return;
      start_merge(db, t, r, due->first, due->second);
    }
  };
  start_due();
  for (const auto& m : merges(db, t)) advance<Codec>(db, t, m, budget, popular);
  start_due();  // over the targets the advance finished
}

// The runs of level 0 merged into one.
template <class Codec>
void merge_small(Connection& db, Tables t, std::uint64_t base) {
  auto r = list(db, t);
  if (std::size_t n = small_runs(r.sizes, base); n > 1) merge_newest<Codec>(db, t, r, n);
}

// A read transaction, unless the connection is in one: a lookup's list of runs and its
// reads of their chunks must see one state of the database, or an import that commits a
// merge between them leaves runs unread (the merged run not listed, the ones it replaced
// gone). Ends (a rollback, as nothing was written) when destroyed.
class Snapshot {
 public:
  explicit Snapshot(Connection& db) {
    if (!db.in_transaction()) tx_.emplace(db, false);
  }

 private:
  std::optional<Transaction> tx_;
};

// Calls f(entry) for the entries of sql_key `key`, run by run, oldest first, while f
// returns true: a lookup of one key, reading in each run only the chunks that may hold it.
template <class Codec, class F>
void for_each_of_key(Connection& db, Tables t, std::int64_t key, F&& f) {
  Snapshot snapshot(db);
  auto st = db.prepare(std::string("SELECT first_key, data FROM ") + t.posting +
                       " WHERE segment = ? AND last_key >= ? ORDER BY last_key, id");
  auto r = list(db, t);
  bool stopped = false;
  for (std::size_t i = 0; i < r.ids.size() && !stopped; ++i) {
    if (key < r.from[i]) continue;  // below from, a merge in progress holds the run's entries
    st.bind(1, r.ids[i]).bind(2, key);
    bool past = false;  // the run's entries of the key are done
    while (!past && st.step() && st.int64(0) <= key) {
      if (!Codec::decode(st.int64(0), st.blob(1), [&](const typename Codec::Entry& e) {
            std::int64_t k = Codec::sql_key(e);
            if (k < key) return true;
            past = k > key || (stopped = !f(e));
            return !past;
          }))
        throw DbError(std::string("a chunk of run ") + std::to_string(r.ids[i]) + " in " + t.posting +
                      " does not decode (a damaged file): import the games into a new database");
    }
    st.reset();
  }
}

}  // namespace qipu::db::runs
