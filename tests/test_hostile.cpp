// Hostile inputs through the qipu program: each ends with a clear message and exit 1
// or 2 (a legal game of 100,000 moves must simply pass), in bounded memory, with a
// generous timeout against hangs. Expected lines and columns are worked out from how
// each input is built. tests/HOSTILE.md lists the measured outcomes.
#include <catch2/catch.hpp>

#include <sys/mount.h>
#include <zlib.h>
#include <zstd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>

#include "cli_util.hpp"
#include "qipu/db/store.hpp"
#include "qipu/game/writer.hpp"
#include "qipu/pgn/reader.hpp"

// One namespace a file: the test files compile several to a unit (CMakeLists.txt).
namespace test_hostile {

using namespace cli_test;

namespace {

constexpr long MaxRssKb = 200 * 1024;
// Streams of gigabytes take minutes under AddressSanitizer; there a few hundred MB,
// still past the 64 MB game limit, test the same code.
constexpr std::uint64_t StreamBytes = rss_is_meaningful ? 1u << 30 : 256u << 20;
constexpr int BombMembers = rss_is_meaningful ? 192 : 16;  // of 16 MiB each

// Appends "name | exit | first line | peak RSS | time" to $QIPU_HOSTILE_REPORT, the
// source of the table in tests/HOSTILE.md.
void note(const std::string& name, const Run& r) {
  const char* file = std::getenv("QIPU_HOSTILE_REPORT");
  if (!file) return;
  auto lines = lines_of(r.out + r.err);
  std::ofstream(file, std::ios::app) << name << " | " << r.code << " | "
                                     << (lines.empty() ? "" : lines.front().substr(0, 160)) << " | "
                                     << r.peak_rss_kb / 1024 << " MB | " << r.seconds << " s\n";
}

// Runs `qipu check` on a file made of `text`.
Run check_text(const std::string& name, const std::string& text) {
  fs::path f = temp_dir("hostile") / (name + ".pgn");
  std::ofstream(f, std::ios::binary) << text;
  Run r = run_qipu("check " + f.string());
  fs::remove_all(f.parent_path());
  note(name, r);
  return r;
}

// What every refused input must show: exit 1 or 2, `message` on stdout or stderr,
// no line longer than 1000 bytes (no huge token echoed), bounded memory.
void expect_refused(const Run& r, const std::string& message) {
  INFO(r.out.substr(0, 2000) << r.err.substr(0, 2000));
  CHECK((r.code == 1 || r.code == 2));
  CHECK(contains(r.out + r.err, message));
  for (const auto& l : lines_of(r.out + r.err)) CHECK(l.size() < 1000);
  if (rss_is_meaningful) CHECK(r.peak_rss_kb < MaxRssKb);
}

std::string repeat(std::string_view s, std::size_t n) {
  std::string out;
  out.reserve(s.size() * n);
  for (std::size_t i = 0; i < n; ++i) out += s;
  return out;
}

// One gzip member holding `plain`, compressed in a single call.
std::string gzip_member(const std::string& plain) {
  z_stream z{};
  REQUIRE(deflateInit2(&z, Z_BEST_SPEED, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK);
  std::string out(deflateBound(&z, uLong(plain.size())), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(plain.data()));
  z.avail_in = uInt(plain.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = uInt(out.size());
  REQUIRE(deflate(&z, Z_FINISH) == Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

std::string zstd_frame(const std::string& plain) {
  std::string out(ZSTD_compressBound(plain.size()), '\0');
  std::size_t n = ZSTD_compress(out.data(), out.size(), plain.data(), plain.size(), 3);
  REQUIRE_FALSE(ZSTD_isError(n));
  out.resize(n);
  return out;
}

// A bomb: `count` copies of one member, each expanding to 16 MiB of NUL bytes; gzip
// members and zstd frames may follow one another, and readers must take them all.
fs::path write_bomb(const std::string& name, std::string (*compress)(const std::string&), int count) {
  fs::path f = temp_dir("hostile") / name;
  std::string member = compress(std::string(16u << 20, '\0'));
  std::ofstream out(f, std::ios::binary);
  for (int i = 0; i < count; ++i) out << member;
  return f;
}

// The knights' shuffle 1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 … for `moves` full moves.
std::string knight_shuffle(int moves) {
  static const char* const pairs[] = {"Nf3 Nf6", "Ng1 Ng8"};
  std::string s = "[Event \"Shuffle\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n";
  for (int m = 1; m <= moves; ++m) s += std::to_string(m) + ". " + pairs[(m - 1) % 2] + (m % 8 ? " " : "\n");
  return s + "*\n";
}

}  // namespace

TEST_CASE("hostile: a 50 MB file with no newline (10 MB under the sanitizers)", "[hostile]") {
  // The 50 MB token starts at column 10, after "1. e4 e5 ". Under the sanitizers, which
  // need no 50 MB to find a memory error, 10 MB (4.5 s there for 50).
  Run r = check_text("no_newline", "1. e4 e5 " + repeat("abcdefgh", (sanitized ? 10u : 50u) << 17));
  expect_refused(r, ":1:10: error: game 1 (? – ?), move 2. abcdefgh");
  CHECK(contains(r.out, "unknown move token"));
  CHECK(contains(r.out, "1 games, 0 valid, 1 invalid"));
}

TEST_CASE("hostile: a 10 MB tag value", "[hostile]") {
  Run r = check_text("tag_10mb", "[Event \"" + std::string(10u << 20, 'v') + "\"]\n[White \"A\"]\n\n1. e4 *\n");
  expect_refused(r, ":1:1: error: game 1 (A – ?): tag Event has a value of 10485760 bytes: expected at most 65536");
  CHECK(r.code == 1);
}

TEST_CASE("hostile: 100,000 nested variations and 100,000 unclosed comments", "[hostile]") {
  const std::string head = "[Event \"x\"]\n\n1. e4 ";  // the first ( or { is at 3:7
  // The 1001st '(' is the first past the depth limit: column 7 + 1000.
  Run deep = check_text("nested_paren", head + std::string(100000, '(') + " *\n");
  expect_refused(deep, ":3:1007: error: game 1 (? – ?): variations nested deeper than 1000");
  Run open = check_text("unclosed_brace", head + std::string(100000, '{') + "\n");
  expect_refused(open, ":3:");
  CHECK(contains(open.out, "unterminated comment: expected '}'"));
  CHECK(contains(open.out, "1 games, 0 valid, 1 invalid"));
}

TEST_CASE("hostile: 1 GB of spaces through standard input, then a game", "[hostile]") {
  // Blank space before a game belongs to no game and must not count against the
  // 64 MB game limit; the illegal move 2. Ke3 is found at 4:13 after it.
  Run r = shell("{ head -c " + std::to_string(StreamBytes) +
                R"( /dev/zero | tr '\0' ' '; printf '\n[Event "x"]\n\n1. e4 e5 2. Ke3 *\n'; } | )" + hang_guard +
                "\"" QIPU_BINARY "\" check -");
  note("stdin_1gb_spaces", r);
  expect_refused(r, "-:4:13: error: game 1 (? – ?), move 2. Ke3: illegal move");
  CHECK(lines_of(r.out).back() == "1 games, 0 valid, 1 invalid, 0 warnings");
}

TEST_CASE("hostile: blank space past the game limit is not a game (chunker)", "[hostile][pgn]") {
  // 6000 bytes of blank lines before a game, with a 1000-byte game limit.
  auto src = qipu::pgn::memory_source(repeat("  \n", 2000) + "[Event \"x\"]\n1. e4 *\n");
  qipu::pgn::ReaderOptions o;
  o.max_game_bytes = 1000;
  o.block_size = 256;
  qipu::pgn::GameChunker chunker(*src, o);
  qipu::pgn::RawGame g;
  REQUIRE(chunker.next(g));
  CHECK(g.problem.empty());
  CHECK(g.text == "[Event \"x\"]\n1. e4 *\n");
  CHECK(g.byte_offset == 6000);
  CHECK(g.line == 2001);
  CHECK(g.column == 1);
  CHECK_FALSE(chunker.next(g));
}

TEST_CASE("hostile: a legal game of 100,000 moves passes and imports", "[hostile]") {
  fs::path dir = temp_dir("hostile");
  fs::path f = dir / "shuffle.pgn";
  std::ofstream(f, std::ios::binary) << knight_shuffle(100000);
  // Repetitions and the 75-move rule end no game by themselves in PGN: it is valid.
  Run r = run_qipu("check " + f.string());
  note("legal_100000_moves", r);
  CHECK(r.code == 0);
  CHECK(r.out == "1 games, 1 valid, 0 invalid, 0 warnings\n");
  if (rss_is_meaningful) CHECK(r.peak_rss_kb < MaxRssKb);
  // 200,000 plies later the knights are home; nothing was captured or pushed.
  Run fens = run_qipu("convert --to fen " + f.string() + " | tail -n 1");
  CHECK(fens.out == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 200000 100001\n");
  fs::path db = dir / "shuffle.db";
  Run imp = run_qipu("import --db " + db.string() + " " + f.string());
  note("import_100000_moves", imp);
  CHECK(imp.code == 0);
  CHECK(contains(imp.out, "imported 1 games"));
  Run back = run_qipu("export --db " + db.string() + " | tail -n 2");
  CHECK(back.out == "99997. Nf3 Nf6 99998. Ng1 Ng8 99999. Nf3 Nf6 100000. Ng1 Ng8 *\n\n");
  fs::remove_all(dir);
}

TEST_CASE("hostile: overlong UTF-8, surrogates and NUL bytes", "[hostile]") {
  // C0 AF, E0 80 AF and F0 80 80 AF are '/' in overlong forms, ED A0 80 a surrogate:
  // none may decode as UTF-8. The file is then read as Windows-1252, where the
  // token N\xC0\xAFf3 is "NÀ¯f3": no move.
  const std::string overlong = "\xC0\xAF \xE0\x80\xAF \xF0\x80\x80\xAF \xED\xA0\x80";
  Run bad = check_text("overlong_utf8", "[Event \"" + overlong +
                                            "\"]\n\n1. e4 e5 2. N\xC0\xAF"
                                            "f3 *\n");
  expect_refused(bad,
                 ":3:13: error: game 1 (? – ?), move 2. N\xC3\x80\xC2\xAF"
                 "f3: unknown move token");
  CHECK(contains(bad.err, "not valid UTF-8, decoded as windows-1252"));
  // Forced to UTF-8, the bad bytes are read one by one as Windows-1252, never as '/'.
  fs::path f = temp_dir("hostile") / "forced.pgn";
  std::ofstream(f, std::ios::binary) << "[Event \"" + overlong + "\"]\n\n1. e4 *\n";
  Run forced = run_qipu("convert --to json --encoding utf-8 " + f.string());
  CHECK(contains(forced.out, "\"Event\":\"\xC3\x80\xC2\xAF"));  // À¯, not '/'
  CHECK_FALSE(contains(forced.out, "\"Event\":\"/"));
  fs::remove_all(f.parent_path());
  Run nul = check_text("nul_bytes", std::string("[Event \"a\0b\"]\n\n1. e4 \0 e5 *\n", 27));
  expect_refused(nul, ":3:7: error: game 1 (? – ?), move 1... \\x00: unknown move token '\\x00'");
}

TEST_CASE("hostile: a FEN with 9 ranks or 20 kings", "[hostile]") {
  const std::string nine = "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
  const std::string kings = "kkkkkkkk/kk6/8/8/8/8/KK6/KKKKKKKK w - - 0 1";
  for (const auto& [fen, message] :
       {std::pair{nine, std::string("more than 8 ranks")}, std::pair{kings, std::string("White has 10 kings")}}) {
    INFO(fen);
    Run game = check_text("fen", "[Event \"x\"]\n[SetUp \"1\"]\n[FEN \"" + fen + "\"]\n\n1. e4 *\n");
    expect_refused(game, ":1:1: error: game 1 (? – ?): invalid FEN tag: " + message);
    Run perft = run_qipu("perft \"" + fen + "\" 2");
    note("perft " + message, perft);
    expect_refused(perft, "qipu perft: invalid FEN: " + message);
    CHECK(perft.code == 2);
  }
}

TEST_CASE("hostile: .gz and .zst bombs are streamed", "[hostile]") {
  // 3 GiB of NUL bytes each (256 MiB under ASan), far past the 64 MB game limit.
  for (const auto& [name, compress] :
       {std::pair{std::string("bomb.gz"), &gzip_member}, std::pair{std::string("bomb.zst"), &zstd_frame}}) {
    INFO(name);
    fs::path f = write_bomb(name, compress, BombMembers);
    Run r = run_qipu("check " + f.string());
    note(name + " (3 GiB of NUL)", r);
    expect_refused(r, f.string() + ":1:1: error: game 1: game larger than 67108864 bytes; skipped");
    CHECK(lines_of(r.out).back() == "0 games, 0 valid, 0 invalid, 0 warnings");
    fs::remove_all(f.parent_path());
  }
}

TEST_CASE("hostile: a database that is not SQLite, or from a newer qipu", "[hostile][db]") {
  fs::path dir = temp_dir("hostile");
  fs::path pgn = dir / "one.pgn", junk = dir / "junk.db", future = dir / "future.db";
  std::ofstream(pgn) << "[Event \"x\"]\n\n1. e4 e5 *\n";
  std::ofstream(junk) << std::string(4096, 'x');
  Run r = run_qipu("import --db " + junk.string() + " " + pgn.string());
  note("import into a non-SQLite file", r);
  expect_refused(r, "not a qipu database");
  CHECK(r.code == 2);
  REQUIRE(run_qipu("import --db " + future.string() + " " + pgn.string()).code == 0);
  qipu::db::open_database(future.string(), qipu::db::Connection::Mode::ReadWrite)->exec("PRAGMA user_version = 99");
  Run newer = run_qipu("search --db " + future.string() + " --count");
  note("search in a newer schema", newer);
  expect_refused(newer, "newer qipu");
  CHECK(newer.code == 2);
  fs::remove_all(dir);
}

namespace {

// Two real collections (7,056 games, 6,966 distinct), as one file in `dir`.
fs::path two_collections(const fs::path& dir) { return write_pgnmentor(dir / "collections.pgn", {"Adams", "Anand"}); }

// Every stored game as PGN, in storage order; the database must pass integrity_check.
std::vector<std::string> stored_games(const fs::path& db) {
  auto conn = qipu::db::open_database(db.string(), qipu::db::Connection::Mode::ReadOnly);
  auto check = conn->prepare("PRAGMA integrity_check");
  REQUIRE(check.step());
  CHECK(check.text(0) == "ok");
  std::vector<std::string> games;
  qipu::db::for_each_game(*conn, {}, [&](qipu::game::GameRecord& g) {  // throws on a game that does not decode
    games.push_back(qipu::game::write_pgn(g));
    return true;
  });
  return games;
}

// The games a lone import of `pgn` stores.
std::vector<std::string> clean_import(const fs::path& pgn, const fs::path& dir) {
  fs::path db = dir / "clean.db";
  REQUIRE(run_qipu("import --db " + db.string() + " " + pgn.string()).code == 0);
  auto games = stored_games(db);
  REQUIRE(games.size() == 6966);
  return games;
}

}  // namespace

TEST_CASE("hostile: two imports into one database at once", "[hostile][db][corpus]") {
  QIPU_NEEDS_CORPORA("real/pgnmentor");
  fs::path dir = temp_dir("hostile-two");
  fs::path pgn = two_collections(dir), db = dir / "two.db";
  auto clean = clean_import(pgn, dir);
  // Without a lock each import would skip only the games stored when it began.
  const std::string import =
      hang_guard + "\"" QIPU_BINARY "\" import --batch 500 --db " + db.string() + " " + pgn.string();
  Run both = shell(import + " >" + (dir / "a.out").string() + " 2>&1 & a=$!; " + import + " >" +
                   (dir / "b.out").string() + " 2>&1 & b=$!; wait $a; ca=$?; wait $b; echo $ca $?");
  const std::string a = slurp((dir / "a.out").string()), b = slurp((dir / "b.out").string());
  INFO(a << b);
  CHECK(both.out == "0 0\n");
  // One stored every game; the other (which waited, or came second) found them all there.
  CHECK(contains(a + b, "imported 6966 games into " + db.string() + "; 90 duplicates skipped"));
  CHECK(contains(a + b, "imported 0 games into " + db.string() + "; 7056 duplicates skipped"));
  CHECK(stored_games(db) == clean);
  fs::remove_all(dir);
}

TEST_CASE("hostile: an import onto a full disk", "[hostile][db][corpus]") {
  QIPU_NEEDS_CORPORA("real/pgnmentor");
  fs::path dir = temp_dir("hostile-full");
  fs::path pgn = two_collections(dir), mnt = dir / "tmpfs", db = mnt / "full.db";
  auto clean = clean_import(pgn, dir);
  fs::create_directories(mnt);
  // A 3 MB file system: the games need more. Mounting needs root (as in CI).
  if (mount("tmpfs", mnt.c_str(), "tmpfs", 0, "size=3m") != 0) {
    WARN("full-disk test skipped: cannot mount a tmpfs here (" << std::strerror(errno) << ")");
    fs::remove_all(dir);
    return;
  }
  {
    struct Unmount {
      fs::path p;
      ~Unmount() { umount2(p.c_str(), MNT_DETACH); }
    } unmount{mnt};
    Run r = run_qipu("import --batch 500 --db " + db.string() + " " + pgn.string());
    note("import onto a full 3 MB disk", r);
    expect_refused(r, "qipu import: " + db.string() + ": database or disk is full");
    CHECK(r.code == 2);
    // Only whole batches: the first games of a clean import, each one whole.
    auto games = stored_games(db);
    CHECK(games.size() % 500 == 0);
    CHECK(games.size() > 0);
    CHECK(games.size() < clean.size());
    CHECK(std::equal(games.begin(), games.end(), clean.begin()));
  }
  fs::remove_all(dir);
}

// ---- branch reader (issue 14, "Bounded cost on hostile input") ----

namespace {

// A game with an Event tag and `n` more: distinct names (T0, T1, …) or Event again.
std::string many_tags(int n, bool distinct) {
  std::string s = "[Event \"e\"]\n";
  s.reserve(std::size_t(n) * 16 + 64);
  for (int i = 0; i < n; ++i) s += distinct ? "[T" + std::to_string(i) + " \"v\"]\n" : std::string("[Event \"v\"]\n");
  return s + "\n1. e4 *\n";
}

}  // namespace

TEST_CASE("hostile: 320,000 tags (80,000 under the sanitizers), distinct or one name repeated", "[hostile]") {
  // Each name was compared with all before it (duplicate checks, the JSON output), and
  // each of 80,000 duplicate warnings looked the players up through every tag: 80,000
  // tags took 10 s, so 320,000 took minutes. The 120 s limit fails that; now it takes
  // under a second. Under the sanitizers, which look for memory errors, not for the
  // quadratic time the Release run catches, a quarter of them (8 launches: 6.5 s there).
  constexpr int Tags = sanitized ? 80000 : 320000;
  fs::path dir = temp_dir("hostile-tags");
  for (bool distinct : {true, false}) {
    INFO("distinct: " << distinct);
    fs::path f = dir / (distinct ? "distinct.pgn" : "same.pgn"), db = dir / "tags.db";
    std::ofstream(f, std::ios::binary) << many_tags(Tags, distinct);
    auto run = [&](const std::string& name, const std::string& args) {
      Run r = shell("timeout 120 \"" QIPU_BINARY "\" " + args + " " + f.string() + " | tail -c 4000");
      note(std::to_string(Tags) + (distinct ? " distinct tags: " : " copies of one tag: ") + name, r);
      CHECK(r.code == 0);
      if (rss_is_meaningful) CHECK(r.peak_rss_kb < MaxRssKb);
      return r;
    };
    Run check = run("check", "check");
    // Copies: 8 warnings by name, then one for the rest.
    CHECK(contains(check.out, distinct
                                  ? "1 games, 1 valid, 0 invalid, 0 warnings"
                                  : "warning: game 1 (? – ?): " + std::to_string(Tags - 8) + " more duplicate tags"));
    Run json = run("convert --to json", "convert --to json");
    CHECK(contains(json.out, distinct ? "\"T" + std::to_string(Tags - 1) + "\":\"v\"},\"start_fen\""
                                      : "\"tags\":{\"Event\":\"e\"},"));
    run("convert --to en", "convert --to en");
    Run imp = run("import", "import --db " + db.string());
    CHECK(contains(imp.out, "imported 1 games"));
    fs::remove(db);
  }
  fs::remove_all(dir);
}

TEST_CASE("hostile: one 30 MB line of moves past an illegal one", "[hostile]") {
  // 10 million tokens after the illegal 2. e5 each built a node: 1.6 GB. Now at most
  // 10,000 are kept, and the raw text once.
  Run r = check_text("line_30mb", "[Event \"x\"]\n\n1. e4 e5 " + repeat("e5 ", 10'000'000) + "*\n");
  expect_refused(r, ":3:10: error: game 1 (? – ?), move 2. e5: illegal move");
  CHECK(contains(r.out, "the movetext after 10000 tokens not replayed is left out"));
  CHECK(lines_of(r.out).back() == "1 games, 0 valid, 1 invalid, 1 warnings");
}

}  // namespace test_hostile
