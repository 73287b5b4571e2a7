// Turns input bytes into UTF-8: validation of UTF-8, Windows-1252 through a
// table (iconv rejects its five unused bytes, and a byte-per-character fallback
// must never fail), everything else through glibc iconv.
#include "decoder.hpp"
#include "qipu/pgn/reader.hpp"  // known_encoding and the others declared there

#include <iconv.h>

#include "byte_scan.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <set>

namespace qipu::pgn::detail {

// Code points of Windows-1252 bytes 0x80..0x9F (unused ones map to C1 controls).
constexpr char16_t kCp1252High[32] = {0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
                                      0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
                                      0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
                                      0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178};

namespace {

constexpr std::size_t npos = static_cast<std::size_t>(-1);
const auto kNoConverter = reinterpret_cast<iconv_t>(-1);

// Writes the UTF-8 form of one Windows-1252 byte; returns its length.
std::size_t cp1252_to_utf8(unsigned char c, char* o) {
  unsigned cp = c < 0x80 ? c : (c < 0xA0 ? kCp1252High[c - 0x80] : c);
  if (cp < 0x80) {
    o[0] = static_cast<char>(cp);
    return 1;
  }
  if (cp < 0x800) {
    o[0] = static_cast<char>(0xC0 | (cp >> 6));
    o[1] = static_cast<char>(0x80 | (cp & 0x3F));
    return 2;
  }
  o[0] = static_cast<char>(0xE0 | (cp >> 12));
  o[1] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
  o[2] = static_cast<char>(0x80 | (cp & 0x3F));
  return 3;
}

bool cont(unsigned char c) { return (c & 0xC0) == 0x80; }

// Length of the UTF-8 sequence at p: >0 valid, 0 cut off by the end, -1 invalid.
int utf8_seq(const char* s, std::size_t n) {
  const auto* p = reinterpret_cast<const unsigned char*>(s);
  unsigned char c = p[0];
  if (c < 0x80) return 1;
  int len;
  unsigned char lo = 0x80, hi = 0xBF;
  if (c >= 0xC2 && c <= 0xDF)
    len = 2;
  else if (c >= 0xE0 && c <= 0xEF) {
    len = 3;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else
    return -1;
  for (int i = 1; i < len; ++i) {
    if (static_cast<std::size_t>(i) >= n) return 0;
    if (i == 1 ? (p[1] < lo || p[1] > hi) : !cont(p[i])) return -1;
  }
  return len;
}

// The next byte >= 0x80 from i on, or n: the next block first, where Chinese movetext has
// its next character a few bytes on, then skip_ascii's wider steps for English text.
std::size_t next_wide(const char* s, std::size_t i, std::size_t n) {
  if (n - i < kBlock) return skip_ascii(s, i, n);
  unsigned m = bits(high(load(s + i)));
  return m ? i + static_cast<std::size_t>(std::countr_zero(m)) : skip_ascii(s, i + kBlock, n);
}

// Whether the three bytes at s are a character of the usual three-byte range, E1..EC or
// EE..EF and two continuation bytes (every CJK character, the figurines, full-width
// forms): tested at once, without utf8_seq's chain of ranges. E0 and ED, whose second
// bytes have narrower ranges, are left to utf8_seq.
inline bool usual_three_bytes(const char* s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s);
  unsigned off = ((p[0] & 0xF0u) ^ 0xE0u) | ((p[1] & 0xC0u) ^ 0x80u) | ((p[2] & 0xC0u) ^ 0x80u);
  return off == 0 && (0xDFFEu >> (p[0] & 15u) & 1u);  // bits 1..12, 14, 15: not E0, not ED
}

}  // namespace

std::size_t utf8_valid_prefix(const char* s, std::size_t n) {
  std::size_t i = 0;
  while (i < n) {
    i = next_wide(s, i, n);
    if (i == n) break;
    if (n - i >= 3 && usual_three_bytes(s + i)) {
      i += 3;
      continue;
    }
    int len = utf8_seq(s + i, n - i);
    if (len <= 0) return i;
    i += static_cast<std::size_t>(len);
  }
  return i;
}

namespace {

// Whether p[0, n) holds at least as many valid multi-byte UTF-8 characters as bytes
// invalid in UTF-8 (a few bad bytes in UTF-8 text, not Windows-1252 text or noise).
bool mostly_utf8(const char* p, std::size_t n) {
  std::size_t good = 0, bad = 0;
  for (std::size_t i = skip_ascii(p, 0, n); i < n; i = skip_ascii(p, i, n)) {
    int len = utf8_seq(p + i, n - i);
    len > 1 ? ++good : ++bad;
    i += static_cast<std::size_t>(std::max(len, 1));
  }
  return good >= bad;
}

bool is_break(char c) { return c == '\n' || c == '\r'; }

// Whether a stretch starts at p[k]: a '[' first on its line, after an empty line or
// one that does not start with '[' (a game's first tag, not its second). Lines
// are looked at from p[lo] on; p[lo] is taken as the start of a line.
bool stretch_starts(const char* p, std::size_t lo, std::size_t k) {
  if (k <= lo || p[k] != '[' || !is_break(p[k - 1])) return false;
  std::size_t j = k - 1;  // the line break before p[k]
  if (p[j] == '\n' && j > lo && p[j - 1] == '\r') --j;
  std::size_t r = find_last<'\n', '\r'>(p + lo, j - lo);
  std::size_t line = r == j - lo ? lo : lo + r + 1;
  return line == j || p[line] != '[';
}

// The first stretch start in p(from, n), or n.
std::size_t next_stretch(const char* p, std::size_t from, std::size_t n) {
  for (std::size_t i = from + 1; i < n;) {
    i = find_first<false, '\n', '\r'>(p, i, n);
    if (i == n) break;
    if (++i < n && stretch_starts(p, 0, i)) return i;
  }
  return n;
}

// The last stretch start in p(0, at]; without one (text with no tags, or the
// input's first game), the start of the line holding p[at], so that the text
// before it stays as it was read.
std::size_t stretch_start(const char* p, std::size_t at) {
  std::size_t line = find_last<'\n', '\r'>(p, at);
  line = line == at ? 0 : line + 1;
  for (std::size_t j = line; j > 0;) {
    std::size_t r = find_last<'\n', '\r'>(p, j);
    if (r == j) break;
    if (stretch_starts(p, 0, r + 1)) return r + 1;
    j = r;
  }
  return line;
}

// Where p[0, n) ends after its last line but one (so that the next look for a stretch
// start sees a whole line before it); 0 when it holds fewer than two line breaks.
std::size_t before_last_lines(const char* p, std::size_t n) {
  std::size_t last = find_last<'\n', '\r'>(p, n);
  if (last == n) return 0;
  std::size_t prev = find_last<'\n', '\r'>(p, last);
  return prev == last ? 0 : prev + 1;
}

// Names given by users, kept for the life of the program: a game carries its
// encoding's name as a pointer.
const char* interned(const std::string& name) {
  static std::mutex mu;
  static std::set<std::string> names;
  std::lock_guard lock(mu);
  return names.insert(name).first->c_str();
}

bool one_of(const std::string& s, std::initializer_list<std::string_view> names) {
  return std::find(names.begin(), names.end(), s) != names.end();
}

}  // namespace

Codec Codec::named(std::string_view given) {
  std::string low(given);
  for (char& c : low) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  Codec c;
  if (one_of(low, {"utf-8", "utf8"})) return c;
  if (one_of(low, {"latin1", "windows-1252", "cp1252", "iso-8859-1"})) {
    c.kind = Kind::Windows1252;
    c.name = kWindows1252;
    return c;
  }
  c.kind = Kind::Iconv;
  c.name = one_of(low, {"gb18030", "gbk", "gb2312"}) ? kGb18030 : interned(low);
  iconv_t cd = iconv_open("UTF-8", c.name);
  if (cd == kNoConverter) throw SourceError("unknown encoding: " + std::string(given));
  c.cd = cd;
  return c;
}

Codec& Codec::operator=(Codec&& o) noexcept {
  std::swap(kind, o.kind);
  std::swap(name, o.name);
  std::swap(cd, o.cd);
  return *this;
}

Codec::~Codec() {
  if (cd) iconv_close(static_cast<iconv_t>(cd));
}

Decoder::Decoder(Source& src, const std::string& forced, std::size_t block)
    : src_(src), block_(block ? block : 1 << 16), forced_(forced) {
  latin_.kind = Codec::Kind::Windows1252;
  latin_.name = kWindows1252;
}

// Reads until n bytes or end of input (decompressors return short pieces). A read
// that fails (a .gz cut short) ends the input there: the bytes before it are decoded
// and read as usual, and the error waits in failure() (see throw_failure).
std::size_t Decoder::read_raw(char* p, std::size_t n) {
  std::size_t got = 0;
  while (got < n && !eof_) {
    std::size_t k = 0;
    try {
      k = src_.read(p + got, n - got);
    } catch (const SourceError& e) {
      failure_ = e.what();
      failed_ = true;
    }
    if (k == 0) eof_ = true;
    got += k;
  }
  return got;
}

void Decoder::throw_failure() const {
  if (failed_) throw SourceError(failure_);
}

// Chooses the codec: the forced one, or the byte order mark's, or UTF-8 decided
// stretch by stretch. A mark of the codec used is skipped.
void Decoder::take_bom() {
  struct Bom {
    std::string_view bytes;
    const char* name;
  };
  using namespace std::string_view_literals;
  static constexpr Bom kBoms[] = {{"\xFF\xFE\0\0"sv, "utf-32le"},
                                  {"\0\0\xFE\xFF"sv, "utf-32be"},
                                  {"\xEF\xBB\xBF"sv, "utf-8"},
                                  {"\xFF\xFE"sv, "utf-16le"},
                                  {"\xFE\xFF"sv, "utf-16be"}};
  std::string_view head(pending_.data.get(), pending_.size);
  const Bom* bom = nullptr;
  for (const Bom& b : kBoms)
    if (!bom && head.starts_with(b.bytes)) bom = &b;
  bool forced = !forced_.empty() && forced_ != "auto";
  if (forced)
    codec_ = Codec::named(forced_);
  else if (bom && bom->name != std::string_view(kUtf8))
    codec_ = Codec::named(bom->name);
  per_stretch_ = !forced && codec_.kind == Codec::Kind::Utf8;
  if (bom && std::string_view(codec_.name) == bom->name) pending_.consume(bom->bytes.size());
  main_ = codec_.name;
  marked_ = bom != nullptr;
}

// The first fill: the codec, and in per-stretch mode the main encoding from the
// stretches of the first kDetectBytes.
void Decoder::start(Buffer& out) {
  started_ = true;
  std::size_t want = std::max(block_, kDetectBytes);
  pending_.size = read_raw(pending_.tail(want), want);
  take_bom();
  if (!per_stretch_) return decode_pending(out);
  // Usually the whole prefix is valid UTF-8 and becomes the output as it is.
  if (out.size == 0 && utf8_valid_prefix(pending_.data.get(), pending_.size) == pending_.size) {
    std::swap(out, pending_);
    produced_ += out.size;
    pending_ = Buffer{};
    return;
  }
  first_ = true;
  drain(out);
  first_ = false;
  if (!marked_)
    main_ = counts_[0] >= counts_[1] && counts_[0] >= counts_[2] ? kUtf8
            : counts_[1] >= counts_[2]                           ? kGb18030
                                                                 : kWindows1252;
}

bool Decoder::fill(Buffer& out) {
  if (!started_) {
    start(out);
    return true;
  }
  if (eof_ && pending_.size == 0) return false;
  if (codec_.kind == Codec::Kind::Utf8 && pending_.size == 0 && !stretch_) {
    fill_utf8(out);
    return true;
  }
  pending_.size += read_raw(pending_.tail(block_), block_);
  per_stretch_ ? drain(out) : decode_pending(out);
  return true;
}

// Reads a block straight into out and keeps it there as far as it is valid
// UTF-8 (usually all of it); the rest goes through pending_.
void Decoder::fill_utf8(Buffer& out) {
  char* p = out.tail(block_);
  std::size_t got = read_raw(p, block_);
  std::size_t ok = utf8_valid_prefix(p, got);
  if (ok == got) return put(out, ok);
  std::size_t keep = ok;
  if (per_stretch_ && utf8_seq(p + ok, got - ok) != 0) keep = stretch_start(p, ok);
  put(out, keep);
  pending_.append(p + keep, got - keep);
  per_stretch_ ? drain(out) : decode_pending(out);
}

// Decodes pending_ with the one codec of the input.
void Decoder::decode_pending(Buffer& out) {
  pending_.consume(decode(codec_, pending_.data.get(), pending_.size, eof_, out));
}

// Decodes pending_ stretch by stretch, as far as can be decided now.
void Decoder::drain(Buffer& out) {
  const char* p = pending_.data.get();
  std::size_t n = pending_.size, i = 0;
  while (i < n) {
    if (!stretch_) {
      i += pass_utf8(p + i, n - i, out);
      if (i == n || (!eof_ && utf8_seq(p + i, n - i) == 0)) break;  // a character cut by the block end
      std::size_t used = begin_stretch(p + i, n - i, out);
      if (used == 0) break;  // its end is not read yet
      i += used;
      continue;
    }
    // Inside a stretch longer than kDetectBytes: on to its end, or to the last
    // whole lines read (a stretch start is a line seen with the line before it),
    // or all of it when those lines are long (memory stays bounded).
    std::size_t e = next_stretch(p, i, n);
    bool ends = e < n || eof_;
    if (!ends) {
      std::size_t cut = std::max(i, before_last_lines(p, n));
      e = n - cut < kDetectBytes ? cut : n;
    }
    i += decode(*stretch_, p + i, e - i, ends, out);
    if (!ends) break;
    if (stretch_ != &codec_) runs.back().end = produced_;
    stretch_ = nullptr;
  }
  pending_.consume(i);
}

// Passes on the valid UTF-8 at p, up to the start of the stretch that holds the
// first invalid byte or to a character cut by the end; returns the bytes passed.
std::size_t Decoder::pass_utf8(const char* p, std::size_t n, Buffer& out) {
  std::size_t ok = utf8_valid_prefix(p, n);
  std::size_t keep = ok < n && (eof_ || utf8_seq(p + ok, n - ok) != 0) ? stretch_start(p, ok) : ok;
  if (first_) count_utf8_stretches(p, keep);
  out.append(p, keep);
  produced_ += keep;
  return keep;
}

// Counts the stretches of valid UTF-8 that hold non-ASCII text.
void Decoder::count_utf8_stretches(const char* p, std::size_t n) {
  for (std::size_t at = 0; at < n;) {
    std::size_t e = next_stretch(p, at, n);
    if (skip_ascii(p, at, e) < e) ++counts_[0];
    at = e;
  }
}

// Decodes the stretch at p, which holds invalid UTF-8, in the encoding it looks
// like, once its end has been read (or kDetectBytes of it, to decide on those);
// returns the bytes used, 0 to wait for more input. A stretch that is not GB18030
// and has as many valid multi-byte UTF-8 characters as bad bytes is UTF-8 with a
// few bad bytes (a Windows-1252 word pasted into a UTF-8 game): those are read as
// Windows-1252 one by one, and the rest stays UTF-8.
std::size_t Decoder::begin_stretch(const char* p, std::size_t n, Buffer& out) {
  std::size_t e = next_stretch(p, 0, n);
  bool whole = e < n || eof_;
  if (!whole && n < kDetectBytes) return 0;
  std::uint64_t begin = produced_;
  Codec* c = &gb_;
  std::size_t used = try_gb18030(p, e, whole, out);
  if (used == npos) {
    c = mostly_utf8(p, e) ? &codec_ : &latin_;
    used = decode(*c, p, e, whole, out);
  }
  if (first_) ++counts_[c == &codec_ ? 0 : c == &gb_ ? 1 : 2];
  if (c != &codec_) runs.push_back({begin, whole ? produced_ : UINT64_MAX, c->name});
  if (!whole) stretch_ = c;
  return used;
}

// Decodes p[0, n) as GB18030 into out if it reads as Chinese text: every byte
// decodes (but a character cut by the end when !complete), the text holds CJK
// characters, and most two-byte pairs have a high second byte (accented Latin-1
// letters pair with ASCII ones). Returns the bytes used, or npos (out unchanged).
std::size_t Decoder::try_gb18030(const char* p, std::size_t n, bool complete, Buffer& out) {
  if (!gb_.cd) gb_ = Codec::named(kGb18030);
  auto cd = static_cast<iconv_t>(gb_.cd);
  iconv(cd, nullptr, nullptr, nullptr, nullptr);
  char* in = const_cast<char*>(p);
  std::size_t left = n, room = n * 2 + 16;  // a GB18030 character takes at most 1.5 times its bytes in UTF-8
  char* o0 = out.tail(room);
  char* o = o0;
  std::size_t r = iconv(cd, &in, &left, &o, &room);
  if (r == static_cast<std::size_t>(-1) && (errno != EINVAL || complete)) return npos;
  std::size_t cjk = 0, high = 0, low = 0;
  for (const char* q = o0; q < o; ++q) {
    auto c = static_cast<unsigned char>(*q);
    cjk += c >= 0xE3 && c <= 0xE9;
  }
  const auto* u = reinterpret_cast<const unsigned char*>(p);
  for (std::size_t i = 0; i + 1 < n - left; ++i) {
    if (u[i] < 0x81) continue;
    (u[i + 1] >= 0x80 || (u[i + 1] >= 0x30 && u[i + 1] <= 0x39) ? high : low)++;
    ++i;
  }
  if (cjk == 0 || high < low) return npos;
  put(out, static_cast<std::size_t>(o - o0));
  return n - left;
}

// Decodes p[0, n) with c; unless final, a character cut by the end is left.
// Returns the bytes used.
std::size_t Decoder::decode(Codec& c, const char* p, std::size_t n, bool final, Buffer& out) {
  switch (c.kind) {
    case Codec::Kind::Utf8: return decode_utf8(p, n, final, out);
    case Codec::Kind::Iconv: return decode_iconv(c, p, n, final, out);
    case Codec::Kind::Windows1252: break;
  }
  char* o = out.tail(n * 3);
  char* o0 = o;
  for (std::size_t i = 0; i < n; ++i) o += cp1252_to_utf8(static_cast<unsigned char>(p[i]), o);
  put(out, static_cast<std::size_t>(o - o0));
  return n;
}

std::size_t Decoder::decode_utf8(const char* p, std::size_t n, bool final, Buffer& out) {
  std::size_t i = 0;
  while (i < n) {
    std::size_t j = utf8_valid_prefix(p + i, n - i);
    out.append(p + i, j);
    produced_ += j;
    i += j;
    if (i == n || (!final && utf8_seq(p + i, n - i) == 0)) break;
    put_invalid(static_cast<unsigned char>(p[i++]), out);
  }
  return i;
}

std::size_t Decoder::decode_iconv(Codec& c, const char* p, std::size_t n, bool final, Buffer& out) {
  auto cd = static_cast<iconv_t>(c.cd);
  char* in = const_cast<char*>(p);
  std::size_t left = n;
  while (left > 0) {
    std::size_t room = left * 2 + 16;
    char* o = out.tail(room);
    char* o0 = o;
    std::size_t r = iconv(cd, &in, &left, &o, &room);
    int err = errno;
    put(out, static_cast<std::size_t>(o - o0));
    if (r != static_cast<std::size_t>(-1) || err == E2BIG) continue;
    if (err == EINVAL && !final) break;
    put_invalid(static_cast<unsigned char>(*in++), out);
    --left;
    iconv(cd, nullptr, nullptr, nullptr, nullptr);
  }
  return n - left;
}

// Decodes one bad byte as Windows-1252 and remembers where it was.
void Decoder::put_invalid(unsigned char c, Buffer& out) {
  if (!invalid.empty() && produced_ - invalid.back().offset < 4096)
    ++invalid.back().count;
  else
    invalid.push_back({produced_, 1});
  put(out, cp1252_to_utf8(c, out.tail(4)));
}

}  // namespace qipu::pgn::detail

