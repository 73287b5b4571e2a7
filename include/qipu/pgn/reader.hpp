// The PGN reader: source -> decoder (to UTF-8) -> game chunker -> grammar.
//
// Why this shape:
// - Memory stays bounded: the chunker holds one game (at most max_game_bytes)
//   plus one read block, whatever the file size. A bigger game is reported
//   ("game larger than N bytes; skipped") and scanned past without buffering.
// - Chunks are independent, so a caller may hand RawGames (copied) to worker
//   threads and parse them with one GameParser per thread (--jobs).
// - The PEGTL grammar (grammar/qipu/grammar/pgn.hpp) runs per chunk over a
//   memory_input; every unknown token is an error event and parsing goes on,
//   so one bad token costs one message, not the game. Only an unclosed
//   comment or variation or nesting beyond max_variation_depth (which bounds
//   the parser's recursion) ends a game early.
// - Positions are file positions: a chunk carries its line/column/offset and
//   the parser counts forward from there (LF, CRLF and CR all end a line).
// - Encoding (see decoder.hpp): a byte order mark decides (UTF-8, UTF-16, UTF-32);
//   otherwise valid UTF-8 is read as it is and each game that is not (a stretch
//   from its first tag line) is decoded as GB18030 if it decodes cleanly into CJK
//   text, else as Windows-1252, with a warning when most of the input is in
//   another encoding. ReaderOptions::encoding forces one encoding (any name
//   iconv knows); bytes invalid in it are read as Windows-1252 and reported once
//   per game.
// - Move tokens with a spaced piece word ("马 f3") are passed on unchanged,
//   space included, as one token.
// - GameInfo::index numbers chunks: text that holds no tag, move or result
//   (junk between games) uses up an index but produces only syntax errors
//   (unless ReaderOptions::junk_as_game). Prose before the input's first tag (a
//   title, a note) uses none: it is skipped and reported in the first game as a
//   slip (SyntaxError::strict); nor does a chunk of DOS end-of-file marks (0x1A).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "qipu/pgn/source.hpp"
#include "qipu/pgn/tokens.hpp"
#include "qipu/pgn/visitor.hpp"

namespace qipu::pgn {

struct ReaderOptions {
  // "auto", or an encoding iconv knows ("utf-8", "gb18030", "macintosh", "cp1251", ...);
  // "latin1" and "iso-8859-1" are read as "windows-1252".
  std::string encoding = "auto";
  std::size_t max_game_bytes = std::size_t{64} << 20;
  unsigned max_variation_depth = 1000;
  std::size_t block_size = std::size_t{1} << 20;
  // When true, a chunk holding only junk (errors, no tag or move) is still
  // reported as a game (begin_game before its first error, then end_game),
  // so callers that judge games can count it as an invalid one; and a word
  // the grammar does not know is handed to Visitor::move for the caller's
  // notation tables to judge (Chinese castling words, xiangqi to refuse).
  bool junk_as_game = false;
  TokenWords words;
  // Reads all movetext through the grammar, without the hand-written scan of
  // plain moves (the two give the same events; tests compare them).
  bool grammar_only = false;
};

struct ReadStats {
  std::uint64_t games = 0;   // games reported through begin_game
  std::uint64_t errors = 0;  // syntax and input errors
  std::uint64_t bytes = 0;   // decoded bytes read
  std::string encoding;      // the encoding used for the input
};

// One game's text cut from the input by the chunker. text is valid until the
// next call to GameChunker::next.
struct RawGame {
  std::string_view text;
  std::uint64_t index = 0;        // from 1
  std::uint64_t byte_offset = 0;  // offset of text in the decoded input
  std::uint32_t line = 1;         // line and column where text starts
  std::uint32_t column = 1;
  // Set when the chunk was dropped (e.g. larger than max_game_bytes); text is then empty.
  std::string problem;
  // Bytes that were not valid in the detected encoding and were decoded as
  // Windows-1252; first_invalid is the decoded offset of the first.
  std::uint32_t invalid_bytes = 0;
  std::uint64_t first_invalid = 0;
  // The encoding the text was decoded from ("utf-8", "gb18030", "windows-1252" or
  // a name given in ReaderOptions::encoding); static storage.
  const char* encoding = "utf-8";
  // Set when auto detection read this game in another encoding than most of the
  // input (a GB18030 game in a UTF-8 file): the decoded offset of its first
  // non-ASCII character, where the note about it points.
  bool own_encoding = false;
  std::uint64_t own_encoding_at = 0;
  // Prose before the input's first tag (a title, a note), skipped: its first line, cut
  // to 60 bytes, and its place, for a warning in this game (the first). Empty if none.
  std::string prose;
  std::uint32_t prose_line = 0, prose_column = 0;
  std::uint64_t prose_offset = 0;
};

// Splits a source into game chunks (see chunker.cpp for the boundary rule).
class GameChunker {
 public:
  GameChunker(Source& src, const ReaderOptions& opts);
  ~GameChunker();
  GameChunker(const GameChunker&) = delete;
  GameChunker& operator=(const GameChunker&) = delete;

  // Fills game with the next chunk; false at the end of input.
  // Throws SourceError when the source fails.
  [[nodiscard]] bool next(RawGame& game);
  // Name of the encoding chosen for the input (known after the first next()).
  [[nodiscard]] const std::string& encoding() const;
  [[nodiscard]] std::uint64_t bytes_read() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Parses RawGames into visitor events; keeps scratch buffers between games.
class GameParser {
 public:
  explicit GameParser(const ReaderOptions& opts);
  ~GameParser();
  GameParser(const GameParser&) = delete;
  GameParser& operator=(const GameParser&) = delete;

  // Emits the events of one game. Returns Stop if the visitor asked to stop.
  Visit parse(const RawGame& game, Visitor& v, ReadStats& stats);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Reads every game of src. Input errors (corrupt compressed data) are reported
// through Visitor::syntax_error with game_index 0, then reading ends.
ReadStats read_pgn(Source& src, Visitor& v, const ReaderOptions& opts = {});

// Text the reader decoded, turned back into the input's own bytes (`encoding` as
// RawGame::encoding names it; UTF-8 is returned as it is): so that rejects keep the
// file's bytes.
std::string to_input_encoding(std::string_view utf8, std::string_view encoding);

// A rejected game's text as written back: in its input's bytes, followed by a blank
// line in its own line ends when it has none (a CRLF file must not get bare LFs).
std::string reject_bytes(std::string_view utf8, std::string_view encoding);

// Whether ReaderOptions::encoding may be `name`: "auto" or a name iconv knows.
[[nodiscard]] bool known_encoding(std::string_view name);

// Opens path ("-" = stdin) and reads it. Throws SourceError if it cannot be opened.
ReadStats read_pgn_file(const std::string& path, Visitor& v, const ReaderOptions& opts = {});

}  // namespace qipu::pgn
