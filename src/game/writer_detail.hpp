// The writer's reference path, for tests: write_pgn writes runs of plain moves (no
// comment, NAG or variation between them) in a loop of their own; this writes every
// move through the general path, and the two must give the same bytes.
#pragma once

#include <string>

#include "qipu/game/writer.hpp"

namespace qipu::game::detail {

std::string write_pgn_one_by_one(const GameRecord& rec, const WriterOptions& options = {});

}  // namespace qipu::game::detail
