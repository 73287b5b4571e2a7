// libFuzzer target: the chunks of the database's sorted runs (position index, explorer's
// aggregate, deep positions, player index, player totals), as a damaged file or another
// program's may hold them. One chunk row of a small database is changed (its bytes replaced
// or bits flipped, or its key range moved), then every reader of those runs is asked: each
// answers or throws DbError, none crashes, reads out of bounds or runs away with memory.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include <sqlite3.h>

#include "../replay_util.hpp"
#include "qipu/db/explore.hpp"
#include "qipu/db/player_index.hpp"
#include "qipu/db/player_totals.hpp"
#include "qipu/db/position_index.hpp"
#include "qipu/db/search.hpp"
#include "qipu/db/store.hpp"
#include "qipu/game/record.hpp"

namespace {

using namespace qipu;

constexpr const char* ChunkTables[] = {"posting", "explore_posting", "deep_posting", "player_posting",
                                       "player_total_chunk"};

struct Template {
  std::unique_ptr<db::Connection> db;
  std::vector<Position> positions;  // the start, an aggregated one, and some deep ones
};

// The four classics, each six times, two copies at a time in batches of four games: a
// batch's run finds the deep positions of the two games it holds twice (two entries make a
// key popular here), and the later copies are counted in deep rows. All in memory.
Template make_template() {
  auto games = replayed_games({{QIPU_DATA "/classics.pgn", std::nullopt}}, 1);
  Template t;
  t.db = db::open_database(":memory:", db::Connection::Mode::ReadWrite);
  db::ImportOptions o;
  o.allow_duplicates = true;
  o.batch_games = 4;
  o.deep_positions = {4'000'000, 2};
  db::Importer imp(*t.db, o);
  for (int copy = 0; copy < 3; ++copy)
    for (const auto& g : games)
      for (int twice = 0; twice < 2; ++twice) imp.add("classics", g, *db::encode_game(g));
  imp.finish();
  for (const char* table : ChunkTables) {  // else this target would not test what it says
    auto rows = t.db->prepare(std::string("SELECT count(*) FROM ") + table);
    if (!rows.step() || rows.int64(0) == 0) {
      std::fprintf(stderr, "fuzz_runs: the template database has no rows in %s\n", table);
      std::abort();
    }
  }
  t.positions.push_back(Position());
  for (const auto& g : games)
    game::for_each_move(
        g.start_position, g.mainline, [&](const Position&, const game::MoveNode&, const Position& after) {
          bool deep = !db::aggregated(after);
          if (t.positions.size() == 1 || (deep && t.positions.size() < 8 && after.fullmove_number() % 5 == 0))
            t.positions.push_back(after);
        });
  return t;
}

// A copy of the template in memory.
std::unique_ptr<db::Connection> copy_of(db::Connection& from) {
  auto to = std::make_unique<db::Connection>(":memory:", db::Connection::Mode::ReadWrite);
  auto size = from.prepare("PRAGMA page_size");
  if (!size.step()) std::abort();
  to->exec("PRAGMA page_size = " + std::to_string(size.int64(0)));
  sqlite3_backup* b = sqlite3_backup_init(to->handle(), "main", from.handle(), "main");
  if (!b || sqlite3_backup_step(b, -1) != SQLITE_DONE || sqlite3_backup_finish(b) != SQLITE_OK) std::abort();
  return to;
}

std::int64_t int64_at(const std::uint8_t* p, std::size_t n) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < n && i < 8; ++i) v = v << 8 | p[i];
  return std::int64_t(v);
}

// Byte 0 picks the table, byte 1 the row, byte 2 the change; the rest is its argument.
void damage(db::Connection& c, const std::uint8_t* data, std::size_t size) {
  std::string table = ChunkTables[data[0] % std::size(ChunkTables)];
  auto rows = c.prepare("SELECT count(*) FROM " + table);
  if (!rows.step() || rows.int64(0) == 0) return;
  auto pick = c.prepare("SELECT id, data FROM " + table + " ORDER BY id LIMIT 1 OFFSET ?");
  pick.bind(1, std::int64_t(data[1] % rows.int64(0)));
  if (!pick.step()) return;
  std::int64_t id = pick.int64(0);
  std::string blob(pick.blob(1));
  const std::uint8_t* arg = data + 3;
  std::size_t n = size - 3;
  int change = data[2] % 4;
  if (change == 0) blob.assign(reinterpret_cast<const char*>(arg), n);  // other bytes
  if (change == 1)                                                      // bits flipped: (offset, mask) pairs
    for (std::size_t i = 0; i + 1 < n && !blob.empty(); i += 2) blob[arg[i] % blob.size()] ^= char(arg[i + 1]);
  const char* set = change < 2 ? "data = ?1" : change == 2 ? "first_key = ?1" : "last_key = ?1";
  auto st = c.prepare("UPDATE " + table + " SET " + set + " WHERE id = ?2");
  if (change < 2)
    st.bind_blob(1, blob.data(), blob.size());
  else
    st.bind(1, int64_at(arg, n));
  st.bind(2, id);
  st.step();
}

// Every reader of the runs, each on its own: an error in one is no reason to skip the rest.
template <class F>
void ask(F&& f) {
  try {
    f();
  } catch (const db::DbError&) {}
}

void read_everything(db::Connection& c, const std::vector<Position>& positions) {
  for (const auto& pos : positions) {
    ask([&] { db::lookup_position(c, pos.key()); });
    ask([&] { db::explore(c, pos, db::GameQuery{}, 10); });
    ask([&] { db::count_aggregate(c, pos); });
    ask([&] { db::find_position(c, db::PositionQuery{pos, std::nullopt}, db::GameQuery{}, nullptr, 20); });
  }
  for (auto outcome : {db::Outcome::Any, db::Outcome::Won})
    ask([&] { db::player_games(c, {1, 2, 3}, db::Sides{}, outcome); });
  ask([&] { db::read_player_totals(c); });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static Template t = make_template();
  if (size < 3) return 0;
  auto c = copy_of(*t.db);
  damage(*c, data, size);
  read_everything(*c, t.positions);
  return 0;
}
