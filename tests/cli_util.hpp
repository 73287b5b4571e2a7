// Helpers shared by the tests: text (slurp, split, lower, lines_of, contains), temporary
// directories, sample games, and running the qipu program (or a shell pipeline around it)
// as a child process: its output, exit code, peak memory and time.
#pragma once

#include <catch2/catch.hpp>

#include "corpora.hpp"

#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace cli_test {

namespace fs = std::filesystem;

struct Run {
  std::string out, err;
  int code = -1;         // exit code, or 128 + signal
  long peak_rss_kb = 0;  // the largest process of the command
  double seconds = 0;
};

// Reads a file whole.
inline std::string slurp(const std::string& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Splits at every `sep`, keeping empty fields: "a,,b," is a, "", b, "".
inline std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> out;
  std::size_t from = 0;
  for (std::size_t at; (at = s.find(sep, from)) != std::string_view::npos; from = at + 1)
    out.emplace_back(s.substr(from, at - from));
  out.emplace_back(s.substr(from));
  return out;
}

// ASCII letters in lower case; other bytes unchanged.
inline std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Reads fd to its end.
// The pgnmentor files of these players (corpora/real/pgnmentor, tests/corpora.hpp), one
// after another in `to`: real collections of known size for import tests.
inline fs::path write_pgnmentor(const fs::path& to, std::initializer_list<const char*> players) {
  std::ofstream out(to, std::ios::binary);
  for (const char* name : players)
    out << slurp(corpora::path(std::string("real/pgnmentor/data__pgn__") + name + ".pgn"));
  return to;
}

// Games [first, first + count) of the bundled sample (data/world-championships.pgn, 1,042
// games) in `to`: real games for tests that must run in a clone with nothing beside it.
inline fs::path write_sample_games(const fs::path& to, std::size_t first, std::size_t count) {
  const std::string text = slurp(QIPU_SOURCE_DIR "/data/world-championships.pgn");
  std::vector<std::size_t> starts;
  for (std::size_t at = 0; (at = text.find("[Event ", at)) != std::string::npos; ++at)
    if (at == 0 || text[at - 1] == '\n') starts.push_back(at);
  REQUIRE(first + count <= starts.size());
  starts.push_back(text.size());
  std::ofstream(to, std::ios::binary) << text.substr(starts[first], starts[first + count] - starts[first]);
  return to;
}

inline std::string read_all(int fd) {
  std::string s;
  char buf[65536];
  for (ssize_t n; (n = read(fd, buf, sizeof buf)) != 0;) {
    if (n > 0)
      s.append(buf, std::size_t(n));
    else if (errno != EINTR)
      break;
  }
  return s;
}

// Runs a command line under /bin/sh with no standard input. wait4 reports the peak
// RSS of the command's processes (the shell's children are waited for within it).
inline Run shell(const std::string& cmd) {
  int out[2];
  REQUIRE(pipe(out) == 0);
  FILE* err = std::tmpfile();
  REQUIRE(err != nullptr);
  auto t0 = std::chrono::steady_clock::now();
  // posix_spawn, not fork: the child shares this process's memory until it runs the shell,
  // so nothing of a test process's large heap (and AddressSanitizer's shadow of it) is
  // copied or torn down for each of the hundreds of programs the tests launch.
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  posix_spawn_file_actions_adddup2(&actions, fileno(err), 2);
  posix_spawn_file_actions_addclose(&actions, out[0]);
  posix_spawn_file_actions_addclose(&actions, out[1]);
  const char* argv[] = {"sh", "-c", cmd.c_str(), nullptr};
  pid_t pid = -1;
  int spawned = posix_spawn(&pid, "/bin/sh", &actions, nullptr, const_cast<char* const*>(argv), environ);
  posix_spawn_file_actions_destroy(&actions);
  REQUIRE(spawned == 0);
  close(out[1]);
  Run r;
  r.out = read_all(out[0]);
  close(out[0]);
  int status = 0;
  struct rusage usage {};
  while (wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {}
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.peak_rss_kb = usage.ru_maxrss;
  std::rewind(err);
  r.err = read_all(fileno(err));
  std::fclose(err);
  return r;
}

// Before a command in a shell line: a hang fails the test (exit 124) instead of stalling it.
inline const std::string hang_guard = "timeout 600 ";

// Runs qipu with the arguments (already quoted as needed); stderr goes to err_file,
// or into Run::err when none is given.
inline Run run_qipu(const std::string& args, const std::string& err_file = "") {
  return shell(hang_guard + "\"" QIPU_BINARY "\" " + args + (err_file.empty() ? "" : " 2>" + err_file));
}

inline std::string data(const std::string& name) { return std::string(QIPU_TEST_DATA) + "/cli/" + name; }

inline std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  std::string l;
  while (std::getline(in, l)) out.push_back(l);
  return out;
}

