// Builds the attack tables (qipu/core/bitboard.hpp) and prints them as a C++ source that
// defines qipu::detail::tables as constants: the program then maps them from its file on
// demand. Built at every start they took 2.3 ms (timed alone), most of it zeroing and
// faulting in 940 KB of fresh memory; qipu --version took 11.0 CPU-ms then, 6.4 now.
// Run at build time (CMakeLists.txt):
//   make_attack_tables OUTPUT.cpp
// Exits 1 when it cannot write OUTPUT.cpp.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>

#include "qipu/core/bitboard.hpp"

namespace qipu {

using detail::Tables;

namespace {

struct Direction {
  int file, rank;
};
constexpr Direction RookDirs[4] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
constexpr Direction BishopDirs[4] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

// The squares from s towards d, up to the edge.
Bitboard ray(Square s, Direction d) {
  Bitboard result = 0;
  for (int f = file_of(s) + d.file, r = rank_of(s) + d.rank; f >= 0 && f < 8 && r >= 0 && r < 8;
       f += d.file, r += d.rank)
    result |= square_bb(make_square(f, r));
  return result;
}

// One kind of slider's rays from every square. Its attacks are then a few operations a
// direction, not a walk: the ray loses what lies beyond its first occupied square, the
// nearest set bit (the lowest on a ray going up the board, else the highest). The
// magic tables are filled with these, over 100,000 occupancies at start-up.
struct Slider {
  Bitboard rays[4][64];
  bool up[4];

  explicit Slider(const Direction* dirs) {
    for (int d = 0; d < 4; ++d) {
      up[d] = dirs[d].rank > 0 || (dirs[d].rank == 0 && dirs[d].file > 0);
      for (int s = 0; s < 64; ++s) rays[d][s] = ray(Square(s), dirs[d]);
    }
  }

