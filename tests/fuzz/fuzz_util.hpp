// Shared by the fuzz targets: read a PGN text into replayed game records.
#pragma once

#include <string>
#include <vector>

#include "qipu/game/pipeline.hpp"
#include "qipu/pgn/reader.hpp"

namespace fuzz {

// Every game of `text`, replayed, its moves read as written in `from` (nullptr: detected
// move by move); a source error ends the reading quietly.
inline std::vector<qipu::game::GameRecord> read_all(std::string text, const qipu::Notation* from = nullptr) {
  std::vector<qipu::game::GameRecord> games;
  qipu::game::ReplayOptions ro;
  ro.notation = from;
  qipu::game::Replayer r(ro, [&](qipu::game::GameRecord& g) {
    games.push_back(std::move(g));
    return qipu::pgn::Visit::Continue;
  });
  auto opts = qipu::game::replay_reader_options();
  opts.max_game_bytes = 1 << 20;  // keeps a single input's work small
  auto src = qipu::pgn::memory_source(std::move(text));
  try {
    qipu::pgn::read_pgn(*src, r, opts);
  } catch (const qipu::pgn::SourceError&) {}
  return games;
}

}  // namespace fuzz
