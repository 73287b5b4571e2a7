// Cuts decoded PGN text into game chunks without parsing it fully.
//
// Boundary rule: a game ends before
//   - a '[' (outside comments) once the game has movetext or a result,
//   - a '[' whose tag name already occurred in this game's tag section
//     (games with tags but no moves), or
//   - any token, '(' or ')' after a result at variation depth 0
//     (games without tags on one line).
// Comments after a result stay with that game. A chunk of nothing but DOS end-of-file
// marks (0x1A) is no game, and marks at the input's end are cut off; text before the first
// tag that starts with a word that is no move is prose, skipped (see is_prose). {} comments, ; comments, %
// lines and quoted tag values are skipped so brackets inside them do not cut.
// A game larger than max_game_bytes is dropped while scanning on, so memory
// stays bounded by that limit plus one block.
#include <algorithm>
#include <bit>
#include <cstring>

#include "byte_scan.hpp"
#include "decoder.hpp"
#include "qipu/grammar/pgn_words.hpp"
#include "qipu/pgn/reader.hpp"

namespace qipu::pgn {

using detail::Buffer;
using detail::Decoder;

namespace {

bool is_ws(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

// Characters that end a token for the chunker, and those that end a tag name.
constexpr grammar::pgn::ByteSet kEnds(" \t\n\r\f\v{}();[]");
bool ends_token(char c) { return kEnds[c]; }
constexpr grammar::pgn::ByteSet kNameEnds(" \t\n\r\f\v\"]");

// Character classes for the fast scan of movetext.
enum : unsigned char { kPlain, kSpace, kNewline, kOther };
struct ClassTable {
  unsigned char c[256];
  constexpr ClassTable() : c{} {
    for (int i = 0; i < 256; ++i) c[i] = kPlain;
    for (unsigned char x : {' ', '\t', '\f', '\v'}) c[x] = kSpace;
    c[std::size_t{'\n'}] = c[std::size_t{'\r'}] = kNewline;
    // Comments, tags, variations, results and % lines need the slow path.
    for (unsigned char x : {'{', '}', '(', ')', ';', '[', ']', '%', '1', '0', '*'}) c[x] = kOther;
    c[0xC2] = c[0xE5] = c[0xE7] = c[0xE9] = kOther;  // first bytes of ½ and 和 白 黑
  }
};
constexpr ClassTable kClass;

// Classes for movetext once a game's first move is seen: only '%' (after a
// line break), comment/variation/tag openers and characters of results
// matter there.
enum : unsigned char { kSkip, kPercent, kSlow, kResultChar, kWide };
struct MovetextTable {
  unsigned char c[256];
  constexpr MovetextTable() : c{} {
    c[std::size_t{'%'}] = kPercent;
    for (unsigned char x : {'{', ';', '[', '(', ')'}) c[x] = kSlow;
    // Every result holds one of these: 1-0 0-1 1/2-1/2 * ½-½ 和棋 白胜 黑胜 ...
    for (unsigned char x : {'-', '/', '*'}) c[x] = kResultChar;
    for (int x = 0x80; x < 0x100; ++x) c[x] = kWide;  // a character of Chinese text, figurines
    c[0xC2] = c[0xE5] = c[0xE7] = c[0xE9] = kResultChar;
  }
};
constexpr MovetextTable kMovetext;

// The index after the UTF-8 character at b[i] (or after the continuation bytes there):
// skip_plain stops at every byte above ASCII, so each character is passed at once.
std::size_t after_character(const char* b, std::size_t i, std::size_t n) {
  do ++i;
  while (i < n && (static_cast<unsigned char>(b[i]) & 0xC0) == 0x80);
  return i;
}

// Whether the character at p (a lead byte of ½ 和 白 黑) is that of a result word rather
// than a piece word sharing its lead byte (后 王 马); true when the buffer ends first.
bool result_char(const char* p, std::size_t n) {
  if (n < 2) return true;
  switch (static_cast<unsigned char>(p[0])) {
    case 0xC2: return p[1] == '\xBD';  // ½
    case 0xE5: return p[1] == '\x92';  // 和
    case 0xE7: return p[1] == '\x99';  // 白
    default: return p[1] == '\xBB';    // 黑 (E9)
  }
}

bool is_result(const char* p, std::size_t n) {
  if (kClass.c[static_cast<unsigned char>(*p)] != kOther) return false;
  for (const auto& r : grammar::pgn::kResults)
    if (r.text.size() == n && std::memcmp(r.text.data(), p, n) == 0) return true;
  return false;
}

std::uint64_t hash_name(const char* p, std::size_t n) {
  std::uint64_t h = 1469598103934665603ull;
  for (std::size_t i = 0; i < n; ++i) h = (h ^ static_cast<unsigned char>(p[i])) * 1099511628211ull;
  return h;
}

// Index of the first byte from i on that movetext_run must look at (see
// MovetextTable; bytes >= 0x80 may start a result like ½-½ or 和棋), or of
// a rare byte before it that it skips again: bytes are tested with a bit
// set that folds pairs together ('[' with '{', '(' with ')', '-' with '/').
std::size_t skip_plain(const char* b, std::size_t i, std::size_t n) {
  using namespace detail;
  for (; i + kBlock <= n; i += kBlock) {
    Lanes v = load(b + i), folded = any_of<false, '{', ';'>(with_bits(v, 0x20));
    folded = either(folded, either(eq(with_bits(v, 0x01), ')'), eq(with_bits(v, 0x02), '/')));
    if (unsigned m = bits(either(folded, any_of<true, '*', '%'>(v))))
      return i + static_cast<std::size_t>(std::countr_zero(m));
  }
  return find_first<true, '{', ';', '[', '(', ')', '-', '/', '*', '%'>(b, i, n);
}

// skip_plain for movetext that holds wide characters (Chinese moves, figurines): does not
// stop at each of them, only at the first two bytes of a result's character (½ 和 白 黑,
// which share their first bytes with 后 王 马), so a Chinese game's movetext is passed a
// block at a time as English's is. The first byte of a character at b[i], never a
// continuation byte, since each result character's first byte is a lead byte.
std::size_t skip_wide(const char* b, std::size_t i, std::size_t n) {
  using namespace detail;
  for (; i + kBlock < n; i += kBlock) {  // the block and the byte after it
    Lanes v = load(b + i), next = load(b + i + 1);
    Lanes folded = any_of<false, '{', ';'>(with_bits(v, 0x20));
    folded = either(folded, either(eq(with_bits(v, 0x01), ')'), eq(with_bits(v, 0x02), '/')));
    folded = either(folded, any_of<false, '*', '%'>(v));
    Lanes wide = either(either(both(eq(v, '\xC2'), eq(next, '\xBD')), both(eq(v, '\xE5'), eq(next, '\x92'))),
                        either(both(eq(v, '\xE7'), eq(next, '\x99')), both(eq(v, '\xE9'), eq(next, '\xBB'))));
    if (unsigned m = bits(either(folded, wide))) return i + static_cast<std::size_t>(std::countr_zero(m));
  }
  for (; i < n; ++i) {
    unsigned char c = kMovetext.c[static_cast<unsigned char>(b[i])];
    if (c != kSkip && c != kWide && (c != kResultChar || b[i] >= 0 || result_char(b + i, n - i))) return i;
  }
  return n;
}

// Lanes of the block at q that start a line break: a CR, or an LF not after a CR.
constexpr auto line_breaks = [](const char* q) {
  detail::Lanes v = detail::load(q);
  return detail::either(detail::eq(v, '\r'),
                        detail::but_not(detail::eq(v, '\n'), detail::eq(detail::load(q - 1), '\r')));
};

// UTF-8 characters in p[0, n): bytes that are not continuation bytes.
std::size_t characters(const char* p, std::size_t n) {
  return n - detail::count_marked<false>(p, n, [](const char* q) { return detail::continuation(detail::load(q)); });
}

}  // namespace

struct GameChunker::Impl {
  enum class Mode { Normal, Brace, LineRest, Tag, TagString, Token };

