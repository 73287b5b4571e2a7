// Private to the pgn module: a growable byte buffer and the decoder that turns
// the input's bytes into UTF-8.
#pragma once

#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <string_view>

#include "qipu/pgn/source.hpp"

namespace qipu::pgn::detail {

// Length of the longest valid UTF-8 prefix of s[0, n) (a character cut by the end is not
// in it); ASCII is skipped a block at a time, and the usual three-byte characters are
// passed with one test each.
std::size_t utf8_valid_prefix(const char* s, std::size_t n);

// A byte buffer that grows without zero-filling (unlike std::string::resize).
struct Buffer {
  std::unique_ptr<char[]> data;
  std::size_t size = 0;
  std::size_t cap = 0;

  // Makes room for n more bytes and returns where they go.
  char* tail(std::size_t n) {
    if (size + n > cap) grow(size + n);
    return data.get() + size;
  }
  void append(const char* p, std::size_t n) {
    if (n == 0) return;  // memcpy from or to a null pointer is undefined even for 0 bytes
    std::memcpy(tail(n), p, n);
    size += n;
  }
  void grow(std::size_t need) {
    std::size_t c = cap ? cap : 4096;
    while (c < need) c += c / 2;
    auto d = std::make_unique_for_overwrite<char[]>(c);  // no zero-filling
    if (size) std::memcpy(d.get(), data.get(), size);
    data = std::move(d);
    cap = c;
  }
  // Drops the first n bytes.
  void consume(std::size_t n) {
    if (n == 0) return;
    std::memmove(data.get(), data.get() + n, size - n);
    size -= n;
  }
};

// Names of the encodings the decoder knows by itself (static storage, so that a
// name can travel with a game as a pointer and be compared as one).
inline constexpr const char* kUtf8 = "utf-8";
inline constexpr const char* kGb18030 = "gb18030";
inline constexpr const char* kWindows1252 = "windows-1252";

// An encoding: UTF-8 (validated), Windows-1252 (a table: iconv rejects its five
// unused bytes, and a byte-per-character fallback must never fail) or any
// encoding glibc's iconv knows.
struct Codec {
  enum class Kind { Utf8, Windows1252, Iconv } kind = Kind::Utf8;
  const char* name = kUtf8;
  void* cd = nullptr;  // iconv_t to UTF-8, for Kind::Iconv

  // The codec for a name given by the user (case-blind; iconv's aliases work);
  // throws SourceError when iconv does not know it.
  static Codec named(std::string_view name);
  Codec() = default;
  Codec(Codec&& o) noexcept : kind(o.kind), name(o.name), cd(o.cd) { o.cd = nullptr; }
  Codec& operator=(Codec&& o) noexcept;
  ~Codec();
};

// A run of bytes that were invalid in the input encoding (decoded as
// Windows-1252 instead); nearby bad bytes are merged into one run.
struct InvalidRun {
  std::uint64_t offset;  // decoded offset of the first bad byte
  std::uint32_t count;
};

// A stretch of input that was not valid UTF-8 and was decoded in the encoding it
// looked like: decoded offsets [begin, end) (end is open while it is decoded).
struct DecodedRun {
  std::uint64_t begin;
  std::uint64_t end;
  const char* encoding;
};

// Detection rule ("auto"): a byte order mark decides (UTF-8, UTF-16 or UTF-32, LE
// or BE). Otherwise the encoding is decided per stretch of input, a stretch
// running from a tag line that follows a non-tag line (a game's first tag) to the
// next: valid UTF-8 is passed on as it is (the fast path: a scan, no copy); a
// stretch holding invalid UTF-8 is decoded whole as GB18030 if it decodes cleanly
// into CJK text whose two-byte pairs mostly have a high second byte, else as
// Windows-1252 unless it holds as many valid multi-byte UTF-8 characters as bad
// bytes, and recorded in `runs`; else it is UTF-8 with its bad bytes read as
// Windows-1252 (see `invalid`). Stretches start at a line break, which
// never occurs inside a GB18030 character, so its trail bytes ('[', '{', '}')
// cannot cut a game. The input's main encoding (encoding()) is the one most
// stretches with non-ASCII text have in the first kDetectBytes.
// A forced encoding decodes the whole input; bytes invalid in it are decoded one
// by one as Windows-1252 and recorded in `invalid`.
// Why stretches, not games: the chunker needs decoded text (GB18030 trail bytes
// are ASCII), and a game is known only once it is cut.
class Decoder {
 public:
  static constexpr std::size_t kDetectBytes = std::size_t{1} << 20;

  Decoder(Source& src, const std::string& forced, std::size_t block);
  Decoder(const Decoder&) = delete;
  Decoder& operator=(const Decoder&) = delete;

  // Appends the next decoded piece to out; false at end of input.
  bool fill(Buffer& out);
  // The input's main encoding (known after the first fill).
  [[nodiscard]] const char* encoding() const { return main_; }
  // The encoding of text outside `runs`.
  [[nodiscard]] const char* plain_encoding() const { return codec_.name; }
  [[nodiscard]] std::uint64_t produced() const { return produced_; }
  // Throws the read error that ended the input early, if one did; called once the
  // text read before it has been used.
  void throw_failure() const;

  std::deque<InvalidRun> invalid;
  std::deque<DecodedRun> runs;

 private:
  std::size_t read_raw(char* p, std::size_t n);
  void start(Buffer& out);
  void take_bom();
  void fill_utf8(Buffer& out);
  void decode_pending(Buffer& out);
  void drain(Buffer& out);
  std::size_t pass_utf8(const char* p, std::size_t n, Buffer& out);
  std::size_t begin_stretch(const char* p, std::size_t n, Buffer& out);
  std::size_t decode(Codec& c, const char* p, std::size_t n, bool final, Buffer& out);
  std::size_t decode_utf8(const char* p, std::size_t n, bool final, Buffer& out);
  std::size_t decode_iconv(Codec& c, const char* p, std::size_t n, bool final, Buffer& out);
  std::size_t try_gb18030(const char* p, std::size_t n, bool complete, Buffer& out);
  void count_utf8_stretches(const char* p, std::size_t n);
  void put_invalid(unsigned char c, Buffer& out);
  void put(Buffer& out, std::size_t n) { out.size += n, produced_ += n; }

  Source& src_;
  std::size_t block_;
  std::string forced_;
  Codec codec_;               // the whole input's, or UTF-8 with per-stretch detection
  Codec gb_, latin_;          // for stretches: GB18030 (opened when first needed), Windows-1252
  Codec* stretch_ = nullptr;  // decoding a long stretch that is not UTF-8, with this
  bool per_stretch_ = false, started_ = false, eof_ = false, first_ = false, marked_ = false;
  const char* main_ = kUtf8;
  unsigned counts_[3] = {};  // stretches with non-ASCII text in the first fill: UTF-8, GB18030, Windows-1252
  Buffer pending_;           // raw bytes not yet decoded (a stretch, an incomplete character)
  std::uint64_t produced_ = 0;
  bool failed_ = false;
  std::string failure_;
};

}  // namespace qipu::pgn::detail
