// File, memory and decompressing sources.
#include "qipu/pgn/source.hpp"

#include <zlib.h>
#include <zstd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

namespace qipu::pgn {
namespace {

// Reads a FILE* (a path or stdin).
class FileSource final : public Source {
 public:
  FileSource(std::FILE* f, std::string name, bool owned) : file_(f), name_(std::move(name)), owned_(owned) {}
  ~FileSource() override {
    if (owned_) std::fclose(file_);
  }
  std::size_t read(char* buf, std::size_t n) override {
    std::size_t got = std::fread(buf, 1, n, file_);
    if (got == 0 && std::ferror(file_)) throw SourceError(name_ + ": read error: " + std::strerror(errno));
    return got;
  }
  const std::string& name() const override { return name_; }

 private:
  std::FILE* file_;
  std::string name_;
  bool owned_;
};

// Serves bytes from a string.
class MemorySource final : public Source {
 public:
  MemorySource(std::string bytes, std::string name) : bytes_(std::move(bytes)), name_(std::move(name)) {}
  std::size_t read(char* buf, std::size_t n) override {
    std::size_t k = std::min(n, bytes_.size() - pos_);
    std::memcpy(buf, bytes_.data() + pos_, k);
    pos_ += k;
    return k;
  }
  const std::string& name() const override { return name_; }

 private:
  std::string bytes_;
  std::size_t pos_ = 0;
  std::string name_;
};

// Replays a few already-read bytes, then continues with the inner source.
class PrefixSource final : public Source {
 public:
  PrefixSource(std::string prefix, std::unique_ptr<Source> inner)
      : prefix_(std::move(prefix)), inner_(std::move(inner)) {}
  std::size_t read(char* buf, std::size_t n) override {
    if (pos_ < prefix_.size()) {
      std::size_t k = std::min(n, prefix_.size() - pos_);
      std::memcpy(buf, prefix_.data() + pos_, k);
      pos_ += k;
      return k;
    }
    return inner_->read(buf, n);
  }
  const std::string& name() const override { return inner_->name(); }

 private:
  std::string prefix_;
  std::size_t pos_ = 0;
  std::unique_ptr<Source> inner_;
};

constexpr std::size_t kInBlock = 1 << 17;

// Inflates gzip (several concatenated members allowed, as gzip(1) writes them).
class GzipSource final : public Source {
 public:
  explicit GzipSource(std::unique_ptr<Source> inner) : inner_(std::move(inner)), in_(kInBlock) {
    std::memset(&z_, 0, sizeof z_);
    if (inflateInit2(&z_, 15 + 32) != Z_OK) throw SourceError(name() + ": zlib init failed");
  }
  ~GzipSource() override { inflateEnd(&z_); }
  std::size_t read(char* buf, std::size_t n) override {
    z_.next_out = reinterpret_cast<Bytef*>(buf);
    z_.avail_out = static_cast<uInt>(std::min<std::size_t>(n, 1u << 30));
    while (z_.avail_out == n && !done_) step();
    return n - z_.avail_out;
  }
  const std::string& name() const override { return inner_->name(); }
  const char* compression() const override { return "gzip"; }

 private:
  // Feeds input and inflates once; handles member ends and truncation.
  void step() {
    if (z_.avail_in == 0) {
      std::size_t got = inner_->read(in_.data(), in_.size());
      if (got == 0) {
        done_ = true;
        if (mid_member_) throw SourceError(name() + ": truncated gzip data");
        return;
      }
      z_.next_in = reinterpret_cast<Bytef*>(in_.data());
      z_.avail_in = static_cast<uInt>(got);
    }
    mid_member_ = true;
    int rc = inflate(&z_, Z_NO_FLUSH);
    if (rc == Z_STREAM_END) {
      mid_member_ = false;
      inflateReset(&z_);
    } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
      done_ = true;
      throw SourceError(name() + ": corrupt gzip data");
    }
  }

  std::unique_ptr<Source> inner_;
  std::vector<char> in_;
  z_stream z_;
  bool done_ = false;
  bool mid_member_ = false;
};

// Streams zstd frames through ZSTD_decompressStream.
class ZstdSource final : public Source {
 public:
  explicit ZstdSource(std::unique_ptr<Source> inner)
      : inner_(std::move(inner)), in_(ZSTD_DStreamInSize()), ds_(ZSTD_createDStream()) {
    if (!ds_) throw SourceError(name() + ": zstd init failed");
    ZSTD_initDStream(ds_);
  }
  ~ZstdSource() override { ZSTD_freeDStream(ds_); }
  std::size_t read(char* buf, std::size_t n) override {
    ZSTD_outBuffer out{buf, n, 0};
    while (out.pos == 0 && !done_) step(out);
    return out.pos;
  }
  const std::string& name() const override { return inner_->name(); }
  const char* compression() const override { return "zstd"; }

 private:
  void step(ZSTD_outBuffer& out) {
    if (inb_.pos == inb_.size) {
      std::size_t got = inner_->read(in_.data(), in_.size());
      if (got == 0) {
        done_ = true;
        if (last_ != 0) throw SourceError(name() + ": truncated zstd data");
        return;
      }
      inb_ = ZSTD_inBuffer{in_.data(), got, 0};
    }
    last_ = ZSTD_decompressStream(ds_, &out, &inb_);
    if (ZSTD_isError(last_)) {
      done_ = true;
      throw SourceError(name() + ": corrupt zstd data: " + ZSTD_getErrorName(last_));
    }
  }

  std::unique_ptr<Source> inner_;
  std::vector<char> in_;
  ZSTD_DStream* ds_;
  ZSTD_inBuffer inb_{nullptr, 0, 0};
  std::size_t last_ = 0;
  bool done_ = false;
};

// Peeks at the first four bytes and wraps the source in a decompressor.
std::unique_ptr<Source> unwrap(std::unique_ptr<Source> raw) {
  std::string head(4, '\0');
  std::size_t got = 0;
  while (got < 4) {
    std::size_t k = raw->read(head.data() + got, 4 - got);
    if (k == 0) break;
    got += k;
  }
  head.resize(got);
  auto src = std::make_unique<PrefixSource>(head, std::move(raw));
  const auto* u = reinterpret_cast<const unsigned char*>(head.data());
  if (got >= 2 && u[0] == 0x1f && u[1] == 0x8b) return std::make_unique<GzipSource>(std::move(src));
  if (got >= 4 && u[0] == 0x28 && u[1] == 0xb5 && u[2] == 0x2f && u[3] == 0xfd)
    return std::make_unique<ZstdSource>(std::move(src));
  return src;
}

}  // namespace

std::unique_ptr<Source> open_source(const std::string& path) {
  if (path == "-") return unwrap(std::make_unique<FileSource>(stdin, "<stdin>", false));
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) throw SourceError(path + ": " + std::strerror(errno));
  return unwrap(std::make_unique<FileSource>(f, path, true));
}

std::unique_ptr<Source> memory_source(std::string bytes, std::string name) {
  return unwrap(std::make_unique<MemorySource>(std::move(bytes), std::move(name)));
}

}  // namespace qipu::pgn
