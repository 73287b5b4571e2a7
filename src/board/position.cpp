#include "qipu/board/position.hpp"

#include <array>
#include <charconv>
#include <vector>

#include "qipu/board/movegen.hpp"

namespace qipu {

namespace polyglot {
extern const std::uint64_t kRandom64[781];
}

namespace {

// Polyglot orders pieces black pawn, white pawn, black knight, … white king; copied here
// in the order of our Piece values, so that a key is one load on the hot path.
const auto PieceKeys = [] {
  std::array<std::array<Key, 64>, 16> keys{};
  for (Color c : {White, Black})
    for (int t = Pawn; t <= King; ++t)
      for (int s = 0; s < 64; ++s)
        keys[make_piece(c, PieceType(t))][s] = polyglot::kRandom64[64 * (2 * (t - 1) + (c == White ? 1 : 0)) + s];
  return keys;
}();
Key piece_key(Piece p, Square s) { return PieceKeys[p][s]; }
Key castling_key(int index) { return polyglot::kRandom64[768 + index]; }
Key ep_key(Square s) { return polyglot::kRandom64[772 + file_of(s)]; }
constexpr Key TurnKey = 0xF8D626AAAF278509ULL;  // entry 780, xored when White moves

Key castling_keys(std::uint8_t rights) {
  Key k = 0;
  for (int i = 0; i < 4; ++i)
    if (rights & (1 << i)) k ^= castling_key(i);
  return k;
}

constexpr std::string_view PieceLetters = " PNBRQK  pnbrqk";

std::vector<std::string_view> split_fields(std::string_view s) {
  std::vector<std::string_view> fields;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    std::size_t j = i;
    while (j < s.size() && s[j] != ' ' && s[j] != '\t') ++j;
    if (j > i) fields.push_back(s.substr(i, j - i));
    i = j;
  }
  return fields;
}

bool parse_number(std::string_view s, int& out) {
  if (s.empty() || s.size() > 6) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size();
}

}  // namespace

// Reads the FEN fields one by one into a Position; each step returns an error or "".
struct FenReader {
  Position& pos;

  std::string placement(std::string_view field) {
    int rank = 7, file = 0;
    for (std::size_t i = 0; i < field.size(); ++i) {
      char c = field[i];
      if (c == '/') {
        if (file != 8) return "rank " + std::to_string(rank + 1) + " has " + std::to_string(file) + " squares, not 8";
        if (--rank < 0) return "more than 8 ranks in the piece placement";
        file = 0;
      } else if (c >= '1' && c <= '8') {
        file += c - '0';
        if (file > 8) return "rank " + std::to_string(rank + 1) + " has more than 8 squares";
      } else {
        auto idx = PieceLetters.find(c);
        if (c == ' ' || idx == std::string_view::npos)
          return std::string("bad piece letter '") + c + "' in the piece placement";
        if (file >= 8) return "rank " + std::to_string(rank + 1) + " has more than 8 squares";
        pos.put(Piece(idx), make_square(file++, rank));
      }
    }
    if (rank != 0) return "the piece placement has " + std::to_string(8 - rank) + " ranks, not 8";
    if (file != 8) return "rank 1 has " + std::to_string(file) + " squares, not 8";
    return "";
  }

  std::string side(std::string_view field) {
    if (field == "w")
      pos.side_ = White;
    else if (field == "b")
      pos.side_ = Black;
    else
      return "side to move must be 'w' or 'b', not '" + std::string(field) + "'";
    return "";
  }

  // The outermost rook of colour c on the given side of its king, for KQkq / X-FEN.
  Square outer_rook(Color c, bool long_side) {
    Square k = pos.king(c);
    int rank = c == White ? 0 : 7;
    for (int i = 0; i < 8; ++i) {
      int f = long_side ? i : 7 - i;
      if ((long_side && f >= file_of(k)) || (!long_side && f <= file_of(k))) break;
      if (pos.piece_on(make_square(f, rank)) == make_piece(c, Rook)) return make_square(f, rank);
    }
    return NoSquare;
  }

