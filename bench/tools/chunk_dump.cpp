// Prints every chunk GameChunker cuts from each input, so two builds of the
// chunker can be compared byte for byte. Not part of the build; after building qipu:
//   g++ -std=c++20 -O2 -Iinclude -Igrammar bench/tools/chunk_dump.cpp build/libqipu_lib.a
//       -lz -lzstd -pthread -o /tmp/chunk_dump
//   find ../shared/corpora tests/data -type f | sort | /tmp/chunk_dump BLOCK MAX_GAME > out.txt
//   /tmp/chunk_dump BLOCK MAX_GAME --synthetic > out.txt   (hostile inputs made in memory)
// One line per file (name, encoding, bytes read) and one per chunk: index,
// line, column, byte offset, length, FNV-1a hash of the text, invalid-byte
// count, first invalid offset, problem text.
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "qipu/pgn/reader.hpp"

using namespace qipu::pgn;

namespace {

std::uint64_t fnv(std::string_view s) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

void dump(const std::string& name, Source& src, const ReaderOptions& o) {
  GameChunker ch(src, o);
  RawGame g;
  std::vector<std::string> lines;
  try {
    while (ch.next(g)) {
      char b[256];
      std::snprintf(b, sizeof b, "%" PRIu64 " %u:%u @%" PRIu64 " len=%zu h=%016" PRIx64 " bad=%u@%" PRIu64 " ", g.index,
                    g.line, g.column, g.byte_offset, g.text.size(), fnv(g.text), g.invalid_bytes,
                    g.invalid_bytes ? g.first_invalid : 0);
      lines.push_back(b + g.problem);
    }
  } catch (const SourceError& e) { lines.push_back(std::string("SourceError ") + e.what()); }
  std::printf("== %s enc=%s bytes=%" PRIu64 " chunks=%zu\n", name.c_str(), ch.encoding().c_str(), ch.bytes_read(),
              lines.size());
  for (auto& l : lines) std::printf("%s\n", l.c_str());
}

std::string rep(const std::string& s, std::size_t n) {
  std::string r;
  r.reserve(s.size() * n);
  for (std::size_t i = 0; i < n; ++i) r += s;
  return r;
}

// Hostile inputs: long lines, blank runs, NUL bytes, CR-only ends, BOM, unclosed comments.
std::vector<std::pair<std::string, std::string>> synthetic() {
  const std::string game = "[Event \"x\"]\n[White \"a\"]\n\n1. e4 e5 2. Nf3 {c} 1-0\n\n";
  return {
      {"long-line", game + "1. " + std::string(50'000'000, 'a') + " *\n" + game},
      {"long-comment-line", game + "{" + std::string(20'000'000, 'z') + "} *\n" + game},
      {"blank-run", rep("  \n", 3'000'000) + game + std::string(5'000'000, '\n') + game},
      {"nul-bytes", game + std::string(1000, '\0') + game + "1. e4\0e5 *\n"},
      {"cr-only", rep("[Event \"x\"]\r[White \"a\"]\r\r1. e4 e5 1-0\r\r", 20000)},
      {"crlf", rep("[Event \"x\"]\r\n[White \"a\"]\r\n\r\n1. e4 e5 1-0\r\n\r\n", 20000)},
      {"bom", "\xEF\xBB\xBF" + rep(game, 1000)},
      {"unclosed-comment", rep(game + "1. d4 { never closed\n", 500)},
      {"tags-only", rep("[Event \"x\"]\n[Event \"y\"]\n\n[Event \"z\"]\n", 5000)},
      {"no-tags-one-line", rep("1. e4 e5 1-0 1. d4 d5 0-1 1. c4 1/2-1/2 * ", 20000)},
      {"latin1", rep("[Event \"caf\xE9\"]\n\n1. e4 {\xE9t\xE9} 1-0\n\n", 3000)},
      {"bad-utf8-late", rep(game, 30000) + "[Event \"\xFF\xFE\"]\n1. e4 *\n" + rep(game, 100)},
      {"percent-lines", rep("% escape [Event\n" + game + "%x\n{a\n%b}\n", 3000)},
      {"nested", rep("[Event \"x\"]\n1. e4 (1. d4 1-0 (1. c4 *)) e5 1-0 (x)\n", 3000)},
      {"tag-escapes", rep("[Event \"a\\\"]b\\\\\"] [Site \"[x\"]\n1. e4 *\n", 3000)},
      {"chinese-results", rep("[Event \"x\"]\n1. e4 e5 和棋 1. d4 白胜 黑胜 ½-½ x\n", 3000)},
      {"junk", rep("junk ]]] }}} )))\n" + game, 3000)},
      {"random",
       [] {
         std::string s;
         std::uint32_t x = 12345;
         const char alphabet[] = "[]{}();%\"\\ \n\r\t-/*10abcEvent\xC2\xBD\xE5\x92\x8C\xFF";
         for (int i = 0; i < 3'000'000; ++i) {
           x = x * 1103515245u + 12345u;
           s += alphabet[(x >> 16) % (sizeof alphabet - 1)];
         }
         return s;
       }()},
  };
}

}  // namespace

int main(int argc, char** argv) {
  ReaderOptions o;
  if (argc > 1) o.block_size = std::strtoull(argv[1], nullptr, 10);
  if (argc > 2) o.max_game_bytes = std::strtoull(argv[2], nullptr, 10);
  if (argc > 3 && std::string(argv[3]) == "--synthetic") {
    for (auto& [name, text] : synthetic()) {
      auto src = memory_source(text, name);
      dump(name, *src, o);
    }
    return 0;
  }
  std::string path;
  while (std::getline(std::cin, path)) {
    try {
      auto src = open_source(path);
      dump(path, *src, o);
    } catch (const SourceError& e) { std::printf("== %s SourceError %s\n", path.c_str(), e.what()); }
  }
}
