#include "move_order.hpp"

#include <algorithm>

#include "qipu/board/movegen.hpp"

namespace qipu::db {

namespace {

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

// The tables for each side to move, Black's mirrored, and weighted.
struct QuietTables {
  std::int16_t to[2][7][64], from[2][7][64];
};
constexpr QuietTables make_tables() {
  QuietTables t{};
  for (int c = 0; c < 2; ++c)
    for (int p = 0; p < 7; ++p)
      for (int s = 0; s < 64; ++s) {
        int seen = c == 0 ? s : s ^ 56;
        t.to[c][p][s] = std::int16_t(SquareWeight * QuietTo[p][seen]);
        t.from[c][p][s] = std::int16_t(SquareWeight * QuietFrom[p][seen]);
      }
  return t;
}
constexpr QuietTables Quiet = make_tables();

Bitboard pawn_attack_set(Color c, Bitboard pawns) {
  constexpr Bitboard NotFileA = ~file_bb(0), NotFileH = ~file_bb(7);
  if (c == White) return ((pawns << 7) & NotFileH) | ((pawns << 9) & NotFileA);
  return ((pawns >> 9) & NotFileH) | ((pawns >> 7) & NotFileA);
}

Bitboard push(Color c, Bitboard b) { return c == White ? b << 8 : b >> 8; }

}  // namespace

// What the side's pieces other than pawns and king attack, piece by piece into `out`
// when given; returns the union.
Bitboard MoveOrder::piece_attacks(Color c, Mover* out, int* count) const {
  Bitboard occ = pos_.pieces(), all = 0;
  for (PieceType t : {Knight, Bishop, Rook, Queen})
    for (Bitboard b = pos_.pieces(c, t); b;) {
      Square s = pop_lsb(b);
      Bitboard a = t == Knight ? knight_attacks(s) : t == Bishop ? bishop_attacks(s, occ)
                 : t == Rook ? rook_attacks(s, occ) : queen_attacks(s, occ);
      all |= a;
      if (out) out[(*count)++] = {s, t, a};
    }
  return all;
}

MoveOrder::MoveOrder(const Position& pos) : pos_(pos), us_(pos.side_to_move()) {
  Color them = ~us_;
  Square king = pos.king(us_), their_king = pos.king(them);
  Bitboard pawn_guarded = pawn_attack_set(them, pos.pieces(them, Pawn));
  enemy_attacks_ = pawn_guarded | king_attacks(their_king) | piece_attacks(them, nullptr, nullptr);
  Bitboard defended = pawn_attack_set(us_, pos.pieces(us_, Pawn)) | king_attacks(king) | piece_attacks(us_, movers_, &mover_count_);
  if (enemy_attacks_ & square_bb(king)) {  // then candidates are filtered for legality
    Bitboard checkers = pos.checkers();
    in_check_ = true;
    evasions_ = more_than_one(checkers) ? 0 : between_bb(king, lsb(checkers));
    pinned_ = pos.pinned(us_);
  }
  pawn_loss_ = enemy_attacks_ & ~defended;
  unsafe_ = pawn_loss_ | pawn_guarded;
  threatened_ = enemy_attacks_ & pos.pieces(us_) & ~pos.pieces(Pawn, King);
  Bitboard occ = pos.pieces();
  checks_[NoPieceType] = checks_[King] = 0;
  checks_[Pawn] = pawn_attack_set(them, square_bb(their_king));
  checks_[Knight] = knight_attacks(their_king);
  checks_[Bishop] = bishop_attacks(their_king, occ);
  checks_[Rook] = rook_attacks(their_king, occ);
  checks_[Queen] = checks_[Bishop] | checks_[Rook];
}

// Scores, higher likelier, for the moves of one piece (not a pawn) from `from`.
template <class F>
void MoveOrder::piece_moves(PieceType t, Square from, Bitboard dests, F&& f) const {
  // Locals, not members, in the loop: the callback's stores could alias members.
  const int value = PieceValue[t], unsafe_cost = value / 3;
  const int base = Quiet.from[us_][t][from] + ((threatened_ & square_bb(from)) ? value / 5 : 0);
  const std::int16_t* to_value = Quiet.to[us_][t];
  const Bitboard checks = checks_[t], unsafe = unsafe_;
  for (Bitboard b = dests & ~pos_.pieces(); b;) {
    Square to = pop_lsb(b);
    Bitboard bb = square_bb(to);
    f(Move(from, to), base + to_value[to] + ((checks & bb) ? Check : 0) - ((unsafe & bb) ? unsafe_cost : 0));
  }
  for (Bitboard b = dests & pos_.pieces(~us_); b;) {
    Square to = pop_lsb(b);
    f(Move(from, to), capture_score(type_of(pos_.piece_on(to)), value, to));
  }
}

// What a capture wins, the capturer lost when the victim is guarded.
int MoveOrder::capture_score(PieceType victim, int capturer_value, Square to) const {
  Bitboard bb = square_bb(to);
  int gain = PieceValue[victim] - ((enemy_attacks_ & bb) ? capturer_value : 0);
  return Capture + std::max(gain, WorstCapture) + PieceValue[victim] / 10;
}

template <class F>
void MoveOrder::pawn_moves(F&& f) const {
  Bitboard pawns = pos_.pieces(us_, Pawn), empty = ~pos_.pieces(), enemies = pos_.pieces(~us_);
  Bitboard last = us_ == White ? rank_bb(7) : rank_bb(0), third = us_ == White ? rank_bb(2) : rank_bb(5);
  int up = us_ == White ? 8 : -8;
  const std::int16_t *to_value = Quiet.to[us_][Pawn], *from_value = Quiet.from[us_][Pawn];
  const Bitboard checks = checks_[Pawn], loss = pawn_loss_;
  auto emit = [&](Bitboard dests, int step) {
    for (Bitboard b = dests; b;) {
      Square to = pop_lsb(b), from = Square(to - step);
      Bitboard bb = square_bb(to);
      if (last & bb) {
        for (PieceType t : {Queen, Rook, Bishop, Knight})
          f(Move(from, to, MoveKind::Promotion, t), t == Queen ? 20000 : -20000 + t);
      } else if (enemies & bb) {
        f(Move(from, to), capture_score(type_of(pos_.piece_on(to)), PieceValue[Pawn], to));
      } else {
        f(Move(from, to), to_value[to] + from_value[from] + ((checks & bb) ? Check : 0) - ((loss & bb) ? PawnLoss : 0));
      }
    }
  };
  Bitboard single = push(us_, pawns) & empty;
  emit(single, up);
  emit(push(us_, single & third) & empty, 2 * up);
  emit(push(us_, pawns & ~file_bb(0)) >> 1 & enemies, up - 1);
  emit(push(us_, pawns & ~file_bb(7)) << 1 & enemies, up + 1);
  if (Square ep = pos_.ep_square(); ep != NoSquare)
    for (Bitboard b = pawn_attack_set(~us_, square_bb(ep)) & pawns; b;)
      f(Move(pop_lsb(b), ep, MoveKind::EnPassant), capture_score(Pawn, PieceValue[Pawn], ep));
}

// Every candidate with its score; in check only the legal ones.
template <class F>
void MoveOrder::for_each_candidate(F&& f) const {
  auto emit = [&](Move m, int score) {
    if (!in_check_ || evades(m)) f(m, score);
  };
  for (int i = 0; i < mover_count_; ++i) {
    Square from = movers_[i].from;
    piece_moves(movers_[i].type, from, movers_[i].attacks, emit);
  }
  Square k = pos_.king(us_);
  piece_moves(King, k, king_attacks(k) & ~enemy_attacks_, emit);
  if (!in_check_)
    for (bool long_side : {false, true}) {
      int idx = castling_index(us_, long_side);
      Square rook = pos_.castling_rook(idx);
      if (pos_.can_castle(std::uint8_t(1 << idx)) && pos_.castling_legal(k, rook)) f(Move(k, rook, MoveKind::Castling), Castle);
    }
  pawn_moves(emit);
}

// In check: a king move to a safe square, or a block or capture of a single checker by a
// piece that is not pinned (a pinned piece can never do either).
bool MoveOrder::evades(Move m) const {
  if (type_of(pos_.piece_on(m.from())) == King || m.kind() == MoveKind::EnPassant) return pos_.leaves_king_safe(m);
  return (evasions_ & square_bb(m.to())) && !(pinned_ & square_bb(m.from()));
}

// Lower comes first; ties go by the move's 16-bit value, so that the order never
// depends on the order moves are generated in.
int MoveOrder::keys(std::int64_t* out) const {
  int n = 0;
  for_each_candidate([&](Move m, int score) { out[n++] = (std::int64_t(-score) << 16) | m.raw(); });
  return n;
}

int MoveOrder::rank(Move m) const {
  std::int64_t k[MaxCandidates];
  int n = keys(k);
  auto mine = std::find_if(k, k + n, [&](std::int64_t key) { return (key & 0xFFFF) == m.raw(); });
  if (mine == k + n) return -1;
  return int(std::count_if(k, k + n, [&](std::int64_t key) { return key < *mine; }));
}

Move MoveOrder::at_rank(int rank) const {
  std::int64_t k[MaxCandidates];
  int n = keys(k);
  if (rank >= n) return Move::none();
  std::nth_element(k, k + rank, k + n);
  return Move(std::uint16_t(k[rank] & 0xFFFF));
}

}  // namespace qipu::db
