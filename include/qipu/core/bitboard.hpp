// Bitboards and attack tables. Sliding attacks use "fancy" magic bitboards. The tables
// are constants, built when qipu is built (src/core/gen/make_attack_tables.cpp).
#pragma once

#include <bit>
#include <cstdint>

#include "qipu/core/types.hpp"

namespace qipu {

constexpr Bitboard square_bb(Square s) { return Bitboard(1) << s; }
constexpr Bitboard FileA = 0x0101010101010101ULL;
constexpr Bitboard Rank1 = 0xFFULL;
constexpr Bitboard file_bb(int f) { return FileA << f; }
constexpr Bitboard rank_bb(int r) { return Rank1 << (8 * r); }
constexpr Bitboard DarkSquares = 0xAA55AA55AA55AA55ULL;

inline int popcount(Bitboard b) { return std::popcount(b); }
inline Square lsb(Bitboard b) { return Square(std::countr_zero(b)); }
inline Square pop_lsb(Bitboard& b) {
  Square s = lsb(b);
  b &= b - 1;
  return s;
}
constexpr bool more_than_one(Bitboard b) { return b & (b - 1); }

// Shift a whole bitboard one step north (towards rank 8) or south, with no wrap.
template <Color C>
constexpr Bitboard pawn_push(Bitboard b) {
  return C == White ? b << 8 : b >> 8;
}

namespace detail {
struct Magic {
  Bitboard mask;
  Bitboard magic;
  const Bitboard* attacks;
  unsigned shift;
  [[nodiscard]] unsigned index(Bitboard occupied) const { return unsigned(((occupied & mask) * magic) >> shift); }
};
struct Tables {
  Bitboard pawn[2][64];
  Bitboard knight[64];
  Bitboard king[64];
  Bitboard between[64][64];  // squares strictly between, plus the second square
  Bitboard line[64][64];     // the full line through both squares, or 0
  Bitboard rook_rays[64];    // rook attacks on an empty board
  Bitboard bishop_rays[64];
  Bitboard piece_rays[16][64];  // by Piece: what it attacks on an empty board (pawns by colour)
  Magic rook[64];
  Magic bishop[64];
  Bitboard rook_table[0x19000];
  Bitboard bishop_table[0x1480];
};
extern const Tables& tables;
}  // namespace detail

inline Bitboard pawn_attacks(Color c, Square s) { return detail::tables.pawn[c][s]; }
inline Bitboard knight_attacks(Square s) { return detail::tables.knight[s]; }
inline Bitboard king_attacks(Square s) { return detail::tables.king[s]; }
inline Bitboard empty_board_attacks(Piece p, Square s) { return detail::tables.piece_rays[p][s]; }
inline Bitboard rook_attacks(Square s, Bitboard occ) {
  const auto& m = detail::tables.rook[s];
  return m.attacks[m.index(occ)];
}
inline Bitboard bishop_attacks(Square s, Bitboard occ) {
  const auto& m = detail::tables.bishop[s];
  return m.attacks[m.index(occ)];
}
inline Bitboard queen_attacks(Square s, Bitboard occ) { return rook_attacks(s, occ) | bishop_attacks(s, occ); }
// Squares strictly between a and b when aligned, plus b itself (so it serves as a
// check mask: block or capture). Just b when not aligned.
inline Bitboard between_bb(Square a, Square b) { return detail::tables.between[a][b]; }
// The whole rank, file or diagonal through a and b; 0 when they are not aligned.
inline Bitboard line_bb(Square a, Square b) { return detail::tables.line[a][b]; }

// The sliders among `rooks` (moving as rooks) and `bishops` (as bishops) that reach s
// through `occ`, tested one by one on the small between-table. Replay asks about
// scattered squares, where the large magic tables miss the cache; there are seldom more
// than two sliders on s's lines. The sliders must stand in occ: a slider x reaches s
// when between_bb(s, x) & occ is x alone.
inline Bitboard sliders_reaching(Square s, Bitboard rooks, Bitboard bishops, Bitboard occ) {
  Bitboard result = 0;
  for (Bitboard b = (detail::tables.rook_rays[s] & rooks) | (detail::tables.bishop_rays[s] & bishops); b;) {
    Bitboard path = between_bb(s, pop_lsb(b)) & occ;
    if (!more_than_one(path)) result |= path;
  }
  return result;
}

inline Bitboard attacks_of(PieceType t, Square s, Bitboard occ) {
  switch (t) {
    case Knight: return knight_attacks(s);
    case Bishop: return bishop_attacks(s, occ);
    case Rook: return rook_attacks(s, occ);
    case Queen: return queen_attacks(s, occ);
    case King: return king_attacks(s);
    default: return 0;
  }
}

}  // namespace qipu
