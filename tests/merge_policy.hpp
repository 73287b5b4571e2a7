// The position index's size policy run on run sizes alone, as the importer applies it after
// each batch (db::runs_to_merge), for tests of the merge schedule without a database.
#pragma once

#include <cstdint>
#include <vector>

#include "qipu/db/position_index.hpp"

namespace merge_test {

// Adds a run of n entries to `sizes` (oldest first) and merges the newest runs while the
// policy says so; returns the entries the merges wrote.
inline std::uint64_t add_run(std::vector<std::uint64_t>& sizes, std::uint64_t n) {
  sizes.push_back(n);
  std::uint64_t written = 0;
  while (std::size_t m = qipu::db::runs_to_merge(sizes, qipu::db::IndexRunBase, qipu::db::IndexUpperFanout)) {
    std::uint64_t merged = 0;
    for (std::size_t i = 0; i < m; ++i) merged += sizes[sizes.size() - 1 - i];
    sizes.resize(sizes.size() - m);
    sizes.push_back(merged);
    written += merged;
  }
  return written;
}

}  // namespace merge_test
