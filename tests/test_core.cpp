// Tests for src/core: value types, move encoding and the attack tables. Sliding attacks
// are checked against a plain ray walk written here, independent of the magic tables.
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "qipu/core/bitboard.hpp"
#include "qipu/core/types.hpp"

// One namespace a file: the test files compile several to a unit (CMakeLists.txt).
namespace test_core {

using namespace qipu;

namespace {

Bitboard bb(std::initializer_list<Square> squares) {
  Bitboard b = 0;
  for (Square s : squares) b |= square_bb(s);
  return b;
}

// Walks rays from s, stopping after the first occupied square, one direction at a time.
Bitboard walk(Square s, Bitboard occ, std::initializer_list<std::pair<int, int>> dirs) {
  Bitboard result = 0;
  for (auto [df, dr] : dirs) {
    int f = file_of(s) + df, r = rank_of(s) + dr;
    while (f >= 0 && f < 8 && r >= 0 && r < 8) {
      Square t = make_square(f, r);
      result |= square_bb(t);
      if (occ & square_bb(t)) break;
      f += df;
      r += dr;
    }
  }
  return result;
}
Bitboard rook_ref(Square s, Bitboard occ) { return walk(s, occ, {{1, 0}, {-1, 0}, {0, 1}, {0, -1}}); }
Bitboard bishop_ref(Square s, Bitboard occ) { return walk(s, occ, {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}); }

}  // namespace

TEST_CASE("squares: coordinates, names and flips", "[core]") {
  CHECK(make_square(0, 0) == A1);
  CHECK(make_square(7, 7) == H8);
  CHECK(make_square(4, 3) == E4);
  CHECK(file_of(E4) == 4);
  CHECK(rank_of(E4) == 3);
  CHECK(square_name(A1) == "a1");
  CHECK(square_name(E4) == "e4");
  CHECK(square_name(H8) == "h8");
  CHECK(square_name(NoSquare) == "-");
  CHECK(flip_rank(A1) == A8);
  CHECK(flip_rank(E2) == E7);
  CHECK(relative_rank(White, E2) == 1);
  CHECK(relative_rank(Black, E7) == 1);
  CHECK(relative_rank(Black, A8) == 0);
  CHECK(is_ok(H8));
  CHECK_FALSE(is_ok(NoSquare));
  for (int s = 0; s < 64; ++s) {
    Square sq = Square(s);
    CHECK(make_square(file_of(sq), rank_of(sq)) == sq);
    CHECK(flip_rank(flip_rank(sq)) == sq);
  }
}

TEST_CASE("pieces: colour and type packing", "[core]") {
  CHECK(make_piece(White, Pawn) == WhitePawn);
  CHECK(make_piece(Black, King) == BlackKing);
  CHECK(make_piece(Black, Knight) == BlackKnight);
  for (Color c : {White, Black})
    for (PieceType t : {Pawn, Knight, Bishop, Rook, Queen, King}) {
      Piece p = make_piece(c, t);
      CHECK(color_of(p) == c);
      CHECK(type_of(p) == t);
    }
  CHECK(~White == Black);
  CHECK(~Black == White);
}

TEST_CASE("moves: 16-bit encoding round trips every field", "[core]") {
  Move m(E2, E4);
  CHECK(m.from() == E2);
  CHECK(m.to() == E4);
  CHECK(m.kind() == MoveKind::Normal);

  for (PieceType t : {Knight, Bishop, Rook, Queen}) {
    Move p(B7, A8, MoveKind::Promotion, t);
    CHECK(p.from() == B7);
    CHECK(p.to() == A8);
    CHECK(p.kind() == MoveKind::Promotion);
    CHECK(p.promotion() == t);
  }
  Move ep(E5, D6, MoveKind::EnPassant);
  CHECK(ep.kind() == MoveKind::EnPassant);
  CHECK(ep.to() == D6);
  Move castle(E1, H1, MoveKind::Castling);
  CHECK(castle.kind() == MoveKind::Castling);
  CHECK(castle.from() == E1);
  CHECK(castle.to() == H1);

  CHECK(Move::none().is_none());
  CHECK_FALSE(Move::none().is_null());
  CHECK(Move::null().is_null());
  CHECK_FALSE(Move::null().is_none());
  CHECK(Move(Move(G1, F3).raw()) == Move(G1, F3));
  CHECK_FALSE(Move(G1, F3) == Move(G1, H3));
  // The null move's encoding (b1-b1) cannot come from a real move, and differs from every
  // other from/to pair.
  for (int f = 0; f < 64; ++f)
    for (int t = 0; t < 64; ++t)
      if (f != t) CHECK_FALSE(Move(Square(f), Square(t)).is_null());
}

TEST_CASE("bitboards: files, ranks, popcount and lsb", "[core]") {
  CHECK(file_bb(0) == bb({A1, A2, A3, A4, A5, A6, A7, A8}));
  CHECK(rank_bb(3) == bb({A4, B4, C4, D4, E4, F4, G4, H4}));
  CHECK(popcount(DarkSquares) == 32);
  CHECK((DarkSquares & square_bb(A1)));   // a1 is dark
  CHECK(!(DarkSquares & square_bb(H1)));  // h1 is light
  CHECK((DarkSquares & square_bb(H8)));
  CHECK(!(DarkSquares & square_bb(D1)));  // the white queen starts on her colour: light d1
  CHECK((DarkSquares & square_bb(D8)));   // the black queen on dark d8
  Bitboard b = bb({C3, F6, H8});
  CHECK(popcount(b) == 3);
  CHECK(lsb(b) == C3);
  CHECK(pop_lsb(b) == C3);
  CHECK(pop_lsb(b) == F6);
  CHECK(pop_lsb(b) == H8);
  CHECK(b == 0);
  CHECK_FALSE(more_than_one(square_bb(D4)));
  CHECK(more_than_one(bb({D4, D5})));
  CHECK(pawn_push<White>(bb({A2, H7})) == bb({A3, H8}));
  CHECK(pawn_push<Black>(bb({A2, H7})) == bb({A1, H6}));
  CHECK(pawn_push<White>(square_bb(H8)) == 0);
}

TEST_CASE("attacks: leapers and pawns from hand-counted squares", "[core]") {
  CHECK(knight_attacks(A1) == bb({B3, C2}));
  CHECK(knight_attacks(H8) == bb({G6, F7}));
  CHECK(knight_attacks(D4) == bb({C2, E2, B3, F3, B5, F5, C6, E6}));
  CHECK(popcount(knight_attacks(B1)) == 3);
  CHECK(king_attacks(A1) == bb({A2, B1, B2}));
  CHECK(king_attacks(E4) == bb({D3, E3, F3, D4, F4, D5, E5, F5}));
  CHECK(pawn_attacks(White, E4) == bb({D5, F5}));
  CHECK(pawn_attacks(White, A2) == bb({B3}));
  CHECK(pawn_attacks(Black, E4) == bb({D3, F3}));
  CHECK(pawn_attacks(Black, H7) == bb({G6}));
  // 336 knight moves and 420 king moves on an empty board (sum over all squares).
  int knights = 0, kings = 0;
  for (int s = 0; s < 64; ++s) {
    knights += popcount(knight_attacks(Square(s)));
    kings += popcount(king_attacks(Square(s)));
  }
  CHECK(knights == 336);
  CHECK(kings == 420);
  CHECK(attacks_of(Knight, G1, 0) == knight_attacks(G1));
  CHECK(attacks_of(King, G1, 0) == king_attacks(G1));
  CHECK(attacks_of(Pawn, G1, 0) == 0);
}

TEST_CASE("attacks: sliders on an empty board and with blockers", "[core]") {
  CHECK(popcount(rook_attacks(A1, 0)) == 14);
  CHECK(popcount(rook_attacks(D4, 0)) == 14);
  CHECK(popcount(bishop_attacks(A1, 0)) == 7);
  CHECK(popcount(bishop_attacks(D4, 0)) == 13);
  CHECK(popcount(queen_attacks(D4, 0)) == 27);
  // Rook on d4 with blockers on d6 and b4: the blocker squares are included.
  Bitboard occ = bb({D6, B4, G7});
  CHECK(rook_attacks(D4, occ) == bb({D5, D6, C4, B4, E4, F4, G4, H4, D3, D2, D1}));
  CHECK(bishop_attacks(D4, occ) == bb({C5, B6, A7, E5, F6, G7, C3, B2, A1, E3, F2, G1}));
  CHECK(attacks_of(Rook, D4, occ) == rook_attacks(D4, occ));
  CHECK(attacks_of(Queen, D4, occ) == (rook_attacks(D4, occ) | bishop_attacks(D4, occ)));
}

TEST_CASE("attacks: magic lookups equal a plain ray walk for random occupancies", "[core]") {
  std::mt19937_64 rng(20240601);
  for (int s = 0; s < 64; ++s) {
    Square sq = Square(s);
    for (int i = 0; i < 300; ++i) {
      Bitboard occ = rng() & rng();  // about a quarter of the squares occupied
      if (i % 3 == 0) occ &= rng();  // and some sparser boards
      INFO("square " << square_name(sq) << " occupancy " << occ);
      REQUIRE(rook_attacks(sq, occ) == rook_ref(sq, occ));
      REQUIRE(bishop_attacks(sq, occ) == bishop_ref(sq, occ));
    }
    REQUIRE(rook_attacks(sq, ~Bitboard(0)) == rook_ref(sq, ~Bitboard(0)));
    REQUIRE(bishop_attacks(sq, ~Bitboard(0)) == bishop_ref(sq, ~Bitboard(0)));
  }
}

TEST_CASE("between and line tables", "[core]") {
  // between_bb: strictly between plus the second square; just the second when unaligned.
  CHECK(between_bb(A1, D1) == bb({B1, C1, D1}));
  CHECK(between_bb(D1, A1) == bb({C1, B1, A1}));
  CHECK(between_bb(A1, H8) == bb({B2, C3, D4, E5, F6, G7, H8}));
  CHECK(between_bb(E1, E2) == bb({E2}));
  CHECK(between_bb(A1, B3) == bb({B3}));  // a knight's step is not a line
  CHECK(between_bb(H1, A8) == bb({G2, F3, E4, D5, C6, B7, A8}));
  CHECK(line_bb(A1, C3) == bb({A1, B2, C3, D4, E5, F6, G7, H8}));
  CHECK(line_bb(C3, A1) == line_bb(A1, C3));
  CHECK(line_bb(E2, E7) == file_bb(4));
  CHECK(line_bb(B5, G5) == rank_bb(4));
  CHECK(line_bb(A1, B3) == 0);
  CHECK(line_bb(D4, D4) == 0);
  // Every aligned pair: between is the overlap of the two rays (both squares blocking), plus b.
  for (int a = 0; a < 64; ++a)
    for (int b = 0; b < 64; ++b) {
      if (a == b) continue;
      Square sa = Square(a), sb = Square(b);
      Bitboard occ = square_bb(sa) | square_bb(sb);
      Bitboard expect = square_bb(sb);
      if (rook_ref(sa, 0) & square_bb(sb))
        expect |= rook_ref(sa, occ) & rook_ref(sb, occ);
      else if (bishop_ref(sa, 0) & square_bb(sb))
        expect |= bishop_ref(sa, occ) & bishop_ref(sb, occ);
      REQUIRE(between_bb(sa, sb) == expect);
      bool aligned = (rook_ref(sa, 0) | bishop_ref(sa, 0)) & square_bb(sb);
      REQUIRE(bool(line_bb(sa, sb)) == aligned);
      if (aligned) REQUIRE(popcount(line_bb(sa, sb)) >= 2);
    }
}

}  // namespace test_core
