#include "cli/common.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "cli/commands.hpp"

#include "qipu/notation/notation.hpp"

namespace qipu::cli {

void add_input_options(CLI::App& cmd, InputOptions& o, bool files_required) {
  auto* files =
      cmd.add_option("files", o.files, "PGN files (plain, .gz or .zst, found by content); '-' reads standard input");
  if (files_required) files->required();
  cmd.add_option("--encoding", o.encoding,
                 "Input encoding: auto (a byte order mark, else UTF-8, and each game that is not decoded as GB18030 "
                 "when that gives CJK text, else Windows-1252), or any name iconv knows: utf-8, gb18030, latin1, "
                 "macintosh, cp1251, koi8-r, utf-16le, … (iconv -l lists them)")
      ->check([](const std::string& name) {
        return pgn::known_encoding(name)
                   ? std::string()
                   : "unknown encoding '" + name +
                         "': give auto or a name iconv knows, such as utf-8, "
                         "gb18030, windows-1252, macintosh, cp1251, koi8-r, utf-16le (iconv -l lists them)";
      });
  cmd.add_option("-j,--jobs", o.jobs,
                 "Threads that read and replay (default: every core); large files are split at game "
                 "boundaries; 1 does all on one thread");
  std::vector<std::string> codes;
  for (const auto& n : notations()) codes.emplace_back(n.code);
  cmd.add_option("--from", o.from,
                 "Notation of the input moves (en, zh, de, fr, nl, hu, …). Default: detected move by move; give it "
                 "where letters mean different pieces (Dutch P is a knight, Hungarian H a knight, Polish H a queen)")
      ->check(CLI::IsMember(codes));
  cmd.add_flag("--strict", o.strict,
               "Treat non-standard SAN as errors: superfluous disambiguation, missing or wrong +/#, 0-0, P, "
               "long algebraic, e.p.");
}

void release_on_worker(game::GameRecord& rec) {
  game::Line().swap(rec.mainline);
  if (rec.diagnostics.empty()) decltype(rec.tags)().swap(rec.tags);
}

game::PipelineOptions pipeline_options(const InputOptions& o) {
  game::PipelineOptions p;
  p.reader.encoding = o.encoding;
  p.jobs = o.jobs;
  p.replay.strict = o.strict;
  if (!o.from.empty()) p.replay.notation = find_notation(o.from);
  return p;
}

std::string players(const game::GameRecord& rec) {
  std::string_view w = rec.tag("White"), b = rec.tag("Black");
  return (w.empty() ? "?" : shown(w)) + " – " + (b.empty() ? "?" : shown(b));
}

std::string format_diagnostic(const std::string& file, const game::GameRecord& rec, const game::Diagnostic& d) {
  std::string s = shown(file) + ":" + std::to_string(d.pos.line) + ":" + std::to_string(d.pos.column) + ": ";
  s += d.error ? "error: " : "warning: ";
  s += "game " + std::to_string(rec.index) + " (" + players(rec) + ")";
  if (!d.move.empty()) s += ", move " + shown(d.move);
  s += ": " + shown(d.message);
  return s;
}

std::string diagnostic_line(const game::Diagnostic& d) {
  std::string s = "[" + std::string(problem_code(d.kind)) + "] ";
  s += std::to_string(d.pos.line) + ":" + std::to_string(d.pos.column) + ": ";
  if (!d.move.empty()) s += "move " + d.move + ": ";
  return s + d.message;
}

std::string format_input_error(const std::string& file, const pgn::SyntaxError& e) {
  std::string s = shown(file);
  if (e.pos.line) s += ":" + std::to_string(e.pos.line) + ":" + std::to_string(e.pos.column);
  s += ": error: ";
  if (e.game_index) s += "game " + std::to_string(e.game_index) + ": ";
  return s + shown(e.message);
}

bool report_input(const game::InputReport& in, std::ostream* out) {
  bool failed = !in.opened;
  for (const auto& e : in.input_errors) {
    failed |= e.game_index == 0;
    if (e.game_index) set_exit_code(1);  // a game was skipped (too large): an error like an invalid game
    if (out) *out << format_input_error(in.path, e) << "\n";
  }
  return failed;
}

std::string caret_excerpt(const game::GameRecord& rec, const game::Diagnostic& d) {
  if (rec.raw.empty() || d.pos.line < rec.start.line) return {};
  std::size_t at = 0;
  for (std::uint32_t l = rec.start.line; l < d.pos.line && at != std::string::npos; ++l) {
    at = rec.raw.find('\n', at);
    if (at != std::string::npos) ++at;
  }
  if (at == std::string::npos) return {};
  std::size_t end = rec.raw.find_first_of("\r\n", at);
  std::string line = rec.raw.substr(at, end == std::string::npos ? std::string::npos : end - at);
  if (line.size() > 200) line = line.substr(0, 200) + "…";
  // Columns count code points; the caret goes under the escaped line.
  auto is_lead = [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; };
  std::size_t at_col = 0;
  for (std::uint32_t n = 1; at_col < line.size() && n < d.pos.column;)
    if (is_lead(line[++at_col])) ++n;
  std::string before = shown(std::string_view(line).substr(0, at_col));
  std::string caret(std::size_t(std::count_if(before.begin(), before.end(), is_lead)), ' ');
  return "    " + shown(line) + "\n    " + caret + "^";
}

void append_json_string(std::string& out, std::string_view s) {
  out += '"';
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += char(c);
        }
    }
  }
  out += '"';
}

