// Outputs and writes: an output that is also an input or the database is refused; files
// are replaced only when the command succeeds; every write is checked (/dev/full);
// import refuses SQLite files; tag values are escaped in tables and messages and
// neutralised in CSV. Each case runs the qipu program on files made here.
#include <catch2/catch.hpp>

#include <sys/mount.h>
#include <sys/stat.h>

#include <csignal>
#include <cerrno>
#include <cstring>
#include <iostream>

#include "cli_util.hpp"

// One namespace a file: the test files compile several to a unit (CMakeLists.txt).
namespace test_outputs {

using namespace cli_test;

namespace {

// A folder with a PGN file of four games (two invalid) and a database made from it.
struct Fixture {
  fs::path dir = temp_dir("outputs");
  std::string pgn = (dir / "x.pgn").string();
  std::string db = (dir / "g.db").string();
  Fixture() {
    fs::copy_file(data("multi.pgn"), pgn, fs::copy_options::overwrite_existing);
    fs::remove(db);
    REQUIRE(run_qipu("import --db '" + db + "' '" + pgn + "'").code == 1);
  }
  ~Fixture() { fs::remove_all(dir); }
  std::string path(const std::string& name) const { return (dir / name).string(); }
  // The names a file can be reached by: itself, ./ itself, a symlink, a hard link.
  std::vector<std::string> aliases(const std::string& file) const {
    fs::path f(file);
    fs::remove(dir / "link");
    fs::remove(dir / "hard");
    fs::create_symlink(f.filename(), dir / "link");
    fs::create_hard_link(f, dir / "hard");
    return {file, (dir / "." / f.filename()).string(), path("link"), path("hard")};
  }
  // Names in the folder that look like a temporary output left behind.
  std::vector<std::string> leftovers() const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir))
      if (contains(e.path().filename().string(), ".qipu-")) out.push_back(e.path().filename().string());
    return out;
  }
};

std::string q(const std::string& s) { return "'" + s + "'"; }

}  // namespace

TEST_CASE("outputs: an output that is also an input is refused and left untouched", "[outputs]") {
  Fixture f;
  const std::string before = slurp(f.pgn);
  for (const auto& name : f.aliases(f.pgn)) {
    for (const std::string& cmd :
         {"convert --to en " + q(f.pgn) + " -o " + q(name), "check " + q(f.pgn) + " --rejects " + q(name)}) {
      INFO(cmd);
      Run r = run_qipu(cmd);
      CHECK(r.code == 2);
      CHECK(contains(r.err, "refusing to write " + name + ": it is also an input"));
      CHECK(slurp(f.pgn) == before);
    }
  }
  // Standard output onto an input (appending, so the shell does not empty it): the file
  // would grow as it is read.
  Run app = run_qipu("convert --to en " + q(f.pgn) + " >> " + q(f.pgn));
  CHECK(app.code == 2);
  CHECK(contains(app.err, "qipu convert: refusing to write standard output: it is also an input"));
  CHECK(slurp(f.pgn) == before);
}

TEST_CASE("outputs: an output that is the database is refused and left untouched", "[outputs]") {
  Fixture f;
  const std::string before = slurp(f.db);
  for (const auto& name : f.aliases(f.db)) {
    for (const char* cmd : {"export", "rejects"}) {
      INFO(cmd << " -o " << name);
      Run r = run_qipu(std::string(cmd) + " --db " + q(f.db) + " -o " + q(name));
      CHECK(r.code == 2);
      CHECK(r.err == "qipu " + std::string(cmd) + ": refusing to write " + name + ": it is the database\n");
      CHECK(slurp(f.db) == before);
    }
  }
  CHECK(run_qipu("search --db " + q(f.db) + " --count").out == "2\n");
}

