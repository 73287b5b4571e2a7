// Private to the library: the fast internal variants of the public notation functions,
// for the reader, the replayer and the writer's hot paths. The public headers keep one
// way to do each thing (parse_san, resolve_san, append_move); these give the same
// answers for the usual cases without building strings, and tests compare the two.
//
// First the reader's path for the shapes nearly every move has, [NBRQK][file][rank][x]
// square[=NBRQ][+#] (a pawn names a file only to capture). Inline, so the token loop
// calls no function for the usual token; parse_san reads all the rest and gives the
// same San for these.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "qipu/notation/notation.hpp"
#include "qipu/notation/san.hpp"

namespace qipu {

namespace plain_san {

// The square two bytes name, as in "e4", or NoSquare: one load where two range tests and
// the square's arithmetic ran for every token. Indexed by the first byte plus the second
// times 256; the 64 used entries fill 8 cache lines, one a rank.
struct SquareTable {
  std::uint8_t sq[1 << 16];
  constexpr SquareTable() : sq{} {
    for (auto& s : sq) s = NoSquare;
    for (int f = 0; f < 8; ++f)
      for (int r = 0; r < 8; ++r) sq[('a' + f) | ('1' + r) << 8] = make_square(f, r);
  }
};
inline constexpr SquareTable kSquares;
inline Square square_at(const char* s) { return Square(kSquares.sq[std::uint8_t(s[0]) | std::uint8_t(s[1]) << 8]); }

// The piece a token's first byte names, Pawn for any byte that is not N B R Q K.
struct LeadTable {
  PieceType piece[256];
  constexpr LeadTable() : piece{} {
    for (auto& p : piece) p = Pawn;
    piece[std::size_t{'N'}] = Knight, piece[std::size_t{'B'}] = Bishop, piece[std::size_t{'R'}] = Rook;
    piece[std::size_t{'Q'}] = Queen, piece[std::size_t{'K'}] = King;
  }
};
inline constexpr LeadTable kLead;

// What a byte after a square may begin: more of the board part (the square was the
// origin: Qh4e1, Qh4xe1) or the signs (=Q, +, #). Most tokens end after their first
// square, which one load tells.
enum : std::uint8_t { kMoreBoard = 1, kSign = 2 };
struct FollowTable {
  std::uint8_t f[256];
  constexpr FollowTable() : f{} {
    for (int c = 'a'; c <= 'h'; ++c) f[c] = kMoreBoard;
    f[std::size_t{'x'}] = kMoreBoard;
    f[std::size_t{'='}] = f[std::size_t{'+'}] = f[std::size_t{'#'}] = kSign;
  }
  constexpr std::uint8_t operator[](char c) const { return f[std::uint8_t(c)]; }
};
inline constexpr FollowTable kFollow;

// The less usual parts, out of line (san.cpp): where the target square or the signs end,
// nullptr when the token is not plain.
const char* read_origin(const char* q, PieceType piece, San& san);
const char* read_signs(const char* q, PieceType piece, San& san);

// The longest plain token and the byte after it take 8 bytes: with those at hand no read
// needs a bound check.
inline constexpr std::ptrdiff_t kWindow = 8;

// The board part and signs at q, after the piece (named at p, or none): the token's
// length from p, 0 if it is not plain. `san` holds the piece already.
inline std::size_t read_board(const char* p, const char* q, PieceType piece, San& san) {
  Square to = square_at(q);
  if (to == NoSquare || kFollow[q[2]] & kMoreBoard) {  // not the usual Nf3 or e4
    q = read_origin(q, piece, san);
    if (!q || (to = square_at(q)) == NoSquare) return 0;
  }
  san.to = to;
  q += 2;
  if (kFollow[*q] & kSign) q = read_signs(q, piece, san);
  return q ? static_cast<std::size_t>(q - p) : 0;
}

inline std::size_t read_window(const char* p, San& san) {
  san = San{};
  PieceType piece = Pawn;
  const char* q = p;
  // A branch, not q = p + (piece != Pawn): the next token's start would wait on the table.
  // Any capital: O-O and German's Sf3 or Txe1 are no plain SAN, told without a scan.
  if (*q >= 'A' && *q <= 'Z') {
    piece = kLead.piece[std::uint8_t(*q++)];
    if (piece == Pawn) return 0;  // not N B R Q K
    san.piece = piece;
  }
  return read_board(p, q, piece, san);
}

// Near the end of the text: a copy padded with NULs, which no token contains.
std::size_t read_near_end(const char* p, const char* end, San& san);

}  // namespace plain_san

// The plain SAN at the start of a text: its length (0 if none), which the caller checks
// ends the token, and its reading in `san`.
inline std::size_t read_plain_san(const char* p, const char* end, San& san) {
  if (end - p >= plain_san::kWindow) return plain_san::read_window(p, san);
  return plain_san::read_near_end(p, end, san);
}

// The shapes read_plain_san reads, as a whole token: false for anything else, which
// parse_san reads. Replay's common path.
bool parse_plain_san(std::string_view token, San& san);

// The first reading read_move gives a token in a game written in a letter language
// (`preferred`, not English): the table's piece word or none, then a plain board part
// without promotion; or castling. False when the token is anything else (a pawn word,
// another table's letter, a promotion): read_move decides those.
bool read_usual(std::string_view token, const Notation& preferred, San& san);

// The piece a one-letter word names in the table, as read_usual reads a token that
// starts with it: NoPieceType when no piece word is that letter alone, or a longer
// word starts with it.
PieceType letter_piece(const Notation& table, char letter);
// letter_piece for the letters A-Z of one table at a time, worked out once a table: a
// German game asks for each of its piece moves.
class LetterPieces {
 public:
  PieceType of(const Notation& table, char letter) {
    if (&table != table_) fill(table);
    return letter >= 'A' && letter <= 'Z' ? piece_[std::size_t(letter - 'A')] : letter_piece(table, letter);
  }

