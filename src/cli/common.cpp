#include "cli/common.hpp"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <iostream>

#include "cli/commands.hpp"

#include "qipu/notation/notation.hpp"

namespace qipu::cli {

void add_input_options(CLI::App& cmd, InputOptions& o, bool files_required) {
  auto* files = cmd.add_option("files", o.files, "PGN files (plain, .gz or .zst, found by content); '-' reads standard input");
  if (files_required) files->required();
  cmd.add_option("--encoding", o.encoding,
                 "Input encoding: auto (a byte order mark, else UTF-8, and each game that is not decoded as GB18030 "
                 "when that gives CJK text, else Windows-1252), or any name iconv knows: utf-8, gb18030, latin1, "
                 "macintosh, cp1251, koi8-r, utf-16le, … (iconv -l lists them)")
      ->check([](const std::string& name) {
        return pgn::known_encoding(name) ? std::string()
                                         : "unknown encoding '" + name + "': give auto or a name iconv knows, such as utf-8, "
                                           "gb18030, windows-1252, macintosh, cp1251, koi8-r, utf-16le (iconv -l lists them)";
      });
  cmd.add_option("-j,--jobs", o.jobs, "Threads that read and replay (default: every core); large files are split at game "
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
  return std::string(w.empty() ? "?" : w) + " – " + std::string(b.empty() ? "?" : b);
}

std::string format_diagnostic(const std::string& file, const game::GameRecord& rec, const game::Diagnostic& d) {
  std::string s = file + ":" + std::to_string(d.pos.line) + ":" + std::to_string(d.pos.column) + ": ";
  s += d.error ? "error: " : "warning: ";
  s += "game " + std::to_string(rec.index) + " (" + players(rec) + ")";
  if (!d.move.empty()) s += ", move " + d.move;
  s += ": " + d.message;
  return s;
}

std::string format_input_error(const std::string& file, const pgn::SyntaxError& e) {
  std::string s = file;
  if (e.pos.line) s += ":" + std::to_string(e.pos.line) + ":" + std::to_string(e.pos.column);
  s += ": error: ";
  if (e.game_index) s += "game " + std::to_string(e.game_index) + ": ";
  return s + e.message;
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
  std::string caret(d.pos.column > 0 ? d.pos.column - 1 : 0, ' ');
  return "    " + line + "\n    " + caret + "^";
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

bool Output::open(const std::string& path, const char* command) {
  if (path.empty() || path == "-") return true;
  file_.open(path, std::ios::binary);
  if (file_) return true;
  std::cerr << "qipu " << command << ": cannot write " << path << "\n";
  set_exit_code(2);
  return false;
}

std::ostream& Output::stream() { return file_.is_open() ? static_cast<std::ostream&>(file_) : std::cout; }

void add_style_options(CLI::App& cmd, StyleOptions& o) {
  cmd.add_option("--style", o.style, "spaced (马 f3, the Chinese sources' style and the zh default) or compact (马f3)")
      ->check(CLI::IsMember({"spaced", "compact"}));
  cmd.add_option("--castling", o.castling, "How castling is written: O-O (default), 0-0, or words (短易位 / 长易位)")
      ->check(CLI::IsMember({"O-O", "0-0", "words"}));
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
