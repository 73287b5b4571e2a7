// A chess position: placement, side to move, castling rights (standard and Chess960),
// en passant square, clocks and its Polyglot key, kept up to date move by move.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "qipu/core/bitboard.hpp"
#include "qipu/core/result.hpp"
#include "qipu/core/types.hpp"

namespace qipu {

// Castling rights: one bit per side and wing.
enum CastlingRight : std::uint8_t {
  WhiteShort = 1,
  WhiteLong = 2,
  BlackShort = 4,
  BlackLong = 8,
};
constexpr int castling_index(Color c, bool long_side) { return c * 2 + long_side; }

inline constexpr std::string_view StartFen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

class Position {
 public:
  Position();  // the standard start position
  struct Empty {};
  explicit Position(Empty) {}  // no pieces at all; for building positions by hand

  // Reads a FEN (or Shredder-FEN / X-FEN castling fields). Four fields are accepted
  // (EPD style) with clocks 0 1. Every rule of a legal setup is checked.
  // With FenSlips::Repair, two slips common in real files are accepted, each described
  // in the result's notes(), instead of refused: an en passant square with a non-zero
  // halfmove clock, and a fullmove number of 0 (read as 1).
  enum class FenSlips { Refuse, Repair };
  static Result<Position> from_fen(std::string_view fen, bool chess960 = false, FenSlips slips = FenSlips::Refuse);
  [[nodiscard]] std::string fen() const;

  // Plays a legal move (or Move::null()). The caller guarantees legality.
  void play(Move m);

  // Queries
  [[nodiscard]] Piece piece_on(Square s) const { return board_[s]; }
  [[nodiscard]] Bitboard pieces() const { return by_color_[White] | by_color_[Black]; }
  [[nodiscard]] Bitboard pieces(Color c) const { return by_color_[c]; }
  [[nodiscard]] Bitboard pieces(PieceType t) const { return by_type_[t]; }
  [[nodiscard]] Bitboard pieces(PieceType a, PieceType b) const { return by_type_[a] | by_type_[b]; }
  [[nodiscard]] Bitboard pieces(Color c, PieceType t) const { return by_color_[c] & by_type_[t]; }
  [[nodiscard]] Bitboard pieces(Color c, PieceType a, PieceType b) const {
    return by_color_[c] & (by_type_[a] | by_type_[b]);
  }
  [[nodiscard]] Square king(Color c) const { return king_square_[c]; }
  [[nodiscard]] Color side_to_move() const { return side_; }
  [[nodiscard]] std::uint8_t castling_rights() const { return castling_; }
  [[nodiscard]] bool can_castle(std::uint8_t right) const { return castling_ & right; }
  // The rook that castles for this right (index from castling_index).
  [[nodiscard]] Square castling_rook(int index) const { return castling_rook_[index]; }
  // The en passant target square when a pawn of the side to move stands beside the pawn
  // that just moved two squares (the Polyglot rule), else NoSquare.
  [[nodiscard]] Square ep_square() const { return ep_; }
  // True when an en passant capture is actually legal now (the FEN and repetition rule).
  [[nodiscard]] bool ep_legal() const;
  [[nodiscard]] int halfmove_clock() const { return halfmove_; }
  [[nodiscard]] int fullmove_number() const { return fullmove_; }
  [[nodiscard]] bool chess960() const { return chess960_; }
  // The Polyglot key of the position.
  [[nodiscard]] Key key() const { return key_; }
  // The key used for repetition: like key(), but an en passant square counts only when
  // a legal capture exists (FIDE Art. 9.2).
  [[nodiscard]] Key repetition_key() const;
  [[nodiscard]] Key compute_key() const;  // from scratch, for checks