  std::string castling(std::string_view field) {
    if (field == "-") return "";
    for (char c : field) {
      Color col = (c >= 'a' && c <= 'z') ? Black : White;
      char up = char(c & ~0x20);
      if (popcount(pos.pieces(col, King)) != 1) return "castling rights given without a king";
      Square k = pos.king(col);
      int rank = col == White ? 0 : 7;
      if (rank_of(k) != rank) return std::string("castling right '") + c + "' but the king is not on its first rank";
      Square rook;
      if (up == 'K' || up == 'Q')
        rook = outer_rook(col, up == 'Q');
      else if (up >= 'A' && up <= 'H')
        rook = make_square(up - 'A', rank);
      else
        return std::string("bad castling letter '") + c + "'";
      if (!is_ok(rook) || pos.piece_on(rook) != make_piece(col, Rook))
        return std::string("castling right '") + c + "' but there is no rook for it";
      bool long_side = file_of(rook) < file_of(k);
      int idx = castling_index(col, long_side);
      if (pos.castling_ & (1 << idx)) return std::string("castling right '") + c + "' given twice";
      pos.castling_ |= std::uint8_t(1 << idx);
      pos.castling_rook_[idx] = rook;
      pos.castling_lost_[k] |= std::uint8_t(1 << idx);
      pos.castling_lost_[rook] |= std::uint8_t(1 << idx);
      bool standard = file_of(k) == 4 && (file_of(rook) == 0 || file_of(rook) == 7);
      if (!standard || (up != 'K' && up != 'Q')) pos.chess960_ = true;
    }
    return "";
  }

  std::string en_passant(std::string_view field) {
    if (field == "-") return "";
    if (field.size() != 2 || field[0] < 'a' || field[0] > 'h' || field[1] < '1' || field[1] > '8')
      return "bad en passant square '" + std::string(field) + "'";
    Square ep = make_square(field[0] - 'a', field[1] - '1');
    Color us = pos.side_;
    if (relative_rank(us, ep) != 5)
      return "en passant square " + std::string(field) + " is not on the " + (us == White ? "6th" : "3rd") + " rank";
    Square pushed = us == White ? Square(ep - 8) : Square(ep + 8);
    Square origin = us == White ? Square(ep + 8) : Square(ep - 8);
    if (pos.piece_on(pushed) != make_piece(~us, Pawn))
      return "en passant square " + std::string(field) + " but no pawn has just moved two squares past it";
    if (pos.piece_on(ep) != NoPiece || pos.piece_on(origin) != NoPiece)
      return "en passant square " + std::string(field) + " but the pawn could not have just passed it";
    pos.set_ep_after_double_push(pushed);
    return "";
  }

  std::string clocks(std::string_view half, std::string_view full) {
    int h, f;
    if (!parse_number(half, h) || h < 0) return "bad halfmove clock '" + std::string(half) + "'";
    if (!parse_number(full, f) || f < 1) return "bad fullmove number '" + std::string(full) + "' (must be 1 or more)";
    pos.halfmove_ = std::uint32_t(h);
    pos.fullmove_ = std::uint32_t(f);
    return "";
  }
};

// Parsed once: a default position is made for every game read.
Position::Position() {
  static const Position start = from_fen(StartFen).value();
  *this = start;
}

Result<Position> Position::from_fen(std::string_view fen, bool chess960, FenSlips slips) {
  auto fields = split_fields(fen);
  if (fields.size() != 4 && fields.size() != 6)
    return Failure{"a FEN has 6 fields (or 4 without clocks), this one has " + std::to_string(fields.size())};
  bool repair = slips == FenSlips::Repair;
  std::vector<std::string> repairs;
  Position pos{Empty{}};
  pos.chess960_ = chess960;
  FenReader r{pos};
  std::string err = r.placement(fields[0]);
  if (err.empty()) err = r.side(fields[1]);
  if (err.empty()) err = pos.check_setup();
  if (err.empty()) pos.find_checkers();
  if (err.empty()) err = r.castling(fields[2]);
  if (err.empty()) err = r.en_passant(fields[3]);
  if (err.empty() && fields.size() == 6) {
    bool zero_move = fields[5] == "0";
    err = r.clocks(fields[4], zero_move && repair ? std::string_view("1") : fields[5]);
    if (err.empty() && zero_move && repair) repairs.push_back("fullmove number 0 read as 1");
  }
  // Checked on the field, not on ep_ (kept only when a pawn stands beside, for Polyglot).
  if (err.empty() && fields[3] != "-" && pos.halfmove_ != 0) {
    if (repair)
      repairs.push_back("en passant square with a halfmove clock of " + std::to_string(pos.halfmove_) + ", not 0");
    else
      err = "en passant square set but the halfmove clock is not 0";
  }
  if (!err.empty()) return Failure{std::move(err)};
  pos.key_ = pos.compute_key();
  Result<Position> result(pos);
  for (auto& n : repairs) result.note(std::move(n));
  return result;
}