 private:
  void fill(const Notation& table) {
    table_ = &table;
    for (std::size_t i = 0; i < piece_.size(); ++i) piece_[i] = letter_piece(table, char('A' + i));
  }
  const Notation* table_ = nullptr;
  std::array<PieceType, 26> piece_{};
};

// The first reading read_move gives a token that English SAN does not read, when the
// first letter table (in read_move's order) whose piece word starts it reads it as
// read_usual does: that table, or nullptr. A game's first move in German (Sf3, Lb5).
const Notation* read_first_letters(std::string_view token, San& san);

// Sets of tables: bit i stands for notations()[i].
using TableSet = std::uint32_t;
inline TableSet table_bit(const Notation& n) { return TableSet{1} << (&n - notations().data()); }
// English and the letter languages: the tables whose piece words are ASCII letters, which
// mean different pieces in different tables (P: an English pawn, a Dutch knight).
TableSet letter_tables();
// Whether two tables read every letter alike (German and Swedish, Spanish and Italian).
bool same_words(const Notation& a, const Notation& b);
// An ASCII token read as a game written in `table` reads it: a capital must be one of the
// table's piece or pawn words (or castling); nullopt when the table gives no move.
std::optional<San> read_in(std::string_view token, const Notation& table);

// The move resolve_san finds, without building its error: Move::none() when the SAN names
// no legal move or several. Replay's common path.
Move find_move(const Position& pos, const San& san);

// The words a move is written with, each in a fixed array that is copied whole: looked
// up once for writing many moves. Words longer than MaxWordBytes are cut (the notation
// tables are checked to have none).
constexpr std::size_t MaxWordBytes = 16;
struct SanWords {
  struct Word {
    char bytes[MaxWordBytes] = {};
    std::size_t size = 0;
    Word() = default;
    explicit Word(std::string_view w);
  };
  Word pieces[7], castle_short, castle_long;
  bool spaced = false;  // a space after the piece word
  SanWords(const PieceNames& names, bool spaced);
};
// Room put_san_body and put_move need after p.
constexpr std::size_t MaxMoveBytes = 3 * MaxWordBytes;
// The SAN body written at p; returns the end.
char* put_san_body(char* p, Move m, const SanShape& shape, const SanWords& words);
// The words the notation and style write moves with, castling as the style asks.
SanWords move_words(const Notation& notation, const WriteStyle& style);
// The move with its suffix written at p, which needs room for MaxMoveBytes; returns the end.
char* put_move(char* p, Move m, const SanShape& shape, const SanWords& words);

}  // namespace qipu