TEST_CASE("outputs: a failing command leaves the old file as it was", "[outputs]") {
  Fixture f;
  const std::string keep = f.path("keep.txt");
  std::ofstream(keep) << "keep me\n";
  Run missing_db = run_qipu("export --db " + q(f.path("missing.db")) + " -o " + q(keep));
  CHECK(missing_db.code == 2);
  CHECK(contains(missing_db.err, "no database at"));
  // An input that cannot be read fails the command (exit 2), though the other converts.
  Run missing_input =
      run_qipu("convert --to en " + q(data("opera.pgn")) + " " + q(f.path("nope.pgn")) + " -o " + q(keep));
  CHECK(missing_input.code == 2);
  Run missing_rejects =
      run_qipu("check " + q(data("multi.pgn")) + " " + q(f.path("nope.pgn")) + " --rejects " + q(keep));
  CHECK(missing_rejects.code == 2);
  CHECK(slurp(keep) == "keep me\n");
  CHECK(f.leftovers().empty());
}

// Runs convert from a standard input that stays open, -o `target`, and sends it `signal`
// once its temporary file exists (today's code has emptied the target by then). The feeder
// stops at its first blank line after convert has gone (a broken pipe), so the shell's
// wait for the whole job ends at once.
void interrupt_convert(const Fixture& f, const std::string& target, const char* signal) {
  // The input stops after a minute at most, so that a signal that does not end qipu fails
  // the test instead of hanging it.
  shell("(cat " + q(data("opera.pgn")) +
        "; for i in $(seq 600); do echo; sleep 0.1; done) | \"" QIPU_BINARY "\" convert --to en - -o " + q(target) +
        " >/dev/null 2>&1 & pid=$!; for i in $(seq 100); do ls -a " + q(f.dir.string()) +
        " | grep -q 'qipu-' && break; sleep 0.05; done; kill -" + signal + " $pid; wait $pid");
}

TEST_CASE("outputs: a killed or interrupted run leaves the old file as it was", "[outputs]") {
  Fixture f;
  const std::string keep = f.path("keep.txt");
  std::ofstream(keep) << "keep me\n";
  interrupt_convert(f, keep, "KILL");
  CHECK(slurp(keep) == "keep me\n");
  auto left = f.leftovers();
  REQUIRE(left.size() == 1);  // recognisable as ours, beside the target
  CHECK(left[0].rfind(".keep.txt.qipu-", 0) == 0);
  fs::remove(f.dir / left[0]);
  // A polite kill or a hang-up (SIGINT, Ctrl-C, takes the same path; sh ignores it in
  // background jobs): the temporary file goes too.
  // Under nohup a hang-up is ignored, and qipu rightly stays deaf to it (src/cli/common.cpp).
  struct sigaction hup {};
  sigaction(SIGHUP, nullptr, &hup);
  for (const char* signal : {"TERM", "HUP"}) {
    if (std::string_view(signal) == "HUP" && hup.sa_handler == SIG_IGN) continue;
    interrupt_convert(f, keep, signal);
    CHECK(slurp(keep) == "keep me\n");
    CHECK(f.leftovers().empty());
  }
}

// True when strace is installed and may trace here (a container may forbid ptrace); else
// false, after the one line that has ctest count the test as skipped.
bool strace_works() {
  if (shell("strace -qq -o /dev/null true").code == 0) return true;
  std::cout << "SKIPPED: needs strace, allowed to trace (apt-get install strace)" << std::endl;
  return false;
}

// A signal that comes between the temporary file's creation and its registration for
// removal: strace holds qipu inside the fchmod of that moment for two seconds, and the
// signal is sent to the process strace names in its log. Before the interrupt signals were
// held there (src/cli/common.cpp), both signals left the temporary file behind.
TEST_CASE("outputs: a signal while the temporary file is being set up leaves nothing beside the target", "[outputs]") {
  if (!strace_works()) return;
  Fixture f;
  const std::string keep = f.path("keep.txt"), log = f.path("strace.log");
  struct sigaction hup {};
  sigaction(SIGHUP, nullptr, &hup);
  for (const char* signal : {"TERM", "HUP"}) {
    if (std::string_view(signal) == "HUP" && hup.sa_handler == SIG_IGN) continue;  // nohup: qipu stays deaf
    std::ofstream(keep) << "keep me\n";
    fs::remove(log);
    shell("(cat " + q(data("opera.pgn")) + "; for i in $(seq 600); do echo; sleep 0.1; done) | strace -f -qq -o " +
          q(log) + " -e trace=fchmod -e inject=fchmod:delay_exit=2000000 \"" QIPU_BINARY "\" convert --to en - -o " +
          q(keep) + " >/dev/null 2>&1 & s=$!; for i in $(seq 250); do grep -q fchmod " + q(log) +
          " 2>/dev/null && break; sleep 0.02; done; kill -" + signal + " $(sed -n 's/^\\([0-9]*\\) *fchmod.*/\\1/p' " +
          q(log) + " | head -n 1); wait $s");
    REQUIRE(contains(slurp(log), "fchmod"));  // the signal came inside that moment
    CHECK(slurp(keep) == "keep me\n");
    CHECK(f.leftovers().empty());
  }
}

