// The database as untrusted input, and answers that must not be silently wrong: position
// queries over games stored without the position index, duplicates that agree with
// export, damaged and random game blobs, read-only databases, --db naming what is not a
// file, and a search racing the import that creates the database (issue 14).
#include <catch2/catch.hpp>

#include <sys/mount.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <random>
#include <set>

#include "cli_util.hpp"
#include "qipu/db/codec.hpp"
#include "qipu/db/store.hpp"

// One namespace a file: the test files compile several to a unit (CMakeLists.txt).
namespace test_db_trust {

using namespace cli_test;

namespace {

std::string quoted(const fs::path& p) { return "'" + p.string() + "'"; }

Run qipu_ok(const std::string& args) {
  Run r = run_qipu(args);
  INFO("qipu " << args << "\n" << r.err);
  REQUIRE(r.code == 0);
  return r;
}

// A FEN without its two clocks: positions reached by other move orders compare equal.
std::string position_part(const std::string& fen) {
  std::size_t at = fen.size();
  for (int spaces = 0; spaces < 2 && at != std::string::npos; ++spaces) at = fen.rfind(' ', at - 1);
  return at == std::string::npos ? fen : fen.substr(0, at);
}

// Each game's positions after each move, from `qipu convert --to fen` (one FEN a ply, a
// blank line after each game): the independent answer to position queries.
std::vector<std::vector<std::string>> fen_lists(const fs::path& pgn) {
  std::vector<std::vector<std::string>> games(1);
  for (const auto& line : lines_of(qipu_ok("convert --to fen " + quoted(pgn)).out)) {
    if (line.empty())
      games.emplace_back();
    else
      games.back().push_back(position_part(line));
  }
  if (games.back().empty()) games.pop_back();
  return games;
}

std::vector<std::string> fens_of_moves(const std::string& moves) {
  std::vector<std::string> out;
  for (const auto& line : lines_of(qipu_ok("convert --to fen --moves '" + moves + "'").out))
    out.push_back(position_part(line));
  return out;
}

// Games reaching the position after `moves` at any ply, or (exact) beginning with them.
std::size_t games_reaching(const std::vector<std::vector<std::string>>& games, const std::string& moves, bool exact) {
  auto want = fens_of_moves(moves);
  std::size_t n = 0;
  for (const auto& g : games) {
    if (exact)
      n += g.size() >= want.size() && std::equal(want.begin(), want.end(), g.begin());
    else
      n += std::find(g.begin(), g.end(), want.back()) != g.end();
  }
  return n;
}

std::string count_of(const fs::path& db, const std::string& query, std::string* err = nullptr) {
  Run r = qipu_ok("search --db " + quoted(db) + " " + query + " --count");
  if (err) *err = r.err;
  return r.out;
}

}  // namespace

TEST_CASE("dbtrust: position queries over games without the position index answer as replaying them does",
          "[dbtrust]") {
  fs::path dir = temp_dir("dbtrust-index");
  // 150 games of 1886-1910 and 150 of 1993-2010: each opening below occurs in them (all
  // four in the later ones), and the early ones alone hold the filter's 1-0 before 1900.
  // The whole sample (1,042 games) took the same paths at three times the cost.
  fs::path bird = write_sample_games(dir / "early.pgn", 0, 150), fine = write_sample_games(dir / "late.pgn", 800, 150);
  fs::path indexed = dir / "indexed.db", unindexed = dir / "unindexed.db", mixed = dir / "mixed.db";
  std::string both = quoted(bird) + " " + quoted(fine);
  qipu_ok("import --db " + quoted(indexed) + " " + both);
  qipu_ok("import --no-position-index --db " + quoted(unindexed) + " " + both);
  qipu_ok("import --db " + quoted(mixed) + " " + quoted(bird));
  qipu_ok("import --no-position-index --db " + quoted(mixed) + " " + quoted(fine));
  std::string stored = count_of(indexed, "");
  REQUIRE(count_of(unindexed, "") == stored);
  REQUIRE(count_of(mixed, "") == stored);

  auto games = fen_lists(bird);
  auto more = fen_lists(fine);
  games.insert(games.end(), more.begin(), more.end());
  const std::vector<std::string> lines = {"1.e4 e5", "1.d4 Nf6 2.c4", "1.e4 c5 2.Nf3 d6", "1.Nf3 d5 2.d4"};
  for (const auto& moves : lines) {
    INFO(moves);
    std::string any = std::to_string(games_reaching(games, moves, false)) + "\n";
    std::string exact = std::to_string(games_reaching(games, moves, true)) + "\n";
    std::string fen = fens_of_moves(moves).back() + " 0 1";
    for (const auto& db : {indexed, unindexed, mixed}) {
      INFO(db);
      CHECK(count_of(db, "--moves '" + moves + "' --transpose") == any);
      CHECK(count_of(db, "--fen '" + fen + "'") == any);
      CHECK(count_of(db, "--moves '" + moves + "'") == exact);
    }
    // The explorer's whole answer, top games included (ids are the same in the three).
    std::string explored = qipu_ok("explore --format json --db " + quoted(indexed) + " --moves '" + moves + "'").out;
    CHECK(contains(explored, "\"games\": " + any.substr(0, any.size() - 1) + ","));
    CHECK(qipu_ok("explore --format json --db " + quoted(unindexed) + " --moves '" + moves + "'").out == explored);
    CHECK(qipu_ok("explore --format json --db " + quoted(mixed) + " --moves '" + moves + "'").out == explored);
    // Filters apply to replayed games as to indexed ones.
    std::string filtered = count_of(indexed, "--fen '" + fen + "' --result 1-0 --date-to 1900");
    CHECK(count_of(unindexed, "--fen '" + fen + "' --result 1-0 --date-to 1900") == filtered);
    CHECK(count_of(mixed, "--fen '" + fen + "' --result 1-0 --date-to 1900") == filtered);
  }
  // The listing, not only the count, and a note naming how many games were replayed.
  std::string err;
  std::string listed = qipu_ok("search --db " + quoted(indexed) + " --moves '1.e4 e5' --transpose --limit 0").out;
  Run r = qipu_ok("search --db " + quoted(mixed) + " --moves '1.e4 e5' --transpose --limit 0");
  CHECK(r.out == listed);
  // A listing (a count of an opening position comes from the explorer's aggregate, without replaying).
  err = qipu_ok("search --db " + quoted(unindexed) + " --fen '" + fens_of_moves("1.e4").back() + " 0 1' --limit 0").err;
  CHECK(contains(
      err, "note: " + stored.substr(0, stored.size() - 1) + " games stored without the position index were replayed"));
  CHECK(contains(err, "qipu import --db NEW.db"));
  CHECK(contains(r.err,
                 "note: " + std::to_string(more.size()) + " games stored without the position index were replayed"));
  count_of(indexed, "--moves '1.e4'", &err);
  CHECK(err.empty());  // nothing replayed: no note

  // A database made before the unindexed table: the games without index entries are
  // found from the index itself, and the next import records them in the table.
  const std::string ranges = "SELECT group_concat(first_game || '-' || last_game) FROM unindexed";
  auto read = [&](const fs::path& db, const std::string& sql) {
    qipu::db::Connection c(db.string(), qipu::db::Connection::Mode::ReadOnly);
    auto st = c.prepare(sql);
    return st.step() ? std::string(st.text(0)) : std::string();
  };
  const std::string mixed_ranges = read(mixed, ranges);
  CHECK(mixed_ranges == std::to_string(games.size() - more.size() + 1) + "-" + std::to_string(games.size()));
  for (const auto& [db, copy] : {std::pair{mixed, dir / "old-mixed.db"}, std::pair{indexed, dir / "old-indexed.db"}}) {
    fs::copy_file(db, copy);
    qipu::db::Connection(copy.string(), qipu::db::Connection::Mode::ReadWrite).exec("DROP TABLE unindexed");
    std::string any = std::to_string(games_reaching(games, "1.e4 e5", false)) + "\n";
    CHECK(count_of(copy, "--moves '1.e4 e5' --transpose") == any);
    qipu_ok("import --db " + quoted(copy) + " /dev/null");
    CHECK(read(copy, ranges) == read(db, ranges));
  }
  fs::remove_all(dir);
}

TEST_CASE("dbtrust: a missing roster tag and the tag holding its default are one game", "[dbtrust]") {
  fs::path dir = temp_dir("dbtrust-dup");
  fs::path pgn = dir / "pairs.pgn", db = dir / "pairs.db", again = dir / "again.db", out = dir / "out.pgn";
  // Each pair: the same game without a roster tag and with the roster's default for it.
  std::ofstream(pgn)
      << "[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n"
         "[White \"?\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n"
         "[White \"W\"]\n\n1. d4 d5 *\n\n"
         "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"W\"]\n[Black \"?\"]\n"
         "[Result \"*\"]\n\n1. d4 d5 *\n\n"
         "[White \"W\"]\n\n1. c4 c5 1/2-1/2\n\n"
         "[White \"W\"]\n[Result \"1/2-1/2\"]\n\n1. c4 c5 1/2-1/2\n\n"
         "[White \"Other\"]\n\n1. c4 c5 1/2-1/2\n\n";  // not a duplicate: another player
  Run first = qipu_ok("import --db " + quoted(db) + " " + quoted(pgn));
  CHECK(contains(first.out, "imported 4 games"));
  CHECK(contains(first.out, "3 duplicates skipped"));
  CHECK(count_of(db, "") == "4\n");
  qipu_ok("export --db " + quoted(db) + " -o " + quoted(out));
  qipu_ok("import --db " + quoted(again) + " " + quoted(out));
  CHECK(count_of(again, "") == "4\n");
  // Importing the export into the first database finds every game there.
  CHECK(contains(qipu_ok("import --db " + quoted(db) + " " + quoted(out)).out, "imported 0 games"));
  fs::remove_all(dir);
}

namespace {

// Writes `blob` into column `column` (moves or notes) of game `id`, as a damaged or
// crafted file would hold it.
void set_blob(const fs::path& db, std::int64_t id, const char* column, const std::string& blob) {
  auto c = qipu::db::open_database(db.string(), qipu::db::Connection::Mode::ReadWrite);
  c->prepare(std::string("UPDATE game SET ") + column + " = ? WHERE id = ?")
      .bind_blob(1, blob.data(), blob.size())
      .bind(2, id)
      .run();
}

std::string get_blob(const fs::path& db, std::int64_t id, const char* column) {
  auto c = qipu::db::open_database(db.string(), qipu::db::Connection::Mode::ReadOnly);
  auto st = c->prepare(std::string("SELECT ") + column + " FROM game WHERE id = ?");
  st.bind(1, id);
  REQUIRE(st.step());
  return std::string(st.blob(0));
}

// A notes blob whose first move carries a variation that carries a variation … `depth`
// deep, each of one move (the mainline's first move, rank `symbol`), in the codec's
// layout: final comments, then per line the count of annotated moves, and per move its
// index, comments, NAGs and variations (moves blob, then that line's notes).
std::string nested_notes(int depth, unsigned char symbol) {
  using qipu::db::put_varint;
  std::string moves = qipu::db::pack_symbols(std::string(1, char(symbol)));
  std::string inner;
  put_varint(inner, 0);  // the innermost line has no notes
  for (int i = 0; i < depth; ++i) {
    std::string node;
    put_varint(node, 1);  // one annotated move
    put_varint(node, 0);  // the first
    put_varint(node, 0);  // no comments before
    put_varint(node, 0);  // nor after
    put_varint(node, 0);  // no NAGs
    put_varint(node, 1);  // one variation
    put_varint(node, moves.size());
    node += moves;
    inner = node + inner;
  }
  std::string blob;
  put_varint(blob, 0);  // no final comments
  return blob + inner;
}

// Three stored games, the second annotated, in `dir`/three.db.
fs::path three_games(const fs::path& dir) {
  fs::path pgn = dir / "three.pgn", db = dir / "three.db";
  std::ofstream(pgn) << "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Nf3 *\n\n"
                        "[White \"C\"]\n[Black \"D\"]\n\n1. d4 {a comment} (1. c4 c5 (1... e5)) 1... d5 $1 *\n\n"
                        "[White \"E\"]\n[Black \"F\"]\n\n1. c4 e5 *\n\n";
  qipu_ok("import --db " + quoted(db) + " " + quoted(pgn));
  return db;
}

}  // namespace

TEST_CASE("dbtrust: notes nested 20,000 deep are a damaged game, not a crash", "[dbtrust][hostile]") {
  fs::path dir = temp_dir("dbtrust-deep");
  fs::path db = three_games(dir), out = dir / "rest.pgn";
  set_blob(db, 2, "notes", nested_notes(20000, 0));
  const std::string damaged = "game 2 is damaged (notes: variations nested deeper than 1000)";
  Run exported = run_qipu("export --db " + quoted(db));
  INFO(exported.err);
  CHECK(exported.code == 2);
  CHECK(contains(exported.err, "qipu export: " + damaged));
  Run searched = run_qipu("search --db " + quoted(db) + " --format pgn");
  CHECK(searched.code == 2);
  CHECK(contains(searched.err, "qipu search: " + damaged));
  // With --skip-damaged the others are written, and the damaged one is named.
  Run rest = run_qipu("export --skip-damaged --db " + quoted(db) + " -o " + quoted(out));
  CHECK(rest.code == 1);
  CHECK(contains(rest.err, "qipu export: skipped game 2: it is damaged (notes: variations nested deeper than 1000)"));
  std::string text = slurp(out.string());
  CHECK(contains(text, "[White \"A\"]"));
  CHECK(contains(text, "[White \"E\"]"));
  CHECK_FALSE(contains(text, "[White \"C\"]"));
  // 1,000 levels, as deep as the PGN reader reads, still decode.
  set_blob(db, 2, "notes", nested_notes(1000, 0));
  Run deep = run_qipu("export --db " + quoted(db));
  CHECK(deep.code == 0);
  CHECK(contains(deep.out, "[White \"C\"]"));
  // A moves blob that claims more moves than any stored game may hold.
  std::string huge;
  qipu::db::put_varint(huge, std::uint64_t(qipu::db::MaxStoredPlies) + 1);
  huge += std::string((qipu::db::MaxStoredPlies + 8) / 8 + 1, '\0');  // bits enough for the count check
  set_blob(db, 3, "moves", huge);
  Run claimed = run_qipu("export --db " + quoted(db));
  CHECK(claimed.code == 2);
  CHECK(contains(claimed.err, "qipu export: game 3 is damaged (moves:"));
  if (rss_is_meaningful) CHECK(claimed.peak_rss_kb < 200 * 1024);
  // Notes of more empty comments than a game can hold: a byte each in the blob, 32 in
  // memory (about 700 MB for these), refused before they are made.
  std::string comments;
  qipu::db::put_varint(comments, std::uint64_t(qipu::db::MaxStoredPlies) + 1);
  comments += std::string(qipu::db::MaxStoredPlies + 1, '\0');
  set_blob(db, 1, "notes", comments);
  Run many = run_qipu("export --skip-damaged --db " + quoted(db));
  CHECK(many.code == 1);
  CHECK(contains(many.err, "skipped game 1: it is damaged (notes: more than " +
                               std::to_string(qipu::db::MaxStoredPlies) + " comments, variations and moves in all)"));
  if (rss_is_meaningful) CHECK(many.peak_rss_kb < 200 * 1024);
  fs::remove_all(dir);
}

TEST_CASE("dbtrust: random bytes in stored moves and notes never crash a reader", "[dbtrust][hostile]") {
  fs::path dir = temp_dir("dbtrust-fuzz");
  fs::path pristine = three_games(dir), db = dir / "fuzz.db";
  std::vector<std::string> moves, notes;
  for (std::int64_t id = 1; id <= 3; ++id) {
    moves.push_back(get_blob(pristine, id, "moves"));
    notes.push_back(get_blob(pristine, id, "notes"));
  }
  std::mt19937 rng(14);
  auto random_bytes = [&](std::size_t n) {
    std::string s(n, '\0');
    for (auto& c : s) c = char(rng());
    return s;
  };
  // Half the blobs are random, half are the real ones with a few bits flipped or cut short.
  auto mutate = [&](std::string s) {
    if (s.empty() || rng() % 2) return random_bytes(rng() % 64);
    for (int flips = 1 + int(rng() % 3); flips > 0; --flips) s[rng() % s.size()] ^= char(1u << (rng() % 8));
    if (rng() % 4 == 0) s.resize(rng() % s.size());
    return s;
  };
  const std::vector<std::string> readers = {
      "export",
      "export --skip-damaged",
      "search --format pgn",
      "search --moves '1.e4' --transpose --format csv",
      "explore --moves '1.d4'",
      "search --fen 'rnbqkbnr/pppppppp/8/8/2P5/8/PP1PPPPP/RNBQKBNR b KQkq - 0 1'"};
  std::set<int> codes;
  for (int round = 0; round < rounds_for_build(40); ++round) {
    fs::copy_file(pristine, db, fs::copy_options::overwrite_existing);
    for (std::int64_t id = 1; id <= 3; ++id) {
      set_blob(db, id, "moves", mutate(moves[std::size_t(id - 1)]));
      set_blob(db, id, "notes", mutate(notes[std::size_t(id - 1)]));
    }
    for (const auto& reader : readers) {
      Run r = run_qipu(reader + " --db " + quoted(db));
      INFO("round " << round << ": qipu " << reader << "\n" << r.err);
      CHECK((r.code == 0 || r.code == 1 || r.code == 2));  // 128 + a signal number otherwise
      codes.insert(r.code);
    }
  }
  CHECK(codes.count(2) == 1);  // the damage was seen
  fs::remove_all(dir);
}

namespace {

// What the read commands answer about a database, for comparing two copies of it.
std::vector<std::string> answers(const fs::path& db, std::vector<std::string>* errors = nullptr) {
  const std::vector<std::string> commands = {"search --count",
                                             "search --moves '1.e4 e5' --transpose --limit 0",
                                             "explore --format json --moves '1.d4'",
                                             "export",
                                             "rejects",
                                             "stats"};
  std::vector<std::string> out;
  for (const auto& c : commands) {
    Run r = run_qipu(c + " --db " + quoted(db));
    out.push_back(std::to_string(r.code) + "\n" + r.out);
    if (errors) errors->push_back(r.err);
  }
  return out;
}

std::vector<std::string> files_in(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

struct Unmount {
  fs::path p;
  ~Unmount() { umount2(p.c_str(), MNT_DETACH); }
};

// Checks that the read-only copy in `ro` answers as `db` does and gains no file.
void check_read_only_copy(const fs::path& db, const fs::path& ro) {
  auto before = files_in(ro.parent_path());
  std::vector<std::string> errors;
  auto got = answers(ro, &errors);
  auto want = answers(db);
  for (std::size_t i = 0; i < want.size(); ++i) {
    INFO(errors[i]);
    CHECK(got[i] == want[i]);
  }
  CHECK(files_in(ro.parent_path()) == before);  // no -wal, no -shm
}

}  // namespace

TEST_CASE("dbtrust: a read-only database is read without making -wal or -shm files", "[dbtrust]") {
  fs::path dir = temp_dir("dbtrust-ro");
  fs::path pgn = write_sample_games(dir / "games.pgn", 0, 150), db = dir / "games.db";  // 500 before: no other path
  std::ofstream(pgn, std::ios::app) << "\n[White \"X\"]\n\n1. e4 e5 2. Ke3 *\n";        // a reject, for `rejects`
  Run imported = run_qipu("import --db " + quoted(db) + " " + quoted(pgn));
  REQUIRE(imported.code == 1);
  REQUIRE(answers(db)[0] != "0\n0\n");

  SECTION("a file no one may write, in a folder that may be written") {
    fs::path ro_dir = dir / "file-ro", ro = ro_dir / "games.db";
    fs::create_directories(ro_dir);
    fs::copy_file(db, ro);
    fs::permissions(ro, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
    check_read_only_copy(db, ro);
  }
  SECTION("a read-only folder or file system") {
    fs::path ro_dir = dir / "mnt", ro = ro_dir / "games.db";
    fs::create_directories(ro_dir);
    // Root ignores permissions: a read-only mount then (CI runs as root), else chmod.
    if (geteuid() == 0) {
      REQUIRE(mount("tmpfs", ro_dir.c_str(), "tmpfs", 0, "size=16m") == 0);
      Unmount unmount{ro_dir};
      fs::copy_file(db, ro);
      REQUIRE(mount("tmpfs", ro_dir.c_str(), "tmpfs", MS_REMOUNT | MS_RDONLY, "size=16m") == 0);
      check_read_only_copy(db, ro);
    } else {
      fs::copy_file(db, ro);
      fs::permissions(ro, fs::perms::owner_read);
      fs::permissions(ro_dir, fs::perms::owner_read | fs::perms::owner_exec);
      check_read_only_copy(db, ro);
      fs::permissions(ro_dir, fs::perms::owner_all);
    }
  }
  fs::remove_all(dir);
}

TEST_CASE("dbtrust: --db naming a FIFO, a directory or a device is refused at once", "[dbtrust][hostile]") {
  fs::path dir = temp_dir("dbtrust-notfile");
  fs::path fifo = dir / "fifo";
  REQUIRE(mkfifo(fifo.c_str(), 0644) == 0);
  const std::vector<std::pair<fs::path, std::string>> paths = {
      {fifo, "a FIFO"}, {dir, "a directory"}, {"/dev/null", "a character device"}};
  for (const auto& [path, what] : paths) {
    for (std::string command : {"search", "explore", "export", "rejects", "stats"}) {
      std::string args = command == "explore" ? " --moves '1.e4'" : "";
      // A FIFO used to hang every read: a short guard here, not the suite's 600 s.
      Run r = shell("timeout 20 \"" QIPU_BINARY "\" " + command + args + " --db " + quoted(path));
      INFO(command << " " << path << "\n" << r.err);
      CHECK(r.code == 2);
      CHECK(contains(r.err, "qipu " + command + ": --db " + path.string() + ": not a regular file (" + what + ")"));
    }
  }
  fs::remove_all(dir);
}

TEST_CASE("dbtrust: a negative or unknown schema version is refused", "[dbtrust][hostile]") {
  fs::path dir = temp_dir("dbtrust-version");
  fs::path db = three_games(dir);
  for (int version : {-1, -2147483647}) {
    qipu::db::Connection(db.string(), qipu::db::Connection::Mode::ReadWrite)
        .exec("PRAGMA user_version = " + std::to_string(version));
    for (std::string command : {"search --count", "export", "import /dev/null"}) {
      Run r = run_qipu(command + " --db " + quoted(db));
      INFO(command);
      CHECK(r.code == 2);
      CHECK(contains(r.err, db.string() + " has an unknown schema version (" + std::to_string(version) + ")"));
    }
  }
  fs::remove_all(dir);
}

TEST_CASE("dbtrust: a search while an import creates the database never calls it another program's", "[dbtrust]") {
  fs::path dir = temp_dir("dbtrust-race");
  fs::path pgn = write_sample_games(dir / "games.pgn", 0, 200);
  const std::string q = hang_guard + "\"" QIPU_BINARY "\" ";
  for (int round = 0; round < rounds_for_build(40); ++round) {
    fs::path db = dir / ("race" + std::to_string(round) + ".db");
    // The searches start as the import does, and again a moment later.
    Run r = shell(q + "import --db " + quoted(db) + " " + quoted(pgn) + " >/dev/null & " + q + "search --count --db " +
                  quoted(db) + "; " + q + "search --count --db " + quoted(db) + "; sleep 0.0" +
                  std::to_string(round % 10) + "; " + q + "search --count --db " + quoted(db) + "; wait");
    INFO("round " << round << "\n" << r.out << r.err);
    CHECK_FALSE(contains(r.err, "another program"));
    CHECK_FALSE(contains(r.err, "is empty"));
    for (const auto& line : lines_of(r.err))
      CHECK((contains(line, "no database at") || contains(line, "is being created")));
  }
  fs::remove_all(dir);
}

}  // namespace test_db_trust
