// What makes two games the same game, decided in one place for `import` (which skips
// duplicates) and `filter --dedup` (which leaves them out), so that both keep the same games.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "qipu/game/record.hpp"

namespace qipu::game {

// The parts of a game that its duplicate key covers: the seven-tag roster (the first tag
// of each name; nullopt when absent), the movetext's result, the set-up position as
// written, and the mainline's moves in one fixed encoding (import: the database codec's
// symbols; equal moves must give equal bytes).
struct GameIdentity {
  std::optional<std::string_view> white, black, event, site, date, round, result, start_fen;
  std::string_view movetext_result;
  std::string_view moves;
};

// The identity of a record, with its moves encoded as the caller chose.
GameIdentity identity_of(const GameRecord& rec, std::string_view moves);

// A 64-bit key equal for duplicates. A tag holding the roster's default ("?",
// "????.??.??", "*") is the same as no tag, and a missing Result tag is the movetext's
// result: as export writes them, so that a game exported and read again is a duplicate of
// itself. A missing value differs from every present one, the empty string included.
std::uint64_t duplicate_key(const GameIdentity& g);

}  // namespace qipu::game
