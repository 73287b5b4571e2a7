// Reading a move token in any notation: non-ASCII words (Chinese, figurines, Cyrillic,
// full-width forms) are rewritten to ASCII SAN first; letter languages are then tried
// table by table, and the replayer keeps the first reading that is legal.
#include <algorithm>
#include <cstring>

#include "fast.hpp"
#include "fold.hpp"
#include "qipu/board/movegen.hpp"
#include "qipu/grammar/pgn_words.hpp"
#include "qipu/notation/notation.hpp"

namespace qipu {

namespace {

constexpr std::string_view XiangqiWords[] = {"炮", "砲", "士", "仕", "帅", "帥", "卒",
                                             "相", "俥", "傌", "进", "進", "退", "平"};
constexpr std::string_view EitherCastling[] = {"王车易位", "王車易位"};

bool contains(std::string_view s, std::string_view w) { return s.find(w) != std::string_view::npos; }

bool is_ascii(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

bool is_ep_mark(std::string_view t) { return t == "e.p." || t == "ep" || t == "e.P." || t == "ep."; }

// Whether a xiangqi word stands in the token outside the chess words: 骑士 (knight) holds
// 士, a xiangqi advisor, but is read as one word first, as the reader reads it.
bool holds_xiangqi_word(std::string_view token) {
  const char* p = token.data();
  const char* end = p + token.size();
  while (p < end) {
    if (static_cast<unsigned char>(*p) < 0x80) {
      ++p;
      continue;
    }
    if (fold::Unit u = fold::unit_at(p, end); u.bytes) {
      p += u.bytes;
      continue;
    }
    std::string_view rest(p, std::size_t(end - p));
    for (auto w : XiangqiWords)
      if (rest.substr(0, w.size()) == w) return true;
    do ++p;  // the next UTF-8 character
    while (p < end && (static_cast<unsigned char>(*p) & 0xC0) == 0x80);
  }
  return false;
}

// The token with a letter language's piece words replaced by English letters, or empty
// when the table has nothing to say about it.
std::string rewrite_letters(std::string_view t, const Notation& n) {
  std::string out;
  std::string_view rest = t;
  auto piece_at = [&](std::string_view s) -> std::pair<int, std::size_t> {
    int best = 0;
    std::size_t len = 0;
    for (int p = Knight; p <= King; ++p) {
      auto w = n.names.pieces[p];
      if (!w.empty() && s.substr(0, w.size()) == w && w.size() > len) best = p, len = w.size();
    }
    return {best, len};
  };
  if (auto [p, len] = piece_at(rest); p) {
    out += english().names.pieces[p];
    rest.remove_prefix(len);
  } else {
    for (auto w : n.pawn_words)
      if (rest.size() > w.size() && rest.substr(0, w.size()) == w && rest[w.size()] >= 'a' && rest[w.size()] <= 'h') {
        rest.remove_prefix(w.size());
        break;
      }
  }
  // A promotion piece after the square: e8=D, or e8D with the letter right after the rank.
  std::size_t promo_at = rest.find('=');
  if (promo_at != std::string_view::npos)
    ++promo_at;
  else if (rest.size() >= 3 && (rest[rest.size() - 2] == '8' || rest[rest.size() - 2] == '1'))
    promo_at = rest.size() - 1;
  if (promo_at != std::string_view::npos && promo_at < rest.size()) {
    if (auto [p, len] = piece_at(rest.substr(promo_at)); p) {
      out += rest.substr(0, promo_at);
      out += english().names.pieces[p];
      rest.remove_prefix(promo_at + len);
    }
  }
  out += rest;
  return out == t ? std::string() : out;
}

// Adds the token's reading in this notation unless another gave the same; keeps the
// first parse error, for when no notation reads it.
void add_reading(MoveReadings& r, std::string& error, std::string_view text, const Notation& n) {
  Result<San> p = parse_san(text);
  if (!p) {
    if (error.empty()) error = p.error();
    return;
  }
  for (const auto& existing : r.readings)
    if (std::memcmp(&existing.san, &*p, sizeof(San)) == 0) return;
  if (&n != &english()) p->style &= std::uint8_t(~StylePawnLetter);  // 兵, B(auer): the language's own pawn word
  r.readings.push_back({*p, &n});
}

// The readings found, or the first error when there are none.
Result<MoveReadings> finish(MoveReadings&& r, std::string& error) {
  if (r.readings.empty()) return Failure{std::move(error), Problem::unknown_move};
  return std::move(r);
}

}  // namespace

int glyph_nag(std::string_view token) {
  static constexpr std::pair<std::string_view, int>
      Signs[] = {{"!", 1},   {"?", 2},    {"!!", 3},   {"??", 4},   {"!?", 5},   {"?!", 6},  {"□", 7},
                 {"=", 10},  {"∞", 13},   {"+=", 14},  {"+/=", 14}, {"⩲", 14},   {"=+", 15}, {"=/+", 15},
                 {"⩱", 15},  {"±", 16},   {"+/-", 16}, {"∓", 17},   {"-/+", 17}, {"+-", 18}, {"+--", 18},
                 {"-+", 19}, {"--+", 19}, {"=/∞", 44}, {"∞/=", 44}, {"inf", 13}};  // not "N" (novelty): a truncated
                                                                                   // knight move must stay an error
  for (auto [sign, nag] : Signs)
    if (token == sign) return nag;
  return 0;
}

std::string fold_full_width(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  const char* end = s.data() + s.size();
  for (const char* p = s.data(); p < end;) {
    fold::Unit u = fold::full_width_at(p, end);
    if (u.bytes == 0 && grammar::pgn::wide_space_at(p, end)) u = {" ", 3, false};
    if (u.bytes == 0) u = {std::string_view(p, 1), 1, false};
    out += u.ascii;
    p += u.bytes;
  }
  return out;
}

Result<MoveReadings> read_move(std::string_view token, const Notation* preferred) {
  MoveReadings r;
  std::string text(token), error;
  bool piece_word = false;  // a Chinese word or figurine named the piece: no letter language's reading
  if (!is_ascii(token)) {
    if (holds_xiangqi_word(token))
      return Failure{"this is a xiangqi (Chinese chess) move, not international chess", Problem::unknown_move};
    for (auto w : EitherCastling)
      if (contains(token, w)) {
        San san;
        san.kind = San::Kind::CastleEither;
        r.readings.push_back({san, find_notation("zh")});
        return r;
      }
    text = fold::fold_words(token, piece_word);
    if (!is_ascii(text)) return Failure{"not a move in any notation qipu knows", Problem::unknown_move};
  }
  text.erase(std::remove(text.begin(), text.end(), ' '), text.end());  // "马 f3", "exf6 e.p."
  if (text.empty() || is_ep_mark(text)) {
    r.ignorable = true;
    return r;
  }
  if (preferred && preferred != &english() && !piece_word) {
    std::string alt = rewrite_letters(text, *preferred);
    if (!alt.empty()) add_reading(r, error, alt, *preferred);
  }
  add_reading(r, error, text, english());
  if (piece_word) return finish(std::move(r), error);
  for (const auto& n : notations()) {
    if (&n == preferred || &n == &english() || !is_ascii(n.names.pieces[Knight])) continue;
    std::string alt = rewrite_letters(text, n);
    if (!alt.empty()) add_reading(r, error, alt, n);
  }
  return finish(std::move(r), error);
}

bool read_usual(std::string_view t, const Notation& preferred, San& san) {
  if (t.empty() || t.size() > 16) return false;
  if (t[0] == 'O') {  // no table's word starts with O: castling reads as in English
    Result<San> p = parse_san(t);
    if (!p || p->kind == San::Kind::Normal) return false;
    san = *p;
    return true;
  }
  PieceType piece = Pawn;
  std::size_t word = 0;
  for (int p = Knight; p <= King; ++p) {
    std::string_view w = preferred.names.pieces[p];
    if (!w.empty() && w[0] == t[0] && w.size() > word && (w.size() == 1 || t.substr(0, w.size()) == w))
      piece = PieceType(p), word = w.size();
  }
  if (piece == Pawn && (t[0] < 'a' || t[0] > 'h')) return false;  // a pawn word, another table's letter
  char padded[16 + plain_san::kWindow];                           // read_board reads 8 bytes ahead
  std::memcpy(padded, t.data(), t.size());
  std::memset(padded + t.size(), 0, plain_san::kWindow);
  san = San{};
  san.piece = piece;
  std::size_t n = plain_san::read_board(padded, padded + word, piece, san);
  return n == t.size() && san.promotion == NoPieceType;
}

PieceType letter_piece(const Notation& table, char letter) {
  PieceType piece = NoPieceType;
  for (int p = Knight; p <= King; ++p) {
    std::string_view w = table.names.pieces[p];
    if (w.empty() || w[0] != letter) continue;
    if (w.size() > 1) return NoPieceType;
    if (piece == NoPieceType) piece = PieceType(p);
  }
  return piece;
}

const Notation* read_first_letters(std::string_view t, San& san) {
  // Pawn words (B, P, p, gy) start readings of their own, in read_move's order.
  if (t.empty() || t[0] == 'B' || t[0] == 'P' || t[0] == 'p' || t[0] == 'g') return nullptr;
  for (const auto& n : notations()) {  // read_move's order of the letter tables
    if (&n == &english() || !is_ascii(n.names.pieces[Knight])) continue;
    for (int p = Knight; p <= King; ++p)
      if (std::string_view w = n.names.pieces[p]; !w.empty() && t.substr(0, w.size()) == w)
        return read_usual(t, n, san) ? &n : nullptr;
  }
  return nullptr;
}

TableSet letter_tables() {
  static const TableSet set = [] {
    TableSet s = 0;
    for (const auto& n : notations())
      if (is_ascii(n.names.pieces[Knight])) s |= table_bit(n);
    return s;
  }();
  return set;
}

bool same_words(const Notation& a, const Notation& b) {
  for (int p = Knight; p <= King; ++p)
    if (a.names.pieces[p] != b.names.pieces[p]) return false;
  return a.pawn_words == b.pawn_words;
}

std::optional<San> read_in(std::string_view t, const Notation& table) {
  if (t.empty()) return std::nullopt;
  if (t[0] >= 'A' && t[0] <= 'Z' && t[0] != 'O' && t != "Z0") {  // a letter: the table's word, or no reading
    auto starts = [&](std::string_view w) { return !w.empty() && t.substr(0, w.size()) == w; };
    bool word = std::any_of(std::begin(table.names.pieces), std::end(table.names.pieces), starts) ||
                std::any_of(table.pawn_words.begin(), table.pawn_words.end(), starts);
    if (!word) return std::nullopt;
  }
  std::string alt = &table == &english() ? std::string() : rewrite_letters(t, table);
  Result<San> p = parse_san(alt.empty() ? t : std::string_view(alt));
  if (!p) return std::nullopt;
  if (!alt.empty()) p->style &= std::uint8_t(~StylePawnLetter);  // B(auer): the language's own pawn word
  return *p;
}

namespace {

// Castling as the style asks; words exist only for the Chinese tables.
std::string_view castling_text(bool long_side, const Notation& notation, const WriteStyle& style) {
  if (style.castling == WriteStyle::Castling::Zeros) return long_side ? "0-0-0" : "0-0";
  if (style.castling == WriteStyle::Castling::Words && notation.code.substr(0, 2) == "zh")
    return long_side ? (notation.code == "zh" ? "长易位" : "長易位") : "短易位";
  return long_side ? notation.names.castle_long : notation.names.castle_short;
}

}  // namespace

std::string write_move(const Position& pos, Move m, const Notation& notation, const WriteStyle& style) {
  SanShape shape = san_shape(pos, m);
  Position after = pos;
  after.play(m);
  shape.suffix = check_suffix(after);
  std::string text;
  append_move(text, m, shape, notation, style);
  return text;
}

SanWords move_words(const Notation& notation, const WriteStyle& style) {
  SanWords words(notation.names, style.spaced);
  words.castle_short = SanWords::Word(castling_text(false, notation, style));
  words.castle_long = SanWords::Word(castling_text(true, notation, style));
  return words;
}

void append_move(std::string& out, Move m, const SanShape& shape, const Notation& notation, const WriteStyle& style) {
  char text[MaxMoveBytes];
  out.append(text, put_move(text, m, shape, move_words(notation, style)));
}

char* put_move(char* p, Move m, const SanShape& shape, const SanWords& words) {
  p = put_san_body(p, m, shape, words);
  if (shape.suffix != San::Suffix::None) *p++ = shape.suffix == San::Suffix::Check ? '+' : '#';
  return p;
}

}  // namespace qipu
