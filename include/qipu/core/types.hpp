// Basic chess value types: colours, pieces, squares and moves.
#pragma once

#include <cstdint>
#include <string>

namespace qipu {

using Bitboard = std::uint64_t;
using Key = std::uint64_t;

enum Color : std::uint8_t { White, Black };
constexpr Color operator~(Color c) { return Color(c ^ 1); }

enum PieceType : std::uint8_t { NoPieceType, Pawn, Knight, Bishop, Rook, Queen, King };

// A piece is colour << 3 | type, so both halves are one shift or mask away.
enum Piece : std::uint8_t {
  NoPiece,
  WhitePawn = 1,
  WhiteKnight,
  WhiteBishop,
  WhiteRook,
  WhiteQueen,
  WhiteKing,
  BlackPawn = 9,
  BlackKnight,
  BlackBishop,
  BlackRook,
  BlackQueen,
  BlackKing,
};
constexpr Piece make_piece(Color c, PieceType t) { return Piece((c << 3) | t); }
constexpr PieceType type_of(Piece p) { return PieceType(p & 7); }
constexpr Color color_of(Piece p) { return Color(p >> 3); }

// Squares a1 = 0 … h8 = 63, rank-major.
enum Square : std::uint8_t {
  A1,
  B1,
  C1,
  D1,
  E1,
  F1,
  G1,
  H1,
  A2,
  B2,
  C2,
  D2,
  E2,
  F2,
  G2,
  H2,
  A3,
  B3,
  C3,
  D3,
  E3,
  F3,
  G3,
  H3,
  A4,
  B4,
  C4,
  D4,
  E4,
  F4,
  G4,
  H4,
  A5,
  B5,
  C5,
  D5,
  E5,
  F5,
  G5,
  H5,
  A6,
  B6,
  C6,
  D6,
  E6,
  F6,
  G6,
  H6,
  A7,
  B7,
  C7,
  D7,
  E7,
  F7,
  G7,
  H7,
  A8,
  B8,
  C8,
  D8,
  E8,
  F8,
  G8,
  H8,
  NoSquare = 64,
};
constexpr Square make_square(int file, int rank) { return Square(rank * 8 + file); }
constexpr int file_of(Square s) { return s & 7; }
constexpr int rank_of(Square s) { return s >> 3; }
// The same square seen from the other side of the board.
constexpr Square flip_rank(Square s) { return Square(s ^ 56); }
// Rank counted from the given side: relative_rank(Black, A8) == 0.
constexpr int relative_rank(Color c, Square s) { return c == White ? rank_of(s) : 7 - rank_of(s); }
constexpr bool is_ok(Square s) { return s < 64; }

std::string square_name(Square s);

// A move is 16 bits:
//   bits 0-5   destination square
//   bits 6-11  origin square
//   bits 12-13 promotion piece type minus Knight (Knight … Queen)
//   bits 14-15 kind: normal, promotion, en passant, castling
// Castling is stored as "king takes own rook" (origin = king, destination = rook),
// which serves standard chess and Chess960 alike.
enum class MoveKind : std::uint8_t { Normal, Promotion, EnPassant, Castling };

class Move {
 public:
  constexpr Move() = default;
  constexpr explicit Move(std::uint16_t raw) : raw_(raw) {}
  constexpr Move(Square from, Square to, MoveKind kind = MoveKind::Normal, PieceType promo = Knight)
      : raw_(std::uint16_t(to | (from << 6) | ((promo - Knight) << 12) | (unsigned(kind) << 14))) {}

  static constexpr Move none() { return Move(); }
  // The null move ("--" in PGN) passes the turn; from == to == b1 never occurs otherwise.
  static constexpr Move null() { return Move(65); }

  [[nodiscard]] constexpr Square from() const { return Square((raw_ >> 6) & 63); }
  [[nodiscard]] constexpr Square to() const { return Square(raw_ & 63); }
  [[nodiscard]] constexpr MoveKind kind() const { return MoveKind(raw_ >> 14); }
  [[nodiscard]] constexpr PieceType promotion() const { return PieceType(((raw_ >> 12) & 3) + Knight); }
  [[nodiscard]] constexpr std::uint16_t raw() const { return raw_; }
  [[nodiscard]] constexpr bool is_null() const { return raw_ == 65; }
  [[nodiscard]] constexpr bool is_none() const { return raw_ == 0; }
  constexpr bool operator==(const Move&) const = default;

 private:
  std::uint16_t raw_ = 0;
};

}  // namespace qipu
