// Private to the library: the words of a move token folded to ASCII SAN, one table for
// the reader (where a token ends, and its reading) and for read_move. Chinese sources
// write 后 吃f7, 马 ：e5, ｅ４＋, a8升后, 王车短易位; folded they are Qxf7, Nxe5, e4+, a8=Q, O-O.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace qipu::fold {

// A word's ASCII form: a piece letter ("" for the pawn), a sign (x + # = O-O), or text.
struct Unit {
  std::string_view ascii;
  std::size_t bytes = 0;  // what the word takes in the input; 0: no word here
  bool piece = false;     // a piece word (马, 皇后, ♘, Кр): its meaning is one in every notation
};

// The word (or full-width character) at p, the longest that matches; bytes 0 if none.
// Only for p[0] >= 0x80.
Unit unit_at(const char* p, const char* end);

// The one-character (three-byte) piece words (马 象 车 后 王, 馬 車, ♘ …) with their SAN
// letters, packed as b0 << 16 | b1 << 8 | b2 and hashed into 64 slots by their last two
// bytes, (b1 * mul + b2) % 64, with a multiplier that leaves no two in one slot: a
// character is looked up with one load and one compare, where a loop over the words
// took a branch it mispredicted (its exit depends on which piece moves).
// Three bytes as one number, b0 << 16 | b1 << 8 | b2.
constexpr std::uint32_t packed3(const char* p) {
  return std::uint32_t(static_cast<unsigned char>(p[0])) << 16 | std::uint32_t(static_cast<unsigned char>(p[1])) << 8 |
         static_cast<unsigned char>(p[2]);
}
struct PieceChar {
  std::uint32_t packed = 0;
  char letter = 0;
};
struct PieceSlots {
  std::uint32_t mul = 0;
  std::array<PieceChar, 64> slot{};
  constexpr std::size_t at(std::uint32_t packed) const { return ((packed >> 8 & 0xFF) * mul + (packed & 0xFF)) & 63; }
};
extern const PieceSlots kPieceSlots;

// The piece a one-character piece word at p names, as its SAN letter; 0 if none. The
// reader's fast path for "马 f3": a longer word that starts with the same character
// (王后, 后翼易位) is not told apart here, its caller checks what follows.
inline char piece_char_at(const char* p, const char* end) {
  if (end - p < 3) return 0;
  std::uint32_t key = packed3(p);
  const PieceChar& c = kPieceSlots.slot[kPieceSlots.at(key)];
  return c.packed == key ? c.letter : 0;
}

// The full-width form of an ASCII character at p (U+FF01..U+FF5E) as that character;
// bytes 0 if none.
Unit full_width_at(const char* p, const char* end);

// A move token read with its words folded: "后 吃f7" gives "Qxf7".
constexpr std::size_t MaxFolded = 48;
struct FoldedMove {
  char text[MaxFolded + 8] = {};  // NUL-padded: read_plain_san may look 8 bytes ahead
  std::size_t size = 0;
  std::size_t length = 0;   // bytes the token takes in the input
  bool piece_word = false;  // a non-ASCII word named the piece
  bool spaced = false;      // a space stands inside: "马 吃 e5"
};

// Reads the token at p up to a delimiter (blank, { } ( ) [ ] ; $ ! ?, a separator such
// as ，, a full-width glyph),
// folding its words; spaces are part of it after a piece word or a capture word when a
// square or origin follows ("皇后 h5", "马 吃 e5", "车 1e3"), and "(后)" after a square. False when it holds a
// character that is no move's, or is too long: then nothing about it is known.
bool fold_move(const char* p, const char* end, FoldedMove& out);

// The whole text folded, blanks dropped, for read_move; `piece_word` tells whether a
// non-ASCII word named the piece.
std::string fold_words(std::string_view text, bool& piece_word);

}  // namespace qipu::fold