  Impl(Source& src, const ReaderOptions& o)
      : dec(src, o.encoding, o.block_size),
        max_game(o.max_game_bytes),
        block(o.block_size),
        words(o.words.pieces, o.words.space_after_piece) {}

  Decoder dec;
  Buffer buf;
  std::size_t max_game, block;
  grammar::pgn::WordTable words;    // to tell prose from movetext before the first tag
  std::size_t start = 0, scan = 0;  // game start and scan position in buf
  std::uint64_t base = 0;           // decoded offset of buf[0]
  bool eof = false;
  std::string enc;

  // Position of `start`.
  std::uint64_t index = 0;
  std::uint32_t line = 1, column = 1;
  bool prev_cr = false;

  // Scanner state of the current game.
  Mode mode = Mode::Normal;
  bool content = false, movetext = false, ended = false, line_start = true;
  unsigned breaks = 0;  // line breaks since the last token: 2 or more is a blank line
  unsigned depth = 0;
  // Tags of this game: where each '[' lies from `start` (so refills keep
  // it) and, once needed, a hash of its name.
  std::size_t tag_at[32] = {};
  std::uint64_t tag_names[32] = {};
  unsigned tag_count = 0, hashed = 0;

  // Prose skipped before the first tag, for the next game to report (RawGame::prose).
  std::string prose;
  std::uint32_t prose_line = 0, prose_column = 0;
  std::uint64_t prose_offset = 0;

