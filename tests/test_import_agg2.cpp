// What the import's batch writing does since its sorts and chunk writer were rewritten for
// speed (bench/bench_import.md, 2026-12-02): the batch sort orders entries exactly as a
// comparison sort does, popular positions and hostile sizes included; chunks written from a
// sorted array are byte for byte those written an entry at a time; the position index
// writer refuses games out of id order instead of storing them out of place.
#include <catch2/catch.hpp>

#include "cli_util.hpp"

#include <random>

#include "qipu/board/position.hpp"
#include "qipu/db/codec.hpp"
#include "qipu/db/position_index.hpp"
#include "qipu/db/store.hpp"
#include "db/runs.hpp"

// One namespace a file: the test files compile several to a unit (CMakeLists.txt).
namespace test_import_agg2 {

using namespace qipu;
namespace fs = std::filesystem;

namespace {

struct Item {
  std::uint64_t key;
  std::uint32_t game, ply;
};
bool item_less(const Item& a, const Item& b) {
  return a.key != b.key ? a.key < b.key : a.game != b.game ? a.game < b.game : a.ply < b.ply;
}

// n items as a batch holds them: games in order, plies in order, keys drawn from a few
// popular positions (the start position in every game) and many rare ones.
std::vector<Item> batch_items(std::size_t n, std::uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint64_t> popular(20);
  for (auto& k : popular) k = rng();
  std::vector<Item> v;
  std::uint32_t game = 0, ply = 0;
  while (v.size() < n) {
    std::uint64_t key = ply == 0 ? popular[0] : rng() % 3 == 0 ? popular[rng() % popular.size()] : rng();
    v.push_back({key, game, ply});
    if (rng() % 80 == 0)
      ++game, ply = 0;
    else
      ++ply;
  }
  return v;
}

// A codec of Items for the runs' writer: key delta, game, ply as varints.
struct ItemCodec {
  using Entry = Item;
  static constexpr std::size_t MinEntryBytes = 3;
  static std::int64_t sql_key(const Item& e) { return std::int64_t(e.key >> 16); }
  static const Item* encode(const Item* begin, const Item* end, std::size_t bytes, std::string& out) {
    return db::runs::encode_chunk(begin, end, bytes, out, 3 * db::MaxVarint,
                                  [](const Item& e, const Item* prev, char* q) {
                                    q = db::put_varint(q, (e.key >> 16) - (prev ? prev->key >> 16 : e.key >> 16));
                                    q = db::put_varint(q, e.game);
                                    return db::put_varint(q, e.ply);
                                  });
  }
};

std::vector<std::string> chunk_rows(db::Connection& c) {
  std::vector<std::string> rows;
  auto st = c.prepare("SELECT first_key, last_key, hex(data) FROM posting ORDER BY id");
  while (st.step())
    rows.push_back(std::to_string(st.int64(0)) + " " + std::to_string(st.int64(1)) + " " + std::string(st.text(2)));
  return rows;
}

std::unique_ptr<db::Connection> fresh_db(const std::string& name) {
  fs::path p = cli_test::temp_dir("import_agg2") / (name + ".db");
  for (auto ext : {"", "-wal", "-shm"}) fs::remove(p.string() + ext);
  return db::open_database(p.string(), db::Connection::Mode::ReadWrite);
}

}  // namespace

TEST_CASE("the batch sort orders entries as std::sort does, at every size", "[import_agg2]") {
  // Below and above the size where the radix passes start, and a batch's size.
  for (std::size_t n : {0, 1, 2, 511, 512, 513, 4000, 70000, 300000}) {
    INFO(n);
    auto v = batch_items(n, std::uint32_t(n));
    auto expected = v;
    std::sort(expected.begin(), expected.end(), item_less);
    db::runs::sort_by_key(
        v, [](const Item& e) { return e.key; }, item_less);
    REQUIRE(v.size() == expected.size());
    bool same = std::equal(v.begin(), v.end(), expected.begin(),
                           [](const Item& a, const Item& b) { return !item_less(a, b) && !item_less(b, a); });
    CHECK(same);
  }
}

TEST_CASE("the batch sort copes with one radix bucket holding every entry", "[import_agg2]") {
  // Every entry in one radix bucket: the bucket's comparison sort must cope (n log n), and
  // the keys that share their top 16 bits but differ below must still come out in order.
  std::vector<Item> v;
  for (std::uint32_t i = 0; i < 200000; ++i) v.push_back({0xabcd000000000000ULL | (i % 7), i, 0});
  db::runs::sort_by_key(
      v, [](const Item& e) { return e.key; }, item_less);
  CHECK(std::is_sorted(v.begin(), v.end(), item_less));
  CHECK(v.front().key == 0xabcd000000000000ULL);
  CHECK(v.back().key == 0xabcd000000000006ULL);
}

TEST_CASE("chunks written from a sorted array are those written an entry at a time", "[import_agg2]") {
  auto v = batch_items(200000, 7);
  std::sort(v.begin(), v.end(), item_less);
  db::runs::Tables tables{"segment", "posting"};
  auto one = fresh_db("one_at_a_time");
  {
    db::Transaction tx(*one);
    db::runs::Writer<ItemCodec> w(*one, tables);
    for (const auto& e : v) w.add(e);
    w.finish();
    tx.commit();
  }
  auto bulk = fresh_db("bulk");
  {
    db::Transaction tx(*bulk);
    db::runs::Writer<ItemCodec> w(*bulk, tables);
    // In three parts, the first small, as a merge and a batch may hand them on.
    w.add(v.data(), v.data() + 100);
    w.add(v.data() + 100, v.data() + 30000);
    for (std::size_t i = 30000; i < v.size(); ++i) w.add(v[i]);
    w.finish();
    tx.commit();
  }
  auto rows = chunk_rows(*one);
  CHECK(rows.size() > 50);  // many chunks, each part ending inside one
  CHECK(chunk_rows(*bulk) == rows);
  auto count = [](db::Connection& c) {
    auto st = c.prepare("SELECT entries FROM segment");
    return st.step() ? st.int64(0) : -1;
  };
  CHECK(count(*bulk) == std::int64_t(v.size()));
  CHECK(count(*one) == std::int64_t(v.size()));
}

TEST_CASE("the position index writer refuses a game older than its batch's first", "[import_agg2]") {
  auto c = fresh_db("order");
  db::PositionIndexWriter w;
  std::vector<Key> keys = {Position().key()};
  w.add_game(keys, 10);
  w.add_game(keys, 11);
  CHECK_THROWS_AS(w.add_game(keys, 9), db::DbError);
  db::Transaction tx(*c);
  w.flush(*c);
  tx.commit();
  auto hits = db::lookup_position(*c, Position().key());
  REQUIRE(hits.size() == 2);
  CHECK(hits[0].game == 10);
  CHECK(hits[1].game == 11);
}

}  // namespace test_import_agg2