TEST_CASE("outputs: a successful run replaces the file, through a symlink, keeping its permissions", "[outputs]") {
  Fixture f;
  const std::string expected = run_qipu("convert --to en " + q(data("opera.pgn"))).out;
  REQUIRE(contains(expected, "17. Rd8# 1-0"));
  const std::string old_file = f.path("old.pgn"), new_file = f.path("new.pgn");
  std::ofstream(old_file) << "old\n";
  fs::permissions(old_file, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  fs::create_symlink("old.pgn", f.path("to-old.pgn"));
  CHECK(run_qipu("convert --to en " + q(data("opera.pgn")) + " -o " + q(f.path("to-old.pgn"))).code == 0);
  CHECK(fs::is_symlink(f.path("to-old.pgn")));
  CHECK(slurp(old_file) == expected);
  CHECK(fs::status(old_file).permissions() == (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read));
  // A new file gets what the umask leaves.
  CHECK(shell("umask 027; \"" QIPU_BINARY "\" convert --to en " + q(data("opera.pgn")) + " -o " + q(new_file)).code ==
        0);
  CHECK(slurp(new_file) == expected);
  CHECK(fs::status(new_file).permissions() == (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read));
  // A FIFO is written directly, not replaced.
  const std::string fifo = f.path("fifo");
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  Run r = shell("cat " + q(fifo) + " > " + q(f.path("got")) + " & \"" QIPU_BINARY "\" convert --to en " +
                q(data("opera.pgn")) + " -o " + q(fifo) + "; wait");
  CHECK(r.code == 0);
  CHECK(slurp(f.path("got")) == expected);
  CHECK(f.leftovers().empty());
}

TEST_CASE("outputs: every write is checked, to the end (/dev/full)", "[outputs]") {
  Fixture f;
  const std::string db = " --db " + q(f.db);
  struct Case {
    std::string args, target;  // target: the file -o names, or "" for standard output
  };
  const Case cases[] = {
      {"convert --to en " + q(f.pgn) + " -o /dev/full", "/dev/full"},
      {"convert --to en " + q(f.pgn), ""},
      {"check " + q(f.pgn) + " --rejects /dev/full", "/dev/full"},
      {"check " + q(f.pgn), ""},
      {"export" + db + " -o /dev/full", "/dev/full"},
      {"export" + db, ""},
      {"rejects" + db + " -o /dev/full", "/dev/full"},
      {"rejects" + db, ""},
      {"search" + db, ""},
      {"search" + db + " --count", ""},
      {"stats" + db, ""},
      {"explore" + db + " --moves 1.e4", ""},
      {"eco " + q(f.pgn), ""},
      {"import --db " + q(f.path("n.db")) + " " + q(f.pgn), ""},
  };
  for (const auto& c : cases) {
    INFO(c.args);
    Run r = run_qipu(c.args + (c.target.empty() ? " > /dev/full" : " > /dev/null"));
    std::string command = c.args.substr(0, c.args.find(' '));
    CHECK(r.code == 2);
    CHECK(contains(r.err, "qipu " + command + ": cannot write " + (c.target.empty() ? "standard output" : c.target) +
                              ": No space left on device\n"));
  }
}

TEST_CASE("outputs: a full disk fails the write and leaves the old file", "[outputs]") {
  Fixture f;
  const std::string big = f.path("big.pgn"), big_db = f.path("big.db");
  {
    std::ofstream out(big, std::ios::binary);
    const std::string game = slurp(data("opera.pgn"));
    for (int i = 0; i < 4000; ++i) out << game << "\n";  // 2 MB of PGN
  }
  REQUIRE(run_qipu("import --allow-duplicates --db " + q(big_db) + " " + q(big)).code == 0);
  fs::path mnt = f.dir / "tmpfs";
  fs::create_directories(mnt);
  // A 1 MB file system; mounting needs root (as in CI).
  if (mount("tmpfs", mnt.c_str(), "tmpfs", 0, "size=1m") != 0) {
    WARN("full-disk test skipped: cannot mount a tmpfs here (" << std::strerror(errno) << ")");
    return;
  }
  struct Unmount {
    fs::path p;
    ~Unmount() { umount2(p.c_str(), MNT_DETACH); }
  } unmount{mnt};
  const std::string keep = (mnt / "keep.pgn").string();
  std::ofstream(keep) << "keep me\n";
  for (const std::string& cmd :
       {"convert --to en " + q(big) + " -o " + q(keep), "export --db " + q(big_db) + " -o " + q(keep)}) {
    INFO(cmd);
    Run r = run_qipu(cmd);
    CHECK(r.code == 2);
    CHECK(contains(r.err, ": cannot write " + keep + ": No space left on device\n"));
    CHECK(slurp(keep) == "keep me\n");
    CHECK(std::distance(fs::directory_iterator(mnt), fs::directory_iterator()) == 1);  // the temporary file is gone
  }
}

TEST_CASE("outputs: a closed pipe stays quiet", "[outputs]") {
  Fixture f;
  std::string big = f.path("big.pgn");
  {
    std::ofstream out(big, std::ios::binary);
    for (int i = 0; i < 400; ++i) out << slurp(data("opera.pgn")) << "\n";
  }
  // With SIGPIPE ignored the write fails with EPIPE: no message for it, the usual exit
  // status (0: every game is valid).
  const std::string rc = f.path("rc");
  Run r = shell("trap '' PIPE; (\"" QIPU_BINARY "\" convert --to fen " + q(big) + "; echo $? > " + q(rc) +
                ") | head -c 100 >/dev/null");
  CHECK(r.err.empty());
  CHECK(slurp(rc) == "0\n");
}

TEST_CASE("import: refuses the database itself and any SQLite file", "[outputs]") {
  Fixture f;
  const std::string before = slurp(f.db);
  Run self = run_qipu("import --db " + q(f.db) + " " + q(f.db));
  CHECK(self.code == 2);
  CHECK(self.err == "qipu import: refusing to read " + f.db + ": it is the database\n");
  const std::string other = f.path("r.db");
  fs::copy_file(f.db, other);
  // The whole command is refused, the PGN beside it too: nothing half done.
  Run mixed = run_qipu("import --db " + q(f.db) + " " + q(data("opera.pgn")) + " " + q(other));
  CHECK(mixed.code == 2);
  CHECK(mixed.err == "qipu import: refusing to read " + other + ": it is an SQLite database, not PGN\n");
  Run piped = run_qipu("import --db " + q(f.db) + " - < " + q(other));
  CHECK(piped.code == 2);
  CHECK(piped.err == "qipu import: refusing to read standard input: it is an SQLite database, not PGN\n");
  CHECK(slurp(f.db) == before);
  // A FIFO is not peeked at (what is read from it would be lost): its game imports whole.
  const std::string fifo = f.path("fifo");
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  Run from_fifo = shell("cat " + q(data("opera.pgn")) + " > " + q(fifo) + " & " + hang_guard +
                        "\"" QIPU_BINARY "\" import --db " + q(f.path("fifo.db")) + " " + q(fifo) + "; wait");
  CHECK(from_fifo.code == 0);
  CHECK(contains(from_fifo.out, "imported 1 games"));
  // A new database is not even created.
  CHECK(run_qipu("import --db " + q(f.path("new.db")) + " " + q(other)).code == 2);
  CHECK(!fs::exists(f.path("new.db")));
}

TEST_CASE("outputs: control characters in tag values are escaped in tables and messages", "[outputs]") {
  Fixture f;
  // ESC ] 0 ; … BEL retitles a terminal; ESC [ 2 J clears it; U+009B is the one-byte CSI.
  // (Ratings put the valid game among explore's top games.)
  const std::string white = "Evil\x1b]0;pwned\x07",
                    black =
                        "Bad\xc2\x9b"
                        "2J\x7f",
                    event = "Cup\x1b[2J";
  const std::string pgn = f.path("evil.pgn");
  std::ofstream(pgn, std::ios::binary) << "[Event \"" << event << "\"]\n[White \"" << white << "\"]\n[Black \"" << black
                                       << "\"]\n[WhiteElo \"2500\"]\n[BlackElo \"2400\"]\n[Result \"1-0\"]\n\n1. e4 e5 "
                                          "2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n"
                                       << "[Event \"" << event << "\"]\n[White \"" << white << "\"]\n[Black \"" << black
                                       << "\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke3 *\n";
  const std::string evil_db = f.path("evil.db");
  REQUIRE(run_qipu("import --db " + q(evil_db) + " " + q(pgn)).code == 1);
  const std::string white_shown = "Evil\\x1b]0;pwned\\x07", black_shown = "Bad\\x9b2J\\x7f",
                    event_shown = "Cup\\x1b[2J";
  auto raw_control = [](const std::string& s) {
    for (std::size_t i = 0; i < s.size(); ++i) {
      auto c = static_cast<unsigned char>(s[i]);
      if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f ||
          (c == 0xc2 && i + 1 < s.size() && (unsigned char)s[i + 1] < 0xa0 && (unsigned char)s[i + 1] >= 0x80))
        return true;
    }
    return false;
  };
  const std::string db = " --db " + q(evil_db);
  struct Case {
    std::string args;
    std::vector<std::string> shown;
  };
  const Case cases[] = {
      {"check " + q(pgn), {"game 2 (" + white_shown + " – " + black_shown + "), move 2. Ke3: illegal move"}},
      {"check -v " + q(pgn), {white_shown}},
      {"eco " + q(pgn), {white_shown + " – " + black_shown}},
      {"search" + db, {white_shown, black_shown, event_shown}},
      {"explore" + db + " --moves 1.e4", {white_shown + " – " + black_shown, event_shown}},
      {"stats" + db, {white_shown, black_shown}},
      {"stats" + db + " --event Cup", {event_shown, white_shown, black_shown}},
      {"rejects" + db, {"(" + white_shown + " – " + black_shown + ")"}},
  };
  for (const auto& c : cases) {
    INFO(c.args);
    Run r = run_qipu(c.args);
    CHECK(r.code < 2);
    CHECK(!raw_control(r.out + r.err));
    for (const auto& s : c.shown) CHECK(contains(r.out + r.err, s));
  }
  // Data formats keep the bytes: PGN as it was, JSON with its own escapes.
  CHECK(contains(run_qipu("export" + db).out, "[White \"" + white + "\"]"));
  CHECK(contains(run_qipu("search" + db + " --format json").out, "Evil\\u001b]0;pwned\\u0007"));
}