  // Dropping an oversized game.
  bool dropping = false;
  std::uint64_t drop_offset = 0;
  std::uint32_t drop_line = 0, drop_column = 0;

  void reset_game() {
    mode = Mode::Normal;
    content = movetext = ended = false;
    line_start = true;
    breaks = 0;
    depth = 0;
    tag_count = hashed = 0;
  }

  // Moves the line/column of `start` over n bytes of text: LF, CR and CRLF
  // each end a line (a CR at the end of the last call pairs with an LF at
  // p[0]); the column counts UTF-8 characters after the last break.
  void advance(const char* p, std::size_t n) {
    if (n == 0) return;
    bool first = p[0] == '\r' || (p[0] == '\n' && !prev_cr);
    line += static_cast<std::uint32_t>(first + detail::count_marked<true>(p + 1, n - 1, line_breaks));
    std::size_t last = detail::find_last<'\n', '\r'>(p, n);
    if (last == n)
      column += static_cast<std::uint32_t>(characters(p, n));
    else
      column = static_cast<std::uint32_t>(1 + characters(p + last + 1, n - last - 1));
    prev_cr = p[n - 1] == '\r';
  }

  // Reads another block; compacts the buffer first. False at end of input.
  bool refill() {
    if (start > 0) {
      buf.consume(start);
      base += start;
      scan -= start;
      start = 0;
    }
    if (eof) return false;
    if (!dec.fill(buf)) eof = true;
    if (enc.empty()) enc = dec.encoding();
    return true;
  }

  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

  // End of the tag name after the '[' at i, its start in j: spaces and tabs
  // skipped, at most 64 bytes; npos if the buffer may end inside it.
  std::size_t tag_name_end(std::size_t i, std::size_t& j) const {
    const char* b = buf.data.get();
    j = i + 1;
    while (j < buf.size && (b[j] == ' ' || b[j] == '\t')) ++j;
    std::size_t k = j, limit = std::min(buf.size, j + 64);
    while (k < limit && !kNameEnds[b[k]]) ++k;
    return k == buf.size && !eof ? npos : k;
  }

  std::uint64_t tag_name_hash(std::size_t i) const {
    std::size_t j, k = tag_name_end(i, j);
    return hash_name(buf.data.get() + j, k - j);
  }

  // Hashes the names of the tags recorded so far, while their text is
  // still in the buffer; done only when a name must be compared.
  void hash_tags() {
    for (; hashed < tag_count; ++hashed) tag_names[hashed] = tag_name_hash(start + tag_at[hashed]);
  }

  // Whether the name of the tag at i is all in the buffer (it is when
  // tags_line_end found the line's end, eol).
  bool name_ready(std::size_t i, std::size_t eol) const {
    std::size_t j;
    return eol != npos || tag_name_end(i, j) != npos;
  }

  // Whether the tag at i has the name of a tag this game already holds.
  bool name_seen(std::size_t i) {
    hash_tags();
    std::uint64_t h = tag_name_hash(i);
    return std::find(tag_names, tag_names + tag_count, h) != tag_names + tag_count;
  }

