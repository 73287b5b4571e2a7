// filter's early stops: a game whose tags fail is not read on, and a game that can no
// longer reach the position (or material, or opening moves) a criterion asks for is not
// replayed further. Each stop must give the games a full replay gives: the answers here
// come from every game replayed whole (its positions' keys, material and moves), and the
// games kept must be written whole.
#include <algorithm>
#include <map>
#include <set>

#include "cli_util.hpp"
#include "qipu/game/criteria.hpp"
#include "qipu/game/pipeline.hpp"
#include "qipu/game/writer.hpp"
#include "qipu/notation/san.hpp"
#include "qipu/pgn/reader.hpp"
#include "../src/notation/fast.hpp"

// One namespace a file: the test files compile several to a unit (CMakeLists.txt).
namespace test_filter_speed {

using namespace cli_test;
using namespace qipu;

namespace {

// The bundled games: real ones, Chinese notation, and the readers' odd samples.
std::vector<std::string> sample_files() {
  std::vector<std::string> files = {QIPU_SOURCE_DIR "/data/world-championships.pgn",
                                    QIPU_SOURCE_DIR "/data/classics.pgn", QIPU_SOURCE_DIR "/data/chinese.pgn",
                                    QIPU_SOURCE_DIR "/data/world-championships-zh.pgn"};
  for (const char* dir : {"/pgn", "/game"})
    for (const auto& e : fs::directory_iterator(std::string(QIPU_TEST_DATA) + dir))
      if (e.path().extension() == ".pgn") files.push_back(e.path().string());
  return files;
}

// A FEN's four fields that make the position (not the move counters).
std::string board_of(const std::string& fen) {
  auto parts = split(fen, ' ');
  return parts[0] + " " + parts[1] + " " + parts[2];
}

// What a full replay finds of one game.
struct Whole {
  std::vector<Key> keys;               // every mainline position, from ply 0
  std::vector<std::string> fens;       // the same positions as FENs
  std::set<std::string> boards;        // and their FENs' board fields (board_of)
  std::vector<std::string> materials;  // and their material signatures
  std::vector<Move> moves;             // the mainline
  bool set_up = false;                 // starts from a FEN tag
  std::string pgn;                     // the game as written
};

// Games in input order over all files, numbered from 0.
std::vector<Whole> replay_whole(const std::vector<std::string>& files) {
  std::vector<Whole> games;
  game::PipelineOptions o;
  o.jobs = 1;
  game::PipelineCallbacks cb;
  cb.game = [&](const game::InputReport&, game::GameRecord& rec) {
    Whole w;
    w.set_up = rec.start_fen.has_value();
    auto note = [&](const Position& p) {
      w.keys.push_back(p.key());
      w.fens.push_back(p.fen());
      w.boards.insert(board_of(w.fens.back()));
      w.materials.push_back(game::material_signature(p));
    };
    note(rec.start_position);
    game::for_each_move(rec.start_position, rec.mainline,
                        [&](const Position&, const game::MoveNode& node, const Position& after) {
                          w.moves.push_back(node.move);
                          note(after);
                        });
    w.pgn = game::write_pgn(rec);
    games.push_back(std::move(w));
  };
  game::run_pipeline(files, o, cb);
  return games;
}

struct Pruned {
  std::set<std::size_t> matched;  // game numbers
  std::map<std::size_t, std::string> written;
  std::size_t stopped = 0;  // games not replayed to their end
};

// The games the criteria match, the replay watched as filter watches it.
Pruned run_watched(const std::vector<std::string>& files, const game::Criteria& c, const std::vector<Whole>& whole) {
  REQUIRE_FALSE(game::check_criteria(c));
  game::Matcher m(c);
  REQUIRE(m.watches());
  game::PipelineOptions o;
  o.jobs = 1;
  o.replay.watch = [&](const game::GameRecord& rec, const Position& now) { return m.watch(rec, now); };
  Pruned p;
  std::size_t n = 0;
  game::PipelineCallbacks cb;
  cb.game = [&](const game::InputReport&, game::GameRecord& rec) {
    std::size_t i = n++;
    REQUIRE(i < whole.size());
    p.stopped += rec.plies() < int(whole[i].moves.size());
    if (!m.matches(rec)) return;
    p.matched.insert(i);
    p.written[i] = game::write_pgn(rec);
  };
  game::run_pipeline(files, o, cb);
  REQUIRE(n == whole.size());
  return p;
}

template <class F>
std::set<std::size_t> games_where(const std::vector<Whole>& whole, F&& f) {
  std::set<std::size_t> out;
  for (std::size_t i = 0; i < whole.size(); ++i)
    if (f(whole[i])) out.insert(i);
  return out;
}

// The watched run for `c` finds exactly `expected`, and writes each of them whole;
// returns how many games it stopped early.
std::size_t same_as_whole(const std::vector<std::string>& files, const game::Criteria& c,
                          const std::set<std::size_t>& expected, const std::vector<Whole>& whole) {
  Pruned p = run_watched(files, c, whole);
  CHECK(p.matched == expected);
  for (const auto& [i, text] : p.written) CHECK(text == whole[i].pgn);
  return p.stopped;
}

template <class V, class T>
bool holds(const V& values, const T& x) {
  return std::find(values.begin(), values.end(), x) != values.end();
}

}  // namespace

TEST_CASE("filter speed: --fen stops early and finds what a full replay finds", "[filter]") {
  auto files = sample_files();
  auto whole = replay_whole(files);
  REQUIRE(whole.size() > 1000);
  std::vector<std::string> targets;
  for (std::size_t i = 0; i < whole.size(); i += 97)
    for (std::size_t ply : {10, 20, 40})
      if (ply < whole[i].fens.size()) targets.push_back(whole[i].fens[ply]);
  // Never reached: the same boards with the other side to move, and a position with a
  // castling right the games had lost by then.
  targets.push_back("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
  targets.push_back("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
  for (std::size_t i = 0; i < whole.size(); i += 211)
    if (whole[i].fens.size() > 20) {
      auto f = split(whole[i].fens[20], ' ');
      f[1] = f[1] == "w" ? "b" : "w";
      f[3] = "-";
      targets.push_back(f[0] + " " + f[1] + " " + f[2] + " - 0 11");
    }
  REQUIRE(targets.size() > 30);
  std::size_t stopped = 0;
  for (const auto& fen : targets) {
    INFO(fen);
    game::Criteria c;
    c.fen = fen;
    Position target = Position::from_fen(fen).value();
    auto expected = games_where(whole, [&](const Whole& w) { return holds(w.keys, target.key()); });
    stopped += same_as_whole(files, c, expected, whole);
    // The FENs agree with the keys: an independent look at the same answer.
    CHECK(expected == games_where(whole, [&](const Whole& w) { return w.boards.count(board_of(target.fen())) > 0; }));
  }
  // The point of it: most games stop long before their end.
  CHECK(stopped > targets.size() * whole.size() / 2);
}

TEST_CASE("filter speed: --moves, with and without --transpose, stops early", "[filter]") {
  auto files = sample_files();
  auto whole = replay_whole(files);
  std::size_t stopped = 0;
  for (std::size_t i = 3; i < whole.size(); i += 151) {
    if (whole[i].set_up || whole[i].moves.size() < 12) continue;
    // The game's first 12 plies as SAN, from its FENs' replay.
    std::string text;
    Position pos = Position::from_fen(whole[i].fens[0]).value();
    for (std::size_t ply = 0; ply < 12; ++ply) {
      if (ply % 2 == 0) text += std::to_string(ply / 2 + 1) + ".";
      text += format_san(pos, whole[i].moves[ply]) + " ";
      pos.play(whole[i].moves[ply]);
    }
    INFO(text);
    for (bool transpose : {false, true}) {
      game::Criteria c;
      c.moves = text;
      c.transpose = transpose;
      auto expected = games_where(whole, [&](const Whole& w) {
        if (transpose) return holds(w.keys, pos.key());
        return !w.set_up && w.moves.size() >= 12 &&
               std::equal(w.moves.begin(), w.moves.begin() + 12, whole[i].moves.begin());
      });
      REQUIRE(expected.count(i));
      stopped += same_as_whole(files, c, expected, whole);
    }
  }
  CHECK(stopped > 0);
}

TEST_CASE("filter speed: --material stops once the material cannot come back", "[filter]") {
  auto files = sample_files();
  auto whole = replay_whole(files);
  std::set<std::string> signatures;
  for (std::size_t i = 0; i < whole.size(); i += 53)
    for (std::size_t ply : {20, 40, 60, 80})
      if (ply < whole[i].materials.size()) signatures.insert(whole[i].materials[ply]);
  signatures.insert("KQQQQvK");  // promotions: reachable in principle, never reached
  signatures.insert("KRRvKNN");
  REQUIRE(signatures.size() > 10);
  std::size_t stopped = 0;
  for (const auto& sig : signatures) {
    INFO(sig);
    game::Criteria c;
    c.material = sig;
    auto expected = games_where(whole, [&](const Whole& w) { return holds(w.materials, sig); });
    stopped += same_as_whole(files, c, expected, whole);
  }
  CHECK(stopped > 0);
}

TEST_CASE("filter speed: a negated position criterion is not cut short", "[filter]") {
  game::Criteria c;
  c.fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
  c.negated.insert("fen");
  CHECK_FALSE(game::Matcher(c).watches());
  c.material = "KRvK";  // the next one not negated watches
  CHECK(game::Matcher(c).watches());
}

TEST_CASE("filter speed: the command writes what a full replay selects", "[filter]") {
  const std::string sample = QIPU_SOURCE_DIR "/data/world-championships.pgn";
  auto whole = replay_whole({sample});
  // Every game as filter writes it with no criteria: one block a game, in input order.
  Run all = run_qipu("filter " + sample);
  REQUIRE(all.code == 0);
  std::vector<std::string> blocks;
  for (std::size_t at = 0; at < all.out.size();) {
    std::size_t next = all.out.find("\n\n[", at);
    next = next == std::string::npos ? all.out.size() : next + 2;
    blocks.push_back(all.out.substr(at, next - at));
    at = next;
  }
  REQUIRE(blocks.size() == whole.size());
  // The position at ply 10 of the first game from the 500th on that shares it with
  // two more: an opening several games reach.
  std::string fen, expected;
  for (std::size_t from = 500; from < whole.size() && fen.empty(); ++from) {
    if (whole[from].keys.size() <= 10) continue;
    Key key = whole[from].keys[10];
    expected.clear();
    int games = 0;
    for (std::size_t i = 0; i < whole.size(); ++i)
      if (holds(whole[i].keys, key)) expected += blocks[i], ++games;
    if (games >= 3) fen = whole[from].fens[10];
  }
  REQUIRE_FALSE(fen.empty());
  for (const char* jobs : {"1", "2"}) {
    Run r = run_qipu(std::string("filter --jobs ") + jobs + " --fen '" + fen + "' " + sample);
    INFO(r.err);
    REQUIRE(r.code == 0);
    CHECK(r.out == expected);
  }
}

// A visitor that skips each game at its first move, and counts what it hears after.
struct SkipAtFirstMove : pgn::Visitor {
  int moves = 0, after_skip = 0, ends = 0;
  bool skipped = false;
  pgn::Visit begin_game(const pgn::GameInfo&) override {
    skipped = false;
    return pgn::Visit::Continue;
  }
  pgn::Visit move(std::string_view, std::uint64_t) override {
    ++moves;
    after_skip += skipped;
    skipped = true;
    return pgn::Visit::Skip;
  }
  void syntax_error(const pgn::SyntaxError&) override { after_skip += skipped; }
  pgn::Visit end_game(const pgn::GameEnd&) override {
    ++ends;
    return pgn::Visit::Continue;
  }
};

TEST_CASE("filter speed: a game skipped is not read on", "[filter]") {
  // The second game's movetext is broken: skipped at its first move, its errors are not
  // looked for (filter leaves out games whose tags fail without reading their moves).
  std::string text =
      "[White \"A\"]\n\n1. e4 e5 2. Nf3 1-0\n\n"
      "[White \"C\"]\n\n1. e4 Nf9 $999 ) 2. Zz4 0-1\n\n"
      "[White \"A\"]\n\n1. d4 (1. c4) d5 *\n";
  for (bool grammar_only : {false, true}) {
    pgn::ReaderOptions o;
    o.grammar_only = grammar_only;
    auto src = pgn::memory_source(text);
    SkipAtFirstMove v;
    pgn::read_pgn(*src, v, o);
    CHECK(v.ends == 3);
    CHECK(v.moves == 3);
    CHECK(v.after_skip == 0);
  }
}

// ---- German and the other letter languages, read in one scan (issue 16) ------------

namespace {

// The reader's readings, token by token: "S?f3" for a letter left to the game's table.
struct Readings : pgn::Visitor {
  std::vector<std::string> seen;
  pgn::Visit move(std::string_view token, std::uint64_t) override {
    seen.push_back("text " + std::string(token));
    return pgn::Visit::Continue;
  }
  pgn::Visit san_move(std::string_view token, const San& san, std::uint64_t) override {
    std::string piece = san.piece == NoPieceType ? "?" : std::string(1, " PNBRQK"[san.piece]);
    seen.push_back("san " + std::string(token) + " " + piece + square_name(san.to) + (san.capture ? " x" : ""));
    return pgn::Visit::Continue;
  }
};

}  // namespace

TEST_CASE("filter speed: German piece moves are read in the reader's one scan", "[notation]") {
  // (K is English SAN's: read as plain SAN.)
  auto src = pgn::memory_source(
      "[Event \"x\"]\n\n1. e4 e5 2. Sf3 Sc6 3. Lb5 a6 4. Lxc6 dxc6 5. O-O Dd6 6. Tfe1 Le6 7. h3 Kc8 *\n");
  Readings v;
  pgn::read_pgn(*src, v, game::replay_reader_options());
  std::vector<std::string> want = {"san e4 Pe4",   "san e5 Pe5",     "san Sf3 ?f3",    "san Sc6 ?c6", "san Lb5 ?b5",
                                   "san a6 Pa6",   "san Lxc6 ?c6 x", "san dxc6 Pc6 x", "text O-O",    "san Dd6 ?d6",
                                   "san Tfe1 ?e1", "san Le6 ?e6",    "san h3 Ph3",     "san Kc8 Kc8"};
  CHECK(v.seen == want);
}

TEST_CASE("filter speed: a letter's piece is the one read_usual finds, in every table", "[notation]") {
  // Every capital letter before every board part the reader reads this way, in every
  // table: the piece the replayer gives the reader's reading, against read_usual's.
  LetterPieces letters;
  int read = 0;
  for (const auto& n : notations())
    for (char c = 'A'; c <= 'Z'; ++c)
      for (std::string body : {"f3", "xe5", "bd7", "1e2", "g1f3", "xd4+", "h8#"}) {
        std::string token = std::string(1, c) + body;
        INFO(n.code << " " << token);
        San usual;
        bool has = read_usual(token, n, usual);
        PieceType p = letters.of(n, c);
        if (p == NoPieceType) continue;  // the replayer asks read_usual then
        REQUIRE(has);
        CHECK(usual.piece == p);
        ++read;
      }
  CHECK(read > 100);
}

}  // namespace test_filter_speed
