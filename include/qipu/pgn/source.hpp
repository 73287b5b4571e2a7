// Byte sources for the PGN reader: files, stdin, memory; gzip and zstd are
// detected by their magic bytes and decompressed as a stream.
#pragma once

#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>

namespace qipu::pgn {

// The one exception type of this module: a source cannot be opened or read
// (missing file, corrupt or truncated compressed data).
class SourceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A forward-only stream of bytes.
class Source {
 public:
  virtual ~Source() = default;
  // Reads up to n bytes into buf; returns 0 only at end of input.
  [[nodiscard]] virtual std::size_t read(char* buf, std::size_t n) = 0;
  // Name used in messages (path, "<stdin>", "<memory>").
  [[nodiscard]] virtual const std::string& name() const = 0;
  // "plain", "gzip" or "zstd".
  [[nodiscard]] virtual const char* compression() const { return "plain"; }
};

// Opens a path ("-" means stdin) and unwraps gzip/zstd found by magic bytes.
[[nodiscard]] std::unique_ptr<Source> open_source(const std::string& path);

// A source over bytes held in memory (also unwraps gzip/zstd).
[[nodiscard]] std::unique_ptr<Source> memory_source(std::string bytes, std::string name = "<memory>");

}  // namespace qipu::pgn
