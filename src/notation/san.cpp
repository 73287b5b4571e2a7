#include "qipu/notation/san.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "fast.hpp"
#include "qipu/board/movegen.hpp"

namespace qipu {

namespace {

PieceType piece_from_letter(char c) {
  switch (c) {
    case 'N': return Knight;
    case 'B': return Bishop;
    case 'R': return Rook;
    case 'Q': return Queen;
    case 'K': return King;
    case 'P': return Pawn;
    default: return NoPieceType;
  }
}
bool is_file(char c) { return c >= 'a' && c <= 'h'; }

// Which of `pieces` (of one type, not pawns) can reach `to` by geometry.
Bitboard reaching(PieceType type, Square to, Bitboard pieces, Bitboard occ) {
  switch (type) {
    case Bishop: return sliders_reaching(to, 0, pieces, occ);
    case Rook: return sliders_reaching(to, pieces, 0, occ);
    case Queen: return sliders_reaching(to, pieces, pieces, occ);
    case Knight: return pieces & knight_attacks(to);
    default: return pieces & king_attacks(to);  // the king
  }
}
bool is_rank(char c) { return c >= '1' && c <= '8'; }
bool ends_with(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}
bool ends_with_ep(std::string_view t) { return t.size() > 4 && t.back() == '.' && ends_with(t, "e.p."); }

// Removes the check, mate and e.p. marks from the end of the token.
void strip_suffixes(std::string_view& t, San& san) {
  while (!t.empty() && (t.back() == '!' || t.back() == '?')) t.remove_suffix(1);  // glyphs are NAGs, not the move
  if (t.empty()) return;
  if (ends_with_ep(t)) {
    san.style |= StyleEpSuffix;
    t.remove_suffix(4);
  }
  if (t.back() == '#') {
    san.suffix = San::Suffix::Mate;
    t.remove_suffix(1);
  } else if (t.back() == '+') {
    san.suffix = San::Suffix::Check;
    t.remove_suffix(1);
    if (!t.empty() && t.back() == '+') {
      san.style |= StyleDoubleCheck;
      t.remove_suffix(1);
    }
  }
  if (ends_with_ep(t)) {  // e.p. may also follow the check sign
    san.style |= StyleEpSuffix;
    t.remove_suffix(4);
  }
}

// Reads a promotion from the end: =Q, Q, (Q), /Q, and lower-case q after the rank.
bool strip_promotion(std::string_view& t, San& san) {
  if (t.size() >= 3 && t.back() == ')' && t[t.size() - 3] == '(') {
    san.promotion = piece_from_letter(t[t.size() - 2]);
    t.remove_suffix(3);
  } else if (t.size() >= 2 && !is_rank(t.back())) {
    char c = t.back();
    // e8q, d7d8b: after a rank (or = or /) a lower-case letter can only be the promotion
    // piece; elsewhere a 'b' would be the bishop's file.
    char prev = t[t.size() - 2];
    if (c >= 'a' && c <= 'z' && (c != 'b' || is_rank(prev) || prev == '=' || prev == '/')) c = char(c - 32);
    san.promotion = piece_from_letter(c);
    if (san.promotion == NoPieceType) return true;  // not a promotion: let the body fail
    t.remove_suffix(1);
    if (!t.empty() && (t.back() == '=' || t.back() == '/')) t.remove_suffix(1);
  } else {
    return true;
  }
  return san.promotion != NoPieceType && san.promotion != Pawn && san.promotion != King;
}

Failure fail(std::string msg) { return {std::move(msg), Problem::unknown_move}; }

}  // namespace

namespace plain_san {

// The board part before the target square, [file][rank][x], into `san`: where the target
// square is, or nullptr when a pawn names anything but the file it captures from.
const char* read_origin(const char* q, PieceType piece, San& san) {
  if (Square from = square_at(q); from != NoSquare) {
    const char* to = q + 2;
    if (square_at(to) == NoSquare) {
      if (*to != 'x' || square_at(to + 1) == NoSquare) return q;  // no origin after all
      san.capture = true, ++to;
    }
    if (piece == Pawn) return nullptr;
    san.from_file = std::int8_t(file_of(from)), san.from_rank = std::int8_t(rank_of(from));
    return to;
  }
  bool file = is_file(*q);
  if (file) {
    san.from_file = std::int8_t(*q++ - 'a');
  } else if (is_rank(*q)) {
    if (piece == Pawn) return nullptr;
    san.from_rank = std::int8_t(*q++ - '1');
  }
  bool capture = *q == 'x';
  if (piece == Pawn && file != capture) return nullptr;
  san.capture = capture;
  return q + capture;
}

// The promotion and check signs after the target square, =Q then + or #: where they
// end, or nullptr when they are not plain.
const char* read_signs(const char* q, PieceType piece, San& san) {
  if (q[0] == '=') {
    PieceType promo = piece_from_letter(q[1]);
    if (piece != Pawn || promo == NoPieceType || promo == Pawn || promo == King) return nullptr;
    san.promotion = promo;
    q += 2;
  }
  if (*q == '+' || *q == '#') {
    san.suffix = *q == '+' ? San::Suffix::Check : San::Suffix::Mate;
    ++q;
    if (*q == '+' || *q == '#') return nullptr;  // ++: a style the general reader reports
  }
  return q;
}

std::size_t read_near_end(const char* p, const char* end, San& san) {
  char padded[kWindow] = {};
  std::memcpy(padded, p, std::size_t(end - p));
  return read_window(padded, san);
}

}  // namespace plain_san

bool parse_plain_san(std::string_view t, San& san) {
  return !t.empty() && read_plain_san(t.data(), t.data() + t.size(), san) == t.size();
}

Result<San> parse_san(std::string_view t) {
  if (San common; parse_plain_san(t, common)) return common;
  San san;
  strip_suffixes(t, san);
  if (!t.empty() && (t[0] == 'O' || t[0] == '0' || t[0] == 'o') &&
      (t == "O-O" || t == "0-0" || t == "O-O-O" || t == "0-0-0" || t == "o-o" || t == "o-o-o")) {
    san.kind = t.size() == 3 ? San::Kind::CastleShort : San::Kind::CastleLong;
    if (t[0] == '0') san.style |= StyleZeroCastling;
    if (t[0] == 'o') san.style |= StyleLowerCastling;
    return san;
  }
  if (t.size() >= 2 && (t[0] == '-' || t[0] == 'Z' || t[0] == '0') && (t == "--" || t == "Z0" || t == "0000")) {
    san.kind = San::Kind::Null;
    return san;
  }
  if (t.empty()) return fail("expected a move");
  if (PieceType p = piece_from_letter(t[0]); p != NoPieceType) {
    san.piece = p;
    if (p == Pawn) san.style |= StylePawnLetter;
    t.remove_prefix(1);
  }
  if (!strip_promotion(t, san)) return fail("expected a promotion piece Q, R, B or N");
  if (san.promotion != NoPieceType && san.piece != Pawn) return fail("only a pawn can promote");
  // What is left: [file][rank][-|x|:][file rank]
  if (t.size() < 2 || !is_file(t[t.size() - 2]) || !is_rank(t.back()))
    return fail("expected a destination square such as e4");
  san.to = make_square(t[t.size() - 2] - 'a', t.back() - '1');
  t.remove_suffix(2);
  if (!t.empty() && (t.back() == 'x' || t.back() == ':')) {
    san.capture = true;
    t.remove_suffix(1);
  }
  if (!t.empty() && t.back() == '-') {
    san.style |= StyleLongAlgebraic;
    t.remove_suffix(1);
    if (!t.empty() && (t.back() == 'x' || t.back() == ':')) san.capture = true, t.remove_suffix(1);
  }
  if (!t.empty() && is_rank(t.back())) san.from_rank = std::int8_t(t.back() - '1'), t.remove_suffix(1);
  if (!t.empty() && is_file(t.back())) san.from_file = std::int8_t(t.back() - 'a'), t.remove_suffix(1);
  if (!t.empty()) return fail("unexpected '" + std::string(t) + "' in the move");
  if (san.piece == Pawn) {
    if (san.from_rank >= 0) san.style |= StyleLongAlgebraic;
    if (san.from_file >= 0 && san.from_file != file_of(san.to)) san.capture = true;  // "ed5"
  } else if (san.from_file >= 0 && san.from_rank >= 0) {
    // A full origin square is SAN only when it is needed; replay decides that.
  }
  return san;
}

namespace {

const char* piece_name(PieceType t) {
  static const char* names[] = {"", "pawn", "knight", "bishop", "rook", "queen", "king"};
  return names[t];
}
const char* color_name(Color c) { return c == White ? "White" : "Black"; }

// Pieces of the named type that could move to `to` by geometry alone, ignoring pins
// and checks (none when one of ours stands there): the first thing to tell the user when
// a move is illegal.
Bitboard geometric_movers(const Position& pos, const San& san) {
  Color us = pos.side_to_move();
  Piece occupant = pos.piece_on(san.to);
  if (occupant != NoPiece && color_of(occupant) == us) return 0;
  Bitboard movers = pos.pieces(us, san.piece);
  if (san.from_file >= 0) movers &= file_bb(san.from_file);
  if (san.from_rank >= 0) movers &= rank_bb(san.from_rank);
  if (san.piece != Pawn) return reaching(san.piece, san.to, movers, pos.pieces());
  Bitboard target = square_bb(san.to);
  if (san.capture) {
    bool enemy = occupant != NoPiece || san.to == pos.ep_square();
    return enemy ? movers & pawn_attacks(~us, san.to) : 0;
  }
  if (occupant != NoPiece) return 0;
  Bitboard one = us == White ? target >> 8 : target << 8;
  Bitboard result = movers & one;
  if (!(one & pos.pieces()) && relative_rank(us, san.to) == 3) result |= movers & (us == White ? one >> 8 : one << 8);
  return result;
}

std::string explain_illegal(const Position& pos, const San& san) {
  Color us = pos.side_to_move();
  std::string piece = std::string(color_name(us)) + " " + piece_name(san.piece);
  if (!pos.pieces(us, san.piece)) return std::string(color_name(us)) + " has no " + piece_name(san.piece);
  Piece occupant = pos.piece_on(san.to);
  if (occupant != NoPiece && color_of(occupant) == us)
    return square_name(san.to) + " is occupied by a " + std::string(color_name(us)) + " " +
           piece_name(type_of(occupant));
  if (san.piece == Pawn && san.capture && occupant == NoPiece && san.to != pos.ep_square())
    return "nothing to capture on " + square_name(san.to);
  if (san.piece == Pawn && !san.capture && occupant != NoPiece)
    return "a pawn cannot move onto the occupied square " + square_name(san.to) +
           " (a capture needs the file it comes from, e.g. exd5)";
  Bitboard movers = geometric_movers(pos, san);
  if (!movers) return "no " + piece + " can reach " + square_name(san.to);
  if (san.piece == Pawn && relative_rank(us, san.to) == 7 && san.promotion == NoPieceType)
    return "the pawn reaches the last rank but no promotion piece is given";
  if (san.piece == King) return "the king would be in check on " + square_name(san.to);
  if (pos.in_check())
    return "the king is in check and " + std::string(san.piece == Pawn ? "this pawn move" : "this move") +
           " does not answer it";
  Bitboard pinned = movers & pos.pinned(us);
  if (pinned) return "the " + std::string(piece_name(san.piece)) + " on " + square_name(lsb(pinned)) + " is pinned";
  return "the move leaves the king in check";
}

std::string explain_castling(const Position& pos, bool long_side) {
  Color us = pos.side_to_move();
  int idx = castling_index(us, long_side);
  if (!pos.can_castle(std::uint8_t(1 << idx)))
    return std::string(color_name(us)) + " has no right to castle " + (long_side ? "queenside" : "kingside");
  if (pos.in_check()) return "cannot castle out of check";
  Square k = pos.king(us), r = pos.castling_rook(idx);
  Square kto = Position::castle_king_to(k, r), rto = Position::castle_rook_to(k, r);
  Bitboard path = (between_bb(k, kto) | between_bb(r, rto)) & ~square_bb(k) & ~square_bb(r);
  if (path & pos.pieces()) return "cannot castle: pieces stand between king and rook";
  return "cannot castle through or into check";
}

// The castling rule move generation uses (Position::castling_move), asked directly.
Result<Move> resolve_castling(const Position& pos, bool long_side) {
  Move m = pos.castling_move(castling_index(pos.side_to_move(), long_side));
  if (!m.is_none()) return m;
  return Failure{explain_castling(pos, long_side), Problem::illegal_move};
}

Result<Move> resolve_either_castling(const Position& pos) {
  Result<Move> short_side = resolve_castling(pos, false), long_side = resolve_castling(pos, true);
  if (short_side && long_side)
    return Failure{"castling without a side named, but both O-O and O-O-O are legal", Problem::ambiguous_move};
  if (short_side) return short_side;
  if (long_side) return long_side;
  return Failure{"castling without a side named, but neither O-O nor O-O-O is legal", Problem::illegal_move};
}

// The move a candidate piece would make, with its kind; none when the promotion does
// not fit the destination rank.
Move candidate_move(const Position& pos, const San& san, Square from) {
  if (san.piece != Pawn) return Move(from, san.to);
  if (relative_rank(pos.side_to_move(), san.to) == 7)
    return san.promotion == NoPieceType ? Move::none() : Move(from, san.to, MoveKind::Promotion, san.promotion);
  if (san.promotion != NoPieceType) return Move::none();
  if (san.to == pos.ep_square() && file_of(from) != file_of(san.to)) return Move(from, san.to, MoveKind::EnPassant);
  return Move(from, san.to);
}

// Origins of the `movers` (geometric_movers) that can legally make a normal move, each
// tested for king safety. `found` is the move of one of them.
Bitboard legal_origins(const Position& pos, const San& san, Bitboard movers, Move& found) {
  Bitboard legal = 0;
  while (movers) {
    Move m = candidate_move(pos, san, pop_lsb(movers));
    if (m.is_none() || !pos.leaves_king_safe(m)) continue;
    found = m;
    legal |= square_bb(m.from());
  }
  return legal;
}

// "e4": a pawn moving straight on, with no origin, promotion or capture named. A quarter
// of all moves; told apart by the bytes read first.
bool is_plain_push(const San& san) {
  return san.piece == Pawn && !san.capture && san.promotion == NoPieceType && san.from_file < 0 && san.from_rank < 0;
}

// The plain push read off the squares behind the target: the move geometric_movers and
// candidate_move would give, in fewer steps than their bitboards. King safety not tested.
Move push_move(const Position& pos, const San& san) {
  Color us = pos.side_to_move();
  Square to = san.to;
  int rank = relative_rank(us, to);
  if (rank == 0 || rank == 7 || pos.piece_on(to) != NoPiece) return Move::none();  // on the last rank it must promote
  Square from = Square(us == White ? to - 8 : to + 8);
  if (pos.piece_on(from) == NoPiece && rank == 3) from = Square(us == White ? to - 16 : to + 16);
  return pos.piece_on(from) == make_piece(us, Pawn) ? Move(from, to) : Move::none();
}

// Coordinate notation names no piece ("g1f3", "c1-b2", "e8g8" in pgn-extract's lalg and
// uci output), only an origin square: read as a pawn move until the board says otherwise.
bool names_origin_square(const San& san) {
  // The rank first: SAN seldom gives one, so the usual move is told apart in one test.
  return san.from_rank >= 0 && san.from_file >= 0 && san.piece == Pawn && !(san.style & StylePawnLetter);
}

// The move when exactly one of the `movers` can legally make it, else none.
[[gnu::noinline]] Move only_legal(const Position& pos, const San& san, Bitboard movers) {
  Move found = Move::none();
  Bitboard legal = legal_origins(pos, san, movers, found);
  return legal && !more_than_one(legal) ? found : Move::none();
}

}  // namespace

// Castling, null moves and coordinates through the general reader. Out of line so that
// find_move, asked once a ply, needs no stack frame for the message it drops.
[[gnu::noinline]] static Move resolve_rare(const Position& pos, const San& san) {
  auto r = resolve_san(pos, san);
  return r ? *r : Move::none();
}

Move find_move(const Position& pos, const San& san) {
  if (san.kind != San::Kind::Normal || names_origin_square(san)) return resolve_rare(pos, san);
  Move m = Move::none();
  if (is_plain_push(san)) {
    m = push_move(pos, san);
  } else {
    Bitboard movers = geometric_movers(pos, san);
    if (more_than_one(movers)) return only_legal(pos, san, movers);
    if (movers) m = candidate_move(pos, san, lsb(movers));
  }
  // One piece at most can go there, the usual case: one test of king safety.
  return !m.is_none() && pos.leaves_king_safe(m) ? m : Move::none();
}

// Finds the pieces that could make the move by geometry, then tests each for king
// safety: no move generation on the common path.
Result<Move> resolve_san(const Position& pos, const San& san) {
  if (san.kind == San::Kind::Null) {
    // Passing while in check would leave the king in check with the opponent to move.
    if (pos.in_check()) return Failure{"a null move cannot answer a check", Problem::illegal_move};
    return Move::null();
  }
  if (san.kind == San::Kind::CastleEither) return resolve_either_castling(pos);
  if (san.kind != San::Kind::Normal) return resolve_castling(pos, san.kind == San::Kind::CastleLong);
  // Coordinate notation: the piece is the one standing on the origin square.
  if (names_origin_square(san)) {
    Square from = make_square(san.from_file, san.from_rank);
    Piece p = pos.piece_on(from);
    if (p != NoPiece && color_of(p) == pos.side_to_move() && type_of(p) != Pawn) {
      if (type_of(p) == King && rank_of(from) == rank_of(san.to)) {
        Piece at = pos.piece_on(san.to);
        bool onto_rook = at == make_piece(pos.side_to_move(), Rook);  // Chess960 UCI: king takes rook
        if (onto_rook || (!pos.chess960() && std::abs(file_of(san.to) - file_of(from)) == 2))
          return resolve_castling(pos, file_of(san.to) < file_of(from));
      }
      San piece_move = san;
      piece_move.piece = type_of(p);
      piece_move.capture = pos.piece_on(san.to) != NoPiece;
      return resolve_san(pos, piece_move);
    }
  }
  Move found = Move::none();
  Bitboard legal = legal_origins(pos, san, geometric_movers(pos, san), found);
  if (legal && !more_than_one(legal)) return found;
  if (legal) {
    std::string candidates;
    for (Bitboard b = legal; b;) candidates += (candidates.empty() ? "" : ", ") + square_name(pop_lsb(b));
    return Failure{"ambiguous move: the " + std::string(piece_name(san.piece)) + "s on " + candidates +
                       " can all move to " + square_name(san.to),
                   Problem::ambiguous_move};
  }
  if (san.piece == Pawn && relative_rank(pos.side_to_move(), san.to) != 7 && san.promotion != NoPieceType)
    return Failure{"a pawn can promote only on the last rank", Problem::illegal_move};
  return Failure{explain_illegal(pos, san), Problem::illegal_move};
}

const PieceNames& english_names() {
  static const PieceNames names{"en", {"", "", "N", "B", "R", "Q", "K"}};
  return names;
}

SanShape san_shape(const Position& pos, Move m) {
  SanShape shape;
  if (m.is_null()) return shape;
  Square from = m.from(), to = m.to();
  shape.piece = type_of(pos.piece_on(from));
  if (m.kind() == MoveKind::Castling) return shape;
  shape.capture = (pos.piece_on(to) != NoPiece) || m.kind() == MoveKind::EnPassant;
  if (shape.piece == Pawn) {
    shape.from_file = shape.capture;
    return shape;
  }
  // Other pieces of the kind that could legally go there: geometry, then king safety.
  Bitboard rivals =
      reaching(shape.piece, to, pos.pieces(pos.side_to_move(), shape.piece), pos.pieces()) & ~square_bb(from);
  bool shares_file = false, shares_rank = false, any = false;
  for (Bitboard b = shape.piece == King ? 0 : rivals; b;) {
    Square r = pop_lsb(b);
    if (!pos.leaves_king_safe(Move(r, to))) continue;
    any = true;
    shares_file |= file_of(r) == file_of(from);
    shares_rank |= rank_of(r) == rank_of(from);
  }
  shape.from_file = any && (!shares_file || shares_rank);
  shape.from_rank = any && shares_file;
  return shape;
}

SanShape san_shape(const Position& before, Move m, const San& written) {
  if (written.kind == San::Kind::Normal && written.from_rank < 0 && !m.is_null()) {
    if (written.piece ==
        Pawn) {  // SAN names a pawn's file exactly when it captures, which it does when it changes file
      bool capture = file_of(m.from()) != file_of(m.to());
      return {Pawn, capture, capture, false};
    }
    if (written.from_file < 0) return {written.piece, before.piece_on(m.to()) != NoPiece, false, false};
  }
  return san_shape(before, m);
}

San::Suffix check_suffix(const Position& after) {
  if (!after.in_check()) return San::Suffix::None;
  return has_legal_move(after) ? San::Suffix::Check : San::Suffix::Mate;
}

SanWords::Word::Word(std::string_view w) : size(std::min(w.size(), MaxWordBytes)) { w.copy(bytes, size); }

SanWords::SanWords(const PieceNames& names, bool spaced)
    : castle_short(names.castle_short), castle_long(names.castle_long), spaced(spaced) {
  for (int p = 0; p < 7; ++p) pieces[p] = Word(names.pieces[p]);
}

namespace {

// Copies the word's whole array, so the copy is a fixed-size one.
char* put_word(char* p, const SanWords::Word& w) {
  std::memcpy(p, w.bytes, MaxWordBytes);
  return p + w.size;
}

}  // namespace

char* put_san_body(char* p, Move m, const SanShape& shape, const SanWords& words) {
  if (m.is_null()) return std::copy_n("--", 2, p);
  if (m.kind() == MoveKind::Castling) return put_word(p, m.to() > m.from() ? words.castle_short : words.castle_long);
  Square from = m.from(), to = m.to();
  p = put_word(p, words.pieces[shape.piece]);
  if (words.spaced && shape.piece != Pawn) *p++ = ' ';
  if (shape.from_file) *p++ = char('a' + file_of(from));
  if (shape.from_rank) *p++ = char('1' + rank_of(from));
  if (shape.capture) *p++ = 'x';
  *p++ = char('a' + file_of(to));
  *p++ = char('1' + rank_of(to));
  if (m.kind() == MoveKind::Promotion) {
    *p++ = '=';
    p = put_word(p, words.pieces[m.promotion()]);
  }
  return p;
}

void append_san_body(std::string& out, Move m, const SanShape& shape, const PieceNames& names, bool spaced) {
  char text[MaxMoveBytes];
  out.append(text, put_san_body(text, m, shape, SanWords(names, spaced)));
}

std::string format_san_body(const Position& pos, Move m, const PieceNames& names) {
  std::string s;
  append_san_body(s, m, san_shape(pos, m), names);
  return s;
}

std::string format_san(const Position& pos, Move m, const PieceNames& names) {
  std::string s = format_san_body(pos, m, names);
  Position after = pos;
  after.play(m);
  if (San::Suffix x = check_suffix(after); x != San::Suffix::None) s += x == San::Suffix::Check ? '+' : '#';
  return s;
}

}  // namespace qipu
