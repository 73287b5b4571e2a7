// Compact binary forms of a game for the database: the mainline as one byte a move, and
// everything else a record holds (comments, NAGs, variations) as a second blob that is
// empty for unannotated games. Decoding gives back the same GameRecord.
#pragma once

#include <string>
#include <string_view>

#include "qipu/game/record.hpp"

namespace qipu::db {

// Moves of a fully replayed line: each is its rank among the legal moves ordered by
// their 16-bit value (stable whatever order a generator produces); 255 is a null move.
std::string encode_moves(const Position& start, const game::Line& line);
// Appends the decoded moves to `line`; false when the blob does not fit the position.
bool decode_moves(const Position& start, std::string_view blob, game::Line& line);

// Comments, NAGs, variations and final comments; empty when the game has none.
std::string encode_annotations(const game::GameRecord& rec);
// Puts them back on a record whose mainline is already decoded.
bool decode_annotations(std::string_view blob, game::GameRecord& rec);

void put_varint(std::string& out, std::uint64_t v);
bool get_varint(std::string_view& in, std::uint64_t& v);

}  // namespace qipu::db
