#include "move_order.hpp"

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "qipu/board/movegen.hpp"

namespace qipu::db {

namespace {

constexpr int PieceValue[7] = {0, 100, 300, 320, 500, 900, 0};
constexpr int QueenPromotion = 20000, UnderPromotion = -20000;
constexpr int Castle = 300, Check = 40, Capture = 200, WorstCapture = -300, PawnLoss = 40, SquareWeight = 4;

// Quiet moves: 8 ln(played / available) for a piece type moving to, and from, each
// square seen from its own side (a1 its queen's rook's corner). Measured by
// bench/tools/codec_stats.cpp --learn on corpora other than the benchmark's.
constexpr std::int8_t QuietTo[7][64] = {
    {},
    {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -2, -4, 3,  5,  9,  -2, -3, -3, -5, -4, 4, 12, 7, -1, -7, -7,
     6, 5, 2, 5, 8, 3, 5, 6, 8, 5, 6, 7, 6, 6, 5, 8, 10, 9,  11, 10, 11, 10, 10, 10, 0,  0,  0, 0,  0, 0,  0,  0},
    {-13, -14, -5, -6, -6, 1,  -15, -15, -9, -2, 2,  3,  2,   3,  1,  -5, -10, 4,  9,  5,  5, 12,
     7,   -10, -4, -1, 3,  1,  2,   6,   1,  -7, -3, -2, 6,   3,  4,  3,  -4,  0,  -4, -1, 1, 3,
     0,   2,   -3, 1,  -6, -3, 1,   -1,  1,  -1, -3, -4, -10, -8, -8, -4, -2,  -5, -6, -19},
    {-8, -6, -6, -2,  -2,  -4, -5, -19, 2,  8,  3,  1,  5,   2,   12, 3,  2,  5,  1,   4,  4,  1,
     5,  -4, 1,  0,   1,   0,  -2, 2,   -2, 4,  -4, 3,  -1,  -1,  0,  -3, 3,  -5, -16, -4, -2, -2,
     -2, -2, -6, -13, -13, -3, -5, -3,  -5, -1, -6, -7, -15, -15, -5, -7, -6, -9, -7,  -18},
    {-4, -4, 1,  2,  2,  -3, -5, -2, -8, -2, -1, -1, -2, -2, 0,  -6, -3, -1, -3, -3, -2, -1,
     1,  -1, -2, -3, -3, -2, -3, -1, -1, -2, 0,  0,  -1, -2, -1, -2, -2, -1, 3,  1,  0,  0,
     -3, -2, 0,  0,  4,  3,  3,  2,  1,  1,  1,  2,  2,  1,  0,  0,  0,  0,  0,  2},
    {-3, -9, -7, -3, -6, -5, -4, -6, -4, -1, 1,  -3, -1, 2,  0, -5, -2, -1, -1, -4, 0,  0,
     4,  0,  -2, -2, -3, -1, -2, 0,  -3, 2,  -4, -2, -1, -1, 1, -2, 0,  -4, -4, -5, -1, 0,
     1,  -1, -4, -2, -2, 1,  1,  -1, 1,  3,  0,  0,  0,  1,  0, 0,  1,  1,  -1, 2},
    {-5, 1,  -4, -6, -4, -5, -2, -7, -1, 2,  1,  -5, -3, 1,  2, -1, -1, 2,  2,  3, 3, 3,
     3,  -2, -1, 1,  1,  3,  4,  3,  2,  -2, -3, 2,  3,  2,  3, 3,  3,  -2, -2, 1, 3, 2,
     2,  4,  3,  -3, -4, 2,  1,  1,  -2, 2,  1,  -2, -7, -2, 0, -3, -3, -2, -1, -9},
};
constexpr std::int8_t QuietFrom[7][64] = {
    {},
    {0, 0, 0, 0, 0, 0, 0, 0, -4, -4, 4,  11, 9,  -2, -5, -5, -2, -2, 1, 2, 1, 1, -4, -3, 6, 5, 2, 5, 8, 3, 5, 6,
     8, 5, 6, 7, 6, 6, 5, 8, 10, 9,  11, 10, 11, 10, 10, 10, 0,  0,  0, 0, 0, 0, 0,  0,  0, 0, 0, 0, 0, 0, 0, 0},
    {10, 5, 5,  5,  5, 6, 8, 10, 7, 5, 2, 2, 4, 2, 4, 7, 5, 1, -3, 0, -1, -3, 1, 6, 6, 2, 0, 0, 1, 0, 5,  6,
     5,  4, -1, -1, 0, 1, 3, 7,  4, 1, 0, 0, 2, 2, 2, 7, 6, 7, 5,  4, 5,  5,  6, 9, 9, 6, 6, 7, 7, 9, 11, 11},
    {-1, 1,  3, 2,  1,  6,  1,  -1, -3, -4, -3, -1, -2, -1, -7, -3, -2, -3, -3, -4, -3, -2,
     -3, 1,  6, -1, -1, -3, -2, -2, 1,  6,  2,  2,  -1, -2, -2, -1, 2,  3,  4,  0,  -2, -1,
     0,  -1, 1, 2,  5,  2,  1,  1,  1,  1,  2,  5,  4,  2,  3,  5,  2,  0,  2,  2},
    {0,  -2, -3, -3, -3, 1,  -1, -4, 0, 0, -1, 0,  -1, -1, -1, 0, 1, 0, 0,  0,  0, 0,
     -1, 1,  1,  0,  0,  -1, 0,  -1, 1, 1, 0,  0,  0,  0,  0,  1, 1, 1, -1, -1, 0, 0,
     1,  1,  0,  0,  -1, -1, -1, -1, 0, 0, 0,  -1, -1, 0,  0,  0, 0, 0, 0,  1},
    {1, 0, -1, -4, -1, 0, 0, 2, 1, -1, -4, -3, -3, -2, -2, 1, 1, -2, -1, -2, -2, -2, -1, 0, 0, 1, 0, 0, -1, -1, 0, 1,
     1, 1, 0,  2,  0,  0, 1, 3, 1, 1,  1,  0,  0,  -1, 1,  2, 2, 1,  0,  1,  1,  2,  1,  2, 2, 0, 2, 2, 1,  1,  1, 3},
    {2, -1, 1, 2, -9, 3, -3, 2, 0, -1, 0, 0, 0, 0,  -2, 0, 2, -1, 0, 0,  0, 0,  0,  2,  1,  0, 0, 0, 1,  0, 0, 1,
     2, 0,  0, 0, 1,  1, 0,  2, 1, -1, 2, 0, 0, -2, -1, 2, 0, -2, 0, -1, 0, -1, -3, -1, -2, 0, 1, 3, -2, 2, 1, 2},
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

// Quiet moves by value, for counting them a set at a time: per side and kind, the
// squares whose value is at least (i - 1 + LowestLevel) * SquareWeight, i from 0 (every
// square) to Levels + 1 (none). The kinds are the piece types, whose value is the
// to-square's; Pawn, a single push's to- and from-square values; and NoPieceType, a
// double push's.
constexpr int LowestLevel = -32, Levels = 64;
constexpr int quiet_value(int c, int kind, int to) {
  int up = c == White ? 8 : -8, from = to - (kind == NoPieceType ? 2 * up : up);
  if (kind > Pawn) return Quiet.to[c][kind][to];
  return from < 0 || from > 63 ? 0 : Quiet.to[c][Pawn][to] + Quiet.from[c][Pawn][from];
}
struct QuietLevels {
  Bitboard at_least[2][7][Levels + 2];
  int top[2][7];  // the highest value
};
constexpr QuietLevels make_levels() {
  QuietLevels t{};
  for (int c = 0; c < 2; ++c)
    for (int kind = 0; kind < 7; ++kind)
      for (int to = 0; to < 64; ++to) {
        int value = quiet_value(c, kind, to), level = value / SquareWeight - LowestLevel;
        if (level < 0 || level >= Levels) throw "a quiet value outside the levels";
        for (int i = 0; i <= level + 1; ++i) t.at_least[c][kind][i] |= Bitboard(1) << to;
        if (to == 0 || value > t.top[c][kind]) t.top[c][kind] = value;
      }
  return t;
}
constexpr QuietLevels Levelled = make_levels();

// Values are multiples of SquareWeight, a power of two, so that a level is a shift (which
// rounds down, negative values too) and a tie a mask.
static_assert(SquareWeight == 4);
constexpr int SquareShift = 2;

// Of the squares with these levels, those valued above x, and those valued x among `earlier`.
Bitboard valued_over(const Bitboard* at_least, int x, Bitboard earlier) {
  int level = std::clamp((x >> SquareShift) - LowestLevel, -1, Levels - 1);
  Bitboard ties = x & (SquareWeight - 1) ? 0 : earlier;
  return at_least[level + 2] | (at_least[level + 1] & ties);
}

// The squares below k.
Bitboard below(int k) { return k <= 0 ? 0 : k >= 64 ? ~Bitboard(0) : (Bitboard(1) << k) - 1; }

Bitboard pawn_attack_set(Color c, Bitboard pawns) {
  constexpr Bitboard NotFileA = ~file_bb(0), NotFileH = ~file_bb(7);
  if (c == White) return ((pawns << 7) & NotFileH) | ((pawns << 9) & NotFileA);
  return ((pawns >> 9) & NotFileH) | ((pawns >> 7) & NotFileA);
}

Bitboard push(Color c, Bitboard b) { return c == White ? b << 8 : b >> 8; }

template <PieceType T>
using Type = std::integral_constant<PieceType, T>;

// The order for one side to move, so that every table's side is known when compiled.
template <Color Us>
class Order {
 public:
  explicit Order(const Position& pos);
  [[nodiscard]] int rank(Move m) const;
  [[nodiscard]] Move at_rank(int rank) const;

 private:
  static constexpr Color Them = ~Us;
  template <class F>
  void for_each_candidate(F&& f) const;
  template <class F>
  void captures(PieceType t, Square from, Bitboard dests, F&& f) const;
  template <class F>
  void piece_moves(PieceType t, Square from, Bitboard dests, F&& f) const;
  template <class F>
  void castling_moves(F&& f) const;
  [[nodiscard]] bool castling_legal(Square k, Square rook) const;
  // Quiet: pushes too, else only captures and promotions; those other than en passant
  // only onto `reach`.
  template <bool Quiet, class F>
  void pawn_moves(F&& f, Bitboard reach = ~Bitboard(0)) const;
  [[nodiscard]] Bitboard single_pushes() const;
  [[nodiscard]] Bitboard double_pushes() const;
  [[nodiscard]] int beating(int mine, Move m) const;
  [[nodiscard]] int counted_before(int mine, Move m) const;
  [[nodiscard]] Bitboard quiet_beating(int kind, Bitboard dests, int base, Bitboard checks, Bitboard unsafe, int cost,
                                       int mine, Bitboard earlier) const;
  [[nodiscard]] int score(Move m) const;
  [[nodiscard]] int quiet_base(PieceType t, Square from) const;
  [[nodiscard]] int quiet_gain(PieceType t, Square to, Bitboard checks) const;
  [[nodiscard]] int pawn_push_score(Square from, Square to) const;
  [[nodiscard]] int capture_score(PieceType victim, int capturer_value, Square to) const;
  [[nodiscard]] bool evades(Move m) const;
  // Room for every candidate of any position a FEN may set up: 15 queens move to at most
  // 27 squares each, the king to 8, and it may castle twice.
  static constexpr int MaxCandidates = 15 * 27 + 8 + 2;

  struct Mover {
    Square from;
    Bitboard attacks;
  };
  template <bool Collect>
  Bitboard piece_attacks(Color c);
  // Calls f(Type<t>{}, from, attacks) for each of our pieces other than pawns and king,
  // so that the piece type is known when compiled.
  template <class F>
  void for_each_mover(F&& f) const;
  const Position& pos_;
  Mover movers_[15];  // our pieces other than pawns and king, by type, with what they attack
  int mover_count_ = 0;
  int type_end_[7] = {};  // where each type's movers end
  bool in_check_ = false;
  Bitboard evasions_ = 0;   // in check: squares that block or capture a single checker
  Bitboard pinned_ = 0;     // in check: our pinned pieces
  Bitboard enemy_attacks_;  // squares any enemy piece attacks
  Bitboard unsafe_;         // attacked and not defended, or guarded by an enemy pawn
  Bitboard pawn_loss_;      // attacked and not defended
  Bitboard threatened_;     // our pieces, other than the king and pawns, under attack
  Bitboard checks_[7];      // where each of our piece types would give check
};

int promotion_score(PieceType t) { return t == Queen ? QueenPromotion : UnderPromotion + t; }

// What the side's pieces other than pawns and king attack, piece by piece into movers_
// when asked (our side); returns the union. A loop per piece type, each with its own
// lookup, and inlined in both its uses, as this runs twice a position.
template <Color Us>
template <bool Collect>
[[gnu::always_inline]] inline Bitboard Order<Us>::piece_attacks(Color c) {
  const Bitboard occ = pos_.pieces();
  Bitboard all = 0;
  auto add = [&](Square s, Bitboard a) {
    all |= a;
    if constexpr (Collect) movers_[mover_count_++] = {s, a};
  };
  for (Bitboard b = pos_.pieces(c, Knight); b;) {
    Square s = pop_lsb(b);
    add(s, knight_attacks(s));
  }
  if constexpr (Collect) type_end_[Knight] = mover_count_;
  for (Bitboard b = pos_.pieces(c, Bishop); b;) {
    Square s = pop_lsb(b);
    add(s, bishop_attacks(s, occ));
  }
  if constexpr (Collect) type_end_[Bishop] = mover_count_;
  for (Bitboard b = pos_.pieces(c, Rook); b;) {
    Square s = pop_lsb(b);
    add(s, rook_attacks(s, occ));
  }
  if constexpr (Collect) type_end_[Rook] = mover_count_;
  for (Bitboard b = pos_.pieces(c, Queen); b;) {
    Square s = pop_lsb(b);
    add(s, queen_attacks(s, occ));
  }
  if constexpr (Collect) type_end_[Queen] = mover_count_;
  return all;
}

template <Color Us>
template <class F>
[[gnu::always_inline]] inline void Order<Us>::for_each_mover(F&& f) const {
  int i = 0;
  for (; i < type_end_[Knight]; ++i) f(Type<Knight>{}, movers_[i].from, movers_[i].attacks);
  for (; i < type_end_[Bishop]; ++i) f(Type<Bishop>{}, movers_[i].from, movers_[i].attacks);
  for (; i < type_end_[Rook]; ++i) f(Type<Rook>{}, movers_[i].from, movers_[i].attacks);
  for (; i < type_end_[Queen]; ++i) f(Type<Queen>{}, movers_[i].from, movers_[i].attacks);
}

template <Color Us>
Order<Us>::Order(const Position& pos) : pos_(pos) {
  Square king = pos.king(Us), their_king = pos.king(Them);
  Bitboard pawn_guarded = pawn_attack_set(Them, pos.pieces(Them, Pawn));
  enemy_attacks_ = pawn_guarded | king_attacks(their_king) | piece_attacks<false>(Them);
  Bitboard defended = pawn_attack_set(Us, pos.pieces(Us, Pawn)) | king_attacks(king) | piece_attacks<true>(Us);
  if (enemy_attacks_ & square_bb(king)) {  // then candidates are filtered for legality
    Bitboard checkers = pos.checkers();
    in_check_ = true;
    evasions_ = more_than_one(checkers) ? 0 : between_bb(king, lsb(checkers));
    pinned_ = pos.pinned(Us);
  }
  pawn_loss_ = enemy_attacks_ & ~defended;
  unsafe_ = pawn_loss_ | pawn_guarded;
  threatened_ = enemy_attacks_ & pos.pieces(Us) & ~pos.pieces(Pawn, King);
  Bitboard occ = pos.pieces();
  checks_[NoPieceType] = checks_[King] = 0;
  checks_[Pawn] = pawn_attack_set(Them, square_bb(their_king));
  checks_[Knight] = knight_attacks(their_king);
  checks_[Bishop] = bishop_attacks(their_king, occ);
  checks_[Rook] = rook_attacks(their_king, occ);
  checks_[Queen] = checks_[Bishop] | checks_[Rook];
}

// What a quiet move of a piece (not a pawn) scores for leaving `from`: how often the
// piece leaves it, more when it is under attack.
template <Color Us>
int Order<Us>::quiet_base(PieceType t, Square from) const {
  return Quiet.from[Us][t][from] + ((threatened_ & square_bb(from)) ? PieceValue[t] / 5 : 0);
}

// What it scores for arriving on `to`, given the destinations where it checks.
template <Color Us>
int Order<Us>::quiet_gain(PieceType t, Square to, Bitboard checks) const {
  Bitboard bb = square_bb(to);
  return Quiet.to[Us][t][to] + ((checks & bb) ? Check : 0) - ((unsafe_ & bb) ? PieceValue[t] / 3 : 0);
}

template <Color Us>
int Order<Us>::pawn_push_score(Square from, Square to) const {
  Bitboard bb = square_bb(to);
  return Quiet.to[Us][Pawn][to] + Quiet.from[Us][Pawn][from] + ((checks_[Pawn] & bb) ? Check : 0) -
         ((pawn_loss_ & bb) ? PawnLoss : 0);
}

// What a capture wins, the capturer lost when the victim is guarded.
template <Color Us>
int Order<Us>::capture_score(PieceType victim, int capturer_value, Square to) const {
  Bitboard bb = square_bb(to);
  int gain = PieceValue[victim] - ((enemy_attacks_ & bb) ? capturer_value : 0);
  return Capture + std::max(gain, WorstCapture) + PieceValue[victim] / 10;
}

// The score for_each_candidate gives a candidate.
template <Color Us>
int Order<Us>::score(Move m) const {
  Square from = m.from(), to = m.to();
  PieceType t = type_of(pos_.piece_on(from));
  switch (m.kind()) {
    case MoveKind::Castling: return Castle;
    case MoveKind::Promotion: return promotion_score(m.promotion());
    case MoveKind::EnPassant: return capture_score(Pawn, PieceValue[Pawn], to);
    case MoveKind::Normal: break;
  }
  if (Piece victim = pos_.piece_on(to); victim != NoPiece) return capture_score(type_of(victim), PieceValue[t], to);
  if (t == Pawn) return pawn_push_score(from, to);
  return quiet_base(t, from) + quiet_gain(t, to, checks_[t]);
}

// Scores, higher likelier, for the captures of one piece (not a pawn) from `from`.
template <Color Us>
template <class F>
[[gnu::always_inline]] inline void Order<Us>::captures(PieceType t, Square from, Bitboard dests, F&& f) const {
  for (Bitboard b = dests & pos_.pieces(Them); b;) {
    Square to = pop_lsb(b);
    f(Move(from, to), capture_score(type_of(pos_.piece_on(to)), PieceValue[t], to));
  }
}

// The same for all its moves, quiet ones too.
template <Color Us>
template <class F>
[[gnu::always_inline]] inline void Order<Us>::piece_moves(PieceType t, Square from, Bitboard dests, F&& f) const {
  const int base = quiet_base(t, from);
  const Bitboard checks = checks_[t];
  for (Bitboard b = dests & ~pos_.pieces(); b;) {
    Square to = pop_lsb(b);
    f(Move(from, to), base + quiet_gain(t, to, checks));
  }
  captures(t, from, dests, f);
}

// Castling, when it is allowed and legal (never in check). The squares strictly between
// king and rook lie on the paths that must be empty, in Chess960 too: most of the time
// one of them is taken, which is cheaper to see here than in castling_legal.
template <Color Us>
template <class F>
[[gnu::always_inline]] inline void Order<Us>::castling_moves(F&& f) const {
  Square k = pos_.king(Us);
  for (bool long_side : {false, true}) {
    int idx = castling_index(Us, long_side);
    if (!pos_.can_castle(std::uint8_t(1 << idx))) continue;
    Square rook = pos_.castling_rook(idx);
    if (!(between_bb(k, rook) & ~square_bb(rook) & pos_.pieces()) && castling_legal(k, rook))
      f(Move(k, rook, MoveKind::Castling), Castle);
  }
}

// Out of check, with the path between king and rook empty. In standard chess no square the
// king passes or reaches (between_bb includes its end) is seen through a square king or
// rook leave or take, so this position's attacks decide, without Position::castling_legal's
// ~200 instructions; in Chess960 they can be.
template <Color Us>
bool Order<Us>::castling_legal(Square k, Square rook) const {
  if (pos_.chess960()) return pos_.castling_legal(k, rook);
  return !(enemy_attacks_ & between_bb(k, Position::castle_king_to(k, rook)));
}

template <Color Us>
template <bool Quiet, class F>
[[gnu::always_inline]] inline void Order<Us>::pawn_moves(F&& f, Bitboard reach) const {
  Bitboard pawns = pos_.pieces(Us, Pawn), enemies = pos_.pieces(Them);
  Bitboard last = Us == White ? rank_bb(7) : rank_bb(0);
  int up = Us == White ? 8 : -8;
  auto emit_each = [&](Bitboard dests, int step) {
    for (Bitboard b = dests; b;) {
      Square to = pop_lsb(b), from = Square(to - step);
      Bitboard bb = square_bb(to);
      if (last & bb) {
        for (PieceType t : {Queen, Rook, Bishop, Knight}) f(Move(from, to, MoveKind::Promotion, t), promotion_score(t));
      } else if (enemies & bb) {
        f(Move(from, to), capture_score(type_of(pos_.piece_on(to)), PieceValue[Pawn], to));
      } else {
        f(Move(from, to), pawn_push_score(from, to));
      }
    }
  };
  // Most positions have no pawn capture or promotion: seen here, before the call.
  auto emit = [&](Bitboard dests, int step) {
    if (dests & reach) emit_each(dests & reach, step);
  };
  emit(single_pushes() & (Quiet ? ~Bitboard(0) : last), up);
  if constexpr (Quiet) emit(double_pushes(), 2 * up);
  emit(push(Us, pawns & ~file_bb(0)) >> 1 & enemies, up - 1);
  emit(push(Us, pawns & ~file_bb(7)) << 1 & enemies, up + 1);
  if (Square ep = pos_.ep_square(); ep != NoSquare)
    for (Bitboard b = pawn_attack_set(Them, square_bb(ep)) & pawns; b;)
      f(Move(pop_lsb(b), ep, MoveKind::EnPassant), capture_score(Pawn, PieceValue[Pawn], ep));
}

template <Color Us>
Bitboard Order<Us>::single_pushes() const { return push(Us, pos_.pieces(Us, Pawn)) & ~pos_.pieces(); }

template <Color Us>
Bitboard Order<Us>::double_pushes() const {
  Bitboard third = Us == White ? rank_bb(2) : rank_bb(5);
  return push(Us, single_pushes() & third) & ~pos_.pieces();
}

// Every candidate with its score; in check only the legal ones. In check, moves other
// than the king's and en passant captures can only evade on evasions_, and never by a
// pinned piece: the others are not generated at all (evades() would refuse them).
template <Color Us>
template <class F>
void Order<Us>::for_each_candidate(F&& f) const {
  auto emit = [&](Move m, int score) {
    if (!in_check_ || evades(m)) f(m, score);
  };
  const Bitboard reach = in_check_ ? evasions_ : ~Bitboard(0), cannot = in_check_ ? pinned_ : 0;
  for_each_mover([&](auto type, Square from, Bitboard attacks) {
    if (!(cannot & square_bb(from))) piece_moves(type, from, attacks & reach, emit);
  });
  Square k = pos_.king(Us);
  piece_moves(King, k, king_attacks(k) & ~enemy_attacks_, emit);
  if (!in_check_) castling_moves(f);
  pawn_moves<true>(emit, reach);
}

// The quiet moves of one kind (db::QuietLevels) to `dests` that beat a move scoring
// `mine`, by destination: each scores `base` plus its square's value, plus Check on
// `checks`, less `cost` on `unsafe`. Equal scores beat it on the squares `earlier`.
template <Color Us>
[[gnu::always_inline]] inline Bitboard Order<Us>::quiet_beating(int kind, Bitboard dests, int base, Bitboard checks,
                                                                Bitboard unsafe, int cost, int mine,
                                                                Bitboard earlier) const {
  const int x = mine - base;
  if (x - ((dests & checks) ? Check : 0) > Levelled.top[Us][kind]) return 0;  // not even its best square
  const Bitboard* at_least = Levelled.at_least[Us][kind];
  // Most destinations neither check nor stand attacked: that group first, the others
  // only when there are any.
  Bitboard beating = dests & ~(checks | unsafe) & valued_over(at_least, x, earlier);
  if (!(dests & (checks | unsafe))) return beating;
  auto group = [&](Bitboard g, int threshold) {
    if (g) beating |= g & valued_over(at_least, threshold, earlier);
  };
  group(dests & checks & ~unsafe, x - Check);
  group(dests & ~checks & unsafe, x + cost);
  group(dests & checks & unsafe, x - Check + cost);
  return beating;
}

// Out of check, the candidates that come before a move scoring `mine`: quiet ones a few
// set operations per piece, then the few captures, promotions and castling one by one,
// in the same pass over the pieces.
template <Color Us>
int Order<Us>::beating(int mine, Move m) const {
  const int raw = m.raw();
  int n = 0;
  auto count = [&](Move c, int s) { n += s > mine || (s == mine && c.raw() < raw); };
  auto piece = [&](auto type, Square from, Bitboard dests) {
    constexpr PieceType t = decltype(type)::value;
    const int base = quiet_base(t, from);
    // Most pieces cannot beat it even on their best square with check: skipped before
    // any set is formed.
    if (mine - base <= Levelled.top[Us][t] + Check)
      n += popcount(quiet_beating(t, dests & ~pos_.pieces(), base, checks_[t], unsafe_, PieceValue[t] / 3, mine,
                                  below(raw - 64 * from)));
    captures(t, from, dests, count);
  };
  for_each_mover(piece);
  Square k = pos_.king(Us);
  piece(Type<King>{}, k, king_attacks(k) & ~enemy_attacks_);
  castling_moves(count);
  pawn_moves<false>(count);
  // A push to `to` from to - step is the move 65 to - 64 step.
  auto pushes_before = [&](int step) { return below((raw + 64 * step + 64) / 65); };
  int up = Us == White ? 8 : -8;
  Bitboard last = Us == White ? rank_bb(7) : rank_bb(0);
  // Single and double pushes never share a destination.
  return n + popcount(quiet_beating(Pawn, single_pushes() & ~last, 0, checks_[Pawn], pawn_loss_, PawnLoss, mine,
                                    pushes_before(up)) |
                      quiet_beating(NoPieceType, double_pushes(), 0, checks_[Pawn], pawn_loss_, PawnLoss, mine,
                                    pushes_before(2 * up)));
}

// In check: a king move to a safe square, or a block or capture of a single checker by a
// piece that is not pinned (a pinned piece can never do either).
template <Color Us>
bool Order<Us>::evades(Move m) const {
  if (type_of(pos_.piece_on(m.from())) == King || m.kind() == MoveKind::EnPassant) return pos_.leaves_king_safe(m);
  return (evasions_ & square_bb(m.to())) && !(pinned_ & square_bb(m.from()));
}

// Candidates come by score, highest first, then by the move's 16-bit value, so that the
// order never depends on the order moves are generated in. The rank counts those that
// come before `m`; out of check, the quiet ones a set at a time.
template <Color Us>
int Order<Us>::rank(Move m) const {
  const int mine = score(m);
  return in_check_ ? counted_before(mine, m) : beating(mine, m);
}

// In check, one by one: a separate function, so that the common case does not pay for
// its registers.
template <Color Us>
[[gnu::noinline]] int Order<Us>::counted_before(int mine, Move m) const {
  int before = 0;
  for_each_candidate([&](Move c, int s) { before += s > mine || (s == mine && c.raw() < m.raw()); });
  return before;
}

template <Color Us>
Move Order<Us>::at_rank(int rank) const {
  std::int64_t k[MaxCandidates];
  int n = 0;
  for_each_candidate([&](Move m, int score) { k[n++] = (std::int64_t(-score) << 16) | m.raw(); });
  if (rank >= n) return Move::none();
  std::nth_element(k, k + rank, k + n);
  return Move(std::uint16_t(k[rank] & 0xFFFF));
}

}  // namespace

int move_rank(const Position& pos, Move m) {
  return pos.side_to_move() == White ? Order<White>(pos).rank(m) : Order<Black>(pos).rank(m);
}

Move move_at_rank(const Position& pos, int rank) {
  return pos.side_to_move() == White ? Order<White>(pos).at_rank(rank) : Order<Black>(pos).at_rank(rank);
}

}  // namespace qipu::db