  [[nodiscard]] Bitboard attacks(Square s, Bitboard occ) const {
    Bitboard result = 0;
    for (int d = 0; d < 4; ++d) {
      Bitboard r = rays[d][s], blockers = r & occ;
      if (blockers) r ^= rays[d][up[d] ? lsb(blockers) : Square(63 - std::countl_zero(blockers))];
      result |= r;
    }
    return result;
  }
};

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

// Finds a magic for each square by trial, filling the shared attack table: a few
// milliseconds, once a build.
void init_magics(detail::Magic* magics, Bitboard* table, const Slider& slider) {
  Bitboard occupancy[4096], reference[4096];
  int epoch[4096] = {}, attempt = 0;
  Prng rng{0x9E3779B97F4A7C15ULL};
  Bitboard* next_table = table;
  for (int sq = 0; sq < 64; ++sq) {
    Square s = Square(sq);
    Bitboard edges = ((Rank1 | rank_bb(7)) & ~rank_bb(rank_of(s))) | ((FileA | file_bb(7)) & ~file_bb(file_of(s)));
    detail::Magic& m = magics[sq];
    m.mask = slider.attacks(s, 0) & ~edges;
    m.shift = 64 - popcount(m.mask);
    m.attacks = next_table;
    int size = 0;
    Bitboard b = 0;
    do {  // Carry-Rippler: every subset of the mask
      occupancy[size] = b;
      reference[size++] = slider.attacks(s, b);
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
  const Slider rook(RookDirs), bishop(BishopDirs);
  for (int s = 0; s < 64; ++s) {
    t->rook_rays[s] = rook.attacks(Square(s), 0);
    t->bishop_rays[s] = bishop.attacks(Square(s), 0);
  }
  for (Color c : {White, Black})
    for (int s = 0; s < 64; ++s) {
      auto& rays = t->piece_rays;
      rays[make_piece(c, Pawn)][s] = t->pawn[c][s];
      rays[make_piece(c, Knight)][s] = t->knight[s];
      rays[make_piece(c, Bishop)][s] = t->bishop_rays[s];
      rays[make_piece(c, Rook)][s] = t->rook_rays[s];
      rays[make_piece(c, Queen)][s] = t->rook_rays[s] | t->bishop_rays[s];
      rays[make_piece(c, King)][s] = t->king[s];
    }
  init_magics(t->rook, t->rook_table, rook);
  init_magics(t->bishop, t->bishop_table, bishop);
  for (int a = 0; a < 64; ++a)
    for (int b = 0; b < 64; ++b) {
      Square sa = Square(a), sb = Square(b);
      t->between[a][b] = square_bb(sb);
      t->line[a][b] = 0;
      if (a == b) continue;
      for (const Slider* slider : {&rook, &bishop}) {
        Bitboard full = slider->attacks(sa, 0);
        if (!(full & square_bb(sb))) continue;
        // Both pieces as blockers: the overlap of their rays is what lies between.
        t->between[a][b] |= slider->attacks(sa, square_bb(sb)) & slider->attacks(sb, square_bb(sa));
        t->line[a][b] = (full & slider->attacks(sb, 0)) | square_bb(sa) | square_bb(sb);
      }
    }
  return t;
}

// Printing, in the order and with the names of detail::Tables' members, so that a member
// moved or renamed there without a change here fails to compile; one added fails the
// source's check of the size.
void print(std::ostream& out, Bitboard b) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%016llxULL", static_cast<unsigned long long>(b));
  out << text;
}

template <std::size_t N>
void print(std::ostream& out, const Bitboard (&a)[N]) {
  out << '{';
  for (std::size_t i = 0; i < N; ++i) {
    if (i % 4 == 0) out << '\n';
    print(out, a[i]);
    out << ',';
  }
  out << "}";
}

template <std::size_t N, std::size_t M>
void print(std::ostream& out, const Bitboard (&a)[N][M]) {
  out << '{';
  for (const auto& row : a) {
    print(out, row);
    out << ",\n";
  }
  out << '}';
}

void print(std::ostream& out, const detail::Magic (&magics)[64], const Bitboard* table, const char* table_name) {
  out << "{\n";
  for (const auto& m : magics) {
    out << "{.mask = ";
    print(out, m.mask);
    out << ", .magic = ";
    print(out, m.magic);
    out << ", .attacks = attack_tables." << table_name << " + " << (m.attacks - table) << ", .shift = " << m.shift
        << "},\n";
  }
  out << '}';
}

std::string source(const Tables& t) {
  std::ostringstream out;
  out << "// Made at build time by src/core/gen/make_attack_tables.cpp: do not edit.\n"
         "#include \"qipu/core/bitboard.hpp\"\n\n"
         "namespace qipu::detail {\n\n"
         "constinit const Tables attack_tables = {\n";
  std::string sizes;  // of the members printed
  auto name = [&](const char* member) {
    out << "." << member << " = ";
    sizes += std::string(sizes.empty() ? "" : " + ") + "sizeof(Tables::" + member + ")";
  };
  auto member = [&](const char* member, const auto& value) {
    name(member);
    print(out, value);
    out << ",\n";
  };
  member("pawn", t.pawn);
  member("knight", t.knight);
  member("king", t.king);
  member("between", t.between);
  member("line", t.line);
  member("rook_rays", t.rook_rays);
  member("bishop_rays", t.bishop_rays);
  member("piece_rays", t.piece_rays);
  name("rook");
  print(out, t.rook, t.rook_table, "rook_table");
  out << ",\n";
  name("bishop");
  print(out, t.bishop, t.bishop_table, "bishop_table");
  out << ",\n";
  member("rook_table", t.rook_table);
  member("bishop_table", t.bishop_table);
  out << "};\nstatic_assert(sizeof(Tables) == " << sizes
      << ", \"a member of Tables that make_attack_tables does not print\");\n\n"
      << "const Tables& tables = attack_tables;\n\n}  // namespace qipu::detail\n";
  return out.str();
}

}  // namespace

}  // namespace qipu

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: make_attack_tables OUTPUT.cpp\n";
    return 1;
  }
  std::string text = qipu::source(*qipu::build_tables());
  std::ofstream out(argv[1], std::ios::binary);
  out << text;
  out.close();
  if (!out) {
    std::cerr << "make_attack_tables: cannot write " << argv[1] << "\n";
    std::remove(argv[1]);  // no half-written source for the next build to compile
    return 1;
  }
}
