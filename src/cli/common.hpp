// Pieces shared by the subcommands: input options, diagnostics lines, progress on a
// terminal, JSON string escaping, text made safe for a terminal, and Output, through
// which every command writes.
#pragma once

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdint>
#include <fstream>
#include <optional>
#include <ostream>
#include <streambuf>
#include <string>
#include <string_view>
#include <vector>

#include "qipu/game/pipeline.hpp"
#include "qipu/game/writer.hpp"
#include "cli/shown.hpp"

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
// [illegal_move] LINE:COL: move 31. Qxe1: message, as convert --to json and the rejects
// table give it: the code first, for programs to test.
std::string diagnostic_line(const game::Diagnostic& d);
std::string format_input_error(const std::string& file, const pgn::SyntaxError& e);
// Prints an input's own errors (to `out` when given); true when it could not be read
// whole (missing, unreadable, corrupt compressed data): an I/O failure, exit 2.
bool report_input(const game::InputReport& in, std::ostream* out);
// The source line of a diagnostic with a caret under its column (for --verbose).
std::string caret_excerpt(const game::GameRecord& rec, const game::Diagnostic& d);

void append_json_string(std::string& out, std::string_view s);

// A file as the system knows it (device and inode): the same file under any name,
// through a symlink or a hard link. Empty when `path` is no regular file; "-" is
// standard input.
struct FileId {
  std::uint64_t device = 0, inode = 0;
  bool operator==(const FileId&) const = default;
};
std::optional<FileId> regular_file_id(const std::string& path);

// A stream buffer over a file descriptor that keeps the first write error (errno):
// std::cout's state says that a write failed, never why. After an error it writes
// nothing more, so the stream turns bad and the commands stop early.
class CheckedBuffer : public std::streambuf {
 public:
  CheckedBuffer() : buf_(std::size_t(1) << 16) {}
  // Writes go to fd; a terminal gets each line as it ends, like std::cout.
  void attach(int fd, bool line_buffered);
  int error() const { return error_; }

 protected:
  int_type overflow(int_type c) override;
  std::streamsize xsputn(const char* s, std::streamsize n) override;
  int sync() override;

 private:
  bool drain();
  bool write_all(const char* p, std::size_t n);
  int fd_ = -1, error_ = 0;
  bool line_buffered_ = false;
  std::vector<char> buf_;
};

// Where a command writes: standard output, or the file named by -o. A regular file is
// written to a temporary file beside it (".NAME.qipu-XXXXXX") and renamed over it by
// finish() only when the command succeeded (exit 0 or 1), so a failed, interrupted or
// killed run leaves the old file as it was; a device or FIFO is written directly.
// Every write is checked, up to the close: the first failure is reported with the file
// and its cause, exit 2. A closed pipe (EPIPE) stays quiet.
class Output {
 public:
  explicit Output(const char* command) : command_(command) {}
  ~Output();
  Output(const Output&) = delete;
  Output& operator=(const Output&) = delete;
  // Opens `path` ("" or "-": standard output). A file that is also one of `inputs` or
  // the `database` is refused before anything is written. False after a message (exit 2).
  bool open(const std::string& path, const std::vector<std::string>& inputs = {}, const std::string& database = {});
  std::ostream& stream() { return stream_; }
  // Flushes and closes; puts the file in place unless the command failed (exit 2).
  // False after a message (exit 2) when a write failed.
  bool finish();

 private:
  std::string refusal(const std::optional<FileId>& target, const std::vector<std::string>& inputs,
                      const std::string& database) const;
  bool open_file();
  void drop_temp();  // removes the temporary file, if it is still there
  void fail(const std::string& why);
  const char* command_;
  std::string name_;         // as the user wrote it, for messages
  std::string real_, temp_;  // the file replaced (symlinks resolved) and its stand-in
  int fd_ = -1;              // a descriptor of our own; standard output is never closed
  int temp_slot_ = -1;       // where a signal handler finds temp_
  bool finished_ = false;
  CheckedBuffer buffer_;
  std::ostream stream_{&buffer_};
};

// How moves are written, for the commands that write PGN.
struct StyleOptions {
  std::string style;  // spaced | compact; empty: the notation's own
  std::string castling = "O-O";
};
void add_style_options(CLI::App& cmd, StyleOptions& o);
game::WriterOptions writer_options(const Notation& notation, const StyleOptions& o);

// --lang en|zh|zh-Hant (and any other names given, as "--lang,--to"): the language of a
// command's headings, results, summaries and opening names (cli/lang.hpp). Empty when
// not given: resolve_lang() then takes QIPU_LANG or the locale.
void add_lang_option(CLI::App& cmd, std::string& lang, const std::string& names = "--lang");

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
