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

// Imports games [first, last) of `games` (duplicates too), committing every `batch`;
// `finish` false leaves the last batch uncommitted, as a kill does. Each game's opening is
// named after its ECO tag's first two characters ("Opening B9"; none without the tag), as
// if an ECO file had classified it.
inline void import_range(qipu::db::Connection& c, const std::vector<qipu::game::GameRecord>& games, std::size_t first,
                         std::size_t last, std::size_t batch, bool finish = true) {
  qipu::db::ImportOptions o;
  o.allow_duplicates = true;
  o.batch_games = batch;
  qipu::db::Importer imp(c, o);
  for (std::size_t i = first; i < last; ++i) {
    auto enc = *qipu::db::encode_game(games[i]);
    if (auto eco = games[i].tag("ECO"); eco.size() >= 2) enc.opening = "Opening " + std::string(eco.substr(0, 2));
    imp.add("test", games[i], enc);
  }
  if (finish) imp.finish();
}

}  // namespace import_test
