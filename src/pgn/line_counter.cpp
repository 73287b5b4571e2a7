#include "qipu/pgn/line_counter.hpp"

#include <algorithm>
#include <cstring>

namespace qipu::pgn {
namespace {

// No byte of w is a control character (line breaks among them) or non-ASCII.
bool plain_ascii(std::uint64_t w) {
  constexpr std::uint64_t kOnes = 0x0101010101010101ull, kHigh = 0x8080808080808080ull;
  return ((w | ((w - kOnes * 14) & ~w)) & kHigh) == 0;
}

}  // namespace

SourcePos LineCounter::at(std::uint64_t offset) {
  std::uint64_t rel = offset > start_.offset ? std::min<std::uint64_t>(offset - start_.offset, text_.size()) : 0;
  const char* base = text_.data();
  const char* p = base + rel;
  if (p < at_) rewind();
  // Eight ASCII bytes without line breaks at a time: a long game's lines are mostly that.
  while (p - at_ >= 8) {
    std::uint64_t w;
    std::memcpy(&w, at_, 8);
    if (!plain_ascii(w)) break;
    col_ += 8;
    at_ += 8;
  }
  for (; at_ < p; ++at_) {
    auto c = static_cast<unsigned char>(*at_);
    if (c <= '\r' && (c == '\n' || c == '\r')) {
      // An LF right after a CR ends the same line.
      if (c == '\r' || at_ == base || at_[-1] != '\r') ++line_;
      col_ = 0;
    }
    col_ += (c & 0xC0) != 0x80;
  }
  return {line_, col_, start_.offset + rel};
}

}  // namespace qipu::pgn