// The games of PGN text qipu wrote, each from its "[Event " line to the next game's.
inline std::vector<std::string> pgn_games(const std::string& text) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while ((at = text.find("[Event ", at)) != std::string::npos) {
    std::size_t next = text.find("\n[Event ", at + 1);
    out.push_back(text.substr(at, next == std::string::npos ? std::string::npos : next + 1 - at));
    if (next == std::string::npos) break;
    at = next + 1;
  }
  return out;
}

inline bool contains(const std::string& s, std::string_view part) { return s.find(part) != std::string::npos; }

// A fresh directory for this test process, under the system's temporary directory.
inline fs::path temp_dir(const std::string& name = "cli") {
  fs::path d = fs::temp_directory_path() / ("qipu_" + name + "_test_" + std::to_string(getpid()));
  fs::create_directories(d);
  return d;
}

// A new database `name` in this process's temporary directory with `pgn` imported (a
// path, or a file of tests/data), for tests that query a small fixture.
inline std::string imported_db(const std::string& name, const std::string& pgn) {
  fs::path db = temp_dir("fixtures") / (name + ".db");
  fs::remove(db);
  std::string file = fs::exists(pgn) ? pgn : std::string(QIPU_TEST_DATA) + "/" + pgn;
  auto r = run_qipu("import --db " + db.string() + " " + file);
  REQUIRE(r.code == 0);
  return db.string();
}

#ifdef QIPU_SANITIZED
constexpr bool sanitized = true;
#else
constexpr bool sanitized = false;
#endif
// AddressSanitizer's shadow memory and quarantine inflate RSS: no bound under it.
constexpr bool rss_is_meaningful = !sanitized;
// The rounds of a randomised test that launches the program many times: all of them in the
// Release run, a quarter under the sanitizers, where the same rounds cost four to five times
// the CPU (18.3 against 4.6 CPU-s, 15.1 against 3.1) and the test command has ten minutes;
// each kind of input still runs there.
constexpr int rounds_for_build(int rounds) { return sanitized ? (rounds + 3) / 4 : rounds; }

// A game with the roster's tags and a note (Annotator, not in the roster, to count games
// by). Each change is NAME (the tag left out) or NAME=VALUE (set, or added after them).
inline std::string roster_game(const std::string& note, const std::vector<std::string>& changes = {}) {
  std::vector<std::pair<std::string, std::string>> tags = {{"Event", "Open"}, {"Site", "Paris"}, {"Date", "2001.02.03"},
                                                           {"Round", "4"},    {"White", "Ann"},  {"Black", "Bo"},
                                                           {"Result", "1-0"}};
  for (const auto& c : changes) {
    auto eq = c.find('=');
    std::string name = c.substr(0, eq);
    auto it = std::find_if(tags.begin(), tags.end(), [&](const auto& t) { return t.first == name; });
    if (eq == std::string::npos)
      tags.erase(it);
    else if (it != tags.end())
      it->second = c.substr(eq + 1);
    else
      tags.emplace_back(name, c.substr(eq + 1));
  }
  std::string out;
  for (const auto& [name, value] : tags) out += "[" + name + " \"" + value + "\"]\n";
  out += "[Annotator \"" + note + "\"]\n\n";
  bool setup = contains(out, "[FEN ");
  return out + (setup ? "1... e5 2. Nf3 1-0\n\n" : "1. e4 e5 2. Nf3 1-0\n\n");
}

// Ten games whose sameness turns on the roster's unknown defaults, empty tags, a missing
// Result and the FEN as written: import decides; filter --dedup must agree.
inline std::string tricky_duplicates() {
  const std::string fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq ";
  return roster_game("a") + roster_game("a again") +                                    // the same game twice
         roster_game("site ?", {"Site=?"}) + roster_game("no site", {"Site"}) +         // "?" is no tag
         roster_game("no white", {"White"}) + roster_game("white empty", {"White="}) +  // "" is a value
         roster_game("no result tag", {"Result"}) +                                     // the movetext's 1-0
         roster_game("result empty", {"Result="}) +                                     // "" is a value
         roster_game("fen e3", {"SetUp=1", "FEN=" + fen + "e3 0 1"}) +                  // the FEN as written
         roster_game("fen -", {"SetUp=1", "FEN=" + fen + "- 0 1"});
}

// The games of a PGN text that carry a note (an Annotator tag).
inline std::size_t noted_games(const std::string& pgn) {
  std::size_t n = 0;
  for (std::size_t at = 0; (at = pgn.find("[Annotator ", at)) != std::string::npos; ++at) ++n;
  return n;
}

}  // namespace cli_test
