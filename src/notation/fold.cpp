#include "fold.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

#include "qipu/grammar/pgn_words.hpp"

namespace qipu::fold {

namespace {

namespace g = qipu::grammar::pgn;

struct Word {
  std::string_view word, ascii;
  bool piece;
};

// Every word a move token may hold in place of SAN's letters and signs. Where one word
// starts another (王 and 王后, 将 and 将死) the longest is read.
constexpr Word kWords[] = {
    // pieces
    {"国王", "K", true},
    {"國王", "K", true},
    {"王", "K", true},
    {"♔", "K", true},
    {"♚", "K", true},
    {"皇后", "Q", true},
    {"王后", "Q", true},
    {"后", "Q", true},
    {"後", "Q", true},
    {"♕", "Q", true},
    {"♛", "Q", true},
    {"车", "R", true},
    {"車", "R", true},
    {"城堡", "R", true},
    {"战车", "R", true},
    {"戰車", "R", true},
    {"♖", "R", true},
    {"♜", "R", true},
    {"象", "B", true},
    {"主教", "B", true},
    {"♗", "B", true},
    {"♝", "B", true},
    {"马", "N", true},
    {"馬", "N", true},
    {"骑士", "N", true},
    {"騎士", "N", true},
    {"♘", "N", true},
    {"♞", "N", true},
    {"小兵", "", true},
    {"兵", "", true},
    {"♙", "", true},
    {"♟", "", true},
    {"Кр", "K", true},
    {"Ф", "Q", true},
    {"Л", "R", true},
    {"С", "B", true},
    {"К", "N", true},
    {"п", "", true},
    // castling
    {"短易位", "O-O", false},
    {"王翼易位", "O-O", false},
    {"短入堡", "O-O", false},
    {"王车短易位", "O-O", false},
    {"王車短易位", "O-O", false},
    {"长易位", "O-O-O", false},
    {"長易位", "O-O-O", false},
    {"后翼易位", "O-O-O", false},
    {"長入堡", "O-O-O", false},
    {"王车长易位", "O-O-O", false},
    {"王車長易位", "O-O-O", false},
    // capture, check, mate, promotion, en passant
    {"吃", "x", false},
    {"×", "x", false},
    {"将军", "+", false},
    {"將軍", "+", false},
    {"将", "+", false},
    {"將", "+", false},
    {"将死", "#", false},
    {"将杀", "#", false},
    {"將死", "#", false},
    {"將殺", "#", false},
    {"杀", "#", false},
    {"殺", "#", false},
    {"升变为", "=", false},
    {"升變為", "=", false},
    {"升变", "=", false},
    {"升變", "=", false},
    {"升", "=", false},
    {"变", "=", false},
    {"變", "=", false},
    {"吃过路兵", "e.p.", false},
    {"吃過路兵", "e.p.", false},
    {"…", "", false},
    {"\xE3\x80\x80", " ", false},  // the ideographic space
};

// The words by their first two bytes, longest first: a token's character is compared
// with the one or few words that start like it, looked up in one load.
constexpr std::size_t kWordCount = std::size(kWords);
constexpr unsigned prefix(std::string_view w) {
  return static_cast<unsigned char>(w[0]) | static_cast<unsigned char>(w[1]) << 8;
}
struct Index {
  std::array<std::uint8_t, kWordCount> order{};  // kWords' indices by prefix, longer words first
  std::array<std::uint16_t, 1 << 16> range{};    // by prefix: first index in `order` << 4 | count
};
constexpr Index kIndex = [] {
  Index x;
  for (std::size_t i = 0; i < kWordCount; ++i) x.order[i] = std::uint8_t(i);
  auto before = [](const Word& a, const Word& b) {
    return prefix(a.word) != prefix(b.word) ? prefix(a.word) < prefix(b.word) : a.word.size() > b.word.size();
  };
  for (std::size_t i = 1; i < kWordCount; ++i)  // insertion sort: std::sort is not constexpr in C++20's GCC 12
    for (std::size_t j = i; j > 0 && before(kWords[x.order[j]], kWords[x.order[j - 1]]); --j)
      std::swap(x.order[j], x.order[j - 1]);
  for (std::size_t i = 0; i < kWordCount; ++i) {
    std::uint16_t& r = x.range[prefix(kWords[x.order[i]].word)];
    if ((r & 15) == 15) throw "more than 15 words share their first two bytes";  // not a constant: no build
    r = r == 0 ? std::uint16_t(i << 4 | 1) : std::uint16_t(r + 1);
  }
  return x;
}();

}  // namespace

extern constexpr PieceSlots kPieceSlots = [] {
  std::array<PieceChar, 24> chars{};
  std::size_t k = 0;
  for (const Word& w : kWords)
    if (w.piece && w.word.size() == 3 && w.ascii.size() == 1) {
      if (k == chars.size()) throw "more one-character piece words than kPieceSlots was made for";
      chars[k++] = {packed3(w.word.data()), w.ascii[0]};
    }
  for (PieceSlots s; s.mul < 4096; ++s.mul) {
    s.slot = {};
    bool clash = false;
    for (std::size_t i = 0; i < k && !clash; ++i) {
      PieceChar& c = s.slot[s.at(chars[i].packed)];
      clash = c.letter != 0;
      c = chars[i];
    }
    if (!clash) return s;
  }
  throw "no multiplier puts the piece words in slots of their own";  // not a constant: no build
}();

namespace {

static_assert(kWordCount < 4096, "the index packs a word's position in 12 bits");

// ASCII 0x21..0x7E, for the full-width forms' one-character folds.
constexpr std::array<char, 128> kAscii = [] {
  std::array<char, 128> a{};
  for (int c = 0; c < 128; ++c) a[c] = char(c);
  return a;
}();

// The bytes that end a move token (blanks, brackets, ; $ ! ?), and the full-width
// glyphs ！ ？ and separators ，；、 that end one too.
bool ends_move(char c) { return g::kDelimiters[c]; }
bool wide_end(const char* p, const char* end) {
  int nag;
  return g::separator_length(p, end) || g::glyph_length(p, end, nag);
}
constexpr bool is_piece_letter(char c) { return c == 'K' || c == 'Q' || c == 'R' || c == 'B' || c == 'N'; }

// "马F3", "ＮF3": a file written in capitals after the piece, read as SAN's lower case.
void lower_files(char* s, std::size_t n) {
  for (std::size_t i = 1; i + 1 < n; ++i)
    if (s[i] >= 'A' && s[i] <= 'H' && s[i + 1] >= '1' && s[i + 1] <= '8') s[i] = char(s[i] + ('a' - 'A'));
}

// Whether a space may follow what is folded so far: after the piece ("皇后 h5") or a
// capture sign ("马 吃 e5").
bool space_may_follow(const FoldedMove& m) {
  return (m.size == 1 && is_piece_letter(m.text[0])) || (m.size >= 2 && m.text[m.size - 1] == 'x');
}

// Whether what stands at p after a space inside a move continues it: a file, a capture
// sign or a word (吃, ：, ｅ), or a rank before a file ("车 1e3"); not a result or a number.
bool continues_move(const char* p, const char* end) {
  if (p == end) return false;
  char c = *p;
  if (static_cast<unsigned char>(c) >= 0x80) return !wide_end(p, end);
  if ((c >= 'a' && c <= 'h') || (c >= 'A' && c <= 'H') || c == 'x' || c == ':') return true;
  return c >= '1' && c <= '8' && end - p >= 2 && p[1] >= 'a' && p[1] <= 'h';
}

// A promotion piece in parentheses at p, "(后)" or "(Q)": its letter and the bytes taken.
Unit parenthesised_piece(const char* p, const char* end) {
  const char* q = p + 1;
  Unit u;
  if (q < end && is_piece_letter(*q))
    u = {std::string_view(&kAscii[static_cast<unsigned char>(*q)], 1), 1, true};
  else if (q < end && static_cast<unsigned char>(*q) >= 0x80)
    u = unit_at(q, end);
  if (!u.piece || u.ascii.empty() || q + u.bytes >= end || q[u.bytes] != ')') return {};
  return {u.ascii, u.bytes + 2, false};
}

// A space or tab, or the ideographic space (E3 80 80): its length, else 0.
std::size_t space_length(const char* p, const char* end) {
  if (*p == ' ' || *p == '\t') return 1;
  return g::wide_space_at(p, end) ? 3 : 0;
}

bool append(FoldedMove& m, std::string_view s) {
  if (m.size + s.size() > MaxFolded) return false;
  std::memcpy(m.text + m.size, s.data(), s.size());
  m.size += s.size();
  return true;
}

}  // namespace

// U+FF01..U+FF5E is EF BC 81 .. EF BD 9E.
Unit full_width_at(const char* p, const char* end) {
  if (end - p < 3 || p[0] != '\xEF') return {};
  auto b1 = static_cast<unsigned char>(p[1]), b2 = static_cast<unsigned char>(p[2]);
  unsigned code = 0xF000u | ((b1 & 0x3Fu) << 6) | (b2 & 0x3Fu);
  if ((b1 & 0xC0) != 0x80 || (b2 & 0xC0) != 0x80 || code < 0xFF01 || code > 0xFF5E) return {};
  return {std::string_view(&kAscii[code - 0xFF01 + 0x21], 1), 3, false};
}

Unit unit_at(const char* p, const char* end) {
  auto left = static_cast<std::size_t>(end - p);
  if (left < 2) return {};  // every word has two bytes or more
  unsigned r = kIndex.range[static_cast<unsigned char>(p[0]) | static_cast<unsigned char>(p[1]) << 8];
  for (unsigned k = r >> 4, last = k + (r & 15); k < last; ++k) {
    const Word& w = kWords[kIndex.order[k]];
    std::size_t n = w.word.size();
    // The third byte, then the next character's first, before comparing all: 王 e2 is no 王车短易位.
    if (left < n || (n > 2 && p[2] != w.word[2])) continue;
    if (n > 3 && (p[3] != w.word[3] || std::memcmp(p + 4, w.word.data() + 4, n - 4) != 0)) continue;
    return {w.ascii, n, w.piece};
  }
  return full_width_at(p, end);
}

bool fold_move(const char* p, const char* end, FoldedMove& out) {
  out.size = 0;
  out.piece_word = out.spaced = false;
  const char* q = p;
  while (q < end) {
    if (space_length(q, end)) {  // part of the move only after its piece or capture sign
      const char* s = q;
      while (std::size_t n = space_length(s, end)) s += n;
      if (!space_may_follow(out) || !continues_move(s, end)) break;
      out.spaced = true;
      q = s;
      continue;
    }
    Unit u;
    if (static_cast<unsigned char>(*q) < 0x80) {
      if (*q == '(')
        u = parenthesised_piece(q, end);
      else if (!ends_move(*q))
        u = {std::string_view(&kAscii[static_cast<unsigned char>(*q)], 1), 1, false};
      if (u.bytes == 0) break;
    } else {
      if (wide_end(q, end)) break;
      u = unit_at(q, end);
      if (u.bytes == 0) return false;  // a character no move holds (xiangqi's 炮, a result's 胜)
      out.piece_word |= u.piece;
    }
    if (!append(out, u.ascii)) return false;
    q += u.bytes;
  }
  out.length = static_cast<std::size_t>(q - p);
  lower_files(out.text, out.size);
  std::memset(out.text + out.size, 0, 8);
  return out.size > 0;
}

std::string fold_words(std::string_view text, bool& piece_word) {
  std::string out;
  piece_word = false;
  const char* p = text.data();
  const char* end = p + text.size();
  while (p < end) {
    Unit u = static_cast<unsigned char>(*p) >= 0x80 ? unit_at(p, end) : Unit{};
    if (u.bytes == 0) {
      if (!g::is_blank(*p)) out += *p;
      ++p;
      continue;
    }
    piece_word |= u.piece;
    if (u.ascii != " ") out += u.ascii;
    p += u.bytes;
  }
  lower_files(out.data(), out.size());
  return out;
}

}  // namespace qipu::fold
