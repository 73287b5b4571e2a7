// Turns input bytes into UTF-8: validation of UTF-8, GB18030 through glibc
// iconv, Windows-1252 through a table (iconv rejects its five unused bytes,
// and a byte-per-character fallback must never fail).
#include "decoder.hpp"

#include <iconv.h>

#include "byte_scan.hpp"

#include <cerrno>
#include <cstring>

namespace qipu::pgn::detail {

// Code points of Windows-1252 bytes 0x80..0x9F (unused ones map to C1 controls).
constexpr char16_t kCp1252High[32] = {
    0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
    0x2039, 0x0152, 0x008D, 0x017D, 0x008F, 0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
    0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178};

namespace {

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
int utf8_seq(const unsigned char* p, std::size_t n) {
    unsigned char c = p[0];
    if (c < 0x80) return 1;
    int len;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) len = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        if (c == 0xE0) lo = 0xA0;
        if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        if (c == 0xF0) lo = 0x90;
        if (c == 0xF4) hi = 0x8F;
    } else return -1;
    for (int i = 1; i < len; ++i) {
        if (static_cast<std::size_t>(i) >= n) return 0;
        if (i == 1 ? (p[1] < lo || p[1] > hi) : !cont(p[i])) return -1;
    }
    return len;
}

// Length of the longest valid UTF-8 prefix; ASCII is skipped a block at a time.
std::size_t utf8_valid_prefix(const char* s, std::size_t n) {
    const auto* p = reinterpret_cast<const unsigned char*>(s);
    std::size_t i = 0;
    while (i < n) {
        i = skip_ascii(s, i, n);
        if (i == n) break;
        int len = utf8_seq(p + i, n - i);
        if (len <= 0) return i;
        i += static_cast<std::size_t>(len);
    }
    return i;
}

// True when bytes decode cleanly as GB18030 into CJK text and look like GB
// rather than accented Latin-1 letters (which pair with ASCII trail bytes).
bool looks_gb18030(std::string_view bytes, bool eof) {
    iconv_t cd = iconv_open("UTF-8", "GB18030");
    if (cd == reinterpret_cast<iconv_t>(-1)) return false;
    std::string out(bytes.size() * 2 + 16, '\0');
    char* in = const_cast<char*>(bytes.data());
    std::size_t left = bytes.size(), oleft = out.size();
    char* o = out.data();
    std::size_t r = iconv(cd, &in, &left, &o, &oleft);
    int err = errno;
    iconv_close(cd);
    if (r == static_cast<std::size_t>(-1) && (err != EINVAL || eof)) return false;
    std::size_t cjk = 0;
    for (char* q = out.data(); q < o; ++q) {
        auto c = static_cast<unsigned char>(*q);
        if (c >= 0xE3 && c <= 0xE9) ++cjk;
    }
    std::size_t high = 0, low = 0;
    const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
    for (std::size_t i = 0; i + 1 < bytes.size(); ++i) {
        if (p[i] < 0x81) continue;
        (p[i + 1] >= 0x80 || (p[i + 1] >= 0x30 && p[i + 1] <= 0x39) ? high : low)++;
        ++i;
    }
    return cjk > 0 && high >= low;
}

}  // namespace

const char* encoding_name(Encoding e) {
    switch (e) {
        case Encoding::Utf8: return "utf-8";
        case Encoding::Gb18030: return "gb18030";
        case Encoding::Windows1252: return "windows-1252";
    }
    return "?";
}

Decoder::Decoder(Source& src, const std::string& forced, std::size_t block)
    : src_(src), block_(block ? block : 1 << 16), forced_(forced) {}

