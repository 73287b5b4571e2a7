// Pieces shared by the subcommands that read PGN: input options, diagnostics lines,
// progress on a terminal, JSON string escaping.
#pragma once

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "qipu/game/pipeline.hpp"
#include "qipu/game/writer.hpp"

namespace qipu::cli {

// Options every PGN-reading command takes.
struct InputOptions {
  std::vector<std::string> files;
  std::string encoding = "auto";
  unsigned jobs = 0;
  bool strict = false;
  std::string from;  // notation of the input, when letters are ambiguous
};
void add_input_options(CLI::App& cmd, InputOptions& o, bool files_required = true);
game::PipelineOptions pipeline_options(const InputOptions& o);

// For a pipeline's trim step: frees the parts of a record the main thread will not
// read, the move tree, and the tags unless a diagnostic names the game's players. Freed
// on the worker that allocated them: on the main thread the allocator takes locks the
// worker then waits on (check --jobs 1: 4% of its time).
void release_on_worker(game::GameRecord& rec);

// "White – Black" from the roster tags, "?" for missing names.
std::string players(const game::GameRecord& rec);

// FILE:LINE:COL: error|warning: game N (White – Black), move 31. Qxe1: message
std::string format_diagnostic(const std::string& file, const game::GameRecord& rec, const game::Diagnostic& d);
std::string format_input_error(const std::string& file, const pgn::SyntaxError& e);
// Prints an input's own errors (to `out` when given); true when it could not be read
// whole (missing, unreadable, corrupt compressed data): an I/O failure, exit 2.
bool report_input(const game::InputReport& in, std::ostream* out);
// The source line of a diagnostic with a caret under its column (for --verbose).
std::string caret_excerpt(const game::GameRecord& rec, const game::Diagnostic& d);

void append_json_string(std::string& out, std::string_view s);

// Where a command writes: the file named by -o, or standard output for "" and "-".
class Output {
 public:
  // False (after a message and exit code 2) when the file cannot be written.
  bool open(const std::string& path, const char* command);
  std::ostream& stream();

 private:
  std::ofstream file_;
};

// How moves are written, for the commands that write PGN.
struct StyleOptions {
  std::string style;  // spaced | compact; empty: the notation's own
  std::string castling = "O-O";
};
void add_style_options(CLI::App& cmd, StyleOptions& o);
game::WriterOptions writer_options(const Notation& notation, const StyleOptions& o);

// A one-line progress report on stderr, only when stderr is a terminal.
class Progress {
 public:
  explicit Progress(const std::vector<std::string>& files);
  void update(std::uint64_t bytes, std::uint64_t games);
  void finish();

 private:
  bool enabled_ = false;
  std::uint64_t total_bytes_ = 0;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace qipu::cli
