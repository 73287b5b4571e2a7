// Reading test games through the library's pipeline, shared by the tests that need records.
#pragma once

#include <vector>

#include "qipu/game/pipeline.hpp"

// Every game of the inputs, replayed, in input order (whatever `jobs`).
inline std::vector<qipu::game::GameRecord> replayed_games(const std::vector<qipu::game::PipelineInput>& inputs,
                                                          unsigned jobs = 2) {
  std::vector<qipu::game::GameRecord> games;
  qipu::game::PipelineOptions o;
  o.jobs = jobs;
  qipu::game::PipelineCallbacks cb;
  cb.game = [&](const qipu::game::InputReport&, qipu::game::GameRecord& r) { games.push_back(std::move(r)); };
  qipu::game::run_pipeline(inputs, o, cb);
  return games;
}