// Placement rules that do not depend on castling or en passant.
std::string Position::check_setup() const {
  for (Color c : {White, Black}) {
    const char* name = c == White ? "White" : "Black";
    int kings = popcount(pieces(c, King));
    if (kings == 0) return std::string(name) + " has no king";
    if (kings > 1) return std::string(name) + " has " + std::to_string(kings) + " kings";
    if (popcount(pieces(c, Pawn)) > 8) return std::string(name) + " has more than 8 pawns";
    if (popcount(pieces(c)) > 16) return std::string(name) + " has more than 16 pieces";
  }
  if (pieces(Pawn) & (rank_bb(0) | rank_bb(7))) return "a pawn stands on the first or last rank";
  if (attackers_to(king(~side_), side_)) return "the side not to move is in check";
  if (popcount(attackers_to(king(side_), ~side_)) > 2) return "the king is in check from more than two pieces";
  return "";
}

std::string Position::castling_fen() const {
  std::string s;
  for (int idx : {0, 1, 2, 3}) {
    if (!(castling_ & (1 << idx))) continue;
    Color c = Color(idx / 2);
    Square rook = castling_rook_[idx];
    char letter;
    if (!chess960_) {
      letter = idx % 2 ? 'Q' : 'K';
    } else {
      // X-FEN where the rook is the outermost one, Shredder letters otherwise.
      letter = char('A' + file_of(rook));
      FenReader probe{const_cast<Position&>(*this)};
      if (probe.outer_rook(c, idx % 2) == rook) letter = idx % 2 ? 'Q' : 'K';
    }
    s += c == White ? letter : char(letter | 0x20);
  }
  return s.empty() ? "-" : s;
}

std::string Position::fen() const {
  std::string s;
  for (int r = 7; r >= 0; --r) {
    int empty = 0;
    for (int f = 0; f < 8; ++f) {
      Piece p = board_[make_square(f, r)];
      if (p == NoPiece) {
        ++empty;
        continue;
      }
      if (empty) s += char('0' + empty), empty = 0;
      s += PieceLetters[p];
    }
    if (empty) s += char('0' + empty);
    if (r) s += '/';
  }
  s += side_ == White ? " w " : " b ";
  s += castling_fen();
  s += ' ';
  s += ep_legal() ? square_name(ep_) : "-";
  s += ' ' + std::to_string(halfmove_) + ' ' + std::to_string(fullmove_);
  return s;
}

// Flips piece p on square s in the bitboards and the key; board_ is the caller's.
inline void Position::toggle(Piece p, Square s) {
  by_type_[type_of(p)] ^= square_bb(s);
  by_color_[color_of(p)] ^= square_bb(s);
  key_ ^= piece_key(p, s);
}

void Position::put(Piece p, Square s) {
  board_[s] = p;
  if (type_of(p) == King) king_square_[color_of(p)] = s;
  toggle(p, s);
}

void Position::remove(Square s) {
  toggle(board_[s], s);
  board_[s] = NoPiece;
}

// Piece p, standing on `from`, goes to the empty square `to`.
void Position::move_piece(Piece p, Square from, Square to) {
  Bitboard both = square_bb(from) | square_bb(to);
  board_[from] = NoPiece;
  board_[to] = p;
  if (type_of(p) == King) king_square_[color_of(p)] = to;
  by_type_[type_of(p)] ^= both;
  by_color_[color_of(p)] ^= both;
  key_ ^= piece_key(p, from) ^ piece_key(p, to);
}

// After a double push to `to`, the en passant square is kept (and hashed) only when a
// pawn of the side to move stands beside it, as the Polyglot standard does.
void Position::set_ep_after_double_push(Square to) {
  Color them = color_of(board_[to]);
  Square passed = them == White ? Square(to - 8) : Square(to + 8);
  if (pawn_attacks(them, passed) & pieces(~them, Pawn)) {
    ep_ = passed;
    key_ ^= ep_key(ep_);
  }
}

Square Position::castle_king_to(Square king_from, Square rook_from) {
  return make_square(rook_from > king_from ? 6 : 2, rank_of(king_from));
}
Square Position::castle_rook_to(Square king_from, Square rook_from) {
  return make_square(rook_from > king_from ? 5 : 3, rank_of(king_from));
}

// Normal moves, 98 plies in 100, are made here in a straight line; the other kinds in
// play_special, out of line, so that the common path needs few registers.
void Position::play(Move m) {
  if (m.kind() != MoveKind::Normal || m.is_null()) {
    play_special(m);
    return;
  }
  Square from = m.from(), to = m.to();
  Piece p = board_[from], captured = board_[to];
  pass_turn(captured != NoPiece || type_of(p) == Pawn);
  if (captured != NoPiece) toggle(captured, to);
  move_piece(p, from, to);
  if (type_of(p) == Pawn && (from ^ to) == 16) set_ep_after_double_push(to);
  take_castling_rights(from, to);
  find_checkers_after(p, from, to);
#ifdef QIPU_DEBUG_KEYS
  if (key_ != compute_key()) __builtin_trap();
#endif
}