namespace qipu::pgn {

namespace {

// One code point from UTF-8 (the reader's own output, so well formed).
unsigned next_code_point(std::string_view s, std::size_t& i) {
  auto c = static_cast<unsigned char>(s[i++]);
  if (c < 0x80) return c;
  int extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : 1;
  unsigned cp = c & (0x3F >> extra);
  for (int k = 0; k < extra && i < s.size(); ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i++]) & 0x3F);
  return cp;
}

std::string utf8_to_cp1252(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    unsigned cp = next_code_point(s, i);
    if (cp < 0x80 || (cp >= 0xA0 && cp < 0x100)) {
      out += static_cast<char>(cp);
      continue;
    }
    char byte = '?';
    for (int k = 0; k < 32; ++k)
      if (detail::kCp1252High[k] == cp) byte = static_cast<char>(0x80 + k);
    out += byte;
  }
  return out;
}

// Through iconv; a character the encoding lacks (it cannot come from a decoded
// input) becomes '?'.
std::string utf8_to_iconv(std::string_view s, const char* encoding) {
  iconv_t cd = iconv_open(encoding, "UTF-8");
  if (cd == detail::kNoConverter) return std::string(s);
  std::string out;
  char* in = const_cast<char*>(s.data());
  std::size_t left = s.size();
  while (left > 0) {
    std::size_t had = out.size(), room = left * 4 + 16;
    out.resize(had + room);
    char* o = out.data() + had;
    std::size_t r = iconv(cd, &in, &left, &o, &room);
    int err = errno;
    out.resize(out.size() - room);
    if (r != static_cast<std::size_t>(-1) || err == E2BIG) continue;
    out += '?';
    std::size_t i = 0;
    next_code_point({in, left}, i);
    in += i;
    left -= i;
  }
  char back[16];  // a stateful encoding's return to its initial state (ISO-2022-JP)
  char* o = back;
  std::size_t room = sizeof back;
  iconv(cd, nullptr, nullptr, &o, &room);
  out.append(back, static_cast<std::size_t>(o - back));
  iconv_close(cd);
  return out;
}

}  // namespace

