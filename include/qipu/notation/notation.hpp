// Notation tables: one table per language, used both to read moves written in it and
// to write moves in it. Adding a language is adding a table entry (src/notation/tables.cpp).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "qipu/notation/san.hpp"

namespace qipu {

struct Notation {
  std::string_view code;                     // "en", "zh", "zh-Hant", "fan", "de", …
  std::string_view description;              // for --help
  PieceNames names;                          // the words written for each piece
  bool space_after_piece = false;            // the language's own style writes "马 f3"
  std::vector<std::string_view> pawn_words;  // words for the pawn accepted on input ("B", "兵")
};

// Every notation qipu reads and writes.
const std::vector<Notation>& notations();
// The notation with this code, or nullptr.
const Notation* find_notation(std::string_view code);
// Every piece word of every table, for the PGN reader's move-token rule.
std::vector<std::string> all_piece_words();

// How a move is written.
struct WriteStyle {
  bool spaced = false;  // "马 f3" rather than "马f3"
  enum class Castling { Letters, Zeros, Words } castling = Castling::Letters;
};
// SAN of a legal move in the given notation, with + or #.
std::string write_move(const Position& pos, Move m, const Notation& notation, const WriteStyle& style);
// The same from the move's shape (see SanShape), with its suffix: no board needed.
void append_move(std::string& out, Move m, const SanShape& shape, const Notation& notation, const WriteStyle& style);

// The ways a token can be read. English SAN comes first when it parses; then every
// other table's reading that differs (French R is a king, German D a queen, Chinese
// words and figurines). The replayer takes the first reading that is legal.
struct Reading {
  San san;
  const Notation* notation;  // the table that gave this reading
};
// A token read: its readings, at least one; or none for a lone en passant mark ("e.p.",
// 吃过路兵), which is accepted and dropped.
struct MoveReadings {
  std::vector<Reading> readings;
  bool ignorable = false;
};
// Fails (Problem::unknown_move) when no notation reads the token, saying why; a xiangqi
// move (炮二平五) fails saying that it is one. `preferred` (the table that read an earlier
// move of the same game) is tried first.
Result<MoveReadings> read_move(std::string_view token, const Notation* preferred = nullptr);
const Notation& english();

// The NAG of an evaluation sign written as a token (ChessBase "+-", "=", "∞", "±"),
// or 0 when the token is no such sign.
int glyph_nag(std::string_view token);

// Full-width ASCII (U+FF01–U+FF5E) folded to ASCII, the ideographic space to a space.
std::string fold_full_width(std::string_view s);

}  // namespace qipu
