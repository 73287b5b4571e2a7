// Private to the pgn module: a growable byte buffer and the decoder that turns
// the input's bytes into UTF-8.
#pragma once

#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <string>

#include "qipu/pgn/source.hpp"

namespace qipu::pgn::detail {

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

enum class Encoding { Utf8, Gb18030, Windows1252 };

[[nodiscard]] const char* encoding_name(Encoding e);

// A run of bytes that were invalid in the input encoding (decoded as
// Windows-1252 instead); nearby bad bytes are merged into one run.
struct InvalidRun {
    std::uint64_t offset;  // decoded offset of the first bad byte
    std::uint32_t count;
};

// Detection rule ("auto"): look at the first kDetectBytes bytes. A UTF-8 BOM
// or valid UTF-8 means UTF-8; otherwise GB18030 if that prefix decodes cleanly,
// holds CJK characters and most of its two-byte pairs have a high second byte;
// otherwise Windows-1252. Later bytes that are invalid in the chosen encoding
// are decoded one by one as Windows-1252 and recorded in `invalid`.
class Decoder {
public:
    static constexpr std::size_t kDetectBytes = std::size_t{1} << 20;

    Decoder(Source& src, const std::string& forced, std::size_t block);
    ~Decoder();
    Decoder(const Decoder&) = delete;
    Decoder& operator=(const Decoder&) = delete;

    // Appends the next decoded piece to out; false at end of input.
    bool fill(Buffer& out);
    [[nodiscard]] Encoding encoding() const { return enc_; }
    [[nodiscard]] std::uint64_t produced() const { return produced_; }
    // Throws the read error that ended the input early, if one did; called once the
    // text read before it has been used.
    void throw_failure() const;

    std::deque<InvalidRun> invalid;

private:
    std::size_t read_raw(char* p, std::size_t n);
    void detect();
    void decode(const char* p, std::size_t n, Buffer& out);
    void decode_utf8(const char* p, std::size_t n, Buffer& out);
    void decode_gb(const char* p, std::size_t n, Buffer& out);
    void fill_utf8(Buffer& out);
    void put_invalid(unsigned char c, Buffer& out);

    Source& src_;
    std::size_t block_;
    Encoding enc_ = Encoding::Utf8;
    bool detected_ = false;
    bool eof_ = false;
    std::string carry_;   // an incomplete multi-byte sequence from the last block
    Buffer prefix_;       // bytes read for detection, decoded on the first fill
    void* iconv_ = nullptr;
    std::uint64_t produced_ = 0;
    bool failed_ = false;
    std::string failure_;
    std::string forced_;
};

}  // namespace qipu::pgn::detail
