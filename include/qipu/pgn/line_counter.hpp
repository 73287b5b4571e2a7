// Lines and columns of places in one game's text. Counting them is a scan of the text,
// so the reader's events carry byte offsets only, and a LineCounter turns an offset
// into a line and column when a message needs one.
#pragma once

#include <cstdint>
#include <string_view>

#include "qipu/pgn/visitor.hpp"

namespace qipu::pgn {

class LineCounter {
 public:
  LineCounter() = default;
  // `text` is a game's decoded text (GameInfo::text), `start` where it begins.
  LineCounter(std::string_view text, SourcePos start) : text_(text), start_(start) { rewind(); }

  // The place of the byte at `offset` (in the input, as events give it; clamped to
  // the text). Moves forward from the last place asked, so asking in text order costs
  // one pass over the text in all; asking for an earlier place starts again.
  SourcePos at(std::uint64_t offset);

 private:
  void rewind() {
    at_ = text_.data();
    line_ = start_.line;
    col_ = start_.column;
  }
  std::string_view text_;
  SourcePos start_;
  const char* at_ = nullptr;
  std::uint32_t line_ = 1, col_ = 1;
};

}  // namespace qipu::pgn