Decoder::~Decoder() {
    if (iconv_) iconv_close(static_cast<iconv_t>(iconv_));
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

// Picks the encoding from the forced name or the first kDetectBytes bytes.
void Decoder::detect() {
    detected_ = true;
    std::size_t want = std::max(block_, kDetectBytes);
    prefix_.size = read_raw(prefix_.tail(want), want);
    std::string_view head(prefix_.data.get(), prefix_.size);
    bool bom = head.substr(0, 3) == "\xEF\xBB\xBF";
    if (forced_ == "utf-8" || forced_ == "utf8") enc_ = Encoding::Utf8;
    else if (forced_ == "gb18030" || forced_ == "gbk" || forced_ == "gb2312") enc_ = Encoding::Gb18030;
    else if (forced_ == "latin1" || forced_ == "windows-1252" || forced_ == "cp1252" ||
             forced_ == "iso-8859-1") enc_ = Encoding::Windows1252;
    else if (forced_ != "auto" && !forced_.empty()) throw SourceError("unknown encoding: " + forced_);
    else if (bom) enc_ = Encoding::Utf8;
    else {
        std::size_t ok = utf8_valid_prefix(head.data(), head.size());
        bool valid = ok == head.size() ||
                     (!eof_ && utf8_seq(reinterpret_cast<const unsigned char*>(head.data()) + ok,
                                        head.size() - ok) == 0);
        if (valid) enc_ = Encoding::Utf8;
        else enc_ = looks_gb18030(head, eof_) ? Encoding::Gb18030 : Encoding::Windows1252;
    }
    if (bom && enc_ == Encoding::Utf8) prefix_.consume(3);
    if (enc_ == Encoding::Gb18030) {
        iconv_ = iconv_open("UTF-8", "GB18030");
        if (iconv_ == reinterpret_cast<void*>(-1)) {
            iconv_ = nullptr;
            throw SourceError("iconv cannot convert GB18030");
        }
    }
}

bool Decoder::fill(Buffer& out) {
    if (!detected_) {
        detect();
        // Usually the whole prefix is valid UTF-8 and becomes the output as it is.
        if (enc_ == Encoding::Utf8 && out.size == 0 && utf8_valid_prefix(prefix_.data.get(), prefix_.size) == prefix_.size) {
            std::swap(out, prefix_);
            produced_ += out.size;
        } else {
            decode(prefix_.data.get(), prefix_.size, out);
        }
        prefix_ = Buffer{};
        return true;
    }
    if (eof_) return false;
    if (enc_ == Encoding::Utf8 && carry_.empty()) {
        fill_utf8(out);
        return true;
    }
    std::string raw = std::move(carry_);
    carry_.clear();
    std::size_t had = raw.size();
    raw.resize(had + block_);
    raw.resize(had + read_raw(raw.data() + had, block_));
    decode(raw.data(), raw.size(), out);
    return true;
}

// Reads a block straight into out and keeps it there as far as it is valid
// UTF-8 (usually all of it); decodes the rest from a copy.
void Decoder::fill_utf8(Buffer& out) {
    char* p = out.tail(block_);
    std::size_t got = read_raw(p, block_);
    std::size_t ok = utf8_valid_prefix(p, got);
    out.size += ok;
    produced_ += ok;
    if (ok == got) return;
    std::string rest(p + ok, got - ok);
    decode_utf8(rest.data(), rest.size(), out);
}

void Decoder::decode(const char* p, std::size_t n, Buffer& out) {
    switch (enc_) {
        case Encoding::Utf8: decode_utf8(p, n, out); break;
        case Encoding::Gb18030: decode_gb(p, n, out); break;
        case Encoding::Windows1252: {
            char* o = out.tail(n * 3);
            char* o0 = o;
            for (std::size_t i = 0; i < n; ++i) o += cp1252_to_utf8(static_cast<unsigned char>(p[i]), o);
            out.size += static_cast<std::size_t>(o - o0);
            produced_ += static_cast<std::size_t>(o - o0);
            break;
        }
    }
}

void Decoder::decode_utf8(const char* p, std::size_t n, Buffer& out) {
    std::size_t i = 0;
    while (i < n) {
        std::size_t j = utf8_valid_prefix(p + i, n - i);
        out.append(p + i, j);
        produced_ += j;
        i += j;
        if (i == n) break;
        int len = utf8_seq(reinterpret_cast<const unsigned char*>(p) + i, n - i);
        if (len == 0 && !eof_) {
            carry_.assign(p + i, n - i);
            break;
        }
        put_invalid(static_cast<unsigned char>(p[i++]), out);
    }
}

void Decoder::decode_gb(const char* p, std::size_t n, Buffer& out) {
    auto cd = static_cast<iconv_t>(iconv_);
    char* in = const_cast<char*>(p);
    std::size_t left = n;
    while (left > 0) {
        std::size_t room = left * 2 + 16;
        char* o = out.tail(room);
        char* o0 = o;
        std::size_t r = iconv(cd, &in, &left, &o, &room);
        int err = errno;
        out.size += static_cast<std::size_t>(o - o0);
        produced_ += static_cast<std::size_t>(o - o0);
        if (r != static_cast<std::size_t>(-1) || err == E2BIG) continue;
        if (err == EINVAL && !eof_) {
            carry_.assign(in, left);
            break;
        }
        put_invalid(static_cast<unsigned char>(*in++), out);
        --left;
        iconv(cd, nullptr, nullptr, nullptr, nullptr);
    }
}

// Decodes one bad byte as Windows-1252 and remembers where it was.
void Decoder::put_invalid(unsigned char c, Buffer& out) {
    if (!invalid.empty() && produced_ - invalid.back().offset < 4096) ++invalid.back().count;
    else invalid.push_back({produced_, 1});
    std::size_t k = cp1252_to_utf8(c, out.tail(4));
    out.size += k;
    produced_ += k;
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

std::string utf8_to_gb18030(std::string_view s) {
    iconv_t cd = iconv_open("GB18030", "UTF-8");
    if (cd == reinterpret_cast<iconv_t>(-1)) return std::string(s);
    std::string out(s.size() * 2 + 16, '\0');
    char* in = const_cast<char*>(s.data());
    std::size_t in_left = s.size(), out_left = out.size();
    char* o = out.data();
    iconv(cd, &in, &in_left, &o, &out_left);
    iconv_close(cd);
    out.resize(out.size() - out_left);
    return out;
}

}  // namespace

std::string to_input_encoding(std::string_view utf8, std::string_view encoding) {
    if (encoding == "windows-1252") return utf8_to_cp1252(utf8);
    if (encoding == "gb18030") return utf8_to_gb18030(utf8);
    return std::string(utf8);
}

}  // namespace qipu::pgn