// What every move does besides moving pieces: the en passant square expires, the
// clocks run (the halfmove clock restarts at a capture or pawn move) and the turn passes.
inline void Position::pass_turn(bool irreversible) {
  if (ep_ != NoSquare) {
    key_ ^= ep_key(ep_);
    ep_ = NoSquare;
  }
  halfmove_ = irreversible ? 0 : halfmove_ + 1;
  fullmove_ += side_;  // after Black's move
  side_ = ~side_;
  key_ ^= TurnKey;
}

// After a normal move of piece p, only p itself or a slider it uncovered on the king's
// line through `from` can give check: cheaper than looking at every enemy slider.
inline void Position::find_checkers_after(Piece p, Square from, Square to) {
  Square k = king(side_);
  Bitboard occ = pieces();
  Bitboard found = 0;
  if ((empty_board_attacks(p, to) & square_bb(k)) && !(between_bb(k, to) & occ & ~square_bb(to))) found = square_bb(to);
  if (Bitboard behind = line_bb(k, from) & pieces(~side_))
    found |= sliders_reaching(k, behind & pieces(Rook, Queen), behind & pieces(Bishop, Queen), occ);
  checkers_ = found;
}

// A move from or to the square of a king or rook with castling rights takes them.
void Position::take_castling_rights(Square from, Square to) {
  if (std::uint8_t lost = castling_ & (castling_lost_[from] | castling_lost_[to])) {
    key_ ^= castling_keys(lost);
    castling_ &= std::uint8_t(~lost);
  }
}

// Promotions, en passant captures, castling and the null move.
void Position::play_special(Move m) {
  Color us = side_;
  Square from = m.from(), to = m.to();
  pass_turn(m.kind() == MoveKind::Promotion || m.kind() == MoveKind::EnPassant);
  if (m.kind() == MoveKind::Castling) {
    remove(from);
    remove(to);
    put(make_piece(us, King), castle_king_to(from, to));
    put(make_piece(us, Rook), castle_rook_to(from, to));
    take_castling_rights(from, to);
  } else if (!m.is_null()) {
    Square captured = m.kind() == MoveKind::EnPassant ? Square(to ^ 8) : to;
    if (board_[captured] != NoPiece) remove(captured);
    move_piece(board_[from], from, to);
    if (m.kind() == MoveKind::Promotion) {
      remove(to);
      put(make_piece(us, m.promotion()), to);
    }
    take_castling_rights(from, to);
  }
  find_checkers();
}

Key Position::compute_key() const {
  Key k = 0;
  for (Bitboard b = pieces(); b;) {
    Square s = pop_lsb(b);
    k ^= piece_key(board_[s], s);
  }
  k ^= castling_keys(castling_);
  if (ep_ != NoSquare) k ^= ep_key(ep_);
  if (side_ == White) k ^= TurnKey;
  return k;
}

bool Position::ep_legal() const {
  if (ep_ == NoSquare) return false;
  MoveList list;
  generate_legal(*this, list, MoveFilter::only(Pawn, square_bb(ep_)));
  for (Move m : list)
    if (m.kind() == MoveKind::EnPassant) return true;
  return false;
}

Key Position::repetition_key() const { return ep_ != NoSquare && !ep_legal() ? key_ ^ ep_key(ep_) : key_; }

// Sliders one by one, as in find_checkers: a king's squares are looked at after many
// replayed moves, and the magic tables' loads for them miss the cache.
Bitboard Position::attackers_to(Square s, Color by, Bitboard occ) const {
  Bitboard theirs = pieces(by);
  Bitboard leapers =
      (pawn_attacks(~by, s) & pieces(Pawn)) | (knight_attacks(s) & pieces(Knight)) | (king_attacks(s) & pieces(King));
  return (leapers & theirs) | sliders_reaching(s, theirs & pieces(Rook, Queen), theirs & pieces(Bishop, Queen), occ);
}

// Sliders one by one rather than through the magic tables, which miss the cache for
// kings on many squares.
void Position::find_checkers() {
  Square k = king(side_);
  Color them = ~side_;
  Bitboard leapers = (pawn_attacks(side_, k) & pieces(Pawn)) | (knight_attacks(k) & pieces(Knight));
  checkers_ =
      (leapers & pieces(them)) | sliders_reaching(k, pieces(them, Rook, Queen), pieces(them, Bishop, Queen), pieces());
}

