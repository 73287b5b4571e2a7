// The PGN reader: source -> decoder (to UTF-8) -> game chunker -> grammar.
//
// Memory stays bounded: the chunker holds one game (at most max_game_bytes)
// plus one read block, whatever the file size. Chunks are independent, so a
// caller may hand RawGames to worker threads and parse them with GameParser.
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
    // "auto", "utf-8", "gb18030", "latin1" or "windows-1252" (the last two are the same).
    std::string encoding = "auto";
    std::size_t max_game_bytes = std::size_t{64} << 20;
    unsigned max_variation_depth = 1000;
    std::size_t block_size = std::size_t{1} << 20;
    TokenWords words;
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

// Opens path ("-" = stdin) and reads it. Throws SourceError if it cannot be opened.
ReadStats read_pgn_file(const std::string& path, Visitor& v, const ReaderOptions& opts = {});

}  // namespace qipu::pgn
