// Private to the pgn module: looking at many bytes at once. The chunker and the
// decoder spend most of their time skipping bytes that do not matter to them,
// so they test a block of kBlock bytes per step: 16 with SSE2 (every x86-64),
// else 8 in a 64-bit word (SWAR). Loads never read past the given end: callers
// finish the last partial block byte by byte.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace qipu::pgn::detail {

#if defined(__SSE2__)
constexpr std::size_t kBlock = 16;
using Lanes = __m128i;  // per byte: all ones where a test holds (the high bit is what counts)

inline Lanes load(const char* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }
inline Lanes eq(Lanes v, char c) { return _mm_cmpeq_epi8(v, _mm_set1_epi8(c)); }
inline Lanes either(Lanes a, Lanes b) { return _mm_or_si128(a, b); }
inline Lanes none() { return _mm_setzero_si128(); }
inline Lanes high(Lanes v) { return v; }  // bytes >= 0x80
// UTF-8 continuation bytes 0x80..0xBF, i.e. below -64 as signed bytes.
inline Lanes continuation(Lanes v) { return _mm_cmplt_epi8(v, _mm_set1_epi8(-64)); }
// One bit per byte, bit k for byte k.
inline unsigned bits(Lanes m) { return static_cast<unsigned>(_mm_movemask_epi8(m)); }
#else
constexpr std::size_t kBlock = 8;
using Lanes = std::uint64_t;  // per byte: 0x80 where a test holds, 0 elsewhere
constexpr std::uint64_t kLow7 = 0x7F7F7F7F7F7F7F7Full, kHigh = 0x8080808080808080ull;

// Byte k of the block in bits 8k..8k+7, whatever the machine's byte order.
inline Lanes load(const char* p) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    if constexpr (std::endian::native == std::endian::big) {
        std::uint64_t r = 0;
        for (int k = 0; k < 8; ++k) r |= ((w >> (56 - 8 * k)) & 0xFF) << (8 * k);
        w = r;
    }
    return w;
}
// Exact per byte (no borrow runs into the next byte): 0x80 where the byte is 0.
inline Lanes zero_bytes(std::uint64_t w) { return ~(((w & kLow7) + kLow7) | w | kLow7); }
inline Lanes eq(Lanes v, char c) { return zero_bytes(v ^ (0x0101010101010101ull * static_cast<unsigned char>(c))); }
inline Lanes either(Lanes a, Lanes b) { return a | b; }
inline Lanes none() { return 0; }
inline Lanes high(Lanes v) { return v & kHigh; }
inline Lanes continuation(Lanes v) { return v & ~(v << 1) & kHigh; }  // bit 7 set, bit 6 clear
inline unsigned bits(Lanes m) { return static_cast<unsigned>(((m >> 7) * 0x0102040810204080ull) >> 56); }
#endif

// Position of the first byte of b[i, n) that is one of Cs (or, with High,
// any byte >= 0x80); n if there is none.
template <bool High, char... Cs>
std::size_t find_first(const char* b, std::size_t i, std::size_t n) {
    for (; i + kBlock <= n; i += kBlock) {
        Lanes v = load(b + i);
        Lanes hit = High ? high(v) : none();
        ((hit = either(hit, eq(v, Cs))), ...);
        if (unsigned m = bits(hit)) return i + static_cast<std::size_t>(std::countr_zero(m));
    }
    for (; i < n; ++i) {
        auto c = static_cast<unsigned char>(b[i]);
        if ((High && c >= 0x80) || ((b[i] == Cs) || ...)) return i;
    }
    return n;
}

// Position of the first byte >= 0x80 in b[i, n), or n; four blocks a step.
inline std::size_t skip_ascii(const char* b, std::size_t i, std::size_t n) {
    for (; i + 4 * kBlock <= n; i += 4 * kBlock) {
        Lanes v = either(either(load(b + i), load(b + i + kBlock)),
                         either(load(b + i + 2 * kBlock), load(b + i + 3 * kBlock)));
        if (bits(high(v))) break;
    }
    return find_first<true>(b, i, n);
}

}  // namespace qipu::pgn::detail
