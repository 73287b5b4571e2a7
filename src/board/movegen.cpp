#include "qipu/board/movegen.hpp"

namespace qipu {

namespace {

// Everything the generator needs about the side to move, computed once per call.
struct GenContext {
  const Position& pos;
  MoveList& list;
  Color us;
  Square ksq;
  Bitboard occ;
  Bitboard pinned;
  Bitboard targets;  // legal destinations for non-king moves: not own, blocks or captures checker
  Bitboard checkers;
};

void push_piece_moves(GenContext& g, Square from, Bitboard dests) {
  if (g.pinned & square_bb(from)) dests &= line_bb(g.ksq, from);
  while (dests) g.list.push(Move(from, pop_lsb(dests)));
}

void push_promotions(MoveList& list, Square from, Square to) {
  for (PieceType t : {Queen, Rook, Bishop, Knight}) list.push(Move(from, to, MoveKind::Promotion, t));
}

// Pawn moves landing on `dests`, each coming from `to - step`.
template <Color Us>
void push_pawn_set(MoveList& list, Bitboard dests, int step) {
  constexpr Bitboard LastRank = Us == White ? rank_bb(7) : rank_bb(0);
  for (Bitboard b = dests & LastRank; b;) {
    Square to = pop_lsb(b);
    push_promotions(list, Square(to - step), to);
  }
  for (Bitboard b = dests & ~LastRank; b;) {
    Square to = pop_lsb(b);
    list.push(Move(Square(to - step), to));
  }
}

// An en passant capture can uncover the king along a rank or diagonal; test directly.
template <Color Us>
void push_en_passant(GenContext& g, Bitboard pawns) {
  Square ep = g.pos.ep_square();
  Square captured = Square(ep ^ 8);
  if (!(g.targets & square_bb(ep)) && !(g.checkers & square_bb(captured))) return;
  const Position& pos = g.pos;
  for (Bitboard b = pawn_attacks(~Us, ep) & pawns; b;) {
    Square from = pop_lsb(b);
    Bitboard occ = (g.occ ^ square_bb(from) ^ square_bb(captured)) | square_bb(ep);
    Bitboard sliders = (rook_attacks(g.ksq, occ) & pos.pieces(~Us, Rook, Queen)) |
                       (bishop_attacks(g.ksq, occ) & pos.pieces(~Us, Bishop, Queen));
    Bitboard other_checkers = g.checkers & ~square_bb(captured) & ~pos.pieces(Rook, Bishop) & ~pos.pieces(Queen);
    if (!sliders && !other_checkers) g.list.push(Move(from, ep, MoveKind::EnPassant));
  }
}

template <Color Us>
void generate_pawns(GenContext& g, Bitboard target_filter) {
  constexpr int Up = Us == White ? 8 : -8;
  constexpr Bitboard Rank3 = Us == White ? rank_bb(2) : rank_bb(5);
  const Position& pos = g.pos;
  Bitboard pawns = pos.pieces(Us, Pawn);
  Bitboard free_pawns = pawns & ~g.pinned;
  Bitboard empty = ~g.occ;
  Bitboard enemies = pos.pieces(~Us) & g.targets;
  Bitboard dests = g.targets & target_filter;

  Bitboard single = pawn_push<Us>(free_pawns) & empty;
  Bitboard dbl = pawn_push<Us>(single & Rank3) & empty;
  push_pawn_set<Us>(g.list, single & dests, Up);
  push_pawn_set<Us>(g.list, dbl & dests, 2 * Up);
  Bitboard west = pawn_push<Us>(free_pawns & ~FileA) >> 1;
  Bitboard east = pawn_push<Us>(free_pawns & ~file_bb(7)) << 1;
  push_pawn_set<Us>(g.list, west & enemies & dests, Up - 1);
  push_pawn_set<Us>(g.list, east & enemies & dests, Up + 1);

  // Pinned pawns may only move along the pin line; rare, so one at a time.
  for (Bitboard b = pawns & g.pinned; b;) {
    Square from = pop_lsb(b);
    Bitboard to = pawn_attacks(Us, from) & enemies;
    Bitboard one = pawn_push<Us>(square_bb(from)) & empty;
    to |= one | (pawn_push<Us>(one & Rank3) & empty);
    to &= dests & line_bb(g.ksq, from);
    while (to) {
      Square t = pop_lsb(to);
      if (relative_rank(Us, t) == 7)
        push_promotions(g.list, from, t);
      else
        g.list.push(Move(from, t));
    }
  }
  Square ep = pos.ep_square();
  if (ep != NoSquare && (target_filter & square_bb(ep))) push_en_passant<Us>(g, pawns);
}

void generate_king(GenContext& g, MoveFilter filter) {
  const Position& pos = g.pos;
  Color them = ~g.us;
  Bitboard occ = g.occ ^ square_bb(g.ksq);
  for (Bitboard b = king_attacks(g.ksq) & ~pos.pieces(g.us) & filter.targets; b;) {
    Square to = pop_lsb(b);
    if (!pos.attackers_to(to, them, occ)) g.list.push(Move(g.ksq, to));
  }
  if (g.checkers || !pos.castling_rights()) return;
  for (bool long_side : {false, true}) {
    int idx = castling_index(g.us, long_side);
    Move m = pos.castling_move(idx);  // castling is encoded as the king taking its rook
    if (!m.is_none() && (filter.targets & square_bb(m.to()))) g.list.push(m);
  }
}

}  // namespace

void generate_legal(const Position& pos, MoveList& list, MoveFilter filter) {
  Color us = pos.side_to_move();
  GenContext g{pos, list, us, pos.king(us), pos.pieces(), 0, 0, 0};
  g.checkers = pos.checkers();
  if (filter.piece_types & (1u << King)) generate_king(g, filter);
  // Pins matter only to the other pieces: castling's resolution asks for the king alone.
  if (more_than_one(g.checkers) || !(filter.piece_types & ~(1u << King))) return;
  g.pinned = pos.pinned(us);
  g.targets = ~pos.pieces(us) & (g.checkers ? between_bb(g.ksq, lsb(g.checkers)) : ~Bitboard(0));
  if (filter.piece_types & (1u << Pawn)) {
    if (us == White)
      generate_pawns<White>(g, filter.targets);
    else
      generate_pawns<Black>(g, filter.targets);
  }
  Bitboard dests = g.targets & filter.targets;
  for (PieceType t : {Knight, Bishop, Rook, Queen}) {
    if (!(filter.piece_types & (1u << t))) continue;
    Bitboard movers = pos.pieces(us, t);
    if (t == Knight) movers &= ~g.pinned;  // a pinned knight can never move
    while (movers) {
      Square from = pop_lsb(movers);
      push_piece_moves(g, from, attacks_of(t, from, g.occ) & dests);
    }
  }
}

}  // namespace qipu
