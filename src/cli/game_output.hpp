// Games as text for programs (JSON, FENs, UCI moves) and a block writer for large
// outputs: shared by convert and filter.
#pragma once

#include <ostream>
#include <string>
#include <string_view>

#include "qipu/game/record.hpp"

namespace qipu::cli {

// One JSON object per game (a line): tags, moves with SAN, UCI, FEN and key, result,
// termination, errors and warnings.
std::string to_json(const game::GameRecord& rec);
// One FEN per ply, a line each.
std::string to_fen_lines(const game::GameRecord& rec);
// The same as EPD (FEN without the move clocks).
std::string to_epd_lines(const game::GameRecord& rec);
// The mainline as one line of UCI moves.
std::string to_uci_line(const game::GameRecord& rec);

// Collects the output and writes it a megabyte at a time: through the streams' 4 KiB
// buffers every few games cost a system call.
class BlockWriter {
 public:
  explicit BlockWriter(std::ostream& out) : out_(out) {}
  BlockWriter(const BlockWriter&) = delete;
  BlockWriter& operator=(const BlockWriter&) = delete;
  ~BlockWriter() { flush(); }
  void add(std::string_view text) {
    block_ += text;
    if (block_.size() >= Size) flush();
  }
  void flush() {
    out_.write(block_.data(), std::streamsize(block_.size()));
    block_.clear();
  }

 private:
  static constexpr std::size_t Size = std::size_t(1) << 20;
  std::ostream& out_;
  std::string block_;
};

}  // namespace qipu::cli
