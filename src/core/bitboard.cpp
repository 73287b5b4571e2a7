#include "qipu/core/bitboard.hpp"

#include <memory>

namespace qipu {

std::string square_name(Square s) {
  if (!is_ok(s)) return "-";
  return {char('a' + file_of(s)), char('1' + rank_of(s))};
}

namespace {

// Walks from s in each direction until the edge or an occupied square (inclusive).
Bitboard slide(Square s, Bitboard occ, const int (*dirs)[2]) {
  Bitboard result = 0;
  for (int d = 0; d < 4; ++d) {
    int f = file_of(s) + dirs[d][0], r = rank_of(s) + dirs[d][1];
    while (f >= 0 && f < 8 && r >= 0 && r < 8) {
      Square t = make_square(f, r);
      result |= square_bb(t);
      if (occ & square_bb(t)) break;
      f += dirs[d][0];
      r += dirs[d][1];
    }
  }
  return result;
}
constexpr int RookDirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
constexpr int BishopDirs[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

Bitboard step_attacks(Square s, const int (*steps)[2], int n) {
  Bitboard b = 0;
  for (int i = 0; i < n; ++i) {
    int f = file_of(s) + steps[i][0], r = rank_of(s) + steps[i][1];
    if (f >= 0 && f < 8 && r >= 0 && r < 8) b |= square_bb(make_square(f, r));
  }
  return b;
}

// xorshift64* — deterministic, so magics are the same on every run.
struct Prng {
  std::uint64_t s;
  std::uint64_t next() {
    s ^= s >> 12, s ^= s << 25, s ^= s >> 27;
    return s * 2685821657736338717ULL;
  }
  std::uint64_t sparse() { return next() & next() & next(); }
};

// Finds a magic for each square by trial, filling the shared attack table.
void init_magics(detail::Magic* magics, Bitboard* table, const int (*dirs)[2]) {
  Bitboard occupancy[4096], reference[4096];
  int epoch[4096] = {}, attempt = 0;
  Prng rng{0x9E3779B97F4A7C15ULL};
  Bitboard* next_table = table;
  for (int sq = 0; sq < 64; ++sq) {
    Square s = Square(sq);
    Bitboard edges = ((Rank1 | rank_bb(7)) & ~rank_bb(rank_of(s))) |
                     ((FileA | file_bb(7)) & ~file_bb(file_of(s)));
    detail::Magic& m = magics[sq];
    m.mask = slide(s, 0, dirs) & ~edges;
    m.shift = 64 - popcount(m.mask);
    m.attacks = next_table;
    int size = 0;
    Bitboard b = 0;
    do {  // Carry-Rippler: every subset of the mask
      occupancy[size] = b;
      reference[size++] = slide(s, b, dirs);
      b = (b - m.mask) & m.mask;
    } while (b);
    Bitboard* slot = next_table;
    for (int i = 0; i < size;) {
      do m.magic = rng.sparse();
      while (popcount((m.magic * m.mask) >> 56) < 6);
      ++attempt;
      for (i = 0; i < size; ++i) {
        unsigned idx = m.index(occupancy[i]);
        if (epoch[idx] < attempt) {
          epoch[idx] = attempt;
          slot[idx] = reference[i];
        } else if (slot[idx] != reference[i]) {
          break;
        }
      }
    }
    next_table += size;
  }
}

std::unique_ptr<detail::Tables> build_tables() {
  auto t = std::make_unique<detail::Tables>();
  constexpr int KnightSteps[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
  constexpr int KingSteps[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
  constexpr int WhitePawnSteps[2][2] = {{-1, 1}, {1, 1}};
  constexpr int BlackPawnSteps[2][2] = {{-1, -1}, {1, -1}};
  for (int s = 0; s < 64; ++s) {
    t->knight[s] = step_attacks(Square(s), KnightSteps, 8);
    t->king[s] = step_attacks(Square(s), KingSteps, 8);
    t->pawn[White][s] = step_attacks(Square(s), WhitePawnSteps, 2);
    t->pawn[Black][s] = step_attacks(Square(s), BlackPawnSteps, 2);
  }
  init_magics(t->rook, t->rook_table, RookDirs);
  init_magics(t->bishop, t->bishop_table, BishopDirs);
  for (int a = 0; a < 64; ++a)
    for (int b = 0; b < 64; ++b) {
      Square sa = Square(a), sb = Square(b);
      t->between[a][b] = square_bb(sb);
      t->line[a][b] = 0;
      if (a == b) continue;
      for (const auto* dirs : {RookDirs, BishopDirs}) {
        Bitboard full = slide(sa, 0, dirs);
        if (!(full & square_bb(sb))) continue;
        // Both pieces as blockers: the overlap of their rays is what lies between.
        t->between[a][b] |= slide(sa, square_bb(sb), dirs) & slide(sb, square_bb(sa), dirs);
        t->line[a][b] = (full & slide(sb, 0, dirs)) | square_bb(sa) | square_bb(sb);
      }
    }
  return t;
}

}  // namespace

namespace detail {
const Tables& tables = *build_tables().release();
}

Bitboard attacks_of(PieceType t, Square s, Bitboard occ) {
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