  // Pieces of colour `by` attacking square s, given occupancy occ.
  [[nodiscard]] Bitboard attackers_to(Square s, Color by, Bitboard occ) const;
  [[nodiscard]] Bitboard attackers_to(Square s, Color by) const { return attackers_to(s, by, pieces()); }
  // Enemy pieces giving check: found once per move by play(), since replay, SAN writing
  // and move generation all ask.
  [[nodiscard]] Bitboard checkers() const { return checkers_; }
  [[nodiscard]] bool in_check() const { return checkers_ != 0; }
  // Pieces of colour c that shield c's king from an enemy slider.
  [[nodiscard]] Bitboard pinned(Color c) const;
  // Is the castling move m (king takes own rook) legal here? Used by movegen and SAN.
  [[nodiscard]] bool castling_legal(Square king_from, Square rook_from) const;
  // The castling move of right `idx` (castling_index) when the right is held and the move
  // legal here, else Move::none(): the one rule for movegen and SAN.
  [[nodiscard]] Move castling_move(int idx) const;
  // Is the move one that is legal in this position? (Generates moves: for decoded input.)
  [[nodiscard]] bool is_legal(Move m) const;
  // Does the pseudo-legal move m (a piece of the side to move going where it could go,
  // not castling) leave the own king safe? A few bitboard operations, no generation.
  // Inline for the common case, out of check: a piece other than the king that stands on
  // no line from the king with an enemy on it, or stays on its line, uncovers nothing.
  // Always: LTO's budget for inlining is the whole program's, and when other code grew
  // (branch codec2) it stopped inlining this into SAN resolution, +1.6 % for check.
  [[nodiscard]] [[gnu::always_inline]] bool leaves_king_safe(Move m) const {
    Square ksq = king(side_), from = m.from();
    if (!checkers_ && from != ksq && m.kind() != MoveKind::EnPassant) {
      Bitboard line = line_bb(ksq, from);
      if (!(line & by_color_[~side_]) || (line & square_bb(m.to()))) return true;
    }
    return king_safe_after(m);
  }
  // Where the king and rook end up when castling with the given rook.
  static Square castle_king_to(Square king_from, Square rook_from);
  static Square castle_rook_to(Square king_from, Square rook_from);

  // The move in UCI: castling is king-to-destination in standard chess, king-takes-rook
  // in Chess960.
  [[nodiscard]] std::string uci(Move m) const;
  // Parses a UCI move and returns it if legal here, else Move::none().
  [[nodiscard]] Move parse_uci(std::string_view text) const;

  bool operator==(const Position& o) const;

 private:
  void toggle(Piece p, Square s);
  void put(Piece p, Square s);
  void remove(Square s);
  void move_piece(Piece p, Square from, Square to);
  [[gnu::noinline]] void play_special(Move m);
  void take_castling_rights(Square from, Square to);
  void set_ep_after_double_push(Square to);
  [[nodiscard]] bool king_safe_after(Move m) const;
  void pass_turn(bool irreversible);
  void find_checkers();
  void find_checkers_after(Piece p, Square from, Square to);
  [[nodiscard]] std::string check_setup() const;
  [[nodiscard]] std::string castling_fen() const;
  friend struct FenReader;

  std::array<Bitboard, 7> by_type_{};
  std::array<Bitboard, 2> by_color_{};
  std::array<Piece, 64> board_{};
  std::array<Square, 4> castling_rook_{NoSquare, NoSquare, NoSquare, NoSquare};
  std::array<std::uint8_t, 64> castling_lost_{};           // rights lost by a move from or to each square
  std::array<Square, 2> king_square_{NoSquare, NoSquare};  // kept by put() and play(): asked for several times a ply
  Key key_ = 0;
  Bitboard checkers_ = 0;
  Square ep_ = NoSquare;
  Color side_ = White;
  std::uint8_t castling_ = 0;
  bool chess960_ = false;
  std::uint32_t halfmove_ = 0;  // 32 bits: a legal game can pass 65,535 plies without a capture
  std::uint32_t fullmove_ = 1;
};


}  // namespace qipu
