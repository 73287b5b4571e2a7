// Streaming visitor interface of the PGN reader (in the style of pgn-reader).
// The reader knows nothing of chess legality: it hands over tokens as text.
// All strings are UTF-8 and borrowed: valid only during the call. Events give where
// their token starts as a byte offset in the decoded input; a LineCounter over
// GameInfo::text turns it into a line and column (a scan, so only when needed).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "qipu/core/problem.hpp"

namespace qipu {
struct San;
}

namespace qipu::pgn {

// A place in the decoded input. Lines and columns count from 1; columns count
// characters (UTF-8 code points); offset is the byte offset in the decoded
// UTF-8 text (equal to the file offset for UTF-8 files without a BOM).
struct SourcePos {
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  std::uint64_t offset = 0;
};

// What the visitor wants next. Skip from begin_variation skips that variation;
// Skip from any other callback skips the rest of the game (end_game is still
// called); Stop ends reading after the current game.
enum class Visit { Continue, Skip, Stop };

struct GameInfo {
  std::uint64_t index = 0;  // ordinal of the game chunk in the input, from 1
  SourcePos start;          // where the game's text starts
  std::string_view text;    // the game's text as decoded (as GameEnd::raw), for a LineCounter
};

struct GameEnd {
  std::uint64_t index = 0;
  std::string_view raw;            // the game's text as decoded, with trailing blank lines
  std::uint32_t errors = 0;        // syntax errors reported inside this game
  const char* encoding = "utf-8";  // what raw was decoded from (RawGame::encoding)
};

struct SyntaxError {
  std::uint64_t game_index = 0;  // 0 when not inside a game chunk (input errors)
  SourcePos pos;
  std::string message;            // says what was expected
  bool warning = false;           // the text was read anyway (bytes invalid in the encoding)
  bool strict = false;            // a warning that strict readers count as an error (a stray '.')
  Problem kind = Problem::other;  // what is wrong, for programs (problem_code)
};

class Visitor {
 public:
  virtual ~Visitor() = default;
  // Called once per input, before any game, with its main encoding ("utf-8", "gb18030",
  // "windows-1252", "utf-16le", a name given in ReaderOptions::encoding).
  virtual void encoding(std::string_view /*name*/) {}
  virtual Visit begin_game(const GameInfo&) { return Visit::Continue; }
  // value has its \" and \\ escapes removed.
  virtual Visit tag(std::string_view /*name*/, std::string_view /*value*/, std::uint64_t /*offset*/) {
    return Visit::Continue;
  }
  // The move token unchanged (check marks included, glyphs excluded).
  virtual Visit move(std::string_view /*token*/, std::uint64_t /*offset*/) { return Visit::Continue; }
  // A move token of the usual SAN shape (Nf3, exd5, e8=Q+), already read by the reader's
  // fast path into `san` (as pgn-reader hands over SanPlus); or the same shape written with
  // a Chinese or figurine piece word or full-width characters (马 f3, 后 吃f7, ｅ４), whose
  // reading is the same in every notation. Passed on as text unless the visitor wants the
  // reading.
  virtual Visit san_move(std::string_view token, const San& /*san*/, std::uint64_t offset) {
    return move(token, offset);
  }
  // $n and suffix glyphs (! ? !! ?? !? ?! as 1..6).
  virtual Visit nag(int /*nag*/, std::uint64_t /*offset*/) { return Visit::Continue; }
  // Text between { and } (unchanged) or after ; up to the end of the line.
  virtual Visit comment(std::string_view /*text*/, std::uint64_t /*offset*/) { return Visit::Continue; }
  virtual Visit begin_variation(std::uint64_t /*offset*/) { return Visit::Continue; }
  virtual void end_variation() {}
  // "1-0", "0-1", "1/2-1/2" or "*" (½-½ and Chinese results are normalised).
  virtual void result(std::string_view /*text*/, std::uint64_t /*offset*/) {}
  virtual Visit end_game(const GameEnd&) { return Visit::Continue; }
  virtual void syntax_error(const SyntaxError&) {}
};

}  // namespace qipu::pgn
