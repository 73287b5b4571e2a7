// Tests of the game database (module db): the codec, lossless export of real
// collections, duplicates, rejects, the position index against a brute-force count,
// refusing foreign or newer files, and crash safety of import under SIGKILL.
#include <catch2/catch.hpp>

#include "cli_util.hpp"
#include "replay_util.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <thread>

#include "qipu/board/movegen.hpp"
#include "qipu/db/codec.hpp"
#include "qipu/db/store.hpp"
#include "qipu/game/pipeline.hpp"
#include "qipu/game/writer.hpp"

// One namespace a file: the test files compile several to a unit (CMakeLists.txt).
namespace test_db {

using namespace qipu;
namespace fs = std::filesystem;

namespace {

fs::path temp_db(const std::string& name) {
  fs::path p = cli_test::temp_dir("db") / (name + ".db");
  for (auto ext : {"", "-wal", "-shm"}) fs::remove(p.string() + ext);
  return p;
}

// Every game of the files, replayed, in order.
std::vector<game::GameRecord> read_games(const std::vector<std::string>& files) {
  std::vector<game::PipelineInput> inputs;
  for (const auto& f : files) inputs.push_back({f, std::nullopt});
  return replayed_games(inputs);
}

// Imports the valid games with the library API, returning how many were stored.
db::ImportStats import_games(db::Connection& c, const std::vector<game::GameRecord>& games, db::ImportOptions o) {
  db::Importer imp(c, o);
  for (const auto& g : games) {
    if (g.valid())
      imp.add("test", g, *db::encode_game(g));
    else
      imp.reject("test", g, "error");
  }
  imp.finish();
  return imp.stats();
}

// Games replayed as the importer replays them: moves encoded by the replay's hook.
std::vector<std::pair<game::GameRecord, Result<db::EncodedGame>>> encode_while_replaying(
    const std::vector<std::string>& files) {
  std::vector<std::pair<game::GameRecord, Result<db::EncodedGame>>> out;
  game::PipelineOptions o;
  o.jobs = 2;
  game::PipelineCallbacks<db::GameEncoding> cb;
  db::encode_while_replaying(cb, nullptr, true);
  cb.game = [&](const game::InputReport&, game::GameRecord& r, db::GameEncoding& g) {
    if (g.rows) out.emplace_back(std::move(r), std::move(*g.rows));
  };
  game::run_pipeline(files, o, cb);
  return out;
}

std::string qipu_cmd(const std::string& args) { return std::string(QIPU_BINARY) + " " + args; }

std::int64_t count_rows(db::Connection& c, const std::string& sql) {
  auto st = c.prepare(sql);
  REQUIRE(st.step());
  return st.int64(0);
}

// The pgnmentor files of these players in a temporary file.
fs::path pgnmentor_players(const std::string& tag, std::initializer_list<const char*> names) {
  return cli_test::write_pgnmentor(
      cli_test::temp_dir("db") / (tag + ".pgn"), names);
}

}  // namespace

TEST_CASE("db codec: moves and annotations come back the same", "[db]") {
  auto games = read_games({std::string(QIPU_TEST_DATA) + "/../../data/classics.pgn"});
  REQUIRE(games.size() == 4);
  for (const auto& g : games) {
    std::string moves = db::encode_moves(g.start_position, g.mainline);
    CHECK(db::move_symbols(g.start_position, g.mainline).size() == g.mainline.size());
    CHECK(moves.size() < g.mainline.size());  // well under a byte a move
    game::GameRecord back;
    back.start_position = g.start_position;
    back.tags = g.tags;
    back.result = g.result;
    REQUIRE(db::decode_moves(g.start_position, moves, back.mainline));
    REQUIRE(db::decode_annotations(db::encode_annotations(g), back));
    CHECK(game::write_pgn(back) == game::write_pgn(g));
  }
  game::Line junk;
  CHECK_FALSE(db::decode_moves(Position(), db::pack_symbols("\xC8"), junk));  // rank 200 of 20 moves
  std::string blob = db::encode_moves(games[0].start_position, games[0].mainline);
  CHECK_FALSE(db::decode_moves(games[0].start_position, blob.substr(0, blob.size() / 2), junk));  // cut short
}

// Each legal move of `pos` has its own symbol, which decodes to it, and no other symbol
// decodes (never to an illegal move). Returns how many of the moves castle.
int check_symbols(const Position& pos) {
  MoveList legal;
  generate_legal(pos, legal);
  std::set<int> symbols;
  int castles = 0;
  for (Move m : legal) {
    game::Line one(1);
    one[0].move = m;
    std::string s = db::move_symbols(pos, one);
    REQUIRE(s.size() == 1);
    symbols.insert(static_cast<unsigned char>(s[0]));
    CHECK(db::move_of_symbol(pos, static_cast<unsigned char>(s[0])) == m);
    castles += m.kind() == MoveKind::Castling;
  }
  CHECK(symbols.size() == legal.size());
  for (int s = 0; s < 255; ++s)
    if (!symbols.count(s)) CHECK(db::move_of_symbol(pos, static_cast<unsigned char>(s)).is_none());
  return castles;
}

TEST_CASE("db codec: each legal move has its own symbol and no other symbol decodes", "[db]") {
  auto games = read_games(
      {std::string(QIPU_TEST_DATA) + "/../../data/classics.pgn", QIPU_SOURCE_DIR "/data/world-championships.pgn"});
  games.resize(std::min<std::size_t>(games.size(), 60));  // checks, pins, en passant and promotions among them
  std::size_t positions = 0;
  for (const auto& g : games)
    game::for_each_move(g.start_position, g.mainline, [&](const Position& pos, const game::MoveNode&, const Position&) {
      check_symbols(pos);
      ++positions;
    });
  CHECK(positions > 3000);
}

// Chess960 castling, where king and rook start anywhere on the back rank: the positions
// of the Chess960 perft suite (a quarter of it, in tests/data) and those one move on.
TEST_CASE("db codec: Chess960 castling moves have their symbols too", "[db]") {
  std::ifstream in(std::string(QIPU_TEST_DATA) + "/perft/chess960.perft");
  REQUIRE(in.is_open());
  int positions = 0, castles = 0;
  for (std::string line; std::getline(in, line) && positions < 2000;) {
    if (line.rfind("epd ", 0) != 0) continue;
    auto r = Position::from_fen(line.substr(4), true);
    REQUIRE(r);
    castles += check_symbols(*r);
    MoveList legal;
    generate_legal(*r, legal);
    for (Move m : legal) {
      Position next = *r;
      next.play(m);
      castles += check_symbols(next);
      ++positions;
    }
  }
  CHECK(positions >= 2000);
  CHECK(castles > 100);
}

// Standard castling, which the codec decides from the squares the enemy attacks: through
// or onto an attacked square it is illegal; past an attacked b1 or b8, or with its rook
// attacked, it is legal. The number of legal castling moves of each position is known.
TEST_CASE("db codec: standard castling has a symbol exactly when it is legal", "[db]") {
  const std::pair<const char*, int> cases[] = {
      {"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", 2},   {"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", 2},
      {"1r2k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1", 2},   // b1 attacked
      {"3rk2r/8/8/8/8/8/8/R3K2R w KQk - 0 1", 1},    // d1 attacked
      {"r3k2r/8/8/8/5b2/8/8/R3K2R w KQkq - 0 1", 1}, // c1 attacked
      {"r3k2r/8/b7/8/8/8/8/R3K2R w KQkq - 0 1", 1},  // f1 attacked
      {"r3k2r/8/8/8/8/7n/8/R3K2R w KQkq - 0 1", 1},  // g1 attacked by a knight
      {"r3k1r1/8/8/8/8/8/8/R3K2R w KQq - 0 1", 1},   // g1 attacked down the file
      {"b3k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1", 2},    // only the rook on h1 attacked
      {"r3k2r/8/8/8/8/8/6p1/R3K2R w KQkq - 0 1", 1}, // f1 and h1 attacked by a pawn
      {"r3k2r/8/8/8/8/8/8/R2QK2R b KQkq - 0 1", 1},  // d8 attacked
      {"r3k2r/8/8/8/8/8/8/1R2K2R b Kkq - 0 1", 2},   // b8 attacked
      {"4k3/4r3/8/8/8/8/8/R3K2R w KQ - 0 1", 0},     // in check
  };
  for (const auto& [fen, castles] : cases) {
    INFO(fen);
    auto pos = Position::from_fen(fen);
    REQUIRE(pos);
    CHECK(check_symbols(*pos) == castles);
  }
}

// Stored games are read with the code they were written with: any change to the move
// order or the Huffman table must come with a new schema version. This pins both.
// The importer encodes moves while the replay plays them; the result must be what
// encoding the finished record gives, with variations (which the hook must not see),
// Chess960 set-ups and games without moves among them.
TEST_CASE("db codec: encoding during replay equals encoding the replayed record", "[db][corpus]") {
  QIPU_NEEDS_CORPORA("real", "edge/pychess-learn");
  const std::string real = corpora::path("real") + "/";
  const std::string study = corpora::path("edge/pychess-learn/lessons__lichess_study_");
  auto games = encode_while_replaying({real + "lichess-twic/pgn-reader__benches__twic1599_1000k.pgn",
                                       real + "tcec/master-archive__TCEC_Season_16_-_Frc_Cpu_League_1.pgn",
                                       real + "pgnmentor/data__pgn__Adams.pgn", QIPU_TEST_DATA "/pgn/features.pgn",
                                       study + "beautiful-chess-studies-1_by_thijscom_2018.03.05.pgn",
                                       study + "beautiful-chess-studies-2_by_thijscom_2018.04.17.pgn"});
  REQUIRE(games.size() > 3000);
  std::size_t with_variations = 0, set_up = 0;
  for (const auto& [rec, during] : games) {
    INFO("game " << rec.index << " " << rec.tag("White") << " - " << rec.tag("Black"));
    for (const auto& node : rec.mainline) with_variations += node.notes && !node.notes->variations.empty();
    set_up += rec.start_fen.has_value();
    Result<db::EncodedGame> after = db::encode_game(rec);
    CHECK(during.error() == after.error());
    REQUIRE(during.ok() == after.ok());
    if (!during) continue;
    CHECK(during->moves == after->moves);
    CHECK(during->keys == after->keys);
    CHECK(during->material == after->material);
    CHECK(during->notes == after->notes);
  }
  CHECK(with_variations > 200);  // 251 mainline moves with variations
  CHECK(set_up > 150);           // 191 games from a FEN
}

TEST_CASE("db codec: the stored form of a known line does not change", "[db]") {
  std::vector<game::GameRecord> games;
  game::PipelineCallbacks cb;
  cb.game = [&](const game::InputReport&, game::GameRecord& r) { games.push_back(std::move(r)); };
  std::string line = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 *\n";
  game::run_pipeline(std::vector<game::PipelineInput>{{"line", line}}, game::PipelineOptions{}, cb);
  REQUIRE(games.size() == 1);
  const auto& g = games[0];
  CHECK(db::move_symbols(g.start_position, g.mainline) == std::string("\x04\x03\x00\x02\x05\x12\x05\x00\x00\x05", 10));
  CHECK(db::encode_moves(g.start_position, g.mainline) == std::string("\x0a\x87\x1a\x5c\x48\x24", 6));
}

// The importer's encoder makes room for 160 plies and then doubles it: a longer game keeps
// the key before each of its moves, and the final one, no more and no fewer, and every symbol.
TEST_CASE("db codec: the encoder keeps every ply of a game longer than its first room", "[db]") {
  std::string pgn;  // 400 plies: the knights go out and back a hundred times
  for (int i = 1; i <= 100; ++i) pgn += std::to_string(2 * i - 1) + ". Nf3 Nf6 " + std::to_string(2 * i) + ". Ng1 Ng8 ";
  auto games = replayed_games({{"long", pgn + "*\n"}});
  REQUIRE(games.size() == 1);
  const auto& g = games[0];
  REQUIRE(g.mainline.size() == 400);
  std::vector<Key> keys;
  Position pos = g.start_position;
  for (const auto& node : g.mainline) {
    keys.push_back(pos.key());
    pos.play(node.move);
  }
  keys.push_back(pos.key());
  Result<db::EncodedGame> encoded = db::encode_game(g);
  REQUIRE(encoded);
  CHECK(encoded->keys == keys);
  CHECK(encoded->moves == db::pack_symbols(db::move_symbols(g.start_position, g.mainline)));
}

TEST_CASE("db codec: every symbol packs and unpacks whole or as a prefix", "[db]") {
  std::string all;
  for (int s = 0; s < 256; ++s) all += char(s);
  all += std::string(300, '\0') + "\xff\x01";
  std::string back;
  REQUIRE(db::unpack_symbols(db::pack_symbols(all), back));
  CHECK(back == all);
  REQUIRE(db::unpack_symbols(db::pack_symbols(all), back, 10));
  CHECK(back == all.substr(0, 10));
  CHECK(db::pack_symbols(std::string(80, '\0')).size() <= 1 + 80 / 8 * 2);  // the likeliest rank is short
  std::string cut = db::pack_symbols(all);
  CHECK_FALSE(db::unpack_symbols(cut.substr(0, cut.size() - 40), back));
  CHECK(db::unpack_symbols(db::pack_symbols(""), back));
  CHECK(back.empty());
}

namespace {

// Imports the games of these files in small batches and reads them back: each valid game
// must be written as before, byte for byte, and the many batches' index segments merged.
void check_export_is_lossless(const std::vector<std::string>& files, std::size_t at_least) {
  auto games = read_games(files);
  REQUIRE(games.size() > at_least);
  fs::path path = temp_db("lossless");
  auto conn = db::open_database(path.string(), db::Connection::Mode::ReadWrite);
  db::ImportOptions o;
  o.allow_duplicates = true;
  o.batch_games = 100;  // more transactions than MaxSegments, so the index is merged
  auto stats = import_games(*conn, games, o);
  std::vector<const game::GameRecord*> valid;
  for (const auto& g : games)
    if (g.valid()) valid.push_back(&g);
  REQUIRE(stats.imported == valid.size());
  std::size_t i = 0;
  db::for_each_game(*conn, {}, [&](game::GameRecord& back) {
    REQUIRE(i < valid.size());
    INFO("game " << i << " of " << valid[i]->tag("White") << " – " << valid[i]->tag("Black"));
    CHECK(game::write_pgn(back) == game::write_pgn(*valid[i]));
    ++i;
    return true;
  });
  CHECK(i == valid.size());
  // More batches than MergeFanout: merged by size as they came, fewer than MergeFanout runs left.
  CHECK(count_rows(*conn, "SELECT count(*) FROM segment") < std::int64_t(db::MergeFanout));
}

}  // namespace

TEST_CASE("db export gives back every game, tag, comment, NAG and variation of the samples", "[db]") {
  check_export_is_lossless(
      {QIPU_SOURCE_DIR "/data/world-championships.pgn", QIPU_SOURCE_DIR "/data/world-championships-zh.pgn",
       QIPU_SOURCE_DIR "/data/classics.pgn", QIPU_SOURCE_DIR "/data/chinese.pgn", QIPU_TEST_DATA "/pgn/features.pgn",
       QIPU_TEST_DATA "/cli/annotated.pgn"},
      2000);
}

TEST_CASE("db export gives back every game, tag, comment, NAG and variation", "[db][corpus]") {
  QIPU_NEEDS_CORPORA("real", "edge/kokopu");
  std::vector<std::string> files = {
      corpora::path("real/chessjs-bench/benchmarks__benchmark.pgn"),
      corpora::path("real/lichess-twic/pgn-reader__benches__twic1599_1000k.pgn"),
      corpora::path("real/lichess-twic/pgn-reader__benches__lichess_db_1000k.pgn"),
      corpora::path("edge/kokopu/test__resources__games__annotations-1__database.pgn"),
      corpora::path("edge/kokopu/test__resources__games__sub-variations__database.pgn"),
      corpora::path("edge/kokopu/test__resources__games__all-headers__database.pgn"),
  };
  for (const auto& entry : fs::directory_iterator(corpora::path("real/tcec"))) files.push_back(entry.path().string());
  check_export_is_lossless(files, 1500);
}

TEST_CASE(
    "db keeps the Date and empty Elo tags as written and stores a date text only when the sortable date cannot give it",
    "[db]") {
  CHECK(db::written_date(19900517) == "1990.05.17");
  CHECK(db::written_date(19900500) == "1990.05.??");
  CHECK(db::written_date(9900000) == "0990.??.??");
  std::string pgn;
  const std::vector<std::string> dates = {"1990.05.17", "1990.??.??", "1990.5.17", "????.??.??",
                                          "1990.00.00", "",           "1990",      "x"};
  for (const auto& d : dates) pgn += "[Date \"" + d + "\"]\n\n1. e4 *\n\n";
  pgn += "[Event \"no date\"]\n\n1. d4 *\n\n";
  // Empty Elo tags, common in old games, are letters of tag_layout, not tag rows.
  pgn += "[WhiteElo \"\"]\n[BlackElo \"\"]\n\n1. c4 *\n\n";
  pgn += "[BlackElo \"\"]\n[WhiteElo \"2400\"]\n\n1. Nf3 *\n\n";
  pgn += "[WhiteElo \"\"]\n[WhiteElo \"\"]\n\n1. g3 *\n\n";
  // An Elo with a leading zero would not come back as written from a number: a tag row.
  pgn += "[WhiteElo \"0100\"]\n[BlackElo \"0\"]\n\n1. b3 *\n\n";
  fs::path file = cli_test::temp_dir("db") / "dates.pgn";
  std::ofstream(file) << pgn;
  auto games = read_games({file.string()});
  REQUIRE(games.size() == dates.size() + 5);
  fs::path path = temp_db("dates");
  auto conn = db::open_database(path.string(), db::Connection::Mode::ReadWrite);
  import_games(*conn, games, {});
  std::size_t i = 0;
  db::for_each_game(*conn, {}, [&](game::GameRecord& back) {
    REQUIRE(i < games.size());
    CHECK(back.tags == games[i].tags);
    ++i;
    return true;
  });
  CHECK(i == games.size());
  // Only the dates that written_date does not give back take text.
  CHECK(count_rows(*conn, "SELECT count(*) FROM game WHERE date_text IS NOT NULL") == 6);
  auto st = conn->prepare("SELECT date FROM game ORDER BY id");
  for (const auto& d : dates) {
    REQUIRE(st.step());
    CHECK(st.text(0) == d);
  }
  REQUIRE(st.step());
  CHECK(st.is_null(0));
  CHECK(count_rows(*conn, "SELECT count(*) FROM tag") == 2);  // the second empty WhiteElo, and "0100"
  CHECK(count_rows(*conn, "SELECT count(*) FROM tag WHERE value = '0100'") == 1);
  CHECK(count_rows(*conn, "SELECT count(*) FROM game WHERE black_elo = 0") == 1);
  fs::remove(file);
}

TEST_CASE("db import leaves every reference whole and foreign keys on, finished or not", "[db]") {
  auto games = read_games({std::string(QIPU_TEST_DATA) + "/../../data/classics.pgn"});
  fs::path path = temp_db("references");
  auto conn = db::open_database(path.string(), db::Connection::Mode::ReadWrite);
  {
    db::Importer imp(*conn, {});
    imp.add("test", games.front(), *db::encode_game(games.front()));
  }  // destroyed without finish(), as when an import throws
  CHECK(count_rows(*conn, "PRAGMA foreign_keys") == 1);
  import_games(*conn, games, {});
  CHECK(count_rows(*conn, "PRAGMA foreign_keys") == 1);
  CHECK(count_rows(*conn, "SELECT count(*) FROM game") == std::int64_t(games.size()));
  CHECK_FALSE(conn->prepare("PRAGMA foreign_key_check").step());
  // Still enforced for other writers: a game naming a player that does not exist.
  CHECK_THROWS_AS(conn->exec("INSERT INTO game(white, plies, termination, moves) VALUES (999999, 0, 0, x'00')"),
                  db::DbError);
}

TEST_CASE("db import skips duplicates and keeps rejects whole", "[db]") {
  fs::path pgn = cli_test::temp_dir("db") / "rej.pgn";
  std::string bad = "[Event \"bad\"]\n[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Ke3 *\n\n";
  {
    std::ofstream f(pgn);
    f << "[Event \"good\"]\n\n1. e4 e5 2. Nf3 *\n\n" << bad;
  }
  fs::path path = temp_db("dups");
  std::string cmd = qipu_cmd("import --db " + path.string() + " " + pgn.string() + " > /dev/null");
  CHECK(WEXITSTATUS(std::system(cmd.c_str())) == 1);  // a rejected game, as check would say
  CHECK(WEXITSTATUS(std::system(cmd.c_str())) == 1);
  auto conn = db::open_database(path.string(), db::Connection::Mode::ReadOnly);
  CHECK(count_rows(*conn, "SELECT count(*) FROM game") == 1);
  CHECK(count_rows(*conn, "SELECT count(*) FROM reject") == 1);
  auto st = conn->prepare("SELECT text, errors FROM reject");
  REQUIRE(st.step());
  CHECK(st.text(0) == bad);
  CHECK(std::string(st.text(1)).find("Ke3") != std::string::npos);
  fs::remove(pgn);
}

TEST_CASE("db position index finds exactly the games a replay finds", "[db]") {
  auto games = read_games({QIPU_SOURCE_DIR "/data/world-championships.pgn"});
  fs::path path = temp_db("index");
  auto conn = db::open_database(path.string(), db::Connection::Mode::ReadWrite);
  db::ImportOptions o;
  o.allow_duplicates = true;
  o.batch_games = 200;
  import_games(*conn, games, o);
  // Brute force: every key of every valid game's mainline, with the game's id.
  std::map<Key, std::set<std::int64_t>> truth;
  std::int64_t id = 0;
  for (const auto& g : games) {
    if (!g.valid()) continue;
    ++id;
    truth[g.start_position.key()].insert(id);
    game::for_each_move(
        g.start_position, g.mainline,
        [&](const Position&, const game::MoveNode&, const Position& after) { truth[after.key()].insert(id); });
  }
  REQUIRE(truth.size() > 10000);
  std::mt19937_64 rng(42);
  auto it = truth.begin();
  for (int n = 0; n < 300; ++n) {
    std::advance(it, rng() % 50);
    if (it == truth.end()) break;
    std::set<std::int64_t> found;
    for (auto hit : db::lookup_position(*conn, it->first)) found.insert(hit.game);
    CHECK(found == it->second);  // 48-bit keys could add a false hit; none on this corpus
  }
  std::set<std::int64_t> start_games;
  for (auto hit : db::lookup_position(*conn, Position().key())) start_games.insert(hit.game);
  CHECK(start_games == truth[Position().key()]);
}

TEST_CASE("db refuses files that are not qipu databases, and newer schemas", "[db]") {
  fs::path junk = temp_db("junk");
  {
    std::ofstream f(junk);
    f << std::string(4096, 'x');
  }
  CHECK_THROWS_WITH(db::open_database(junk.string(), db::Connection::Mode::ReadWrite),
                    Catch::Contains("not a qipu database"));
  fs::path future = temp_db("future");
  {
    auto c = db::open_database(future.string(), db::Connection::Mode::ReadWrite);
    c->exec("PRAGMA user_version = 99");
  }
  CHECK_THROWS_WITH(db::open_database(future.string(), db::Connection::Mode::ReadOnly), Catch::Contains("newer qipu"));
  CHECK_THROWS_WITH(db::open_database(future.string(), db::Connection::Mode::ReadWrite), Catch::Contains("newer qipu"));
  fs::path old = temp_db("old");
  {
    auto c = db::open_database(old.string(), db::Connection::Mode::ReadWrite);
    c->exec("PRAGMA user_version = 1");
  }
  CHECK_THROWS_WITH(db::open_database(old.string(), db::Connection::Mode::ReadOnly),
                    Catch::Contains("import the PGN files again"));
  fs::path other = temp_db("other");
  {
    db::Connection c(other.string(), db::Connection::Mode::ReadWrite);
    c.exec("CREATE TABLE t(x)");
  }
  CHECK_THROWS_WITH(db::open_database(other.string(), db::Connection::Mode::ReadWrite),
                    Catch::Contains("another program"));
  CHECK_THROWS_WITH(db::open_database(temp_db("missing").string(), db::Connection::Mode::ReadOnly),
                    Catch::Contains("no database"));
}

TEST_CASE("db import killed with SIGKILL leaves whole games and completes on re-run", "[db][slow]") {
  QIPU_NEEDS_CORPORA("real/pgnmentor");
  // A few MB of real games, so that an import takes long enough to be killed midway.
  fs::path pgn = pgnmentor_players("kill", {"Adams", "Anand", "Carlsen", "Kasparov"});
  fs::path clean = temp_db("clean");
  auto started = std::chrono::steady_clock::now();
  REQUIRE(std::system(qipu_cmd("import --db " + clean.string() + " " + pgn.string() + " > /dev/null 2>&1").c_str()) !=
          -1);
  // Kills come at 5 to 60 % of a whole import's time, so that some land midway however
  // fast the import is (fixed delays stopped doing so when import got faster).
  auto whole_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count();
  auto expected =
      count_rows(*db::open_database(clean.string(), db::Connection::Mode::ReadOnly), "SELECT count(*) FROM game");
  std::vector<std::string> clean_games;
  db::for_each_game(*db::open_database(clean.string(), db::Connection::Mode::ReadOnly), {}, [&](game::GameRecord& g) {
    clean_games.push_back(game::write_pgn(g));
    return true;
  });
  REQUIRE(expected > 10000);
  fs::path path = temp_db("kill");
  std::mt19937 rng(7);
  std::int64_t before = 0;
  bool killed_midway = false;
  // Ten kills: twenty took 24 s of the test command, and with kills spread over 5-60 % of an
  // import, ten land midway as well (killed_midway).
  for (int round = 0; round < 10; ++round) {
    pid_t pid = fork();
    if (pid == 0) {
      freopen("/dev/null", "w", stdout);
      freopen("/dev/null", "w", stderr);
      execl(QIPU_BINARY, QIPU_BINARY, "import", "--batch", "500", "--db", path.c_str(), pgn.c_str(), (char*)nullptr);
      _exit(127);
    }
    std::this_thread::sleep_for(
        std::chrono::milliseconds(whole_ms / 20 + std::int64_t(rng() % 1000) * whole_ms * 11 / 20000));
    kill(pid, SIGKILL);
    int status;
    waitpid(pid, &status, 0);
    auto conn = db::open_database(path.string(), db::Connection::Mode::ReadWrite);
    auto check = conn->prepare("PRAGMA integrity_check");
    REQUIRE(check.step());
    REQUIRE(check.text(0) == "ok");
    // Whole games only: the games stored so far are the first games of the clean
    // import, each identical to it (for_each_game throws on one that does not decode).
    std::int64_t n = 0;
    db::for_each_game(*conn, {}, [&](game::GameRecord& g) {
      REQUIRE(n < std::int64_t(clean_games.size()));
      CHECK(game::write_pgn(g) == clean_games[std::size_t(n++)]);
      return true;
    });
    CHECK(n <= expected);
    CHECK(n >= before);  // committed games stay
    killed_midway |= n > before && n < expected;
    before = n;
  }
  CHECK(killed_midway);
  std::system(qipu_cmd("import --db " + path.string() + " " + pgn.string() + " > /dev/null 2>&1").c_str());
  auto conn = db::open_database(path.string(), db::Connection::Mode::ReadOnly);
  CHECK(count_rows(*conn, "SELECT count(*) FROM game") == expected);
  fs::remove(pgn);
}

TEST_CASE("db readers query while an import runs", "[db][slow]") {
  QIPU_NEEDS_CORPORA("real/pgnmentor");
  fs::path pgn = pgnmentor_players("read", {"Anand", "Carlsen", "Kasparov", "Karpov"});
  fs::path path = temp_db("readers");
  { auto c = db::open_database(path.string(), db::Connection::Mode::ReadWrite); }  // exists before the reader opens it
  pid_t pid = fork();
  if (pid == 0) {
    freopen("/dev/null", "w", stdout);
    freopen("/dev/null", "w", stderr);
    execl(QIPU_BINARY, QIPU_BINARY, "import", "--batch", "300", "--db", path.c_str(), pgn.c_str(), (char*)nullptr);
    _exit(127);
  }
  // Counts rise batch by batch under the reader's eyes, and every read succeeds.
  std::int64_t last = 0;
  int reads = 0, rises = 0;
  for (int status = 0; waitpid(pid, &status, WNOHANG) == 0; ++reads) {
    auto reader = db::open_database(path.string(), db::Connection::Mode::ReadOnly);
    std::int64_t n = count_rows(*reader, "SELECT count(*) FROM game");
    CHECK(n >= last);
    rises += n > last;
    last = n;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  CHECK(reads > 3);
  CHECK(rises >= 2);
  auto reader = db::open_database(path.string(), db::Connection::Mode::ReadOnly);
  CHECK(count_rows(*reader, "SELECT count(*) FROM game") > 5000);  // 8,189 distinct games
  fs::remove(pgn);
}

}  // namespace test_db
