// Perft: counts the leaf nodes of the legal move tree, the standard test of a generator.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "qipu/board/position.hpp"

namespace qipu {

// Leaves at `depth` plies; the last ply is counted without being played (bulk counting).
std::uint64_t perft(const Position& pos, int depth);

// One entry per legal root move (in UCI) with its subtree count.
std::vector<std::pair<std::string, std::uint64_t>> perft_divide(const Position& pos, int depth);

}  // namespace qipu