  // End of the line starting at the '[' at i if the line ends with ']' and
  // holds no quote-escape, comment or second tag (so nothing on it can
  // matter to the chunker); npos otherwise.
  std::size_t tags_line_end(std::size_t i) const {
    const char* b = buf.data.get();
    std::size_t e = detail::find_first<false, '\n', '\r', '[', '{', '\\', ';'>(b, i + 1, buf.size);
    if (e == buf.size || (b[e] != '\n' && b[e] != '\r')) return npos;
    std::size_t last = e;
    while (b[last - 1] == ' ' || b[last - 1] == '\t') --last;  // stops at the '[' at i
    return b[last - 1] == ']' ? e : npos;
  }

  // Where the text of buf[start, end) ends before DOS end-of-file marks (0x1A, which
  // old editors wrote after the last game) among its trailing blanks; `end` if none.
  std::size_t before_eof_marks(std::size_t end) const {
    const char* b = buf.data.get();
    std::size_t cut = end;
    for (std::size_t e = end; e > start && (is_ws(b[e - 1]) || b[e - 1] == '\x1A'); --e)
      if (b[e - 1] == '\x1A') cut = e - 1;
    return cut;
  }

  // Whether buf[start, end), the input's first text, cut where tags begin and holding
  // none, is prose (a title, a note) rather than a game without tags: its first word is
  // no move, number, comment or result.
  [[gnu::noinline]] bool is_prose(std::size_t end) const {
    const char* b = buf.data.get();
    if (index != 0 || tag_count != 0 || ended || dropping || end >= buf.size || b[end] != '[') return false;
    auto c = static_cast<unsigned char>(b[start]);
    if (c < 0x80 && !((c | 0x20) >= 'a' && (c | 0x20) <= 'z')) return false;
    std::size_t e = start;
    while (e < end && !ends_token(b[e])) ++e;
    return grammar::pgn::move_length(b + start, b + e, words) == 0;
  }

  // Notes the prose at buf[start, end) for the next game: its place and its first line.
  void note_prose(std::size_t end) {
    const char* b = buf.data.get();
    std::size_t e = start;
    while (e < end && e - start < 60 && b[e] != '\n' && b[e] != '\r') ++e;
    while (e < end && e > start && (static_cast<unsigned char>(b[e]) & 0xC0) == 0x80) --e;  // whole characters
    prose.assign(b + start, e - start);
    prose_line = line;
    prose_column = column;
    prose_offset = base + start;
  }