TEST_CASE("outputs: CSV cells a spreadsheet would run as formulas are neutralised", "[outputs]") {
  Fixture f;
  const std::string pgn = f.path("csv.pgn");
  std::ofstream(pgn, std::ios::binary)
      << "[Event \"-2+3\"]\n[Site \"@SUM(A1)\"]\n[Date \"1990.01.02\"]\n[Round \"-1\"]\n"
      << "[White \"=HYPERLINK(\\\"http://x\\\")\"]\n[Black \"+44 20 7946\"]\n[Result \"1-0\"]\n"
      << "[WhiteElo \"2500\"]\n[BlackElo \"-\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
  const std::string db = f.path("csv.db");
  REQUIRE(run_qipu("import --db " + q(db) + " " + q(pgn)).code == 0);
  Run r = run_qipu("search --db " + q(db) + " --format csv");
  REQUIRE(r.code == 0);
  auto lines = lines_of(r.out);
  REQUIRE(lines.size() == 2);
  // id,white,black,result,date,event,site,round,white_elo,black_elo,eco,opening,variation,plies,moves
  CHECK(lines[1].rfind("1,\"'=HYPERLINK(\"\"http://x\"\")\",'+44 20 7946,1-0,1990.01.02,'-2+3,'@SUM(A1),-1,2500,'-,",
                       0) == 0);
}

}  // namespace test_outputs
