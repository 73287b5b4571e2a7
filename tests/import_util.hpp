// Small databases for the import tests (test_scale4, test_scale_merge, test_player_index):
// a fresh file, one number from SQL, the four classic games and the world championships.
#pragma once

#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "cli_util.hpp"
#include "qipu/db/store.hpp"
#include "replay_util.hpp"

namespace import_test {

// A new database file `name` in this process's temporary folder `dir`.
inline std::filesystem::path temp_db(const std::string& dir, const std::string& name) {
  std::filesystem::path p = cli_test::temp_dir(dir) / (name + ".db");
  for (auto ext : {"", "-wal", "-shm"}) std::filesystem::remove(p.string() + ext);
  return p;
}

inline std::int64_t number(qipu::db::Connection& c, const std::string& sql) {
  auto st = c.prepare(sql);
  REQUIRE(st.step());
  return st.int64(0);
}

inline std::vector<qipu::game::GameRecord> classics() {
  return replayed_games({{std::string(QIPU_TEST_DATA) + "/../../data/classics.pgn", std::nullopt}});
}

// The world championship matches' games that replay (over a thousand).
inline std::vector<qipu::game::GameRecord> world_championships() {
  auto games = replayed_games({{std::string(QIPU_TEST_DATA) + "/../../data/world-championships.pgn", std::nullopt}});
  std::erase_if(games, [](const qipu::game::GameRecord& g) { return !g.valid(); });
  return games;
}

}  // namespace import_test