  enum class Scan { Boundary, NeedMore };
  Scan find_boundary(std::size_t& at);
  bool normal_run(std::size_t& i);
  enum class Run { End, Slow, Again };
  Run movetext_run(std::size_t& i);
  Scan normal_char(std::size_t& i, std::size_t& at);
  void note_encoding(RawGame& g, std::size_t end);
  void emit(RawGame& g, std::size_t end);
  bool take(RawGame& g, std::size_t end, bool at_eof);
  [[gnu::noinline]] void skip_chunk(std::size_t cut, std::size_t end);
  bool next(RawGame& g);
};

// Scans from `scan` to the end of the buffer, stopping at a game boundary.
GameChunker::Impl::Scan GameChunker::Impl::find_boundary(std::size_t& at) {
  const char* b = buf.data.get();
  std::size_t n = buf.size, i = scan;
  while (i < n) {
    switch (mode) {
      case Mode::Brace: {
        // An [Event tag at a line start inside a comment means the
        // comment was never closed: the next game starts there.
        std::size_t j = i;
        for (;;) {
          j = detail::find_first<false, '}', '['>(b, j, n);
          if (j == n || b[j] == '}') break;
          if (j + 7 > n && !eof) {
            j = n;
            break;
          }  // maybe an "[Event" cut by the block end
          if (j + 7 <= n && j > 0 && (b[j - 1] == '\n' || b[j - 1] == '\r') && std::memcmp(b + j, "[Event ", 7) == 0) {
            at = j;
            return Scan::Boundary;
          }
          ++j;
        }
        if (j == n) {
          // Rescan the last bytes next time: an "[Event" may be cut by the block end.
          scan = std::max(i, n - std::min<std::size_t>(n, 7));
          return Scan::NeedMore;
        }
        i = j + 1;
        mode = Mode::Normal;
        break;
      }
      case Mode::LineRest:
        i = detail::find_first<false, '\n', '\r'>(b, i, n);
        if (i < n) mode = Mode::Normal;
        break;
      case Mode::Tag:
        i = detail::find_first<false, '"', ']', '\n', '\r'>(b, i, n);
        if (i < n) {
          if (b[i] == '"')
            mode = Mode::TagString, ++i;
          else if (b[i] == ']')
            mode = Mode::Normal, ++i;
          else
            mode = Mode::Normal;
        }
        break;
      case Mode::TagString:
        i = detail::find_first<false, '"', '\\', '\n', '\r'>(b, i, n);
        if (i == n) break;
        if (b[i] == '\\') {
          if (i + 1 == n && !eof) {
            scan = i;
            return Scan::NeedMore;
          }
          i += 2;
        } else if (b[i] == '"')
          mode = Mode::Tag, ++i;
        else
          mode = Mode::Normal;
        break;
      case Mode::Token:
        while (i < n && !ends_token(b[i])) ++i;
        if (i < n) mode = Mode::Normal;
        break;
      case Mode::Normal:
        if (content && movetext && !ended) {
          Run r = movetext_run(i);
          if (r == Run::End) {
            if (i == static_cast<std::size_t>(-1)) return Scan::NeedMore;
            break;
          }
          if (r == Run::Again) break;
        } else if (normal_run(i)) {
          if (i == static_cast<std::size_t>(-1)) return Scan::NeedMore;
          break;
        }
        if (normal_char(i, at) == Scan::Boundary) return Scan::Boundary;
        if (i == static_cast<std::size_t>(-1)) return Scan::NeedMore;
        break;
    }
  }
  scan = std::min(i, n);
  return Scan::NeedMore;
}

// The fast path through movetext: one table lookup per byte, no work per
// token except for tokens holding a result character. End: stopped at the
// end of the buffer (i = -1 and `scan` set when a token must be re-read);
// Slow: b[i] needs normal_char; Again: the state changed (a result was seen).
GameChunker::Impl::Run GameChunker::Impl::movetext_run(std::size_t& i) {
  const char* b = buf.data.get();
  const std::size_t n = buf.size;
  if (line_start && b[i] == '%') return Run::Slow;
  line_start = false;
  const std::size_t from = i;
  auto after_break = [&](std::size_t k) { return k > from && (b[k - 1] == '\n' || b[k - 1] == '\r'); };
  while (i < n) {
    switch (kMovetext.c[static_cast<unsigned char>(b[i])]) {
      case kSkip: i = skip_plain(b, i + 1, n); continue;
      case kWide: i = skip_wide(b, after_character(b, i, n), n); continue;
      case kPercent:  // a % line
        if (after_break(i)) {
          line_start = true;
          return Run::Slow;
        }
        i = skip_plain(b, i + 1, n);
        continue;
      case kSlow: return Run::Slow;
      default: {
        if (static_cast<unsigned char>(b[i]) >= 0x80 && !result_char(b + i, n - i)) {  // 马 后 王: no result
          i = skip_wide(b, after_character(b, i, n), n);
          continue;
        }
        std::size_t s = i;
        while (s > start && i - s < 64 && !ends_token(b[s - 1])) --s;
        std::size_t e = i + 1;
        while (e < n && !ends_token(b[e])) ++e;
        if (e == n && !eof && e - s < 64) {
          scan = s;
          i = static_cast<std::size_t>(-1);
          return Run::End;
        }
        i = e;
        if (depth == 0 && is_result(b + s, e - s)) {
          ended = true;
          return Run::Again;
        }
      }
    }
  }
  line_start = after_break(n);
  return Run::End;
}

// Skips blanks and ordinary tokens of movetext quickly. Returns true when
// it stopped at the end of the buffer (i = n, or i = -1 with `scan` set to a
// token to resume at), false at a character that needs normal_char.
bool GameChunker::Impl::normal_run(std::size_t& i) {
  const char* b = buf.data.get();
  const std::size_t n = buf.size;
  while (i < n) {
    switch (kClass.c[static_cast<unsigned char>(b[i])]) {
      case kSpace: ++i; continue;
      case kNewline:
        line_start = true;
        if (b[i] == '\r' || !(i > 0 && b[i - 1] == '\r')) ++breaks;  // CRLF is one break
        ++i;
        continue;
      case kPlain: {
        if (!content || ended) return false;
        movetext = true;
        line_start = false;
        breaks = 0;
        std::size_t j = i + 1;
        while (j < n && !ends_token(b[j])) ++j;
        if (j == n && !eof) {
          if (j - i >= 64) {
            mode = Mode::Token;
            i = n;
            return true;
          }
          scan = i;
          i = static_cast<std::size_t>(-1);
          return true;
        }
        i = j;
        continue;
      }
      default: return false;
    }
  }
  return true;
}

// Handles one character (or token) in Normal mode. Sets i to -1 when more
// input is needed before deciding (scan then holds the resume point).
GameChunker::Impl::Scan GameChunker::Impl::normal_char(std::size_t& i, std::size_t& at) {
  const char* b = buf.data.get();
  char c = b[i];
  if (is_ws(c)) {
    if (c == '\n' || c == '\r') line_start = true;
    if (c == '\r' || (c == '\n' && !(i > 0 && b[i - 1] == '\r'))) ++breaks;  // CRLF is one break
    ++i;
    return Scan::NeedMore;
  }
  bool after_blank_line = breaks >= 2;
  breaks = 0;
  if (!content) {  // leading blank lines belong to no game
    advance(b + start, i - start);
    start = i;
    content = true;
  }
  bool at_line_start = line_start;
  line_start = false;
  if (c == '{') {
    mode = Mode::Brace;
    ++i;
    return Scan::NeedMore;
  }
  if (c == ';' || (c == '%' && at_line_start)) {
    mode = Mode::LineRest;
    ++i;
    return Scan::NeedMore;
  }
  if (ended) {
    at = i;
    return Scan::Boundary;
  }
  if (c == '[') {
    if (movetext) {
      at = i;
      return Scan::Boundary;
    }
    std::size_t eol = tags_line_end(i);
    if (!name_ready(i, eol)) {  // resumed here after a refill: keep the blank line seen
      if (after_blank_line) breaks = 2;
      scan = i;
      i = static_cast<std::size_t>(-1);
      return Scan::NeedMore;
    }
    // A tag name seen before starts a new game (one of tags only) when a blank line
    // stands between; without one it is a duplicate tag of this game.
    if (after_blank_line && name_seen(i)) {
      at = i;
      return Scan::Boundary;
    }
    for (;;) {
      if (tag_count < 32) tag_at[tag_count++] = i - start;
      if (eol == npos) {
        mode = Mode::Tag;
        ++i;
        return Scan::NeedMore;
      }
      // The usual case: the line holds only tag pairs. A tag line right after it
      // is taken here: with no blank line between, its name cannot start a game.
      std::size_t next = eol + 1 + (b[eol] == '\r' && eol + 1 < buf.size && b[eol + 1] == '\n');
      std::size_t next_eol = npos;
      if (next >= buf.size || b[next] != '[' || !name_ready(next, next_eol = tags_line_end(next))) {
        i = eol;
        return Scan::NeedMore;
      }
      i = next;
      eol = next_eol;
    }
  }
  movetext = true;
  if (c == '(') {
    ++depth;
    ++i;
    return Scan::NeedMore;
  }
  if (c == ')') {
    if (depth) --depth;
    ++i;
    return Scan::NeedMore;
  }
  std::size_t j = i + 1;  // at least one character, so a stray '}' moves on
  while (j < buf.size && !ends_token(b[j])) ++j;
  if (j == buf.size && !eof) {
    if (j - i < 64) {
      scan = i;
      i = static_cast<std::size_t>(-1);
      return Scan::NeedMore;
    }
    mode = Mode::Token;
  } else if (depth == 0 && is_result(b + i, j - i)) {
    ended = true;
  }
  i = j;
  return Scan::NeedMore;
}

// Sets g's encoding: that of the stretch decoded apart which buf[start, end)
// overlaps, if any (runs wholly before it are dropped), else the plain text's.
void GameChunker::Impl::note_encoding(RawGame& g, std::size_t end) {
  g.encoding = dec.plain_encoding();
  g.own_encoding = false;
  auto& runs = dec.runs;
  std::uint64_t from = base + start, stop = base + end;
  while (!runs.empty() && runs.front().end <= from) runs.pop_front();
  if (runs.empty() || runs.front().begin >= stop) return;
  const detail::DecodedRun& r = runs.front();
  g.encoding = r.encoding;
  if (r.encoding != dec.encoding()) {
    g.own_encoding = true;
    std::size_t at = static_cast<std::size_t>(std::max(r.begin, from) - base);
    std::size_t text = detail::skip_ascii(buf.data.get(), at, end);
    g.own_encoding_at = base + (text < end ? text : at);
  }
  if (r.end <= stop) runs.pop_front();
}

// Fills g with buf[start, end) and moves start there.
void GameChunker::Impl::emit(RawGame& g, std::size_t end) {
  const char* b = buf.data.get();
  g.index = ++index;
  g.problem.clear();
  g.prose.clear();
  if (!prose.empty()) g.prose.swap(prose);  // a move-assign would copy a short string's bytes, every game
  g.prose_line = prose_line;
  g.prose_column = prose_column;
  g.prose_offset = prose_offset;
  if (!dropping && end - start > max_game) {  // found whole in one block, still too big
    dropping = true;
    drop_offset = base + start;
    drop_line = line;
    drop_column = column;
  }
  if (dropping) {
    g.text = {};
    g.byte_offset = drop_offset;
    g.line = drop_line;
    g.column = drop_column;
    g.problem = "game larger than " + std::to_string(max_game) + " bytes; skipped";
    dropping = false;
  } else {
    g.text = std::string_view(b + start, end - start);
    g.byte_offset = base + start;
    g.line = line;
    g.column = column;
  }
  note_encoding(g, end);
  g.invalid_bytes = 0;
  std::uint64_t stop = base + end;
  while (!dec.invalid.empty() && dec.invalid.front().offset < stop) {
    if (g.invalid_bytes == 0) g.first_invalid = dec.invalid.front().offset;
    g.invalid_bytes += dec.invalid.front().count;
    dec.invalid.pop_front();
  }
  advance(b + start, end - start);
  start = end;
  reset_game();
}

// Emits buf[start, end), less the end-of-file marks at the input's end; false when
// nothing but marks and blanks is left (a chunk cut at a mark after a result), which is
// no game, or when it is prose before the first tag, noted for the next game.
bool GameChunker::Impl::take(RawGame& g, std::size_t end, bool at_eof) {
  std::size_t cut = end;
  if ((at_eof || buf.data[start] == '\x1A') && !dropping) cut = before_eof_marks(end);
  // A game dropped as too large is reported, whatever its (empty) text.
  if ((cut != start && (index != 0 || !is_prose(end))) || dropping) {
    emit(g, cut);
    return true;
  }
  skip_chunk(cut, end);
  return false;
}

// Leaves buf[start, end) to the scan, which goes on over it as over blank space before
// a game; notes it first if it is prose.
void GameChunker::Impl::skip_chunk(std::size_t cut, std::size_t end) {
  if (cut != start) note_prose(end);
  reset_game();
}

bool GameChunker::Impl::next(RawGame& g) {
  for (;;) {
    std::size_t at = 0;
    if (find_boundary(at) == Scan::Boundary) {
      scan = at;
      if (take(g, at, false)) return true;
      continue;
    }
    if (!content && !dropping) {  // blank space before a game belongs to none: keep none of it
      advance(buf.data.get() + start, scan - start);
      start = scan;
    }
    if (buf.size - start > max_game && !dropping) {
      dropping = true;
      drop_offset = base + start;
      drop_line = line;
      drop_column = column;
    }
    if (dropping) {  // forget what was scanned; keep the scanner state
      hash_tags();
      advance(buf.data.get() + start, scan - start);
      start = scan;
    }
    if (eof) {
      if (dropping || content) {
        scan = buf.size;
        if (take(g, buf.size, true)) return true;
        continue;
      }
      dec.throw_failure();  // after every game read before it
      return false;
    }
    refill();
  }
}

GameChunker::GameChunker(Source& src, const ReaderOptions& opts) : impl_(std::make_unique<Impl>(src, opts)) {}
GameChunker::~GameChunker() = default;
bool GameChunker::next(RawGame& game) { return impl_->next(game); }
const std::string& GameChunker::encoding() const { return impl_->enc; }
std::uint64_t GameChunker::bytes_read() const { return impl_->dec.produced(); }

}  // namespace qipu::pgn