Progress::Progress(const std::vector<std::string>& files) {
  enabled_ = isatty(STDERR_FILENO);
  for (const auto& f : files) {
    std::error_code ec;
    if (f != "-") total_bytes_ += std::filesystem::file_size(f, ec);
  }
  if (total_bytes_ < (8u << 20) && std::find(files.begin(), files.end(), "-") == files.end()) enabled_ = false;
  start_ = last_ = std::chrono::steady_clock::now();
}

void Progress::update(std::uint64_t bytes, std::uint64_t games) {
  if (!enabled_) return;
  auto now = std::chrono::steady_clock::now();
  if (now - last_ < std::chrono::milliseconds(250)) return;
  last_ = now;
  double secs = std::chrono::duration<double>(now - start_).count();
  double mb = bytes / 1e6;
  std::fprintf(stderr, "\r%.1f MB, %llu games, %.0f games/s", mb, (unsigned long long)games, games / secs);
  if (total_bytes_ > bytes && bytes > 0)
    std::fprintf(stderr, ", ETA %.0f s   ", secs * (double(total_bytes_) / bytes - 1));
  std::fflush(stderr);
}

void Progress::finish() {
  if (enabled_) std::fprintf(stderr, "\r\033[K");
}

}  // namespace qipu::cli

namespace qipu::cli {

namespace {

std::optional<FileId> stat_file_id(int stat_result, const struct stat& st) {
  if (stat_result != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  return FileId{std::uint64_t(st.st_dev), std::uint64_t(st.st_ino)};
}

// Temporary files to remove when SIGINT, SIGTERM or SIGHUP ends the program, so that an
// interrupted run leaves the old file and nothing beside it. Fixed slots: a signal
// handler may not allocate.
constexpr int TempSlots = 4;
char g_temp_paths[TempSlots][PATH_MAX];
std::atomic<bool> g_temp_used[TempSlots];

constexpr int Interrupts[] = {SIGINT, SIGTERM, SIGHUP};

extern "C" void remove_temp_files(int sig) {
  for (int i = 0; i < TempSlots; ++i)
    if (g_temp_used[i]) unlink(g_temp_paths[i]);
  signal(sig, SIG_DFL);
  raise(sig);
}

void catch_interrupts() {
  static bool handlers = false;
  if (handlers) return;
  handlers = true;
  for (int sig : Interrupts) {
    struct sigaction old {};
    sigaction(sig, nullptr, &old);
    if (old.sa_handler == SIG_IGN) continue;  // nohup: stay deaf to it
    struct sigaction sa {};
    sa.sa_handler = remove_temp_files;
    sigaction(sig, &sa, nullptr);
  }
}

// The slot now holding `path`, or -1 (too long, or all taken: the file may then stay).
int watch_temp_file(const std::string& path) {
  for (int i = 0; i < TempSlots; ++i)
    if (!g_temp_used[i] && path.size() < PATH_MAX) {
      std::memcpy(g_temp_paths[i], path.c_str(), path.size() + 1);
      g_temp_used[i] = true;
      return i;
    }
  return -1;
}

// Holds SIGINT, SIGTERM and SIGHUP back from the calling thread while it lives: between
// creating a temporary file and watching it, such a signal ended the program and left the
// file (seen in the tests under load). Held, it comes when the file is watched; the
// pipeline's workers never take these signals (game/pipeline.cpp), so that none comes to
// another thread meanwhile (filter opens its split outputs while they run).
class HeldInterrupts {
 public:
  HeldInterrupts() {
    sigset_t held;
    sigemptyset(&held);
    for (int sig : Interrupts) sigaddset(&held, sig);
    pthread_sigmask(SIG_BLOCK, &held, &before_);
  }
  ~HeldInterrupts() { pthread_sigmask(SIG_SETMASK, &before_, nullptr); }
  HeldInterrupts(const HeldInterrupts&) = delete;
  HeldInterrupts& operator=(const HeldInterrupts&) = delete;

 private:
  sigset_t before_;
};

}  // namespace

std::optional<FileId> regular_file_id(const std::string& path) {
  struct stat st {};
  return stat_file_id(path == "-" ? fstat(STDIN_FILENO, &st) : stat(path.c_str(), &st), st);
}

std::string shown(std::string_view s) {
  auto control = [&](std::size_t i) {
    auto c = static_cast<unsigned char>(s[i]);
    bool c1 = c == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) < 0xA0 &&
              static_cast<unsigned char>(s[i + 1]) >= 0x80;  // U+0080–U+009F in UTF-8
    return c < 0x20 || c == 0x7F ? 1 : c1 ? 2 : 0;
  };
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    int n = control(i);
    if (n == 0) {
      out += s[i];
      continue;
    }
    char buf[8];
    std::snprintf(buf, sizeof buf, "\\x%02x",
                  n == 2 ? static_cast<unsigned char>(s[++i]) : static_cast<unsigned char>(s[i]));
    out += buf;
  }
  return out;
}

