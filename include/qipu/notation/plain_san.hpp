// The reader's path for the shapes nearly every move has, [NBRQK][file][rank][x]square
// [=NBRQ][+#] (a pawn names a file only to capture). Inline, so the token loop calls no
// function for the usual token; parse_san reads all the rest and gives the same San for
// these.
#pragma once

#include <cstddef>
#include <cstdint>

#include "qipu/notation/san.hpp"

namespace qipu {

namespace plain_san {

// The square two bytes name, as in "e4", or NoSquare: one load where two range tests and
// the square's arithmetic ran for every token. Indexed by the first byte plus the second
// times 256; the 64 used entries fill 8 cache lines, one a rank.
struct SquareTable {
  std::uint8_t sq[1 << 16];
  constexpr SquareTable() : sq{} {
    for (auto& s : sq) s = NoSquare;
    for (int f = 0; f < 8; ++f)
      for (int r = 0; r < 8; ++r) sq[('a' + f) | ('1' + r) << 8] = make_square(f, r);
  }
};
inline constexpr SquareTable kSquares;
inline Square square_at(const char* s) { return Square(kSquares.sq[std::uint8_t(s[0]) | std::uint8_t(s[1]) << 8]); }

// The piece a token's first byte names, Pawn for any byte that is not N B R Q K.
struct LeadTable {
  PieceType piece[256];
  constexpr LeadTable() : piece{} {
    for (auto& p : piece) p = Pawn;
    piece[std::size_t{'N'}] = Knight, piece[std::size_t{'B'}] = Bishop, piece[std::size_t{'R'}] = Rook;
    piece[std::size_t{'Q'}] = Queen, piece[std::size_t{'K'}] = King;
  }
};
inline constexpr LeadTable kLead;

// What a byte after a square may begin: more of the board part (the square was the
// origin: Qh4e1, Qh4xe1) or the signs (=Q, +, #). Most tokens end after their first
// square, which one load tells.
enum : std::uint8_t { kMoreBoard = 1, kSign = 2 };
struct FollowTable {
  std::uint8_t f[256];
  constexpr FollowTable() : f{} {
    for (int c = 'a'; c <= 'h'; ++c) f[c] = kMoreBoard;
    f[std::size_t{'x'}] = kMoreBoard;
    f[std::size_t{'='}] = f[std::size_t{'+'}] = f[std::size_t{'#'}] = kSign;
  }
  constexpr std::uint8_t operator[](char c) const { return f[std::uint8_t(c)]; }
};
inline constexpr FollowTable kFollow;

// The less usual parts, out of line (san.cpp): where the target square or the signs end,
// nullptr when the token is not plain.
const char* read_origin(const char* q, PieceType piece, San& san);
const char* read_signs(const char* q, PieceType piece, San& san);

// The longest plain token and the byte after it take 8 bytes: with those at hand no read
// needs a bound check.
inline constexpr std::ptrdiff_t kWindow = 8;

inline std::size_t read_window(const char* p, San& san) {
  san = San{};
  PieceType piece = Pawn;
  const char* q = p;
  // A branch, not q = p + (piece != Pawn): the next token's start would wait on the table.
  if (*q >= 'B' && *q <= 'R') {
    piece = kLead.piece[std::uint8_t(*q++)];
    if (piece == Pawn) return 0;  // not N B R Q K
    san.piece = piece;
  }
  Square to = square_at(q);
  if (to == NoSquare || kFollow[q[2]] & kMoreBoard) {  // not the usual Nf3 or e4
    q = read_origin(q, piece, san);
    if (!q || (to = square_at(q)) == NoSquare) return 0;
  }
  san.to = to;
  q += 2;
  if (kFollow[*q] & kSign) q = read_signs(q, piece, san);
  return q ? static_cast<std::size_t>(q - p) : 0;
}

// Near the end of the text: a copy padded with NULs, which no token contains.
std::size_t read_near_end(const char* p, const char* end, San& san);

}  // namespace plain_san

// The plain SAN at the start of a text: its length (0 if none), which the caller checks
// ends the token, and its reading in `san`.
inline std::size_t read_plain_san(const char* p, const char* end, San& san) {
  if (end - p >= plain_san::kWindow) return plain_san::read_window(p, san);
  return plain_san::read_near_end(p, end, san);
}

}  // namespace qipu
