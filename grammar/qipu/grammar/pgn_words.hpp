// Plain scanning functions behind the custom PGN token rules: move tokens
// (with piece words from a runtime table), results and tag values. They
// return the matched length in bytes, 0 for no match.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace qipu::grammar::pgn {

// Piece words a move token may start with; filled at run time so other
// notations (马, ♘, ...) plug in without changing the grammar.
class WordTable {
 public:
  WordTable() = default;
  WordTable(const std::vector<std::string>& words, bool space_after) : space_after_(space_after) {
    for (const auto& w : words) {
      if (w.empty()) continue;
      auto c = static_cast<unsigned char>(w[0]);
      if (w.size() == 1)
        single_[c] = true;
      else
        longer_[c].push_back(w);
    }
  }
  // Length of the longest piece word at p, 0 if none.
  [[nodiscard]] std::size_t match(const char* p, const char* end) const {
    if (p == end) return 0;
    auto c = static_cast<unsigned char>(*p);
    std::size_t best = single_[c] ? 1 : 0;
    for (const auto& w : longer_[c])  // usually none: only words of two or more bytes
      if (w.size() > best && static_cast<std::size_t>(end - p) >= w.size() && std::memcmp(p, w.data(), w.size()) == 0)
        best = w.size();
    return best;
  }
  [[nodiscard]] bool space_after() const { return space_after_; }

 private:
  std::array<std::vector<std::string>, 256> longer_{};  // words of two or more bytes, by first byte
  std::array<bool, 256> single_{};                      // one-byte words
  bool space_after_ = true;
};

// A set of bytes as a table: one load to test a byte, where a chain of compares runs
// for every byte of every token and tag.
struct ByteSet {
  bool has[256];
  constexpr explicit ByteSet(std::string_view bytes) : has{} {
    for (char c : bytes) has[static_cast<unsigned char>(c)] = true;
  }
  constexpr bool operator[](char c) const { return has[static_cast<unsigned char>(c)]; }
  // The same set less one byte.
  [[nodiscard]] constexpr ByteSet without(char c) const {
    ByteSet s = *this;
    s.has[static_cast<unsigned char>(c)] = false;
    return s;
  }
};

// Characters that end a token (besides the end of input).
inline constexpr ByteSet kDelimiters(" \t\n\r\f\v{}();[]$!?");
inline bool is_delimiter(char c) { return kDelimiters[c]; }

inline bool at_delimiter(const char* p, const char* end) { return p == end || is_delimiter(*p); }

inline bool starts(const char* p, const char* end, std::string_view s) {
  return static_cast<std::size_t>(end - p) >= s.size() && std::memcmp(p, s.data(), s.size()) == 0;
}

// Flags of the characters that make up the board part of a move.
enum : unsigned char { kFile = 1, kRank = 2, kSep = 4 };
struct CoordTable {
  unsigned char f[256];
  constexpr CoordTable() : f{} {
    for (int c = 'a'; c <= 'h'; ++c) f[c] = kFile;
    for (int c = '1'; c <= '8'; ++c) f[c] = kRank;
    f[std::size_t{'x'}] = f[std::size_t{':'}] = f[std::size_t{'-'}] = kSep;
  }
  constexpr unsigned char operator[](char c) const { return f[static_cast<unsigned char>(c)]; }
};
inline constexpr CoordTable kCoord;

inline bool is_file(char c) { return kCoord[c] == kFile; }
inline bool is_rank(char c) { return kCoord[c] == kRank; }

// A square: file then rank.
inline const char* square_at(const char* p, const char* end) {
  return (end - p >= 2 && is_file(p[0]) && is_rank(p[1])) ? p + 2 : nullptr;
}

// Optional capture or long-algebraic separator: x : - or ×.
inline const char* skip_separator(const char* p, const char* end) {
  if (p < end && (*p == 'x' || *p == ':' || *p == '-')) return p + 1;
  if (p < end && *p == '\xC3' && starts(p, end, "\xC3\x97")) return p + 2;
  return p;
}