void CheckedBuffer::attach(int fd, bool line_buffered) {
  fd_ = fd;
  line_buffered_ = line_buffered;
  error_ = 0;
  setp(buf_.data(), buf_.data() + buf_.size());
}

bool CheckedBuffer::write_all(const char* p, std::size_t n) {
  while (n > 0 && error_ == 0) {
    ssize_t w = ::write(fd_, p, n);
    if (w > 0) {
      p += w;
      n -= std::size_t(w);
    } else if (w < 0 && errno != EINTR) {
      error_ = errno;
    }
  }
  return error_ == 0;
}

// Writes out what the buffer holds; after an error it is dropped.
bool CheckedBuffer::drain() {
  bool ok = write_all(pbase(), std::size_t(pptr() - pbase()));
  setp(buf_.data(), buf_.data() + buf_.size());
  return ok;
}

CheckedBuffer::int_type CheckedBuffer::overflow(int_type c) {
  if (!drain()) return traits_type::eof();
  if (!traits_type::eq_int_type(c, traits_type::eof())) {
    *pptr() = traits_type::to_char_type(c);
    pbump(1);
    if (line_buffered_ && c == '\n' && !drain()) return traits_type::eof();
  }
  return traits_type::not_eof(c);
}

std::streamsize CheckedBuffer::xsputn(const char* s, std::streamsize n) {
  if (n > epptr() - pptr()) {
    if (!drain()) return 0;
    if (n >= epptr() - pptr()) return write_all(s, std::size_t(n)) ? n : 0;  // large blocks go straight out
  }
  std::memcpy(pptr(), s, std::size_t(n));
  pbump(int(n));
  if (line_buffered_ && std::memchr(s, '\n', std::size_t(n)) && !drain()) return 0;
  return n;
}

int CheckedBuffer::sync() { return drain() ? 0 : -1; }

void Output::fail(const std::string& why) {
  std::cerr << "qipu " << command_ << ": " << why << "\n";
  set_exit_code(2);
}

// Why the target may not be written: it is an input or the database (only a regular
// file can be; two commands on /dev/null are no conflict). Empty when it may.
std::string Output::refusal(const std::optional<FileId>& target, const std::vector<std::string>& inputs,
                            const std::string& database) const {
  if (!target) return {};
  if (!database.empty() && regular_file_id(database) == target) return "it is the database";
  for (const auto& in : inputs)
    if (regular_file_id(in) == target) return "it is also an input" + (in == name_ ? std::string() : " (" + in + ")");
  return {};
}

bool Output::open(const std::string& path, const std::vector<std::string>& inputs, const std::string& database) {
  bool to_stdout = path.empty() || path == "-";
  name_ = to_stdout ? "standard output" : path;
  struct stat st {};
  auto target = stat_file_id(to_stdout ? fstat(STDOUT_FILENO, &st) : stat(path.c_str(), &st), st);
  if (auto why = refusal(target, inputs, database); !why.empty()) {
    fail("refusing to write " + name_ + ": " + why);
    return false;
  }
  if (to_stdout) {
    buffer_.attach(STDOUT_FILENO, isatty(STDOUT_FILENO));
    return true;
  }
  if (!open_file()) {
    fail("cannot write " + name_ + ": " + std::strerror(errno));
    return false;
  }
  buffer_.attach(fd_, false);
  return true;
}

