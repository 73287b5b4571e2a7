// The PGN writer: export format (Seven Tag Roster first, escaped strings, movetext lines
// of at most 79 characters, move numbers as the standard prescribes), in any notation.
// Reading what it writes and writing again gives the same bytes.
#pragma once

#include <string>

#include "qipu/game/record.hpp"
#include "qipu/notation/notation.hpp"

namespace qipu::game {

struct WriterOptions {
  const Notation* notation = nullptr;  // nullptr: English SAN
  WriteStyle style;
  std::size_t line_width = 79;
};

// One game, ending with a blank line so that games can be concatenated.
std::string write_pgn(const GameRecord& rec, const WriterOptions& options = {});

// The tag value escaped for a PGN string: \ and " get a backslash.
std::string escape_tag_value(std::string_view value);

}  // namespace qipu::game