inline bool is_separator(char c) { return kCoord[c] == kSep; }

// The general form of move_body, trying each shape in turn.
inline const char* move_body_slow(const char* p, const char* end) {
  if (const char* s = square_at(p, end)) {  // e2e4, e2-e4, e2xd3
    if (const char* t = square_at(skip_separator(s, end), end)) return t;
  }
  if (p < end && (is_file(*p) || is_rank(*p))) {  // Nbd7, exd5, R1e2
    if (const char* t = square_at(skip_separator(p + 1, end), end)) return t;
  }
  return square_at(skip_separator(p, end), end);  // e4, Nf3, Nxe5
}

// The board part of a move after the piece word: an optional from-square,
// file or rank, an optional separator, then the target square. The fast path
// reads the run of coordinate characters once and checks its shape.
inline const char* move_body(const char* p, const char* end) {
  const char* r = p;
  while (r < end && r - p < 5 && kCoord[*r]) ++r;
  if (r - p >= 2 && is_file(r[-2]) && is_rank(r[-1])) {
    const char* pre = r - 2;
    if (pre > p && is_separator(pre[-1])) --pre;
    std::size_t k = static_cast<std::size_t>(pre - p);
    if (k == 0 || (k == 1 && (is_file(*p) || is_rank(*p))) || (k == 2 && is_file(p[0]) && is_rank(p[1]))) return r;
  }
  return move_body_slow(p, end);
}

// Promotion: =Q, Q, (Q), /Q with a piece word from the table, or a
// lowercase UCI letter (e7e8q).
inline const char* skip_promotion(const char* p, const char* end, const WordTable& words) {
  if (std::size_t w = words.match(p, end)) return p + w;
  if (p < end && (*p == 'q' || *p == 'r' || *p == 'b' || *p == 'n') && at_delimiter(p + 1, end)) return p + 1;
  if (p < end && (*p == '=' || *p == '/')) {
    if (std::size_t w = words.match(p + 1, end)) return p + 1 + w;
  }
  if (p < end && *p == '(') {
    std::size_t w = words.match(p + 1, end);
    if (w && p + 1 + w < end && p[1 + w] == ')') return p + 2 + w;
  }
  return p;
}

// Trailing e.p., then check marks + ++ #.
inline const char* skip_suffix(const char* p, const char* end) {
  if (p < end && *p == 'e' && starts(p, end, "e.p.")) p += 4;
  if (starts(p, end, "++")) return p + 2;
  if (p < end && (*p == '+' || *p == '#')) return p + 1;
  return p;
}

// Length of a move token at p (castling, null move, SAN or long algebraic),
// glyphs excluded; 0 if there is none ending at a delimiter.
inline std::size_t move_length(const char* p, const char* end, const WordTable& words) {
  const char* q = nullptr;
  if (p < end && (*p == 'O' || *p == '0' || *p == '-' || *p == 'Z' || *p == 'o')) {
    for (std::string_view s : {"O-O-O", "0-0-0", "O-O", "0-0", "--", "Z0", "o-o-o", "o-o"}) {
      if (starts(p, end, s)) {
        q = p + s.size();
        break;
      }
    }
  }
  if (!q) {
    const char* b = p + words.match(p, end);
    if (b < end && *b == '@')
      q = square_at(b + 1, end);  // a drop: N@f3
    else
      q = move_body(b, end);
    if (!q && b != p && words.space_after()) {  // "马 f3"
      const char* s = b;
      while (s < end && (*s == ' ' || *s == '\t')) ++s;
      if (s != b) q = move_body(s, end);
    }
    if (!q) return 0;
    if (*b != '@') q = skip_promotion(q, end, words);
  }
  q = skip_suffix(q, end);
  return at_delimiter(q, end) ? static_cast<std::size_t>(q - p) : 0;
}

// ---- Chinese typography: full-width digits and periods, list punctuation ------------

