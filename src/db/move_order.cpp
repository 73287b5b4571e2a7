#include "move_order.hpp"

#include <algorithm>

namespace qipu::db {

namespace {

// The order, most likely first: queen promotions; captures by what they win (a defended
// victim costs the capturer), so that bad captures fall among the quiet moves; castling;
// quiet moves by how often players move that piece from and to those squares, lower
// when the piece would stand where it can be taken, higher when it escapes an attack;
// checks a little higher; under-promotions last.
constexpr int PieceValue[7] = {0, 100, 300, 320, 500, 900, 0};
constexpr int Castle = 300, Check = 40, Capture = 200, WorstCapture = -300, PawnLoss = 40, SquareWeight = 4;

// Quiet moves: 8 ln(played / available) for a piece type moving to, and from, each
// square seen from its own side (a1 its queen's rook's corner). Measured by
// bench/tools/codec_stats.cpp --learn on corpora other than the benchmark's.
constexpr std::int8_t QuietTo[7][64] = {
    {},
    {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
     -2, -4, 3, 5, 9, -2, -3, -3, -5, -4, 4, 12, 7, -1, -7, -7,
     6, 5, 2, 5, 8, 3, 5, 6, 8, 5, 6, 7, 6, 6, 5, 8,
     10, 9, 11, 10, 11, 10, 10, 10, 0, 0, 0, 0, 0, 0, 0, 0},
    {-13, -14, -5, -6, -6, 1, -15, -15, -9, -2, 2, 3, 2, 3, 1, -5,
     -10, 4, 9, 5, 5, 12, 7, -10, -4, -1, 3, 1, 2, 6, 1, -7,
     -3, -2, 6, 3, 4, 3, -4, 0, -4, -1, 1, 3, 0, 2, -3, 1,
     -6, -3, 1, -1, 1, -1, -3, -4, -10, -8, -8, -4, -2, -5, -6, -19},
    {-8, -6, -6, -2, -2, -4, -5, -19, 2, 8, 3, 1, 5, 2, 12, 3,
     2, 5, 1, 4, 4, 1, 5, -4, 1, 0, 1, 0, -2, 2, -2, 4,
     -4, 3, -1, -1, 0, -3, 3, -5, -16, -4, -2, -2, -2, -2, -6, -13,
     -13, -3, -5, -3, -5, -1, -6, -7, -15, -15, -5, -7, -6, -9, -7, -18},
    {-4, -4, 1, 2, 2, -3, -5, -2, -8, -2, -1, -1, -2, -2, 0, -6,
     -3, -1, -3, -3, -2, -1, 1, -1, -2, -3, -3, -2, -3, -1, -1, -2,
     0, 0, -1, -2, -1, -2, -2, -1, 3, 1, 0, 0, -3, -2, 0, 0,
     4, 3, 3, 2, 1, 1, 1, 2, 2, 1, 0, 0, 0, 0, 0, 2},
    {-3, -9, -7, -3, -6, -5, -4, -6, -4, -1, 1, -3, -1, 2, 0, -5,
     -2, -1, -1, -4, 0, 0, 4, 0, -2, -2, -3, -1, -2, 0, -3, 2,
     -4, -2, -1, -1, 1, -2, 0, -4, -4, -5, -1, 0, 1, -1, -4, -2,
     -2, 1, 1, -1, 1, 3, 0, 0, 0, 1, 0, 0, 1, 1, -1, 2},
    {-5, 1, -4, -6, -4, -5, -2, -7, -1, 2, 1, -5, -3, 1, 2, -1,
     -1, 2, 2, 3, 3, 3, 3, -2, -1, 1, 1, 3, 4, 3, 2, -2,
     -3, 2, 3, 2, 3, 3, 3, -2, -2, 1, 3, 2, 2, 4, 3, -3,
     -4, 2, 1, 1, -2, 2, 1, -2, -7, -2, 0, -3, -3, -2, -1, -9},
};
constexpr std::int8_t QuietFrom[7][64] = {
    {},
    {0, 0, 0, 0, 0, 0, 0, 0, -4, -4, 4, 11, 9, -2, -5, -5,
     -2, -2, 1, 2, 1, 1, -4, -3, 6, 5, 2, 5, 8, 3, 5, 6,
     8, 5, 6, 7, 6, 6, 5, 8, 10, 9, 11, 10, 11, 10, 10, 10,
     0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {10, 5, 5, 5, 5, 6, 8, 10, 7, 5, 2, 2, 4, 2, 4, 7,
     5, 1, -3, 0, -1, -3, 1, 6, 6, 2, 0, 0, 1, 0, 5, 6,
     5, 4, -1, -1, 0, 1, 3, 7, 4, 1, 0, 0, 2, 2, 2, 7,
     6, 7, 5, 4, 5, 5, 6, 9, 9, 6, 6, 7, 7, 9, 11, 11},
    {-1, 1, 3, 2, 1, 6, 1, -1, -3, -4, -3, -1, -2, -1, -7, -3,
     -2, -3, -3, -4, -3, -2, -3, 1, 6, -1, -1, -3, -2, -2, 1, 6,
     2, 2, -1, -2, -2, -1, 2, 3, 4, 0, -2, -1, 0, -1, 1, 2,
     5, 2, 1, 1, 1, 1, 2, 5, 4, 2, 3, 5, 2, 0, 2, 2},
    {0, -2, -3, -3, -3, 1, -1, -4, 0, 0, -1, 0, -1, -1, -1, 0,
     1, 0, 0, 0, 0, 0, -1, 1, 1, 0, 0, -1, 0, -1, 1, 1,
     0, 0, 0, 0, 0, 1, 1, 1, -1, -1, 0, 0, 1, 1, 0, 0,
     -1, -1, -1, -1, 0, 0, 0, -1, -1, 0, 0, 0, 0, 0, 0, 1},
    {1, 0, -1, -4, -1, 0, 0, 2, 1, -1, -4, -3, -3, -2, -2, 1,
     1, -2, -1, -2, -2, -2, -1, 0, 0, 1, 0, 0, -1, -1, 0, 1,
     1, 1, 0, 2, 0, 0, 1, 3, 1, 1, 1, 0, 0, -1, 1, 2,
     2, 1, 0, 1, 1, 2, 1, 2, 2, 0, 2, 2, 1, 1, 1, 3},
    {2, -1, 1, 2, -9, 3, -3, 2, 0, -1, 0, 0, 0, 0, -2, 0,
     2, -1, 0, 0, 0, 0, 0, 2, 1, 0, 0, 0, 1, 0, 0, 1,
     2, 0, 0, 0, 1, 1, 0, 2, 1, -1, 2, 0, 0, -2, -1, 2,
     0, -2, 0, -1, 0, -1, -3, -1, -2, 0, 1, 3, -2, 2, 1, 2},
};

Bitboard pawn_attack_set(Color c, Bitboard pawns) {
  constexpr Bitboard NotFileA = ~file_bb(0), NotFileH = ~file_bb(7);
  if (c == White) return ((pawns << 7) & NotFileH) | ((pawns << 9) & NotFileA);
  return ((pawns >> 9) & NotFileH) | ((pawns >> 7) & NotFileA);
}

Bitboard attack_set(const Position& pos, Color c) {
  Bitboard occ = pos.pieces(), all = pawn_attack_set(c, pos.pieces(c, Pawn));
  for (Bitboard b = pos.pieces(c) & ~pos.pieces(Pawn); b;) {
    Square s = pop_lsb(b);
    all |= attacks_of(type_of(pos.piece_on(s)), s, occ);
  }
  return all;
}

}  // namespace

MoveOrder::MoveOrder(const Position& pos)
    : pos_(pos),
      us_(pos.side_to_move()),
      pawn_guarded_(pawn_attack_set(~us_, pos.pieces(~us_, Pawn))),
      enemy_attacks_(attack_set(pos, ~us_)),
      defended_(attack_set(pos, us_)) {
  Square k = pos.king(~us_);
  Bitboard occ = pos.pieces();
  checks_[NoPieceType] = checks_[King] = 0;
  checks_[Pawn] = pawn_attack_set(~us_, square_bb(k));
  checks_[Knight] = knight_attacks(k);
  checks_[Bishop] = bishop_attacks(k, occ);
  checks_[Rook] = rook_attacks(k, occ);
  checks_[Queen] = checks_[Bishop] | checks_[Rook];
}

int MoveOrder::score(Move m) const {
  if (m.kind() == MoveKind::Castling) return Castle;
  if (m.kind() == MoveKind::Promotion) return m.promotion() == Queen ? 20000 : -20000 + m.promotion();
  PieceType mover = type_of(pos_.piece_on(m.from()));
  Bitboard to = square_bb(m.to());
  int value = PieceValue[mover], check = (checks_[mover] & to) ? Check : 0;
  PieceType victim = m.kind() == MoveKind::EnPassant ? Pawn : type_of(pos_.piece_on(m.to()));
  if (victim != NoPieceType) {
    int gain = PieceValue[victim] - ((enemy_attacks_ & to) ? value : 0);
    return Capture + std::max(gain, WorstCapture) + PieceValue[victim] / 10 + check;
  }
  Square from = us_ == White ? m.from() : flip_rank(m.from()), dest = us_ == White ? m.to() : flip_rank(m.to());
  int score = SquareWeight * (QuietTo[mover][dest] + QuietFrom[mover][from]) + check;
  bool safe = !(enemy_attacks_ & to) || ((defended_ & to) && !(pawn_guarded_ & to));
  if (mover == Pawn) return score - ((enemy_attacks_ & to) && !(defended_ & to) ? PawnLoss : 0);
  if (!safe) score -= value / 3;
  if ((enemy_attacks_ & square_bb(m.from())) && mover != King) score += value / 5;
  return score;
}

}  // namespace qipu::db
