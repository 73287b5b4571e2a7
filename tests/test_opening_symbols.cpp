// Tests of the importer's tree of known opening moves (src/db/opening_symbols.hpp): every
// symbol it gives is the one the codec computes for that position (db::move_symbol), while
// it answers a good share of the moves itself, is cleared under games still inside it, is
// fed moves out of order, or meets a set-up position whose moves spell a known line.
#include <catch2/catch.hpp>

#include "replay_util.hpp"

#include <string>
#include <vector>

#include "db/opening_symbols.hpp"
#include "qipu/db/codec.hpp"
#include "qipu/db/store.hpp"

namespace test_opening_symbols {

using namespace qipu;

namespace {

std::vector<game::GameRecord> world_championships() {
  auto games = replayed_games({{QIPU_SOURCE_DIR "/data/world-championships.pgn", std::nullopt}});
  REQUIRE(games.size() > 1000);
  return games;
}

// One game's walk through a tree: the positions before each mainline move.
struct Walk {
  const game::GameRecord* rec;
  Position pos;
  std::size_t next = 0;
  db::OpeningSymbols::Place at = db::OpeningSymbols::Off;
  [[nodiscard]] bool done() const { return next == rec->mainline.size() || rec->mainline[next].move.is_none(); }
};

// Plays the walk's next move through the tree, checking its symbol against the codec's;
// true when the tree answered it (the game is still inside the tree after it).
bool step(db::OpeningSymbols& tree, Walk& w) {
  Move m = w.rec->mainline[w.next++].move;
  unsigned char expected = db::move_symbol(w.pos, m);
  unsigned char got = w.at ? tree.symbol(w.at, w.pos, m) : expected;
  CHECK(int(got) == int(expected));
  w.pos.play(m);
  return w.at != db::OpeningSymbols::Off;
}

}  // namespace

TEST_CASE("opening symbols: known openings give the codec's symbols, a large tree and a tiny one", "[db]") {
  auto games = world_championships();
  for (unsigned bits : {16u, 6u}) {  // the tiny tree (32 nodes) is cleared again and again
    INFO("slot bits " << bits);
    db::OpeningSymbols tree(bits);
    std::size_t moves = 0, answered = 0;
    for (int pass = 0; pass < 2; ++pass)
      for (const auto& g : games) {
        Walk w{&g, g.start_position};
        w.at = tree.start(w.pos);
        while (!w.done()) {
          answered += step(tree, w);
          ++moves;
        }
      }
    CHECK(moves > 150000);
    if (bits == 16) CHECK(answered > moves / 20);  // 19,066 of 179,828: one new node a game
    if (bits == 6) CHECK(answered > 1000);
  }
}

TEST_CASE("opening symbols: games inside the tree when it is cleared, or fed out of order", "[db]") {
  auto games = world_championships();
  db::OpeningSymbols tree(4);  // 8 nodes: every few games a clear, with other games inside
  SECTION("many games at once, a move of each in turn") {
    std::size_t answered = 0;
    for (std::size_t first = 0; first + 8 <= games.size(); first += 8) {
      std::vector<Walk> walks;
      for (std::size_t i = first; i < first + 8; ++i) {
        walks.push_back({&games[i], games[i].start_position});
        walks.back().at = tree.start(walks.back().pos);
      }
      for (bool moved = true; moved;) {
        moved = false;
        for (auto& w : walks)
          if (!w.done()) answered += step(tree, w), moved = true;
      }
    }
    CHECK(answered > 500);  // 1,288
  }
  SECTION("a move left out") {
    // The tree knows 1. e4 from the start; a caller that left out 1. d4 d5 asks it for
    // 2. e4 as if from the start.
    Position start, later;
    Move e4 = start.parse_uci("e2e4");
    for (const char* m : {"d2d4", "d7d5"}) later.play(later.parse_uci(m));
    REQUIRE(db::move_symbol(later, e4) != db::move_symbol(start, e4));
    auto at = tree.start(start);
    tree.symbol(at, start, e4);
    at = tree.start(start);
    CHECK(int(tree.symbol(at, later, e4)) == int(db::move_symbol(later, e4)));
    CHECK(at == db::OpeningSymbols::Off);
  }
}

// The standard position without White's queen's knight: 1. e4 means the same move there,
// with another rank. Its moves must not be answered from the standard games' tree.
TEST_CASE("opening symbols: a set-up position does not take the standard games' symbols", "[db]") {
  auto games = replayed_games(
      {{"standard", "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 *\n"},
       {"set-up", "[SetUp \"1\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1\"]\n\n"
                  "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 *\n"}});
  REQUIRE(games.size() == 2);
  const std::string standard = db::move_symbols(games[0].start_position, games[0].mainline);
  const std::string set_up = db::move_symbols(games[1].start_position, games[1].mainline);
  REQUIRE(standard != set_up);  // the test means something only if they differ
  db::OpeningSymbols tree;
  CHECK(tree.start(games[1].start_position) == db::OpeningSymbols::Off);
  // Through the importer's encoder, which uses the thread's tree: the standard game until
  // its whole line is known (a node a game), then the set-up game.
  for (int i : {0, 0, 0, 0, 0, 0, 0, 0, 0, 1}) {
    auto encoded = db::encode_game(games[std::size_t(i)]);
    REQUIRE(encoded);
    CHECK(encoded->moves == db::pack_symbols(i == 0 ? standard : set_up));
  }
}

// The importer's encoder, as the import uses it: every game's stored moves are the codec's.
TEST_CASE("opening symbols: the encoder's stored moves are the codec's, games met twice", "[db]") {
  auto games = world_championships();
  for (int pass = 0; pass < 2; ++pass)
    for (const auto& g : games) {
      if (!g.valid()) continue;
      auto encoded = db::encode_game(g);
      REQUIRE(encoded);
      CHECK(encoded->moves == db::pack_symbols(db::move_symbols(g.start_position, g.mainline)));
    }
}

}  // namespace test_opening_symbols
