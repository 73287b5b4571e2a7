// SAN as its own type: parsed from text without a position, then resolved against one.
// Syntax errors (parse) and semantic errors (resolve: illegal, ambiguous) are distinct.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "qipu/board/position.hpp"
#include "qipu/core/result.hpp"

namespace qipu {

// Departures from standard SAN that the reader accepts but reports (errors in --strict).
enum SanStyle : std::uint8_t {
  StyleZeroCastling = 1,    // 0-0 instead of O-O
  StylePawnLetter = 2,      // an explicit P
  StyleLongAlgebraic = 4,   // origin square given (e2-e4, Ng1f3)
  StyleEpSuffix = 8,        // trailing e.p.
  StyleDoubleCheck = 16,    // ++ for check
  StyleLowerCastling = 32,  // o-o in lower case
};

struct San {
  // CastleEither: a generic castling word (王车易位), legal only where one castling is.
  enum class Kind : std::uint8_t { Normal, CastleShort, CastleLong, CastleEither, Null };
  enum class Suffix : std::uint8_t { None, Check, Mate };
  Kind kind = Kind::Normal;
  PieceType piece = Pawn;
  std::int8_t from_file = -1;  // disambiguation, -1 when absent
  std::int8_t from_rank = -1;
  Square to = NoSquare;
  PieceType promotion = NoPieceType;
  bool capture = false;
  Suffix suffix = Suffix::None;
  std::uint8_t style = 0;  // SanStyle bits
};

// Reads one move token: SAN and the forms met in the wild (long algebraic, 0-0, P,
// e8Q / e8(Q) / e8/Q promotions, e.p., --, Z0); failing, says what was expected
// (Problem::unknown_move).
Result<San> parse_san(std::string_view token);

// The one legal move the SAN names; failing, why: Problem::illegal_move (with the
// reason) or Problem::ambiguous_move (naming the candidates).
Result<Move> resolve_san(const Position& pos, const San& san);

// Piece words for writing moves; English SAN letters by default.
struct PieceNames {
  std::string_view name;       // "en", "zh", …
  std::string_view pieces[7];  // indexed by PieceType; the pawn's word is usually empty
  std::string_view castle_short = "O-O";
  std::string_view castle_long = "O-O-O";
};
const PieceNames& english_names();

// How SAN writes a legal move, in any language: all a writer needs of the position.
// The replayer records it on each move, so a game is written without replaying it.
struct SanShape {
  PieceType piece = NoPieceType;  // NoPieceType: not known
  bool capture = false;
  bool from_file = false, from_rank = false;  // disambiguation needed
  San::Suffix suffix = San::Suffix::None;     // check or mate, found after the move
  [[nodiscard]] bool known() const { return piece != NoPieceType; }
};
// The shape of move m played from `before`, without its suffix.
SanShape san_shape(const Position& before, Move m);
// The same for a move resolve_san found from `written`: a piece move that named no
// origin and resolved has no rival, and a pawn captures when it changes file, so
// nothing needs looking up.
SanShape san_shape(const Position& before, Move m, const San& written);
// + or # as the position after a move calls for.
San::Suffix check_suffix(const Position& after);
// Appends the SAN body (no suffix) of a move of the given shape; `spaced` puts a space
// after the piece word ("马 f3").
void append_san_body(std::string& out, Move m, const SanShape& shape, const PieceNames& names = english_names(),
                     bool spaced = false);

// Canonical SAN of a legal move, with + or # (playing the move to find out).
std::string format_san(const Position& pos, Move m, const PieceNames& names = english_names());
// The SAN body without check suffix, for callers who know the check state already.
std::string format_san_body(const Position& pos, Move m, const PieceNames& names = english_names());

}  // namespace qipu