std::string to_input_encoding(std::string_view utf8, std::string_view encoding) {
  if (encoding == detail::kWindows1252) return utf8_to_cp1252(utf8);
  if (encoding.empty() || encoding == detail::kUtf8) return std::string(utf8);
  return utf8_to_iconv(utf8, std::string(encoding).c_str());
}

std::string reject_bytes(std::string_view utf8, std::string_view encoding) {
  std::string end;
  if (!(utf8.ends_with("\n\n") || utf8.ends_with("\r\n\r\n") || utf8.ends_with("\r\r"))) {
    const char* eol = utf8.find("\r\n") != std::string_view::npos ? "\r\n" : "\n";
    bool ends_line = !utf8.empty() && (utf8.back() == '\n' || utf8.back() == '\r');
    end = ends_line ? eol : std::string(eol) + eol;
  }
  std::string sep = to_input_encoding(end, encoding);
  if (!encoding.empty() && encoding != detail::kUtf8) return to_input_encoding(utf8, encoding) + sep;
  std::string out;  // the usual case, in one allocation of the game's size
  out.reserve(utf8.size() + sep.size());
  return out.append(utf8).append(sep);
}

bool known_encoding(std::string_view name) {
  if (name == "auto") return true;
  try {
    (void)detail::Codec::named(name);
    return true;
  } catch (const SourceError&) { return false; }
}

}  // namespace qipu::pgn
