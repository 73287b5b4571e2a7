// The chunk codec of the position and player indexes (src/db/index_codec.hpp): what it
// encodes decodes to the same entries, chunks written before schema 6 still decode, and
// a database of such chunks takes new ones beside them.
#include <catch2/catch.hpp>

#include "import_util.hpp"

#include <map>
#include <random>

#include "db/index_codec.hpp"
#include "db/runs.hpp"
#include "qipu/board/position.hpp"
#include "qipu/db/position_index.hpp"
#include "qipu/db/store.hpp"
#include "qipu/game/criteria.hpp"

namespace test_index_codec {

using namespace qipu;
using Entry = db::PositionIndexWriter::Entry;

namespace {

// Sorted entries as an index holds them: keys that repeat (a popular position) or not,
// games in a window of consecutive ids far from 0, plies that repeat with the key or not.
std::vector<Entry> sample_entries(std::mt19937_64& rng, std::size_t n, std::int64_t first_game, std::int64_t window) {
  std::vector<Entry> out;
  std::uint64_t key = rng() % (std::uint64_t(1) << 40);
  for (std::size_t i = 0; i < n; ++i) {
    if (rng() % 3 != 0) key += 1 + rng() % (std::uint64_t(1) << (rng() % 30));
    out.push_back(
        {key, first_game + std::int64_t(rng() % std::uint64_t(window)), int(rng() % 4 == 0 ? rng() % 300 : 20)});
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<Entry> decoded(std::int64_t first_key, const std::string& data) {
  std::vector<Entry> out;
  REQUIRE(db::IndexCodec::decode(first_key, data, [&](const Entry& e) {
    out.push_back(e);
    return true;
  }));
  return out;
}

bool same(const std::vector<Entry>& a, const std::vector<Entry>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const Entry& x, const Entry& y) {
    return x.key == y.key && x.game == y.game && x.ply == y.ply;
  });
}

// A chunk as qipu wrote it before schema 6: per entry the key delta (0 for the first),
// the game id whole for a new key and as a delta for a repeated one, and the ply.
std::string chunk_before_6(const std::vector<Entry>& entries) {
  std::string out;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const Entry* prev = i ? &entries[i - 1] : nullptr;
    bool repeat = prev && prev->key == entries[i].key;
    db::put_varint(out, prev ? entries[i].key - prev->key : 0);
    db::put_varint(out, std::uint64_t(repeat ? entries[i].game - prev->game : entries[i].game));
    db::put_varint(out, std::uint64_t(entries[i].ply));
  }
  return out;
}

}  // namespace

TEST_CASE("index chunks decode to the entries they were encoded from", "[index_codec]") {
  std::mt19937_64 rng(17);
  for (int round = 0; round < 200; ++round) {
    std::int64_t first_game = std::int64_t(rng() % (std::uint64_t(1) << (rng() % 40)));
    auto entries = sample_entries(rng, 1 + rng() % 3000, first_game + 1, 1 + std::int64_t(rng() % 2'000'000));
    std::string data;
    for (const Entry* at = entries.data(); at != entries.data() + entries.size();) {
      const Entry* stop = db::IndexCodec::encode(at, entries.data() + entries.size(), 8096, data);
      REQUIRE(stop > at);
      REQUIRE(data.size() <= 8096 + 3 * db::MaxVarint);
      INFO("round " << round << ", entry " << (at - entries.data()));
      REQUIRE(same(decoded(std::int64_t(at->key), data), std::vector<Entry>(at, stop)));
      at = stop;
    }
  }
}