Bitboard Position::pinned(Color c) const {
  Square k = king(c);
  Bitboard snipers =
      ((rook_attacks(k, 0) & pieces(Rook, Queen)) | (bishop_attacks(k, 0) & pieces(Bishop, Queen))) & pieces(~c);
  Bitboard result = 0;
  while (snipers) {
    Square s = pop_lsb(snipers);
    Bitboard between = between_bb(k, s) & ~square_bb(s) & pieces();
    if (between && !more_than_one(between)) result |= between & pieces(c);
  }
  return result;
}

// FIDE 3.8.2: the king's square, the squares it crosses and its destination must not be
// attacked, the squares both pieces cross must be empty, and the king must not be in
// check afterwards (which catches a Chess960 rook that was shielding the king).
bool Position::castling_legal(Square king_from, Square rook_from) const {
  Color us = side_;
  Square kto = castle_king_to(king_from, rook_from), rto = castle_rook_to(king_from, rook_from);
  Bitboard both = square_bb(king_from) | square_bb(rook_from);
  Bitboard path = (between_bb(king_from, kto) | between_bb(rook_from, rto)) & ~both;
  if (path & pieces()) return false;
  if (checkers_) return false;  // the king's own square
  for (Bitboard b = between_bb(king_from, kto); b;)
    if (attackers_to(pop_lsb(b), ~us)) return false;
  Bitboard after = (pieces() ^ both) | square_bb(kto) | square_bb(rto);
  return !attackers_to(kto, ~us, after);
}

Move Position::castling_move(int idx) const {
  Square k = king(side_), rook = castling_rook(idx);
  return can_castle(std::uint8_t(1 << idx)) && castling_legal(k, rook) ? Move(k, rook, MoveKind::Castling)
                                                                       : Move::none();
}

bool Position::is_legal(Move m) const {
  MoveList list;
  generate_legal(*this, list, {0x7E, square_bb(m.to())});
  return list.contains(m);
}

// leaves_king_safe for every case.
bool Position::king_safe_after(Move m) const {
  Color us = side_;
  Square from = m.from(), to = m.to(), ksq = king(us);
  if (from == ksq) return !attackers_to(to, ~us, pieces() ^ square_bb(from));
  // Not in check, only a slider on the line through the king and `from` can be uncovered
  // (knights and pawns attack what they attacked before). leaves_king_safe has passed the
  // moves that stay on that line or whose line holds no enemy.
  if (!checkers_ && m.kind() != MoveKind::EnPassant) {
    Bitboard them = pieces(~us) & line_bb(ksq, from);
    return !sliders_reaching(ksq, them & pieces(Rook, Queen), them & pieces(Bishop, Queen), pieces() ^ square_bb(from));
  }
  Square captured = m.kind() == MoveKind::EnPassant ? Square(to ^ 8) : to;
  Bitboard occ = (pieces() ^ square_bb(from) ^ square_bb(captured)) | square_bb(to);
  Bitboard them = pieces(~us) & ~square_bb(captured);
  if (sliders_reaching(ksq, them & pieces(Rook, Queen), them & pieces(Bishop, Queen), occ)) return false;
  Bitboard leapers = (knight_attacks(ksq) & pieces(Knight)) | (pawn_attacks(us, ksq) & pieces(Pawn));
  return !(leapers & them);
}

std::string Position::uci(Move m) const {
  if (m.is_null()) return "0000";
  Square to = m.to();
  if (m.kind() == MoveKind::Castling && !chess960_) to = castle_king_to(m.from(), to);
  std::string s = square_name(m.from()) + square_name(to);
  if (m.kind() == MoveKind::Promotion) s += " pnbrqk"[m.promotion()];
  return s;
}

Move Position::parse_uci(std::string_view text) const {
  MoveList list;
  generate_legal(*this, list);
  for (Move m : list) {
    if (uci(m) == text) return m;
    if (m.kind() == MoveKind::Castling && square_name(m.from()) + square_name(m.to()) == text) return m;
  }
  return Move::none();
}

bool Position::operator==(const Position& o) const {
  return board_ == o.board_ && side_ == o.side_ && castling_ == o.castling_ && castling_rook_ == o.castling_rook_ &&
         ep_ == o.ep_ && halfmove_ == o.halfmove_ && fullmove_ == o.fullmove_;
}

bool MoveList::contains(Move m) const {
  for (Move x : *this)
    if (x == m) return true;
  return false;
}

}  // namespace qipu