// The temporary file beside the target (through symlinks, so that the link stays a
// link), with the target's permissions or, for a new file, those open() would give;
// a device or FIFO is opened as it is. False with errno set.
bool Output::open_file() {
  char buf[PATH_MAX];
  real_ = realpath(name_.c_str(), buf) ? buf : name_;
  struct stat st {};
  bool exists = stat(real_.c_str(), &st) == 0;
  if (exists && !S_ISREG(st.st_mode)) {
    fd_ = ::open(real_.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
    return fd_ >= 0;
  }
  auto slash = real_.rfind('/');
  std::string dir = slash == std::string::npos ? "" : real_.substr(0, slash + 1);
  temp_ = dir + "." + real_.substr(slash == std::string::npos ? 0 : slash + 1) + ".qipu-XXXXXX";
  catch_interrupts();
  HeldInterrupts held;
  fd_ = mkostemp(temp_.data(), O_CLOEXEC);
  if (fd_ < 0) {
    temp_.clear();
    return false;
  }
  mode_t mask = umask(0);
  umask(mask);
  // Only root may give the file back to another owner; elsewhere it becomes ours, as a new file would.
  if (exists && fchown(fd_, st.st_uid, st.st_gid) != 0 && errno != EPERM) return false;
  if (fchmod(fd_, exists ? st.st_mode & 0777 : 0666 & ~mask) != 0) return false;
  temp_slot_ = watch_temp_file(temp_);
  return true;
}

bool Output::finish() {
  if (finished_) return true;
  finished_ = true;
  stream_.flush();
  int err = buffer_.error();
  if (fd_ >= 0) {
    if (err == 0 && !temp_.empty() && fsync(fd_) != 0) err = errno;  // a delayed I/O error shows here
    if (close(fd_) != 0 && err == 0) err = errno;
    fd_ = -1;
  }
  bool ok = err == 0 || err == EPIPE;  // a closed pipe: the reader has all it wanted
  if (!ok) fail("cannot write " + name_ + ": " + std::strerror(err));
  if (!temp_.empty() && ok && exit_code() < 2) {
    if (std::rename(temp_.c_str(), real_.c_str()) == 0) {
      temp_.clear();
    } else {
      ok = false;
      fail("cannot write " + name_ + ": " + std::strerror(errno));
    }
  }
  drop_temp();
  return ok;
}

void Output::drop_temp() {
  if (!temp_.empty()) unlink(temp_.c_str());
  temp_.clear();
  if (temp_slot_ >= 0) g_temp_used[temp_slot_] = false;  // after the unlink or rename: no moment unwatched
  temp_slot_ = -1;
}

// An unfinished output (an exception is on its way): what went to standard output
// stays there, a temporary file goes.
Output::~Output() {
  if (finished_) return;
  stream_.flush();
  if (fd_ >= 0) close(fd_);
  drop_temp();
}

void add_style_options(CLI::App& cmd, StyleOptions& o) {
  cmd.add_option("--style", o.style, "spaced (马 f3, the Chinese sources' style and the zh default) or compact (马f3)")
      ->check(CLI::IsMember({"spaced", "compact"}));
  cmd.add_option("--castling", o.castling, "How castling is written: O-O (default), 0-0, or words (短易位 / 长易位)")
      ->check(CLI::IsMember({"O-O", "0-0", "words"}));
}

void add_lang_option(CLI::App& cmd, std::string& lang, const std::string& names) {
  cmd.add_option(names, lang,
                 "Language of headings, results, summaries and opening names: en, zh (简体中文) or zh-Hant "
                 "(繁體中文). Default: $QIPU_LANG, else the locale (LC_ALL, LC_MESSAGES, LANG: zh_TW or zh_HK "
                 "give zh-Hant, other zh locales zh), else en. Messages stay English")
      ->check(CLI::IsMember({"en", "zh", "zh-Hant"}));
}

game::WriterOptions writer_options(const Notation& notation, const StyleOptions& o) {
  game::WriterOptions w;
  w.notation = &notation;
  w.style.spaced = o.style.empty() ? notation.space_after_piece : o.style == "spaced";
  w.style.castling = o.castling == "0-0"     ? WriteStyle::Castling::Zeros
                     : o.castling == "words" ? WriteStyle::Castling::Words
                                             : WriteStyle::Castling::Letters;
  return w;
}

}  // namespace qipu::cli