// The ideographic space U+3000 (E3 80 80) at p.
inline bool wide_space_at(const char* p, const char* end) {
  return end - p >= 3 && p[0] == '\xE3' && p[1] == '\x80' && p[2] == '\x80';
}

// Length of a separator between moves at p, 0 if none: ， ； (EF BC 8C, EF BC 9B), 、
// (E3 80 81) and the ideographic space. Blanks to the grammar: "e4，e5" is two moves, and
// "；" starts no comment.
inline std::size_t separator_length(const char* p, const char* end) {
  if (end - p < 3) return 0;
  if (p[0] == '\xEF' && p[1] == '\xBC') return p[2] == '\x8C' || p[2] == '\x9B' ? 3 : 0;
  if (p[0] == '\xE3' && p[1] == '\x80') return p[2] == '\x80' || p[2] == '\x81' ? 3 : 0;
  return 0;
}

// A digit at p, ASCII or full-width (EF BC 90..99): its length, else 0.
inline std::size_t digit_length(const char* p, const char* end) {
  if (p < end && *p >= '0' && *p <= '9') return 1;
  return end - p >= 3 && p[0] == '\xEF' && p[1] == '\xBC' && p[2] >= '\x90' && p[2] <= '\x99' ? 3 : 0;
}

// A period after a move number at p: . … and the full-width ． and 、: its length, else 0.
inline std::size_t period_length(const char* p, const char* end) {
  if (p < end && *p == '.') return 1;
  if (end - p < 3) return 0;
  if (p[0] == '\xE2') return p[1] == '\x80' && p[2] == '\xA6' ? 3 : 0;  // …
  if (p[0] == '\xEF') return p[1] == '\xBC' && p[2] == '\x8E' ? 3 : 0;  // ．
  if (p[0] == '\xE3') return p[1] == '\x80' && p[2] == '\x81' ? 3 : 0;  // 、
  return 0;
}

inline bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

// Length of a move number at p, 0 if none: digits, spaces, then periods ("12.", "12...",
// "１２．", "1、", "12 …"), or digits alone before a blank (import format allows no period).
inline std::size_t move_number_length(const char* p, const char* end) {
  const char* q = p;
  while (std::size_t n = digit_length(q, end)) q += n;
  if (q == p) return 0;
  const char* digits = q;
  while (q < end && (*q == ' ' || *q == '\t')) ++q;
  const char* dots = q;
  while (std::size_t n = period_length(q, end)) q += n;
  if (q != dots) return static_cast<std::size_t>(q - p);
  return digits == end || is_blank(*digits) ? static_cast<std::size_t>(digits - p) : 0;
}

// Bytes an unknown token stops at (besides separators).
inline constexpr ByteSet kTokenEnds(" \t\n\r\f\v{}()[];");

// Length of a token that is nothing the grammar knows: up to a blank, bracket, ';' or
// separator, and at least one byte; 0 at the end.
inline std::size_t unknown_length(const char* p, const char* end) {
  if (p == end) return 0;
  const char* q = p;
  while (q < end && !kTokenEnds[*q] && !separator_length(q, end)) ++q;
  return q == p ? 1 : static_cast<std::size_t>(q - p);
}

// Suffix glyphs, ASCII or full-width (！ EF BC 81, ？ EF BC 9F), at most two: their
// length, and the NAG in `nag` (! ? !! ?? !? ?! as 1..6). 0 if none.
inline std::size_t glyph_length(const char* p, const char* end, int& nag) {
  char signs[2];
  std::size_t n = 0, k = 0;
  while (k < 2 && p + n < end) {
    if (p[n] == '!' || p[n] == '?') {
      signs[k++] = p[n++];
    } else if (end - (p + n) >= 3 && p[n] == '\xEF' && p[n + 1] == '\xBC' &&
               (p[n + 2] == '\x81' || p[n + 2] == '\x9F')) {
      signs[k++] = p[n + 2] == '\x81' ? '!' : '?';
      n += 3;
    } else {
      break;
    }
  }
  static constexpr std::string_view kGlyphs[] = {"!", "?", "!!", "??", "!?", "?!"};
  nag = 0;
  for (int i = 0; i < 6; ++i)
    if (std::string_view(signs, k) == kGlyphs[i]) nag = i + 1;
  return n;
}

