// Reads PGN files and replays their games on worker threads, handing the records back
// in input order. Large files are split at game boundaries, so one file uses every core.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "qipu/game/record.hpp"
#include "qipu/game/replay.hpp"
#include "qipu/notation/notation.hpp"
#include "qipu/pgn/reader.hpp"

namespace qipu::game {

// What replaying callers want of the reader: every language's piece words, and text
// that is not PGN reported as a game (an invalid one) rather than skipped.
inline pgn::ReaderOptions replay_reader_options() {
  pgn::ReaderOptions o;
  o.junk_as_game = true;
  o.words.pieces = all_piece_words();
  o.words.chinese_forms = true;
  return o;
}

struct PipelineOptions {
  pgn::ReaderOptions reader = replay_reader_options();
  ReplayOptions replay;
  unsigned jobs = 0;  // threads; 0: every core; 1: all on the calling thread
};

// What happened to one input as a whole.
struct InputReport {
  std::string path;
  std::string encoding;                        // "utf-8", "gb18030", "windows-1252"
  std::string compression;                     // "plain", "gzip", "zstd"
  std::uint64_t bytes = 0;                     // decoded bytes read
  std::vector<pgn::SyntaxError> input_errors;  // cannot open, corrupt data, dropped chunks
  bool opened = false;
};

struct PipelineCallbacks {
  // Each game, on the worker thread that replayed it (the calling thread with one job):
  // for heavy per-game work such as writing the game out (store the result in
  // GameRecord::output). Must be thread-safe.
  std::function<void(GameRecord&)> prepare;
  // Each game, on its worker after `prepare`, before the record waits its turn for the
  // calling thread: frees what `game` will not read, so that waiting records hold little
  // memory and are freed by the thread that allocated them. Not called with one job,
  // where each record goes straight to `game` and the replayer reuses its memory.
  std::function<void(GameRecord&)> trim;
  // Each game, in input order, on the calling thread.
  std::function<void(const InputReport&, GameRecord&)> game;
  // Once per input, after its last game.
  std::function<void(const InputReport&)> input_done;
  // Now and then while reading, with bytes read so far over all inputs.
  std::function<void(std::uint64_t bytes, std::uint64_t games)> progress;
};

// An input: a path ("-" is standard input), or text given in memory under a name.
struct PipelineInput {
  std::string path;
  std::optional<std::string> text;
};

// Reads every input and replays every game.
void run_pipeline(const std::vector<PipelineInput>& inputs, const PipelineOptions& options,
                  const PipelineCallbacks& callbacks);
void run_pipeline(const std::vector<std::string>& paths, const PipelineOptions& options,
                  const PipelineCallbacks& callbacks);

}  // namespace qipu::game