TEST_CASE("index chunks written before schema 6 decode as they were", "[index_codec]") {
  std::mt19937_64 rng(6);
  auto entries = sample_entries(rng, 500, 3'000'000, 160'000);
  CHECK(same(decoded(std::int64_t(entries[0].key), chunk_before_6(entries)), entries));
}

TEST_CASE("an index chunk codes a run's game ids in fewer bytes than ids whole", "[index_codec]") {
  // New keys 2^20 apart (3 varint bytes), games 20,000 to 120,000 after the first, 3 M (4
  // bytes whole, 3 as a zigzag difference of 2^14 to 2^21), plies under 128 (1 byte): 8
  // bytes an entry before, 7 now; a repeated key and ply, games 50 apart, takes 2 (key
  // delta, game delta shifted) where it took 3.
  std::vector<Entry> fresh, repeated;
  for (int i = 0; i < 100; ++i)
    fresh.push_back({std::uint64_t(i + 1) << 20, i ? 3'020'000 + (i * 1543) % 100'000 : 3'000'000, 40});
  for (int i = 0; i < 100; ++i) repeated.push_back({std::uint64_t(1) << 30, 3'000'000 + i * 50, 40});
  std::string data;
  REQUIRE(db::IndexCodec::encode(fresh.data(), fresh.data() + fresh.size(), 8096, data) == fresh.data() + fresh.size());
  CHECK(data.size() == 1 + 4 + 1 + 99 * 7);
  CHECK(chunk_before_6(fresh).size() == 1 + 4 + 1 + 99 * 8);
  REQUIRE(db::IndexCodec::encode(repeated.data(), repeated.data() + repeated.size(), 8096, data) ==
          repeated.data() + repeated.size());
  CHECK(data.size() == 1 + 4 + 1 + 99 * 2);
  CHECK(chunk_before_6(repeated).size() == 1 + 4 + 1 + 99 * 3);
}

TEST_CASE("damaged index chunks are refused, not misread", "[index_codec]") {
  std::string data;
  db::put_varint(data, 2);  // no mark of either schema
  db::put_varint(data, 1);
  db::put_varint(data, 0);
  CHECK_FALSE(db::IndexCodec::decode(0, data, [](const Entry&) { return true; }));
  std::vector<Entry> one{{5, 7, 1}, {9, 8, 2}};
  db::IndexCodec::encode(one.data(), one.data() + 2, 8096, data);
  data.pop_back();  // the last entry's ply cut off
  CHECK_FALSE(db::IndexCodec::decode(5, data, [](const Entry&) { return true; }));
}

TEST_CASE("a database of chunks written before schema 6 takes new chunks and merges both", "[index_codec]") {
  auto games = import_test::world_championships();
  REQUIRE(games.size() > 600);
  std::filesystem::path path = import_test::temp_db("index_codec", "mixed");
  {
    auto c = db::open_database(path.string(), db::Connection::Mode::ReadWrite);
    import_test::import_range(*c, games, 0, 300, 25);
    // Every chunk rewritten as qipu wrote it before, and the database said to be of then.
    auto chunks = c->prepare("SELECT id, first_key, data FROM posting");
    auto update = c->prepare("UPDATE posting SET data = ? WHERE id = ?");
    std::size_t rewritten = 0;
    while (chunks.step()) {
      auto old = chunk_before_6(decoded(chunks.int64(1), std::string(chunks.blob(2))));
      update.reset();
      update.bind_blob(1, old.data(), old.size()).bind(2, chunks.int64(0)).run();
      ++rewritten;
    }
    REQUIRE(rewritten >= 12);
    c->exec("PRAGMA user_version = 5");
  }
  std::map<std::uint64_t, std::vector<std::pair<std::int64_t, int>>> expected;
  std::vector<Key> probes{Position().key()};
  auto expect = [&](std::size_t first, std::size_t last) {
    for (std::size_t g = first; g < last; ++g) {
      auto keys = game::position_keys(games[g]);
      for (std::size_t ply = 0; ply < keys.size(); ++ply)
        expected[db::index_key(keys[ply])].emplace_back(std::int64_t(g) + 1, int(ply));
      if (g % 23 == 0) probes.push_back(keys[keys.size() / 2]);
    }
  };
  auto check_probes = [&](db::Connection& c) {
    for (std::size_t p = 0; p < probes.size(); ++p) {
      std::vector<std::pair<std::int64_t, int>> got;
      for (auto h : db::lookup_position(c, probes[p])) got.emplace_back(h.game, h.ply);
      INFO("probe " << p);
      REQUIRE(got == expected[db::index_key(probes[p])]);
    }
  };
  expect(0, 300);
  check_probes(*db::open_database(path.string(), db::Connection::Mode::ReadOnly));
  auto c = db::open_database(path.string(), db::Connection::Mode::ReadWrite);
  CHECK(import_test::number(*c, "PRAGMA user_version") == db::SchemaVersion);
  import_test::import_range(*c, games, 300, 600, 25);
  expect(300, 600);
  check_probes(*c);
  // Old and new chunks merged into one run (a small level 0, so that all of them merge).
  c->exec("BEGIN");
  db::runs::merge_small<db::IndexCodec>(*c, {"segment", "posting"}, std::uint64_t(1) << 40);
  c->exec("COMMIT");
  CHECK(import_test::number(*c, "SELECT count(*) FROM segment") == 1);
  check_probes(*c);
  CHECK(db::position_index_stats(*c).entries ==
        std::uint64_t(import_test::number(*c, "SELECT sum(plies + 1) FROM game")));
}

}  // namespace test_index_codec
