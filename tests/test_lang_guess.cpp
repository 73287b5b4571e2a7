// A game's language told from its moves (the known bugs of last session: Dutch Pf3 read
// as a pawn move, Hungarian Hf3 as a Polish queen, 骑士 f3 refused as xiangqi). The
// independent answer is the English SAN a game was written from: each English game is
// written in every table by qipu's writer, read back without --from, and must give the
// same English moves, or, where two languages truly cannot be told apart, an error and
// never another game.
#include <catch2/catch.hpp>

#include "cli_util.hpp"
#include "qipu/game/pipeline.hpp"
#include "qipu/game/writer.hpp"
#include "qipu/notation/notation.hpp"

// One namespace a file: the test files compile several to a unit (CMakeLists.txt).
namespace test_lang_guess {

using namespace qipu;
using cli_test::contains;

namespace {

// One game as read back: its movetext written in `to` (English SAN by default), and its
// diagnostics' messages.
struct ReadBack {
  std::string pgn, moves;
  int errors = 0;
  std::string messages;
};

std::string movetext_of(const std::string& pgn) {
  std::string out;
  for (const std::string& line : cli_test::split(pgn, '\n'))
    if (!line.empty() && line[0] != '[') out += (out.empty() ? "" : " ") + line;
  return out;
}

// Every game of `pgn`, read (in the language `from`, else guessed) and written in `to`.
std::vector<ReadBack> read_games(const std::string& pgn, const Notation* from = nullptr, const Notation* to = nullptr) {
  game::PipelineOptions o;
  o.replay.notation = from;
  o.jobs = 1;
  game::WriterOptions w;
  w.notation = to;
  std::vector<ReadBack> out;
  game::PipelineCallbacks cb;
  cb.game = [&](const game::InputReport&, game::GameRecord& rec) {
    std::string pgn = game::write_pgn(rec, w);
    ReadBack r{pgn, movetext_of(pgn), rec.error_count(), {}};
    for (const auto& d : rec.diagnostics) r.messages += d.message + "\n";
    out.push_back(std::move(r));
  };
  game::run_pipeline(std::vector<game::PipelineInput>{{"<test>", pgn}}, o, cb);
  return out;
}

ReadBack read_one(const std::string& movetext, const Notation* from = nullptr) {
  std::vector<ReadBack> games = read_games(movetext, from);
  REQUIRE(games.size() == 1);
  return games[0];
}

// Checks that a game, its language guessed, reads without error as the English moves.
void reads_as(const std::string& pgn, const std::string& english) {
  INFO(pgn);
  ReadBack r = read_one(pgn);
  CHECK(r.errors == 0);
  CHECK(r.moves == english);
}

// The English games the round trips start from: games made so that a first piece move
// means another piece (or a pawn) in another table (tests/data/notation/lang-guess.pgn),
// and real games (data/classics.pgn, the first world championship games).
std::string english_games() {
  std::string wc = cli_test::slurp(QIPU_SOURCE_DIR "/data/world-championships.pgn");
  std::size_t cut = 0;
  for (int games = 0; games <= 12 && cut != std::string::npos; ++games) cut = wc.find("\n[Event ", cut + 1);
  return cli_test::slurp(QIPU_TEST_DATA "/notation/lang-guess.pgn") + "\n" +
         cli_test::slurp(QIPU_SOURCE_DIR "/data/classics.pgn") + "\n" + wc.substr(0, cut);
}

}  // namespace

TEST_CASE("Dutch Pf3 as a game's first piece move is a knight, not a pawn", "[notation][lang_guess]") {
  reads_as("1. e4 e5 2. Pf3 Pc6 3. Lb5 a6 4. La4 Pf6 *", "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 *");
}

TEST_CASE("Hungarian Hf3 as a game's first piece move is a knight, not a Polish queen", "[notation][lang_guess]") {
  reads_as("1. e4 e5 2. Hf3 Hc6 3. Fb5 a6 4. Fa4 Hf6 *", "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 *");
}

TEST_CASE("a two-character knight word before a space is no xiangqi", "[notation][lang_guess]") {
  Position pos = *Position::from_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
  for (const char* token : {"骑士 f3", "騎士 f3", "骑士f3"}) {
    INFO(token);
    Result<MoveReadings> r = read_move(token);
    REQUIRE(r);
    Result<Move> m = resolve_san(pos, r->readings.front().san);
    REQUIRE(m);
    CHECK(format_san(pos, *m) == "Nf3");
  }
  CHECK(read_one("1. e4 e5 2. 骑士 f3 骑士 c6 *").moves == "1. e4 e5 2. Nf3 Nc6 *");
  // Xiangqi words are still told apart, after a chess word too.
  CHECK(read_move("马8进7").error().find("xiangqi") != std::string::npos);
  CHECK(read_move("士4进5").error().find("xiangqi") != std::string::npos);
}

TEST_CASE("every table's games read back without --from, as the English they were written from",
          "[notation][lang_guess]") {
  const std::string en_pgn = english_games();
  std::vector<ReadBack> en = read_games(en_pgn);
  REQUIRE(en.size() >= 20);
  for (const auto& g : en) REQUIRE(g.errors == 0);
  for (const Notation& table : notations()) {
    std::string written;
    for (const auto& g : read_games(en_pgn, nullptr, &table)) written += g.pgn;
    std::vector<ReadBack> back = read_games(written);
    REQUIRE(back.size() == en.size());
    for (std::size_t i = 0; i < en.size(); ++i) {
      INFO(table.code << ", game " << i + 1 << ": " << back[i].messages);
      CHECK(back[i].errors == 0);
      CHECK(back[i].moves == en[i].moves);
    }
  }
}

TEST_CASE("a game whose moves fit two tables is refused, not read in one of them", "[notation][lang_guess]") {
  // Polish H is a queen, Hungarian H a knight; both Hf3 are legal and the game ends
  // before any move tells: an ambiguous move, never a game in a guessed language.
  ReadBack r = read_one("1. e4 e5 2. Hf3 *");
  CHECK(r.errors == 1);
  CHECK(contains(r.messages, "Polish"));
  CHECK(contains(r.messages, "Hungarian"));
  CHECK(contains(r.messages, "--from"));
  CHECK(read_one("1. e4 e5 2. Hf3 *", find_notation("hu")).moves == "1. e4 e5 2. Nf3 *");
  CHECK(read_one("1. e4 e5 2. Hf3 *", find_notation("pl")).moves == "1. e4 e5 2. Qf3 *");
  // German and Swedish (K D T L S, pawn B) are one table under two names: either gives
  // the same game, which is no ambiguity.
  CHECK(read_one("1. e4 e5 2. Sf3 *").moves == "1. e4 e5 2. Nf3 *");
}

TEST_CASE("where the moves cannot tell, a piece's letter beats a pawn's, then English", "[notation][lang_guess]") {
  // Each game ends before a move tells its tables apart; qipu reads it so (README).
  // 2. Bf4: an English bishop, or German's pawn written with its letter B (nonstandard).
  reads_as("1. d4 d5 2. Bf4 1-0", "1. d4 d5 2. Bf4 1-0");
  // 2. Pf3: a Dutch knight, or a pawn written with English's P.
  reads_as("1. e4 e5 2. Pf3 *", "1. e4 e5 2. Nf3 *");
  // d8=B: an English bishop or a Hungarian rook, both pieces: English, the PGN standard's.
  reads_as("[SetUp \"1\"]\n[FEN \"k7/3P4/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. d8=B *", "1. d8=B *");
}

TEST_CASE("a move that settles the language later decides an earlier one", "[notation][lang_guess]") {
  // 2. Pf3 Pc6 read as pawn moves in English (explicit P) and as knights in Dutch, until
  // 4. Le2, which only Dutch reads: the knights.
  reads_as("1. e4 e5 2. Pf3 Pc6 3. d3 d6 4. Le2 Le7 *", "1. e4 e5 2. Nf3 Nc6 3. d3 d6 4. Be2 Be7 *");
  // An English game with explicit pawn letters: 1. Pe4 is no Dutch knight move.
  reads_as("1. Pe4 Pe5 2. Pf4 Pd6 3. Nf3 *", "1. e4 e5 2. f4 d6 3. Nf3 *");
}

TEST_CASE("real games written in every letter language read back without --from", "[notation][lang_guess][corpus]") {
  QIPU_NEEDS_CORPORA("real/pgnmentor");
  // 1 MB of a player's games (pgnmentor): before the language guess, Dutch and Hungarian
  // lost thousands of such games to errors, Czech and Portuguese some.
  const std::string en_pgn = cli_test::slurp(corpora::path("real/pgnmentor/data__pgn__Akobian.pgn"));
  std::vector<ReadBack> en = read_games(en_pgn);
  REQUIRE(en.size() > 1000);
  for (const Notation& table : notations()) {
    INFO(table.code);
    std::string written;
    for (const auto& g : read_games(en_pgn, nullptr, &table)) written += g.pgn;
    std::vector<ReadBack> back = read_games(written);
    REQUIRE(back.size() == en.size());
    int differ = 0;
    for (std::size_t i = 0; i < en.size(); ++i)
      differ += back[i].moves != en[i].moves || back[i].errors != en[i].errors;
    CHECK(differ == 0);
  }
}

}  // namespace test_lang_guess
