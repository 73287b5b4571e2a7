// Private to the pgn module: looking at many bytes at once. The chunker and the
// decoder spend most of their time skipping bytes that do not matter to them,
// so they test a block of kBlock bytes per step: 16 with SSE2 (every x86-64),
// else 8 in a 64-bit word (SWAR). Loads never read past the given end: callers
// finish the last partial block byte by byte.
#pragma once

#include <algorithm>
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
inline Lanes both(Lanes a, Lanes b) { return _mm_and_si128(a, b); }
inline Lanes with_bits(Lanes v, char c) { return _mm_or_si128(v, _mm_set1_epi8(c)); }  // c's bits set in every byte
inline Lanes but_not(Lanes a, Lanes b) { return _mm_andnot_si128(b, a); }
inline Lanes none() { return _mm_setzero_si128(); }
inline Lanes high(Lanes v) { return v; }  // bytes >= 0x80
// UTF-8 continuation bytes 0x80..0xBF, i.e. below -64 as signed bytes.
inline Lanes continuation(Lanes v) { return _mm_cmplt_epi8(v, _mm_set1_epi8(-64)); }
// One bit per byte, bit k for byte k.
inline unsigned bits(Lanes m) { return static_cast<unsigned>(_mm_movemask_epi8(m)); }
// Marks counted per lane; a lane holds at most 255 before it wraps.
inline Lanes add_marks(Lanes counts, Lanes m) { return _mm_sub_epi8(counts, m); }  // a mark is -1
inline std::size_t sum_counts(Lanes counts) {
  __m128i s = _mm_sad_epu8(counts, _mm_setzero_si128());  // two 64-bit sums
  return static_cast<std::size_t>(_mm_cvtsi128_si64(_mm_add_epi64(s, _mm_unpackhi_epi64(s, s))));
}
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
inline Lanes both(Lanes a, Lanes b) { return a & b; }
inline Lanes with_bits(Lanes v, char c) { return v | (0x0101010101010101ull * static_cast<unsigned char>(c)); }
inline Lanes but_not(Lanes a, Lanes b) { return a & ~b; }
inline Lanes none() { return 0; }
inline Lanes high(Lanes v) { return v & kHigh; }
inline Lanes continuation(Lanes v) { return v & ~(v << 1) & kHigh; }  // bit 7 set, bit 6 clear
inline unsigned bits(Lanes m) { return static_cast<unsigned>(((m >> 7) * 0x0102040810204080ull) >> 56); }
inline Lanes add_marks(Lanes counts, Lanes m) { return counts + (m >> 7); }
inline std::size_t sum_counts(Lanes counts) {
  constexpr std::uint64_t kEven = 0x00FF00FF00FF00FFull;
  std::uint64_t pairs = (counts & kEven) + ((counts >> 8) & kEven);  // four 16-bit sums
  return static_cast<std::size_t>((pairs * 0x0001000100010001ull) >> 48);
}
#endif

// Lanes holding one of Cs (or, with High, any byte >= 0x80).
template <bool High, char... Cs>
Lanes any_of(Lanes v) {
  Lanes hit = High ? high(v) : none();
  ((hit = either(hit, eq(v, Cs))), ...);
  return hit;
}

// Position of the first byte of b[i, n) that is one of Cs (or, with High,
// any byte >= 0x80); n if there is none.
template <bool High, char... Cs>
std::size_t find_first(const char* b, std::size_t i, std::size_t n) {
  for (; i + kBlock <= n; i += kBlock)
    if (unsigned m = bits(any_of<High, Cs...>(load(b + i)))) return i + static_cast<std::size_t>(std::countr_zero(m));
  for (; i < n; ++i) {
    auto c = static_cast<unsigned char>(b[i]);
    if ((High && c >= 0x80) || ((b[i] == Cs) || ...)) return i;
  }
  return n;
}

// Position of the last byte of b[0, n) that is one of Cs; n if there is none.
template <char... Cs>
std::size_t find_last(const char* b, std::size_t n) {
  std::size_t i = n;
  for (; i >= kBlock; i -= kBlock)
    if (unsigned m = bits(any_of<false, Cs...>(load(b + i - kBlock))))
      return i - kBlock + static_cast<std::size_t>(std::bit_width(m)) - 1;
  while (i-- > 0)
    if (((b[i] == Cs) || ...)) return i;
  return n;
}

// How many bytes of b[0, n) at() marks, where at(q) tests the block at q and
// must not mark NUL bytes (the last partial block is tested zero-padded).
// With Behind, at(q) may read q[-1] too, and b[-1] must be readable.
template <bool Behind, class At>
std::size_t count_marked(const char* b, std::size_t n, At at) {
  constexpr std::size_t kStep = 4 * kBlock;  // four blocks a step, at most 63 steps per sum
  std::size_t total = 0, i = 0;
  while (n - i >= kStep) {
    std::size_t steps = std::min<std::size_t>((n - i) / kStep, 63);
    Lanes counts = none();
    for (std::size_t k = 0; k < steps; ++k, i += kStep)
      for (std::size_t j = 0; j < kStep; j += kBlock) counts = add_marks(counts, at(b + i + j));
    total += sum_counts(counts);
  }
  for (; n - i >= kBlock; i += kBlock) total += static_cast<std::size_t>(std::popcount(bits(at(b + i))));
  if (i < n) {
    char t[kBlock + 1] = {};
    if (Behind) t[0] = *(b + i - 1);  // not b[i - 1]: for i = 0 that adds SIZE_MAX to b, undefined
    std::memcpy(t + 1, b + i, n - i);
    total += static_cast<std::size_t>(std::popcount(bits(at(t + 1))));
  }
  return total;
}

// Position of the first byte >= 0x80 in b[i, n), or n; four blocks a step.
inline std::size_t skip_ascii(const char* b, std::size_t i, std::size_t n) {
  for (; i + 4 * kBlock <= n; i += 4 * kBlock) {
    Lanes v =
        either(either(load(b + i), load(b + i + kBlock)), either(load(b + i + 2 * kBlock), load(b + i + 3 * kBlock)));
    if (bits(high(v))) break;
  }
  return find_first<true>(b, i, n);
}

}  // namespace qipu::pgn::detail
