// Compact binary forms of a game for the database: the mainline as a few bits a move, and
// everything else a record holds (comments, NAGs, variations) as a second blob that is
// empty for unannotated games. Decoding gives back the same GameRecord.
//
// A move is first a symbol: its rank among the legal moves in an order that guesses the
// likeliest first from the position alone (255: a null move). Symbols are then Huffman
// coded with a fixed table: most moves rank near the top, so a move takes about half a byte.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "qipu/core/result.hpp"
#include "qipu/game/record.hpp"

namespace qipu::db {

// The most moves a stored game's mainline may hold, and the most comments, variations
// and variation moves its notes may hold together: what the PGN reader's largest game
// (pgn::ReaderOptions::max_game_bytes, 64 MiB) can spell at three bytes each ("e4 ",
// "{} ", "() "). A blob claiming more is damaged, and is refused before it costs memory
// (a move takes a bit or two in a blob and 16 bytes decoded, a comment 32).
constexpr std::size_t MaxStoredPlies = (std::size_t{64} << 20) / 3;

// Moves of a fully replayed line, packed: the blob stored in the game table.
std::string encode_moves(const Position& start, const game::Line& line);
// Appends the decoded moves to `line`; false when the blob does not fit the position.
bool decode_moves(const Position& start, std::string_view blob, game::Line& line);

// The steps in between, for searches that compare games move by move without replaying.
// The symbol of a legal move. Throws DbError for a move ranked past 254, possible only in
// set-ups with many queens.
unsigned char move_symbol(const Position& pos, Move m);
// Symbols of a fully replayed line, one byte a move; `visit` sees the position after
// each move (the importer takes its keys there, replaying once).
template <class Visit>
std::string move_symbols(const Position& start, const game::Line& line, Visit&& visit) {
  std::string out;
  out.reserve(line.size());
  Position pos = start;
  for (const auto& node : line) {
    if (node.move.is_none()) break;
    out += char(move_symbol(pos, node.move));
    pos.play(node.move);
    visit(pos);
  }
  return out;
}
inline std::string move_symbols(const Position& start, const game::Line& line) {
  return move_symbols(start, line, [](const Position&) {});
}
// The move a symbol stands for in `pos`; Move::none() when there is none.
Move move_of_symbol(const Position& pos, unsigned char symbol);
// Appends the moves the symbols stand for; false when they do not fit.
bool play_symbols(const Position& start, std::string_view symbols, game::Line& line);
std::string pack_symbols(std::string_view symbols);
// The first `max` symbols of a blob (all of them by default); false when it is damaged.
bool unpack_symbols(std::string_view blob, std::string& symbols, std::size_t max = std::size_t(-1));

// Comments, NAGs, variations and final comments; empty when the game has none.
std::string encode_annotations(const game::GameRecord& rec);
// Puts them back on a record whose mainline is already decoded, or says why the blob is
// damaged (variations nested deeper than the PGN reader allows (1000) and more than
// MaxStoredPlies moves included).
Result<void> decode_annotations(std::string_view blob, game::GameRecord& rec);

// The longest varint of a 64-bit value.
constexpr std::size_t MaxVarint = 10;
// Writes v at p, which has room for MaxVarint bytes; returns the end. Encoders size their
// output once and write through this: appending a byte at a time to a string cost about
// 35 instructions a varint, 16 % of the importer's thread (bench_import.md, 2026-12-01).
inline char* put_varint(char* p, std::uint64_t v) {
  while (v >= 0x80) {
    *p++ = char(v | 0x80);
    v >>= 7;
  }
  *p++ = char(v);
  return p;
}
void put_varint(std::string& out, std::uint64_t v);
// Reads a varint from the front of `in`; false when it ends first. Inline: a merge of the
// position index decodes three a entry, and the call was 14 % of a level-2 merge's time.
inline bool get_varint(std::string_view& in, std::uint64_t& v) {
  v = 0;
  for (int shift = 0; shift < 64 && !in.empty(); shift += 7) {
    auto b = static_cast<unsigned char>(in.front());
    in.remove_prefix(1);
    v |= std::uint64_t(b & 0x7F) << shift;
    if (!(b & 0x80)) return true;
  }
  return false;
}
// A signed number as an unsigned one that is small when the number is near 0 (0, -1, 1,
// -2, ...), so that its varint is short either way.
inline std::uint64_t zigzag(std::int64_t v) { return (std::uint64_t(v) << 1) ^ std::uint64_t(v >> 63); }
inline std::int64_t unzigzag(std::uint64_t z) { return std::int64_t((z >> 1) ^ (~(z & 1) + 1)); }

}  // namespace qipu::db
