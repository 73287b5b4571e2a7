// Import at scale (issue 17, bench/bench_import.md 2026-12-02): the merge of sorted runs on a
// thread of its own (runs::ParallelMerge), the size policy's bounds, the WAL checkpointed by
// another connection while an import runs. Small
// inputs and small batches, so that these run in seconds; no timings.
#include <catch2/catch.hpp>

#include "cli_util.hpp"
#include "import_util.hpp"

#include <map>
#include <random>
#include <set>

#include "db/index_codec.hpp"
#include "db/runs.hpp"
#include "merge_policy.hpp"
#include "qipu/board/position.hpp"
#include "qipu/db/codec.hpp"
#include "qipu/db/position_index.hpp"
#include "qipu/db/store.hpp"
#include "qipu/game/criteria.hpp"
#include "qipu/game/pipeline.hpp"

// One namespace a file: the test files compile several to a unit (CMakeLists.txt).
namespace test_scale_merge {

using namespace qipu;
using namespace cli_test;

namespace {

// A run entry for the tests: a key and a count; entries of one key combine by adding their
// counts (as the explorer's aggregate combines rows of one position and move).
struct Counted {
  std::int64_t key;
  std::uint64_t count;
};

struct CountedCodec {
  using Entry = Counted;
  static constexpr std::size_t MinEntryBytes = 2;
  static std::int64_t sql_key(const Entry& e) { return e.key; }
  static bool less(const Entry& a, const Entry& b) { return a.key < b.key; }
  static bool combine(Entry& into, const Entry& e) {
    if (into.key != e.key) return false;
    into.count += e.count;
    return true;
  }
  static const Entry* encode(const Entry* begin, const Entry* end, std::size_t bytes, std::string& out) {
    return db::runs::encode_chunk(
        begin, end, bytes, out, 2 * db::MaxVarint, [](const Entry& e, const Entry* prev, char* q) {
          // Unsigned: a damaged run's keys may go back by more than an int64 holds.
          std::uint64_t delta = std::uint64_t(e.key) - std::uint64_t(prev ? prev->key : e.key);
          return db::put_varint(db::put_varint(q, delta), e.count);
        });
  }
  template <class F>
  static bool decode(std::int64_t first_key, std::string_view data, F&& f) {
    std::uint64_t key = std::uint64_t(first_key), delta, count;
    while (!data.empty()) {
      if (!db::get_varint(data, delta) || !db::get_varint(data, count)) return false;
      key += delta;
      if (!f(Counted{std::int64_t(key), count})) return true;
    }
    return true;
  }
};

constexpr db::runs::Tables TestTables{"tseg", "tpost"};
// The same runs, merged a part at a time.
constexpr db::runs::Tables PartTables{"tseg", "tpost", "tmerge"};

std::unique_ptr<db::Connection> test_tables(const std::string& name) {
  fs::path path = temp_dir("scale_merge") / (name + ".db");
  for (auto ext : {"", "-wal", "-shm"}) fs::remove(path.string() + ext);
  auto c = std::make_unique<db::Connection>(path.string(), db::Connection::Mode::ReadWrite);
  // As the importer writes runs, in transactions (write_run, check_merge_of_all), and without
  // waiting for the disk: a commit (and fsync) a chunk made these tests wait tens of seconds.
  c->exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = OFF");
  c->exec(
      "CREATE TABLE tseg (id INTEGER PRIMARY KEY, entries INTEGER NOT NULL);"
      "CREATE TABLE tpost (id INTEGER PRIMARY KEY, segment INTEGER NOT NULL, first_key INTEGER NOT NULL,"
      " last_key INTEGER NOT NULL, data BLOB NOT NULL);"
      "CREATE INDEX tpost_range ON tpost(segment, last_key);"
      "CREATE TABLE tmerge (target INTEGER PRIMARY KEY, first_source INTEGER NOT NULL, boundary INTEGER NOT NULL,"
      " written INTEGER NOT NULL);");
  return c;
}

// Writes one run of the given keys (sorted here), each with count 1.
void write_run(db::Connection& c, std::vector<std::int64_t> keys, db::runs::Tables tables = TestTables) {
  std::sort(keys.begin(), keys.end());
  c.exec("BEGIN");
  db::runs::Writer<CountedCodec> w(c, tables);
  for (auto k : keys) w.add(Counted{k, 1});
  w.finish();
  c.exec("COMMIT");
}

// Every entry of every run, in run order then key order, read straight from the chunks.
std::vector<std::vector<Counted>> read_runs(db::Connection& c) {
  std::vector<std::vector<Counted>> runs;
  for (auto id : db::runs::list(c, TestTables).ids) {
    runs.emplace_back();
    auto st = c.prepare("SELECT first_key, data FROM tpost WHERE segment = ? ORDER BY last_key, id");
    st.bind(1, id);
    while (st.step())
      REQUIRE(CountedCodec::decode(st.int64(0), st.blob(1), [&](const Counted& e) {
        runs.back().push_back(e);
        return true;
      }));
  }
  return runs;
}

// Merges all runs into one and checks it against the count of each key, made independently.
void check_merge_of_all(db::Connection& c, const std::map<std::int64_t, std::uint64_t>& expected) {
  auto r = db::runs::list(c, TestTables);
  c.exec("BEGIN");
  db::runs::merge_newest<CountedCodec>(c, TestTables, r, r.ids.size());
  c.exec("COMMIT");
  auto runs = read_runs(c);
  REQUIRE(runs.size() == 1);
  std::vector<std::pair<std::int64_t, std::uint64_t>> got;
  for (const auto& e : runs[0]) got.emplace_back(e.key, e.count);
  CHECK(got == std::vector<std::pair<std::int64_t, std::uint64_t>>(expected.begin(), expected.end()));
  auto entries = c.prepare("SELECT entries FROM tseg");
  REQUIRE(entries.step());
  CHECK(std::size_t(entries.int64(0)) == expected.size());
  CHECK(c.prepare("SELECT count(*) FROM tpost WHERE segment NOT IN (SELECT id FROM tseg)").step());
}

}  // namespace

TEST_CASE("a merge of a dense run with sparse ones waits for the sparse run's chunks without deadlock",
          "[scale_merge]") {
  // The dense run's 300,000 keys lie between the sparse run's first chunk and its second, so
  // the merge needs that second chunk while hundreds of dense chunks (more than the merge
  // queues) come before it in the order of first keys.
  auto c = test_tables("skewed");
  std::map<std::int64_t, std::uint64_t> expected;
  std::vector<std::int64_t> sparse, dense, middle;
  for (std::int64_t k = 0; k < 600; ++k) sparse.push_back(k < 512 ? k : 10'000'000 + k * 1'000'000);
  for (std::int64_t k = 0; k < 300'000; ++k) dense.push_back(1000 + 3 * k);
  for (std::int64_t k = 0; k < 5000; ++k) middle.push_back(1000 + 7 * k);  // keys shared with the dense run
  for (const auto* keys : {&sparse, &dense, &middle})
    for (auto k : *keys) ++expected[k];
  write_run(*c, sparse);
  write_run(*c, dense);
  write_run(*c, middle);
  check_merge_of_all(*c, expected);
}

TEST_CASE("merges of random runs give every key once, with the counts of all runs", "[scale_merge]") {
  auto c = test_tables("random");
  std::mt19937_64 rng(17);
  for (int round = 0; round < 12; ++round) {
    INFO("round " << round);
    c->exec("DELETE FROM tpost; DELETE FROM tseg;");
    std::map<std::int64_t, std::uint64_t> expected;
    std::size_t runs = 2 + rng() % 11;
    for (std::size_t r = 0; r < runs; ++r) {
      // Runs of very different sizes and key spreads, some empty.
      std::size_t n = rng() % 4 == 0 ? 0 : rng() % (r % 2 ? 40'000 : 700);
      std::int64_t spread = std::int64_t(1) << (8 + rng() % 40);
      std::vector<std::int64_t> keys;
      for (std::size_t i = 0; i < n; ++i) keys.push_back(std::int64_t(rng() % std::uint64_t(spread)));
      for (auto k : keys) ++expected[k];
      write_run(*c, keys);
    }
    check_merge_of_all(*c, expected);
  }
}

TEST_CASE("the size policy keeps fewer runs a level than the level merges at once", "[scale_merge]") {
  // Batches of about one level-0 run each, and some small ones (an import's last batch):
  // 5000 of them reach level 2 (a merge of 64 level-1 runs of eight batches each).
  std::vector<std::uint64_t> sizes;
  std::uint64_t total = 0;
  std::mt19937_64 rng(3);
  int highest = 0;
  for (int batch = 0; batch < 5000; ++batch) {
    std::uint64_t n = batch % 7 == 0 ? 1 + rng() % 1000 : db::IndexRunBase / 2 + rng() % db::IndexRunBase;
    merge_test::add_run(sizes, n);
    total += n;
    std::map<int, std::size_t> per_level;
    for (auto s : sizes) ++per_level[db::run_level(s, db::IndexRunBase, db::IndexUpperFanout)];
    for (auto [level, runs] : per_level) {
      INFO("batch " << batch << ", level " << level);
      REQUIRE(runs < (level == 0 ? db::MergeFanout : db::IndexUpperFanout));
      highest = std::max(highest, level);
    }
  }
  CHECK(highest == 2);
  std::uint64_t sum = 0;
  for (auto s : sizes) sum += s;
  CHECK(sum == total);
  // A lookup reads every run: fewer than a level's fanout a level, three levels.
  CHECK(sizes.size() < db::MergeFanout + 2 * db::IndexUpperFanout);
}

namespace {

using import_test::number;

}  // namespace

TEST_CASE("the WAL stays bounded while an import commits many batches, and a killed one keeps its batches",
          "[scale_merge]") {
  auto games = import_test::world_championships();
  fs::path path = temp_dir("scale_merge") / "wal.db";
  for (auto ext : {"", "-wal", "-shm"}) fs::remove(path.string() + ext);
  auto c = db::open_database(path.string(), db::Connection::Mode::ReadWrite);
  db::ImportOptions o;
  o.batch_games = 20;
  o.allow_duplicates = true;
  std::uintmax_t largest_wal = 0;
  {
    db::Importer imp(*c, o);
    // 50 batches; the WAL is measured after each commit.
    for (std::size_t i = 0; i < 1000; ++i) {
      imp.add("test", games[i], *db::encode_game(games[i]));
      if ((i + 1) % 20 == 0) largest_wal = std::max(largest_wal, fs::file_size(path.string() + "-wal"));
    }
    // Destroyed without finish, as by a kill: the 50 committed batches stay, nothing else.
  }
  db::Connection other(path.string(), db::Connection::Mode::ReadOnly);
  CHECK(number(other, "SELECT count(*) FROM game") == 1000);
  CHECK(db::lookup_position(other, Position().key()).size() == 1000);
  // The WAL went back to its start while the import ran (every few batches): holding every
  // batch's pages it grew to about six times the database (10.7 MB against 1.7).
  std::uintmax_t file = fs::file_size(path);
  INFO("largest WAL " << largest_wal << " bytes, database " << file);
  CHECK(largest_wal < 2 * file);
  // The importer's connection checkpoints by itself again, as SQLite does by default.
  CHECK(number(*c, "PRAGMA wal_autocheckpoint") == 1000);
}

namespace {

// Games [first, last) imported into c by one Importer.
void import_games(db::Connection& c, const std::vector<game::GameRecord>& games, std::size_t first, std::size_t last,
                  const db::ImportOptions& o) {
  db::Importer imp(c, o);
  for (std::size_t g = first; g < last; ++g) imp.add("test", games[g], *db::encode_game(games[g]));
  imp.finish();
}

// The count of `key` in the runs as a lookup reads them (runs::for_each_of_key).
std::uint64_t count_of_key(db::Connection& c, std::int64_t key) {
  std::uint64_t n = 0;
  db::runs::for_each_of_key<CountedCodec>(c, PartTables, key, [&](const Counted& e) {
    n += e.count;
    return true;
  });
  return n;
}

std::int64_t merges_in_progress(db::Connection& c) { return import_test::number(c, "SELECT count(*) FROM tmerge"); }

}  // namespace

TEST_CASE("merges done a part at a time give what whole merges give, and lookups meanwhile find every entry once",
          "[scale_merge]") {
  auto c = test_tables("parts");
  std::mt19937_64 rng(5);
  std::map<std::int64_t, std::uint64_t> expected;
  // Eight runs of level 0 (a merge is due), of different sizes and spreads, with keys shared.
  for (int r = 0; r < 8; ++r) {
    std::vector<std::int64_t> keys;
    std::size_t n = 2000 + rng() % 6000;
    std::int64_t spread = std::int64_t(1) << (14 + r % 3 * 4);
    for (std::size_t i = 0; i < n; ++i) keys.push_back(std::int64_t(rng() % std::uint64_t(spread)));
    for (auto k : keys) ++expected[k];
    write_run(*c, keys, PartTables);
  }
  std::int64_t chunks_before = import_test::number(*c, "SELECT count(*) FROM tpost");
  std::vector<std::int64_t> probes;
  for (const auto& [k, n] : expected) probes.push_back(k);
  probes.push_back(-1);
  probes.push_back(std::int64_t(1) << 30);  // absent keys, around the others

  int steps = 0;
  do {
    INFO("step " << steps);
    c->exec("BEGIN");
    db::runs::merge_by_size<CountedCodec>(*c, PartTables, db::IndexRunBase, 700);
    c->exec("COMMIT");
    ++steps;
    for (std::size_t i = steps % 97; i < probes.size(); i += 97) {
      auto it = expected.find(probes[i]);
      INFO("key " << probes[i]);
      REQUIRE(count_of_key(*c, probes[i]) == (it == expected.end() ? 0 : it->second));
    }
    // Sources' chunks below the boundary are gone as the merge goes: the runs hold about
    // their entries once, not twice.
    CHECK(import_test::number(*c, "SELECT count(*) FROM tpost") <= chunks_before + steps + 8);
    // The state is in the database alone: a new connection goes on from it.
    if (steps % 5 == 0) c = std::make_unique<db::Connection>(c->path(), db::Connection::Mode::ReadWrite);
  } while (merges_in_progress(*c) > 0 && steps < 1000);
  CHECK(steps > 20);  // the merge was done in parts
  CHECK(merges_in_progress(*c) == 0);
  auto runs = read_runs(*c);
  REQUIRE(runs.size() == 1);
  std::vector<std::pair<std::int64_t, std::uint64_t>> got;
  for (const auto& e : runs[0]) got.emplace_back(e.key, e.count);
  CHECK(got == std::vector<std::pair<std::int64_t, std::uint64_t>>(expected.begin(), expected.end()));
  CHECK(import_test::number(*c, "SELECT entries FROM tseg") == std::int64_t(expected.size()));
}

TEST_CASE("merges done in parts keep at most a level's fanout of runs a level, and reach the levels above",
          "[scale_merge]") {
  // Runs of 40 entries, level 0 below 8 * 8: 512 of them merged are a run of level 3 when
  // eight runs of a level merge, of level 2 when 64 above level 0 do (the position index).
  constexpr std::uint64_t Base = 8;
  auto upper = GENERATE(db::MergeFanout, db::IndexUpperFanout);
  INFO("runs above level 0 merged " << upper << " at a time");
  db::runs::Tables tables = PartTables;
  tables.upper_fanout = upper;
  auto c = test_tables("parts_levels");
  std::map<std::int64_t, std::uint64_t> expected;
  std::uint64_t largest = 0;
  std::set<std::uint64_t> sizes_seen;
  for (std::int64_t run = 0; run < 600; ++run) {
    std::vector<std::int64_t> keys;
    for (std::int64_t i = 0; i < 40; ++i) keys.push_back((run * 7919 + i * 104729) % 100'003);
    for (auto k : keys) ++expected[k];
    write_run(*c, keys, tables);
    c->exec("BEGIN");
    db::runs::merge_by_size<CountedCodec>(*c, tables, Base, 50);
    c->exec("COMMIT");
    // The runs as the policy sees them: targets at the size they will have, not their sources.
    auto r = db::runs::without_sources(db::runs::list(*c, tables));
    std::map<int, std::size_t> per_level;
    for (auto size : r.sizes) {
      ++per_level[db::run_level(size, Base, upper)];
      largest = std::max(largest, size);
      sizes_seen.insert(size);
    }
    for (auto [level, runs] : per_level) {
      INFO("after run " << run << ", level " << level);
      REQUIRE(runs <= (level == 0 ? db::MergeFanout : upper));  // the last while it is being merged into
    }
  }
  CHECK(largest >= 512 * 40);  // the merge of 512 runs began
  // Eight level-1 runs (of eight runs each) merged into one only where eight merge above level 0.
  CHECK(sizes_seen.count(64 * 40) == (upper == db::MergeFanout ? 1u : 0u));
  for (std::int64_t k : {std::int64_t(0), std::int64_t(7919), std::int64_t(50'000), std::int64_t(100'002)}) {
    auto it = expected.find(k);
    CHECK(count_of_key(*c, k) == (it == expected.end() ? 0 : it->second));
  }
}

TEST_CASE("a part of a merge that is rolled back leaves the runs as they were", "[scale_merge]") {
  auto c = test_tables("parts_rollback");
  std::map<std::int64_t, std::uint64_t> expected;
  for (int r = 0; r < 8; ++r) {
    std::vector<std::int64_t> keys;
    for (std::int64_t k = 0; k < 3000; ++k) keys.push_back(k * 8 + r % 3);
    for (auto k : keys) ++expected[k];
    write_run(*c, keys, PartTables);
  }
  c->exec("BEGIN");
  db::runs::merge_by_size<CountedCodec>(*c, PartTables, db::IndexRunBase, 1000);
  c->exec("COMMIT");
  REQUIRE(merges_in_progress(*c) == 1);
  auto boundary = import_test::number(*c, "SELECT boundary FROM tmerge");
  c->exec("BEGIN");
  db::runs::merge_by_size<CountedCodec>(*c, PartTables, db::IndexRunBase, 1000);
  CHECK(import_test::number(*c, "SELECT boundary FROM tmerge") > boundary);
  c->exec("ROLLBACK");  // as a killed import's last transaction
  CHECK(import_test::number(*c, "SELECT boundary FROM tmerge") == boundary);
  for (std::int64_t k : {std::int64_t(0), boundary - 8, boundary, boundary + 1, std::int64_t(23'999)}) {
    INFO("key " << k);
    auto it = expected.find(k);
    CHECK(count_of_key(*c, k) == (it == expected.end() ? 0 : it->second));
  }
  c->exec("BEGIN");
  db::runs::merge_by_size<CountedCodec>(*c, PartTables, db::IndexRunBase, UINT64_MAX);
  c->exec("COMMIT");
  CHECK(merges_in_progress(*c) == 0);
  auto runs = read_runs(*c);
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].size() == expected.size());
}

TEST_CASE("a damaged table of merges in progress is refused by the writer, and lookups still end", "[scale_merge]") {
  auto c = test_tables("parts_damaged");
  for (int r = 0; r < 3; ++r) write_run(*c, {1, 2, 3, 10 + r}, PartTables);
  auto ids = db::runs::list(*c, PartTables).ids;
  REQUIRE(ids.size() == 3);
  auto row = [](std::int64_t target, std::int64_t first) {
    return "(" + std::to_string(target) + ", " + std::to_string(first) + ", 2, 0)";
  };
  // A merge into a run that does not exist, and two whose sources overlap.
  for (const auto& rows : {row(ids[2] + 5, ids[0]), row(ids[1], ids[0]) + ", " + row(ids[2], ids[0])}) {
    INFO(rows);
    c->exec(std::string("DELETE FROM tmerge; INSERT INTO tmerge(target, first_source, boundary, written) VALUES ") +
            rows);
    CHECK_THROWS_AS(db::runs::merge_by_size<CountedCodec>(*c, PartTables, db::IndexRunBase, 1000), db::DbError);
    CHECK(count_of_key(*c, 3) <= 3);
  }
}

TEST_CASE("a chunk that does not decode is an error for lookups and merges, not entries left out", "[scale_merge]") {
  auto c = test_tables("undecodable");
  for (int r = 0; r < 8; ++r) write_run(*c, {1, 2, 3, 10 + r});
  // A varint whose continuation bit promises a byte that is not there.
  c->exec("UPDATE tpost SET data = x'0180' WHERE segment = (SELECT min(id) FROM tseg)");
  auto count_2 = [&] {
    std::uint64_t n = 0;
    db::runs::for_each_of_key<CountedCodec>(*c, TestTables, 2, [&](const Counted&) {
      ++n;
      return true;
    });
    return n;
  };
  CHECK_THROWS_AS(count_2(), db::DbError);  // before: 7 of the 8, as if the damaged run had none
  c->exec("BEGIN");
  CHECK_THROWS_AS(db::runs::merge_by_size<CountedCodec>(*c, TestTables, db::IndexRunBase), db::DbError);
  c->exec("ROLLBACK");
  CHECK(import_test::number(*c, "SELECT count(*) FROM tseg") == 8);  // nothing merged away
}

TEST_CASE("a lookup of one key reads no run past the entry where its caller stops", "[scale_merge]") {
  // Eight runs holding key 2 once each; the newest run's chunk does not decode, so reading
  // it is an error that shows which runs a lookup read.
  auto c = test_tables("lookup_stops");
  for (int r = 0; r < 8; ++r) write_run(*c, {1, 2, 3, 10 + r});
  c->exec("UPDATE tpost SET data = x'0180' WHERE segment = (SELECT max(id) FROM tseg)");
  auto count_2 = [&](std::uint64_t stop_after) {
    std::uint64_t n = 0;
    db::runs::for_each_of_key<CountedCodec>(*c, TestTables, 2, [&](const Counted& e) {
      CHECK(e.key == 2);  // never another key's entry
      return ++n < stop_after;
    });
    return n;
  };
  CHECK(count_2(1) == 1);
  CHECK(count_2(7) == 7);
  CHECK_THROWS_AS(count_2(8), db::DbError);  // the eighth run is read only when asked for
}

TEST_CASE("a damaged run whose keys go back does not hold a merge in parts at one boundary", "[scale_merge]") {
  auto c = test_tables("parts_keys_back");
  std::vector<std::int64_t> first;
  for (std::int64_t k = 1; k <= 51; ++k) first.push_back(k);
  write_run(*c, first, PartTables);
  for (int r = 1; r < 8; ++r) write_run(*c, {1'000'000}, PartTables);
  // The first run's chunk, damaged: after key 51 a delta that takes the key round to
  // INT64_MIN, the boundary of a merge that has not begun. With a budget of 50 the first
  // part stops there, after 1 to 51.
  std::string data;
  char buf[2 * db::MaxVarint];
  for (std::int64_t k = 1; k <= 51; ++k) data.append(buf, db::put_varint(db::put_varint(buf, k == 1 ? 0 : 1), 1));
  data.append(buf, db::put_varint(db::put_varint(buf, (std::uint64_t(1) << 63) - 51), 1));
  c->prepare("UPDATE tpost SET data = ? WHERE segment = (SELECT min(id) FROM tseg)")
      .bind_blob(1, data.data(), data.size())
      .run();
  for (int step = 0; step < 10 && merges_in_progress(*c) + import_test::number(*c, "SELECT count(*) FROM tseg") > 1;
       ++step) {
    c->exec("BEGIN");
    db::runs::merge_by_size<CountedCodec>(*c, PartTables, db::IndexRunBase, 50);
    c->exec("COMMIT");
  }
  // Before: every part wrote 1 to 51 into the target again, the boundary staying at INT64_MIN.
  CHECK(merges_in_progress(*c) == 0);
  CHECK(import_test::number(*c, "SELECT count(*) FROM tpost") <= 2);
  // One run of what the damaged one held, once: 1 to 51, INT64_MIN, and 1,000,000 seven times.
  CHECK(import_test::number(*c, "SELECT entries FROM tseg") == 53);
  CHECK(count_of_key(*c, 1'000'000) == 7);
}

TEST_CASE("a damaged run of a million empty chunks is merged without overflowing the merge thread's stack",
          "[scale_merge]") {
  auto c = test_tables("empty_chunks");
  for (int r = 0; r < 8; ++r) write_run(*c, {1, 2, 3, 1'000'000 + r}, PartTables);
  c->exec(
      "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000000)"
      " INSERT INTO tpost(segment, first_key, last_key, data) SELECT (SELECT min(id) FROM tseg), 5, 5, x'' FROM n");
  c->exec("BEGIN");
  db::runs::merge_by_size<CountedCodec>(*c, PartTables, db::IndexRunBase, UINT64_MAX);  // crashed (SIGSEGV)
  c->exec("COMMIT");
  CHECK(merges_in_progress(*c) == 0);
  auto runs = read_runs(*c);
  REQUIRE(runs.size() == 1);
  std::vector<std::pair<std::int64_t, std::uint64_t>> got;
  for (const auto& e : runs[0]) got.emplace_back(e.key, e.count);
  std::vector<std::pair<std::int64_t, std::uint64_t>> want{{1, 8}, {2, 8}, {3, 8}};
  for (std::int64_t r = 0; r < 8; ++r) want.emplace_back(1'000'000 + r, 1);
  CHECK(got == want);
}

TEST_CASE("a damaged file whose largest run id is INT64_MAX is refused with a clear error", "[scale_merge]") {
  auto c = test_tables("max_id");
  for (int r = 0; r < 7; ++r) write_run(*c, {1, 2, 3}, PartTables);
  c->exec("INSERT INTO tseg(id, entries) VALUES (9223372036854775807, 1)");
  c->exec("INSERT INTO tpost(segment, first_key, last_key, data) VALUES (9223372036854775807, 4, 4, x'0001')");
  // Eight runs of level 0: the merge is due, but there is no id after the last for its
  // target (last id + 1 overflowed, and the merge into run INT64_MIN was then refused).
  c->exec("BEGIN");
  CHECK_NOTHROW(db::runs::merge_by_size<CountedCodec>(*c, PartTables, db::IndexRunBase, 1000));
  c->exec("ROLLBACK");
  // A new run has no id either (SQLite's max(id) + gap became a real: "datatype mismatch").
  c->exec("BEGIN");
  try {
    db::runs::Writer<CountedCodec> w(*c, PartTables);
    FAIL("a run was given an id");
  } catch (const db::DbError& e) { CHECK_THAT(e.what(), Catch::Contains("no ids left")); }
  c->exec("ROLLBACK");
}

TEST_CASE("the position index answers every position while its merges are done in parts, and an import finishes them",
          "[scale_merge]") {
  auto games = import_test::world_championships();
  REQUIRE(games.size() > 600);
  fs::path path = import_test::temp_db("scale_merge", "index_parts");
  auto c = db::open_database(path.string(), db::Connection::Mode::ReadWrite);
  // The games' rows (ids 1 to 600), without index entries: the test writes those itself.
  db::ImportOptions rows_only;
  rows_only.position_index = false;
  import_games(*c, games, 0, 600, rows_only);
  REQUIRE(import_test::number(*c, "SELECT max(id) FROM game") == 600);
  constexpr db::runs::Tables Index{"segment", "posting", "segment_merge"};
  // What every position's lookup must give, from the games' own keys.
  std::map<std::uint64_t, std::vector<std::pair<std::int64_t, int>>> expected;
  std::vector<Key> probes{Position().key()};
  db::PositionIndexWriter w;
  std::uint64_t added = 0;
  int steps = 0;
  std::int64_t most_merges = 0;
  for (std::size_t g = 0; g < 600; ++g) {
    auto keys = game::position_keys(games[g]);
    std::int64_t id = std::int64_t(g) + 1;
    w.add_game(keys, id);
    added += keys.size();
    for (std::size_t ply = 0; ply < keys.size(); ++ply) expected[db::index_key(keys[ply])].emplace_back(id, int(ply));
    if (g % 37 == 0) probes.push_back(keys[keys.size() / 2]);
    if ((g + 1) % 5 != 0) continue;
    c->exec("BEGIN");
    w.flush(*c);
    // Runs of about 400 entries, level 0 below 512: merges of levels 1 and 2 in progress.
    db::runs::merge_by_size<db::IndexCodec>(*c, Index, 64, 500);
    c->exec("COMMIT");
    ++steps;
    most_merges = std::max(most_merges, import_test::number(*c, "SELECT count(*) FROM segment_merge"));
    for (std::size_t p = steps % 3; p < probes.size(); p += 3) {
      std::vector<std::pair<std::int64_t, int>> got;
      db::for_each_hit(*c, probes[p], [&](const db::PositionHit& h) {  // throws when out of game order
        got.emplace_back(h.game, h.ply);
        return true;
      });
      INFO("step " << steps << ", probe " << p);
      REQUIRE(got == expected[db::index_key(probes[p])]);
    }
    REQUIRE(db::position_index_stats(*c).entries == added);
  }
  CHECK(most_merges >= 1);  // merges were in progress between batches
  // An import into the database goes on with them (at least IndexRunBase entries a batch).
  import_games(*c, games, 600, 610, {});
  CHECK(import_test::number(*c, "SELECT count(*) FROM segment_merge") == 0);
  auto at_start = db::lookup_position(*c, Position().key());
  CHECK(at_start.size() == 610);
  CHECK(at_start.back().game == 610);
  for (std::size_t p = 1; p < probes.size(); ++p) {
    std::vector<std::pair<std::int64_t, int>> got;
    for (auto h : db::lookup_position(*c, probes[p]))
      if (h.game <= 600) got.emplace_back(h.game, h.ply);
    CHECK(got == expected[db::index_key(probes[p])]);
  }
}

TEST_CASE("a version 4 database is read as it is and gains the merge table when opened for writing", "[scale_merge]") {
  auto games = import_test::world_championships();
  fs::path path = import_test::temp_db("scale_merge", "version4");
  {
    auto c = db::open_database(path.string(), db::Connection::Mode::ReadWrite);
    import_games(*c, games, 0, 50, {});
    c->exec("DROP TABLE segment_merge; PRAGMA user_version = 4");
  }
  {
    auto c = db::open_database(path.string(), db::Connection::Mode::ReadOnly);
    CHECK(db::lookup_position(*c, Position().key()).size() == 50);
    CHECK(db::position_index_stats(*c).entries ==
          std::uint64_t(import_test::number(*c, "SELECT sum(plies + 1) FROM game")));
  }
  auto c = db::open_database(path.string(), db::Connection::Mode::ReadWrite);
  CHECK(import_test::number(*c, "PRAGMA user_version") == db::SchemaVersion);
  CHECK(import_test::number(*c, "SELECT count(*) FROM sqlite_master WHERE name = 'segment_merge'") == 1);
}

}  // namespace test_scale_merge