// Game results; the second member is the normalised form.
struct ResultWord {
  std::string_view text, normal;
};
inline constexpr ResultWord kResults[] = {
    {"1-0", "1-0"},
    {"0-1", "0-1"},
    {"1/2-1/2", "1/2-1/2"},
    {"*", "*"},
    {"\xC2\xBD-\xC2\xBD", "1/2-1/2"},                             // ½-½
    {"\xE7\x99\xBD\xE6\x96\xB9\xE8\x83\x9C\xE5\x88\xA9", "1-0"},  // 白方胜利
    {"\xE9\xBB\x91\xE6\x96\xB9\xE8\x83\x9C\xE5\x88\xA9", "0-1"},  // 黑方胜利
    {"\xE7\x99\xBD\xE8\x83\x9C", "1-0"},                          // 白胜
    {"\xE9\xBB\x91\xE8\x83\x9C", "0-1"},                          // 黑胜
    {"\xE5\x92\x8C\xE6\xA3\x8B", "1/2-1/2"},                      // 和棋
    {"\xE5\x92\x8C\xE5\xB1\x80", "1/2-1/2"},                      // 和局
};

// The result word at p followed by a delimiter, or nullptr.
inline const ResultWord* result_at(const char* p, const char* end) {
  if (p == end) return nullptr;
  char c = *p;
  if (c != '1' && c != '0' && c != '*' && c != '\xC2' && c != '\xE5' && c != '\xE7' && c != '\xE9') return nullptr;
  for (const auto& r : kResults)
    if (starts(p, end, r.text) && at_delimiter(p + r.text.size(), end)) return &r;
  return nullptr;
}

// Bytes a tag value's scan stops at; the bytes a tag name is made of.
inline constexpr ByteSet kTagValueStops("\\\"\n\r");
inline constexpr ByteSet kTagNameChars("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_+#=:-.");

// Length of the tag name at p (letters, digits and _ + # = : - .), 0 if none.
inline std::size_t tag_name_length(const char* p, const char* end) {
  const char* q = p;
  while (q < end && kTagNameChars[*q]) ++q;
  return static_cast<std::size_t>(q - p);
}

// The first byte from p that a tag value's scan stops at (kTagValueStops), or end: 16
// bytes a step with SSE2, as nearly every value is a few words with no escape and the
// header's values are most of what a rejected game costs to read.
inline const char* next_tag_value_stop(const char* p, const char* end) {
#if defined(__SSE2__)
  for (; end - p >= 16; p += 16) {
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    __m128i quote_or_escape = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
    __m128i line_end = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\r')));
    if (unsigned hits = unsigned(_mm_movemask_epi8(_mm_or_si128(quote_or_escape, line_end))))
      return p + std::countr_zero(hits);
  }
#endif
  while (p < end && !kTagValueStops[*p]) ++p;
  return p;
}

// Length of a tag value after its opening quote, up to (not including) the
// closing quote. Escapes \" and \\ are skipped; an unescaped quote closes the
// value only if a ] follows it (spaces allowed), so [Event "The "Big" Game"]
// still reads. Returns npos if the line ends first.
inline std::size_t tag_value_length(const char* p, const char* end) {
  for (const char* q = next_tag_value_stop(p, end); q < end; q = next_tag_value_stop(q + 1, end)) {
    if (*q == '\\' && q + 1 < end && q[1] != '\n' && q[1] != '\r') {
      ++q;
    } else if (*q == '"') {
      const char* r = q + 1;
      while (r < end && (*r == ' ' || *r == '\t')) ++r;
      if (r < end && *r == ']') return static_cast<std::size_t>(q - p);
    } else if (*q == '\n' || *q == '\r') {
      break;
    }
  }
  return std::string_view::npos;
}

}  // namespace qipu::grammar::pgn
