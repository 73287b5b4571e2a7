// Tests for src/board: FEN reading and writing, legal move generation (perft against
// published suites), Chess960 castling, Polyglot keys and game termination.
//
// Expected values come from data files: in tests/data (scalachess's copies of the
// python-chess and shakmaty perft suites, a Stockfish book) and in the corpora
// (tests/corpora.hpp: Ethereal and kokopu suites), from published references (chessprogramming.org
// perft results, the Polyglot book-format specification) or from positions worked out
// by hand, with the reasoning in a comment.
//
// Perft depth is capped by the expected node count of each entry so that the suite stays
// fast; QIPU_PERFT_MAX_NODES=<n> raises the cap (and runs every line of random.perft).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "qipu/board/game_state.hpp"
#include "qipu/board/movegen.hpp"
#include "qipu/board/perft.hpp"
#include "qipu/board/position.hpp"

#include "cli_util.hpp"
#include "corpora.hpp"

// One namespace a file: the test files compile several to a unit (CMakeLists.txt).
namespace test_board {

using namespace qipu;
using cli_test::lower;
using cli_test::split;

namespace {

// A file of the repository's own sample, tests/data.
// Appended in place: GCC 12, given Catch2 as a precompiled header, warned about the
// moved temporary of std::string(QIPU_TEST_DATA) + "/" + rel (a false positive in its dead
// small-string branch; -Warray-bounds or -Wstringop-overflow by the checkout's path length).
std::string sample(const std::string& rel) {
  std::string path = QIPU_TEST_DATA "/";
  path += rel;
  return path;
}

std::uint64_t env_cap() {
  const char* v = std::getenv("QIPU_PERFT_MAX_NODES");
  return v ? std::strtoull(v, nullptr, 10) : 0;
}
// The node cap for one perft entry: the default, or the environment's when larger.
std::uint64_t node_cap(std::uint64_t def) { return std::max(def, env_cap()); }

std::string trim(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  std::size_t i = 0;
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  return s.substr(i);
}

// The first n space-separated fields of a FEN.
std::string fen_fields(const std::string& fen, int n) {
  std::istringstream in(fen);
  std::string f, out;
  for (int i = 0; i < n && in >> f; ++i) out += (i ? " " : "") + f;
  return out;
}

Position load(std::string_view fen, bool chess960 = false) {
  auto r = Position::from_fen(fen, chess960);
  INFO("FEN: " << fen << "  error: " << r.error());
  REQUIRE(r);
  return *r;
}

std::string fen_error(std::string_view fen, bool chess960 = false) {
  auto r = Position::from_fen(fen, chess960);
  return r ? std::string() : r.error();
}

std::set<std::string> legal_uci(const Position& pos) {
  MoveList list;
  generate_legal(pos, list);
  std::set<std::string> out;
  for (Move m : list) out.insert(pos.uci(m));
  return out;
}

Move uci_move(const Position& pos, const std::string& text) {
  Move m = pos.parse_uci(text);
  INFO("position " << pos.fen() << " move " << text);
  REQUIRE_FALSE(m.is_none());
  return m;
}

Position play_uci(Position pos, std::initializer_list<const char*> moves) {
  for (const char* t : moves) pos.play(uci_move(pos, t));
  return pos;
}

Termination termination_of(const Position& pos) { return GameState(pos).termination(); }

// ---- perft suites ----

struct PerftLine {
  std::string id;
  std::string fen;
  std::vector<std::pair<int, std::uint64_t>> counts;  // depth, expected nodes
};

// Ethereal: "FEN ;D1 n ;D2 n ..."
std::vector<PerftLine> read_epd_suite(const std::string& path) {
  std::ifstream in(path);
  REQUIRE(in.is_open());
  std::vector<PerftLine> lines;
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (trim(line).empty()) continue;
    auto parts = split(line, ';');
    PerftLine pl{"line " + std::to_string(n), trim(parts[0]), {}};
    for (std::size_t i = 1; i < parts.size(); ++i) {
      std::istringstream f(parts[i]);
      std::string d;
      std::uint64_t nodes;
      REQUIRE(f >> d >> nodes);
      REQUIRE(d.size() >= 2);
      REQUIRE(d[0] == 'D');
      pl.counts.emplace_back(std::stoi(d.substr(1)), nodes);
    }
    lines.push_back(pl);
  }
  return lines;
}

// python-chess / shakmaty: "id X", "epd FEN", "perft D N", comments with '#'.
std::vector<PerftLine> read_perft_suite(const std::string& path) {
  std::ifstream in(path);
  REQUIRE(in.is_open());
  std::vector<PerftLine> lines;
  std::string line;
  while (std::getline(in, line)) {
    line = trim(line);
    if (line.empty() || line[0] == '#') continue;
    if (line.rfind("id ", 0) == 0) {
      lines.push_back({line.substr(3), "", {}});
    } else if (line.rfind("epd ", 0) == 0) {
      REQUIRE(!lines.empty());
      lines.back().fen = line.substr(4);
    } else if (line.rfind("perft ", 0) == 0) {
      REQUIRE(!lines.empty());
      std::istringstream f(line.substr(6));
      int d;
      std::uint64_t nodes;
      REQUIRE(f >> d >> nodes);
      lines.back().counts.emplace_back(d, nodes);
    } else {
      FAIL("unexpected line in " << path << ": " << line);
    }
  }
  return lines;
}

struct PerftStats {
  int positions = 0;
  int entries = 0;
  std::uint64_t nodes = 0;
};

// Runs every entry whose expected count is within the cap. The lines are cumulative, so
// the deeper entries of a line are skipped once one exceeds the cap.
PerftStats run_perft(const std::vector<PerftLine>& lines, bool chess960, std::uint64_t cap, int stride = 1) {
  PerftStats st;
  for (std::size_t i = 0; i < lines.size(); i += std::size_t(stride)) {
    const PerftLine& pl = lines[i];
    Position pos = load(pl.fen, chess960);
    ++st.positions;
    for (auto [depth, expected] : pl.counts) {
      if (expected > cap) break;
      INFO(pl.id << ": " << pl.fen << " depth " << depth);
      REQUIRE(perft(pos, depth) == expected);
      ++st.entries;
      st.nodes += expected;
    }
  }
  return st;
}

}  // namespace

// ===================================================================== perft

TEST_CASE("perft: the six classic positions", "[board][perft]") {
  // chessprogramming.org "Perft Results", positions 1-6.
  struct Case {
    const char* name;
    const char* fen;
    std::vector<std::uint64_t> counts;  // depth 1, 2, ...
  };
  const Case cases[] = {
      {"start",
       "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
       {20, 400, 8902, 197281, 4865609, 119060324}},
      {"kiwipete",
       "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
       {48, 2039, 97862, 4085603, 193690690}},
      {"position 3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", {14, 191, 2812, 43238, 674624, 11030083, 178633661}},
      {"position 4",
       "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
       {6, 264, 9467, 422333, 15833292}},
      {"position 4 mirrored",
       "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
       {6, 264, 9467, 422333}},
      {"position 5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", {44, 1486, 62379, 2103487, 89941194}},
      {"position 6",
       "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
       {46, 2079, 89890, 3894594, 164075551}},
  };
  // Bulk counting makes even the 100-200 million leaf depths take well under a second each.
  const std::uint64_t cap = node_cap(200'000'000);
  for (const Case& c : cases) {
    Position pos = load(c.fen);
    for (std::size_t d = 0; d < c.counts.size() && c.counts[d] <= cap; ++d) {
      INFO(c.name << " depth " << d + 1);
      CHECK(perft(pos, int(d + 1)) == c.counts[d]);
    }
  }
}

// Every move a piece could make by its attacks (pawns: pushes and captures short of the
// last rank, en passant), judged by leaves_king_safe and by the legal move generator.
void check_king_safety_against_movegen(const Position& pos) {
  MoveList legal;
  generate_legal(pos, legal);
  Color us = pos.side_to_move();
  for (Bitboard b = pos.pieces(us); b;) {
    Square from = pop_lsb(b);
    PieceType t = type_of(pos.piece_on(from));
    Bitboard targets =
        t == Pawn ? (pawn_attacks(us, from) & pos.pieces(~us)) : attacks_of(t, from, pos.pieces()) & ~pos.pieces(us);
    Square push = us == White ? Square(from + 8) : Square(from - 8);
    if (t == Pawn && pos.piece_on(push) == NoPiece) targets |= square_bb(push);
    for (Bitboard tb = targets; tb;) {
      Square to = pop_lsb(tb);
      if (t == Pawn && relative_rank(us, to) == 7) continue;
      Move m(from, to);
      INFO(pos.fen() << " " << pos.uci(m));
      CHECK(pos.leaves_king_safe(m) == legal.contains(m));
    }
    if (t == Pawn && pos.ep_square() != NoSquare && (pawn_attacks(us, from) & square_bb(pos.ep_square()))) {
      Move ep(from, pos.ep_square(), MoveKind::EnPassant);
      INFO(pos.fen() << " " << pos.uci(ep));
      CHECK(pos.leaves_king_safe(ep) == legal.contains(ep));
    }
  }
}

// Calls visit on every position of the legal move tree below pos, to the given depth.
template <class Visit>
void walk_tree(const Position& pos, int depth, const Visit& visit) {
  visit(pos);
  if (depth == 0) return;
  MoveList list;
  generate_legal(pos, list);
  for (Move m : list) {
    Position next = pos;
    next.play(m);
    walk_tree(next, depth - 1, visit);
  }
}

TEST_CASE("leaves_king_safe agrees with the move generator in the perft trees", "[board][perft]") {
  // Pins, checks, discovered checks and en passant across the classic perft positions.
  for (const char* fen :
       {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"}) {
    walk_tree(load(fen), 2, check_king_safety_against_movegen);
  }
}

// The checkers play() finds after each move (the moved piece, a slider it uncovered)
// against a search of every enemy piece.
void check_checkers(const Position& pos) {
  INFO(pos.fen());
  REQUIRE(pos.checkers() == pos.attackers_to(pos.king(pos.side_to_move()), ~pos.side_to_move()));
}

TEST_CASE("checkers after a move agree with a search of the enemy pieces in the perft trees", "[board][perft]") {
  for (const char* fen :
       {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"}) {
    walk_tree(load(fen), 3, check_checkers);
  }
}

TEST_CASE("perft: divide sums to perft and names moves in UCI", "[board][perft]") {
  Position pos = load("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
  auto div = perft_divide(pos, 3);
  CHECK(div.size() == 48);
  std::uint64_t sum = 0;
  std::set<std::string> names;
  for (auto& [uci, n] : div) {
    sum += n;
    names.insert(uci);
  }
  CHECK(sum == 97862);
  CHECK(names.count("e1g1"));  // standard castling is king-to-destination
  CHECK(names.count("e1c1"));
  CHECK(perft(pos, 0) == 1);
}

TEST_CASE("perft: Ethereal standard.epd", "[board][perft][suite][corpus]") {
  QIPU_NEEDS_CORPORA("perft/ethereal/src__perft__standard.epd");
  auto lines = read_epd_suite(corpora::path("perft/ethereal/src__perft__standard.epd"));
  REQUIRE(lines.size() == 128);
  PerftStats st = run_perft(lines, false, node_cap(5'000'000));
  CHECK(st.positions == 128);
  CHECK(st.entries >= 127 * 4);
}

TEST_CASE("perft: Ethereal fischer.epd (Chess960, Shredder-FEN)", "[board][perft][suite][chess960][corpus]") {
  QIPU_NEEDS_CORPORA("perft/ethereal/src__perft__fischer.epd");
  auto lines = read_epd_suite(corpora::path("perft/ethereal/src__perft__fischer.epd"));
  REQUIRE(lines.size() == 960);
  PerftStats st = run_perft(lines, true, node_cap(5'000'000));
  CHECK(st.positions == 960);
  CHECK(st.entries >= 960 * 3);
}

// A perft suite of the repository's sample: all `count` positions read and run to `cap`.
static void run_sample_suite(const char* file, std::size_t count, bool chess960, std::uint64_t cap) {
  auto lines = read_perft_suite(sample(file));
  REQUIRE(lines.size() == count);
  PerftStats st = run_perft(lines, chess960, node_cap(cap));
  CHECK(st.positions == int(count));
}

TEST_CASE("perft: tricky.perft (scalachess)", "[board][perft][suite]") {
  run_sample_suite("perft/tricky.perft", 18, false, 5'000'000);
}

TEST_CASE("perft: python-chess and shakmaty tricky.perft", "[board][perft][suite][corpus]") {
  QIPU_NEEDS_CORPORA("perft/python-chess", "perft/shakmaty");
  for (const char* file :
       {"perft/python-chess/examples__perft__tricky.perft", "perft/shakmaty/shakmaty__tests__tricky.perft"}) {
    auto lines = read_perft_suite(corpora::path(file));
    REQUIRE(lines.size() >= 19);
    std::vector<PerftLine> accepted;
    for (const PerftLine& pl : lines) {
      // More pieces than a legal game can have (and more legal moves than any legal
      // position allows): refused by the FEN reader's setup rules.
      if (pl.id == "max-legals-too-much-material") {
        CHECK_THAT(fen_error(pl.fen), Catch::Contains("more than"));
        continue;
      }
      accepted.push_back(pl);
    }
    PerftStats st = run_perft(accepted, false, node_cap(5'000'000));
    CHECK(st.positions == int(accepted.size()));
  }
}

TEST_CASE("perft: chess960.perft (every fourth position)", "[board][perft][suite][chess960]") {
  // A quarter of the 960 positions of fischer.epd (run deeper above, with the corpora);
  // here the shallow entries, read from EPD with clock fields.
  auto lines = read_perft_suite(sample("perft/chess960.perft"));
  REQUIRE(lines.size() == 240);
  PerftStats st = run_perft(lines, true, node_cap(20'000));
  CHECK(st.entries >= 240 * 2);
}

TEST_CASE("perft: random.perft (every tenth position)", "[board][perft][suite]") {
  run_sample_suite("perft/random.perft", 684, false, 1'000'000);
}

// ===================================================================== kokopu positions

namespace {

struct KokopuRow {
  std::map<std::string, std::string> col;
  const std::string& operator[](const std::string& k) const { return col.at(k); }
};

std::vector<KokopuRow> read_tsv(const std::string& path) {
  std::ifstream in(path);
  REQUIRE(in.is_open());
  std::string line;
  REQUIRE(std::getline(in, line));
  auto header = split(line, '\t');
  std::vector<KokopuRow> rows;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    auto cells = split(line, '\t');
    REQUIRE(cells.size() == header.size());
    KokopuRow r;
    for (std::size_t i = 0; i < header.size(); ++i) r.col[header[i]] = cells[i];
    rows.push_back(r);
  }
  return rows;
}

// Castling rights as kokopu spells them: KQkq in regular chess, the rooks' files
// (upper case for White) in Chess960.
std::string castling_letters(const Position& pos, bool chess960) {
  std::string s;
  for (Color c : {White, Black}) {
    std::string side;
    for (bool long_side : {false, true}) {
      int idx = castling_index(c, long_side);
      if (!pos.can_castle(std::uint8_t(1 << idx))) continue;
      char letter = chess960 ? char('A' + file_of(pos.castling_rook(idx))) : (long_side ? 'Q' : 'K');
      side += c == White ? letter : char(std::tolower(letter));
    }
    std::sort(side.begin(), side.end());  // "KQ", "kq", or files in order
    s += side;
  }
  return s.empty() ? "-" : s;
}

}  // namespace

TEST_CASE("kokopu positions.csv: legal moves, check, mate, stalemate, dead positions", "[board][kokopu][corpus]") {
  QIPU_NEEDS_CORPORA("perft/kokopu/test__resources__positions.csv");
  auto rows = read_tsv(corpora::path("perft/kokopu/test__resources__positions.csv"));
  int checked = 0;
  for (const KokopuRow& row : rows) {
    const std::string& variant = row["VARIANT"];
    if (variant != "regular" && variant != "chess960") continue;
    bool c960 = variant == "chess960";
    std::string fen = row["FEN"];
    INFO(row["LABEL"] << ": " << fen);
    if (row["LEGAL"] != "true") {
      // Everything kokopu calls illegal is refused by our reader too.
      CHECK_FALSE(Position::from_fen(fen, c960));
      continue;
    }
    // kokopu drops castling rights and en passant squares that cannot apply; build the
    // FEN from its effective values (the reader here is strict and refuses impossible
    // fields, which the FEN tests below cover).
    auto f = split(fen, ' ');
    REQUIRE(f.size() == 6);
    std::string ep = row["EFF_EN_PASSANT"] == "-" ? "-" : row["EFF_EN_PASSANT"] + (f[1] == "w" ? "6" : "3");
    std::string eff = f[0] + " " + f[1] + " " + row["EFF_CASTLING"] + " " + ep + " " + f[4] + " " + f[5];
    Position pos = load(eff, c960);
    ++checked;

    // kokopu's UCI: king-to-destination castling in regular chess, king-takes-rook in
    // Chess960 (e.g. "c1b1" in the Chess960 base row) — the same as Position::uci.
    std::set<std::string> expected;
    if (!row["UCI_MOVES"].empty())
      for (const std::string& m : split(row["UCI_MOVES"], '/')) expected.insert(m);
    CHECK(legal_uci(pos) == expected);
    for (const std::string& m : expected) CHECK_FALSE(pos.parse_uci(m).is_none());

    CHECK(pos.in_check() == (row["CHECK"] == "true"));
    CHECK(has_legal_move(pos) == (row["HAS_MOVE"] == "true"));
    Termination t = termination_of(pos);
    CHECK((t == Termination::Checkmate) == (row["CHECKMATE"] == "true"));
    CHECK((t == Termination::Stalemate) == (row["STALEMATE"] == "true"));
    // kokopu's DEAD flag is the FIDE material rule (USCF's rule is wider: K+N v K+N …).
    if (row["CHECKMATE"] != "true") CHECK(insufficient_material(pos) == (row["DEAD"] == "true"));
    CHECK(castling_letters(pos, c960) == row["EFF_CASTLING"]);
    std::string ep_file = pos.ep_legal() ? std::string(1, char('a' + file_of(pos.ep_square()))) : "-";
    CHECK(ep_file == row["EFF_EN_PASSANT"]);
    CHECK(square_name(pos.king(White)) == row["WHITE_KING"]);
    CHECK(square_name(pos.king(Black)) == row["BLACK_KING"]);
  }
  CHECK(checked == 67 + 18);
}

TEST_CASE("kokopu positions.csv: original FEN fields", "[board][kokopu][corpus]") {
  QIPU_NEEDS_CORPORA("perft/kokopu/test__resources__positions.csv");
  // Where kokopu keeps the given castling and en passant fields, our reader accepts the
  // FEN as written; where kokopu silently drops impossible ones, ours refuses the FEN.
  auto rows = read_tsv(corpora::path("perft/kokopu/test__resources__positions.csv"));
  for (const KokopuRow& row : rows) {
    const std::string& variant = row["VARIANT"];
    if ((variant != "regular" && variant != "chess960") || row["LEGAL"] != "true") continue;
    bool c960 = variant == "chess960";
    auto f = split(row["FEN"], ' ');
    INFO(row["LABEL"] << ": " << row["FEN"]);
    auto r = Position::from_fen(row["FEN"], c960);
    bool ep_kept = f[3] == "-" || f[3].substr(0, 1) == row["EFF_EN_PASSANT"];
    // An en passant square whose capture is illegal (a pin, or a check the capture does
    // not answer) is still a valid FEN field; kokopu reports it as not effective.
    bool ep_valid = ep_kept || row["LABEL"].rfind("En-passant pinning", 0) == 0 ||
                    row["LABEL"] == "Discovered attack with en-passant 2";
    std::string given = f[2];
    std::string eff = row["EFF_CASTLING"];
    if (c960) {
      std::sort(given.begin(), given.end());
      std::sort(eff.begin(), eff.end());
    }
    bool castling_kept = given == eff;
    // Two deliberate differences: in regular chess "KQ" with the king off e1 is read as
    // X-FEN (Chess960 castling with the outermost rook), and a Chess960 king in the
    // corner keeps rights kokopu drops.
    if (row["LABEL"].find("king not on e") != std::string::npos ||
        row["LABEL"] == "Chess960 - Wrong castling flags (king in corner)") {
      CHECK(r);
      continue;
    }
    if (ep_valid && castling_kept) {
      CHECK(r);
    } else {
      CHECK_FALSE(r);
    }
  }
}

// ===================================================================== FEN

TEST_CASE("FEN: canonical FENs round trip", "[board][fen]") {
  const char* fens[] = {
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
      "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
      "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
      "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
      "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
      "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
      "rnbqkbnr/pp1ppppp/8/8/2pPP3/8/PPP2PPP/RNBQKBNR b KQkq d3 0 3",
      "4k3/8/8/8/8/8/8/4K2R w K - 99 150",
      "r3k3/8/8/8/8/8/8/4K3 b q - 12 40",
  };
  for (const char* fen : fens) {
    Position pos = load(fen);
    CHECK(pos.fen() == fen);
    CHECK(load(pos.fen()) == pos);
  }
  CHECK(Position().fen() == StartFen);
  CHECK(load(StartFen) == Position());
  // EPD-style four fields get clocks 0 1.
  CHECK(load("8/8/8/4k3/8/8/8/4K2R w K -").fen() == "8/8/8/4k3/8/8/8/4K2R w K - 0 1");
  // Extra blanks between fields are accepted.
  CHECK(load("  8/8/8/4k3/8/8/8/4K3   b  -  -  3  7 ").fen() == "8/8/8/4k3/8/8/8/4K3 b - - 3 7");
}

TEST_CASE("FEN: kokopu fens.csv", "[board][fen][kokopu][corpus]") {
  QIPU_NEEDS_CORPORA("perft/kokopu/test__resources__fens.csv");
  // For each row: either we accept it and its placement, turn, castling and en passant
  // fields are written as kokopu writes them (for Chess960, as its FEN_OUT_WITHOUT_XFEN
  // column, KQkq-style, where that has a value), or we refuse it on purpose, for the
  // reason named.
  const std::map<std::string, std::string> refused = {
      {"Base 2", "fullmove"},                                           // move number 0
      {"Invalid en-passant (rank)", "rank"},                            // d6 with Black to move
      {"Ineffective en-passant 1", "halfmove"},                         // e.p. square, clock 2
      {"Ineffective en-passant 2", "no pawn"},                          // no pawn passed h6
      {"Ambiguous FEN style with king not on 1st rank", "first rank"},  // C/G rights, king on a3
      {"Ambiguous FEN style with multiple kings", "kings"},
      {"Ambiguous FEN style with flag not on rook file 1", "no rook"},
      {"Ambiguous FEN style with flag not on rook file 2", "no rook"},
      {"Ambiguous FEN style with flag on king file", "no rook"},
      {"Castling flag decoding without rooks", "no rook"},
  };
  auto rows = read_tsv(corpora::path("perft/kokopu/test__resources__fens.csv"));
  REQUIRE(rows.size() == 27);
  for (const KokopuRow& row : rows) {
    bool c960 = row["VARIANT"] == "chess960";
    INFO(row["LABEL"] << ": " << row["FEN_IN"]);
    auto r = Position::from_fen(row["FEN_IN"], c960);
    auto it = refused.find(row["LABEL"]);
    if (it != refused.end()) {
      REQUIRE_FALSE(r);
      CHECK_THAT(lower(r.error()), Catch::Contains(it->second));
      continue;
    }
    REQUIRE(r);
    const Position& pos = *r;
    CHECK(pos.halfmove_clock() == std::stoi(row["FIFTY_MOVE_CLOCK"]));
    CHECK(pos.fullmove_number() == std::stoi(row["FULL_MOVE_NUMBER"]));
    CHECK(castling_letters(pos, c960) == row["CASTLING"]);
    // We write X-FEN: KQkq for the outermost rook, a file letter otherwise. kokopu's
    // FEN_OUT_WITHOUT_XFEN column is that style where it has a value.
    std::string expected =
        c960 && !row["FEN_OUT_WITHOUT_XFEN"].empty() ? row["FEN_OUT_WITHOUT_XFEN"] : row["FEN_OUT_DEFAULT"];
    // kokopu leaves that column empty when two rooks stand on the castling side; X-FEN
    // still says Q for the outermost one (b1 here, with c1 inside it).
    if (row["LABEL"] == "Ambiguous FEN style with 3 rooks 2")
      expected = "bnrknqrb/pppppppp/8/8/8/8/PPPPPPPP/BRRKNQRB w Q - 0 1";
    CHECK(fen_fields(pos.fen(), 4) == fen_fields(expected, 4));
    // Our own output reads back to the same position (an en passant square with no legal
    // capture is not written, so compare FENs and repetition keys, not Polyglot keys).
    Position back = load(pos.fen(), c960);
    CHECK(back.fen() == pos.fen());
    CHECK(back.repetition_key() == pos.repetition_key());
  }
}

TEST_CASE("FEN: invalid FENs are refused with a reason", "[board][fen]") {
  struct Bad {
    const char* fen;
    const char* reason;  // lower-case words the message must contain
  };
  const Bad bad[] = {
      // wrong field count
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", "fields"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0", "fields"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra", "fields"},
      {"", "fields"},
      // bad piece letters
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "piece letter"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN9 w KQkq - 0 1", "piece letter"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN0 w KQkq - 0 1", "piece letter"},
      // ranks not summing to 8
      {"rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "squares"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1", "squares"},
      {"rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "more than 8"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR1 w KQkq - 0 1", "more than 8"},
      {"rnbqkbnr/pppppppp/52/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "squares"},
      {"rnbqkbnr/pppppppp/81/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "more than 8"},
      // wrong number of ranks
      {"rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "ranks"},
      {"rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "ranks"},
      {"8/8/8/8/8/8/8/8/ w - - 0 1", "ranks"},
      // kings
      {"8/8/8/8/8/8/8/4K3 w - - 0 1", "no king"},
      {"4k3/8/8/8/8/8/8/8 w - - 0 1", "no king"},
      {"4k3/8/8/8/8/8/8/3KK3 w - - 0 1", "kings"},
      {"3kk3/8/8/8/8/8/8/4K3 w - - 0 1", "kings"},
      // pawns on the first or last rank
      {"4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "pawn"},
      {"P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "pawn"},
      {"4k2p/8/8/8/8/8/8/4K3 w - - 0 1", "pawn"},
      {"4k3/8/8/8/8/8/8/4K2p w - - 0 1", "pawn"},
      // the side not to move is in check (rook e1 attacks the black king, White to move)
      {"4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", "check"},
      {"4k3/8/8/8/8/8/3p4/4K3 b - - 0 1", "check"},  // pawn d2 gives check to e1
      // side to move
      {"4k3/8/8/8/8/8/8/4K3 x - - 0 1", "side to move"},
      {"4k3/8/8/8/8/8/8/4K3 W - - 0 1", "side to move"},
      // castling rights without the king or rook they need
      {"4k3/8/8/8/8/8/8/4K3 w K - 0 1", "rook"},
      {"4k3/8/8/8/8/8/8/4K3 w Q - 0 1", "rook"},
      {"r3k3/8/8/8/8/8/8/4K3 w k - 0 1", "rook"},
      {"4k3/8/8/8/8/8/4K3/R6R w KQ - 0 1", "king"},
      {"r3k2r/8/8/8/8/8/8/4K3 w KQkq - 0 1", "rook"},
      {"4k3/8/8/8/8/8/8/RN2K3 w B - 0 1", "rook"},  // Shredder letter on a knight
      // bad castling letters
      {"r3k2r/8/8/8/8/8/8/R3K2R w KQkx - 0 1", "castling letter"},
      {"r3k2r/8/8/8/8/8/8/R3K2R w KQk1 - 0 1", "castling letter"},
      {"r3k2r/8/8/8/8/8/8/R3K2R w KKqk - 0 1", "twice"},
      // en passant square on the wrong rank
      {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1", "rank"},
      {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e6 0 1", "rank"},
      {"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f3 0 3", "rank"},
      // en passant square with no pawn that just moved two squares past it
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1", "no pawn"},
      {"rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq d6 0 2", "no pawn"},
      {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq d3 0 1", "no pawn"},
      {"rnbqkb1r/pppp1ppp/4n3/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 2", "could not"},  // e6 occupied
      {"rnbqkbnr/pppppppp/8/8/2P5/8/PPNPPPPP/R1BQKBNR b KQkq c3 0 1", "could not"},    // c2 occupied
      {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq x3 0 1", "en passant"},
      {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e33 0 1", "en passant"},
      // bad clocks
      {"4k3/8/8/8/8/8/8/4K3 w - - x 1", "halfmove"},
      {"4k3/8/8/8/8/8/8/4K3 w - - -1 1", "halfmove"},
      {"4k3/8/8/8/8/8/8/4K3 w - - 1.5 1", "halfmove"},
      {"4k3/8/8/8/8/8/8/4K3 w - - 0 0", "fullmove"},
      {"4k3/8/8/8/8/8/8/4K3 w - - 0 -3", "fullmove"},
      {"4k3/8/8/8/8/8/8/4K3 w - - 0 one", "fullmove"},
      // An en passant square means a pawn just moved, so the halfmove clock must be 0 —
      // whether or not an enemy pawn stands beside it.
      {"rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 5 1", "halfmove"},
      {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 5 1", "halfmove"},
  };
  for (const Bad& b : bad) {
    INFO("FEN: '" << b.fen << "'");
    auto r = Position::from_fen(b.fen);
    REQUIRE_FALSE(r);
    CHECK_THROWS_AS(r.value(), std::logic_error);  // no position to misuse
    CHECK_THAT(lower(r.error()), Catch::Contains(b.reason));
  }
}

TEST_CASE("FEN: en passant written only when a legal capture exists", "[board][fen]") {
  // After 1.e4 no black pawn can take: '-'.
  Position pos = play_uci(Position(), {"e2e4"});
  CHECK(pos.fen() == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  CHECK(pos.ep_square() == NoSquare);
  CHECK_FALSE(pos.ep_legal());

  // 1.e4 d5 2.e5 f5: e5xf6 is possible, the FEN keeps f6.
  pos = play_uci(Position(), {"e2e4", "d7d5", "e4e5", "f7f5"});
  CHECK(pos.fen() == "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
  CHECK(pos.ep_legal());

  // The capturer is pinned along the rank (king a5, rook h5): the capture would expose the
  // king, so no en passant in the FEN, though the pawn stands beside (Polyglot's rule).
  pos = load("4k3/8/8/K1pP3r/8/8/8/8 w - c6 0 1");
  CHECK(pos.ep_square() == C6);
  CHECK_FALSE(pos.ep_legal());
  CHECK(pos.fen() == "4k3/8/8/K1pP3r/8/8/8/8 w - - 0 1");

  // Diagonal pin (bishop a8, king g2) on the d5 pawn: d5xe6 leaves the diagonal …
  pos = load("b3k3/8/8/3Pp3/8/8/6K1/8 w - e6 0 1");
  CHECK_FALSE(pos.ep_legal());
  CHECK(pos.fen() == "b3k3/8/8/3Pp3/8/8/6K1/8 w - - 0 1");
  // … but d5xc6 stays on it, so that capture is legal and kept.
  pos = load("b3k3/8/8/2pP4/8/8/6K1/8 w - c6 0 1");
  CHECK(pos.ep_legal());
  CHECK(pos.fen() == "b3k3/8/8/2pP4/8/8/6K1/8 w - c6 0 1");
  CHECK(legal_uci(pos).count("d5c6"));

  // Played rather than read: the same pinned case reached by a double push.
  pos = load("4k3/2p5/8/K2P3r/8/8/8/8 b - - 0 1");
  pos.play(uci_move(pos, "c7c5"));
  CHECK(pos.fen() == "4k3/8/8/K1pP3r/8/8/8/8 w - - 0 2");
}

TEST_CASE("FEN: the start position as a Position()", "[board][fen]") {
  Position pos;
  CHECK(pos.side_to_move() == White);
  CHECK(pos.castling_rights() == (WhiteShort | WhiteLong | BlackShort | BlackLong));
  CHECK(pos.castling_rook(castling_index(White, false)) == H1);
  CHECK(pos.castling_rook(castling_index(White, true)) == A1);
  CHECK(pos.castling_rook(castling_index(Black, false)) == H8);
  CHECK(pos.castling_rook(castling_index(Black, true)) == A8);
  CHECK(pos.piece_on(E1) == WhiteKing);
  CHECK(pos.piece_on(D8) == BlackQueen);
  CHECK(pos.piece_on(E4) == NoPiece);
  CHECK(popcount(pos.pieces()) == 32);
  CHECK(pos.king(Black) == E8);
  CHECK(pos.halfmove_clock() == 0);
  CHECK(pos.fullmove_number() == 1);
  CHECK_FALSE(pos.chess960());
  CHECK_FALSE(pos.in_check());
  Position empty{Position::Empty{}};
  CHECK(empty.pieces() == 0);
}

// ===================================================================== Chess960

TEST_CASE("Chess960: Shredder-FEN and X-FEN castling fields", "[board][chess960]") {
  // Shredder HAha on the standard array names the same rooks as KQkq.
  Position s = load("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", true);
  CHECK(s.castling_rights() == 15);
  CHECK(s.castling_rook(castling_index(White, false)) == H1);
  CHECK(s.castling_rook(castling_index(White, true)) == A1);
  CHECK(s.castling_rook(castling_index(Black, false)) == H8);
  CHECK(s.castling_rook(castling_index(Black, true)) == A8);
  CHECK(perft(s, 3) == 8902);

  // X-FEN: K/Q name the outermost rook on that side; a letter names an inner one.
  // White: rooks a1 b1 | king e1 | g1. Black: rook b8 | king e8 | g8 h8.
  Position x = load("1r2k1rr/pppppppp/8/8/8/8/PPPPPPPP/RR2K1R1 w KQkq - 0 1", true);
  CHECK(x.castling_rook(castling_index(White, false)) == G1);
  CHECK(x.castling_rook(castling_index(White, true)) == A1);
  CHECK(x.castling_rook(castling_index(Black, false)) == H8);
  CHECK(x.castling_rook(castling_index(Black, true)) == B8);
  CHECK(x.fen() == "1r2k1rr/pppppppp/8/8/8/8/PPPPPPPP/RR2K1R1 w KQkq - 0 1");
  Position inner = load("1r2k1rr/pppppppp/8/8/8/8/PPPPPPPP/RR2K1R1 w BKgq - 0 1", true);
  CHECK(inner.castling_rook(castling_index(White, true)) == B1);
  CHECK(inner.castling_rook(castling_index(Black, false)) == G8);
  // Written back in X-FEN: letters for the inner rooks, K/q for the outermost.
  CHECK(inner.fen() == "1r2k1rr/pppppppp/8/8/8/8/PPPPPPPP/RR2K1R1 w KBgq - 0 1");
  CHECK(load(inner.fen(), true) == inner);

  // A Chess960 start array (Scharnagl 518 is the standard one; this is another).
  Position n = load("nrkbqrbn/pppppppp/8/8/8/8/PPPPPPPP/NRKBQRBN w BFbf - 0 1", true);
  CHECK(n.castling_rook(castling_index(White, true)) == B1);
  CHECK(n.castling_rook(castling_index(White, false)) == F1);
  Position nx = load("nrkbqrbn/pppppppp/8/8/8/8/PPPPPPPP/NRKBQRBN w KQkq - 0 1", true);
  CHECK(nx == n);

  // Without the chess960 flag, castling rights that only make sense in Chess960 (king off
  // e1, or Shredder letters) switch the position to Chess960 rules; KQkq on the standard
  // array does not.
  CHECK(load("4k3/8/8/8/8/8/8/R2K3R w KQ - 0 1").chess960());
  CHECK(load("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1").chess960());
  CHECK_FALSE(load(StartFen).chess960());
}

TEST_CASE("Chess960: the 960 start positions of kokopu scharnagl.csv", "[board][chess960][kokopu][corpus]") {
  QIPU_NEEDS_CORPORA("perft/kokopu/test__resources__scharnagl.csv");
  auto rows = read_tsv(corpora::path("perft/kokopu/test__resources__scharnagl.csv"));
  REQUIRE(rows.size() == 960);
  std::set<std::string> schemes;
  for (const KokopuRow& row : rows) {
    INFO(row["CODE"] << ": " << row["FEN"]);
    Position pos = load(row["FEN"], true);
    CHECK(pos.chess960());
    std::string scheme = row["SCHEME"];
    schemes.insert(scheme);
    for (int f = 0; f < 8; ++f) {
      Piece black = pos.piece_on(make_square(f, 7));
      CHECK(" pnbrqk"[type_of(black)] == scheme[f]);
      CHECK(color_of(black) == Black);
      CHECK(type_of(pos.piece_on(make_square(f, 0))) == type_of(black));  // mirrored
    }
    // The castling rooks are the two rooks, on the files the CASTLING column names.
    std::string files;
    for (int idx : {castling_index(Black, true), castling_index(Black, false)})
      files += char('a' + file_of(pos.castling_rook(idx)));
    CHECK(files == row["CASTLING"]);
    CHECK(pos.castling_rights() == 15);
    // Each side has 16 pawn moves plus two or more knight moves.
    MoveList list;
    generate_legal(pos, list);
    CHECK(list.size() >= 18);
    CHECK(load(pos.fen(), true) == pos);
  }
  CHECK(schemes.size() == 960);
  // Scharnagl number 518 is the standard array.
  auto it = std::find_if(rows.begin(), rows.end(), [](const KokopuRow& r) { return r["CODE"] == "518"; });
  REQUIRE(it != rows.end());
  CHECK((*it)["SCHEME"] == "rnbqkbnr");
  // In X-FEN it is written KQkq, as the standard start position.
  CHECK(fen_fields(load((*it)["FEN"], true).fen(), 3) == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq");
}

TEST_CASE("Chess960: castling by the 960 rules", "[board][chess960]") {
  SECTION("king b1, rook a1: long castling puts the king on c1 and the rook on d1") {
    Position pos = load("4k3/8/8/8/8/8/8/RK6 w A - 0 1", true);
    CHECK(legal_uci(pos).count("b1a1"));
    pos.play(uci_move(pos, "b1a1"));
    CHECK(pos.piece_on(C1) == WhiteKing);
    CHECK(pos.piece_on(D1) == WhiteRook);
    CHECK(pos.piece_on(A1) == NoPiece);
    CHECK(pos.piece_on(B1) == NoPiece);
    CHECK(pos.castling_rights() == 0);
    CHECK(pos.key() == pos.compute_key());
    CHECK(pos.fen() == "4k3/8/8/8/8/8/8/2KR4 b - - 1 1");
  }
  SECTION("king and rook swap squares") {
    Position pos = load("4k3/8/8/8/8/8/8/5KR1 w G - 0 1", true);  // short: king g1, rook f1
    pos.play(uci_move(pos, "f1g1"));
    CHECK(pos.piece_on(G1) == WhiteKing);
    CHECK(pos.piece_on(F1) == WhiteRook);
    Position pos2 = load("4k3/8/8/8/8/8/8/2RK4 w C - 0 1", true);  // long: king c1, rook d1
    pos2.play(uci_move(pos2, "d1c1"));
    CHECK(pos2.piece_on(C1) == WhiteKing);
    CHECK(pos2.piece_on(D1) == WhiteRook);
    CHECK(pos2.key() == pos2.compute_key());
  }
  SECTION("king already on its destination: only the rook moves") {
    Position pos = load("4k3/8/8/8/8/8/8/6KR w H - 0 1", true);
    CHECK(legal_uci(pos).count("g1h1"));
    pos.play(uci_move(pos, "g1h1"));
    CHECK(pos.piece_on(G1) == WhiteKing);
    CHECK(pos.piece_on(F1) == WhiteRook);
    CHECK(pos.piece_on(H1) == NoPiece);
  }
  SECTION("castling blocked by a piece between") {
    // Bishop d1 stands on the rook's destination.
    CHECK_FALSE(legal_uci(load("4k3/8/8/8/8/8/8/RK1B4 w A - 0 1", true)).count("b1a1"));
    // Knight e1 on the king's path from g1 to c1.
    CHECK_FALSE(legal_uci(load("4k3/8/8/8/8/8/8/R3N1K1 w A - 0 1", true)).count("g1a1"));
    CHECK(legal_uci(load("4k3/8/8/8/8/8/8/R5K1 w A - 0 1", true)).count("g1a1"));
    // Standard long castling: the knight b1 stands between the rook a1 and d1.
    CHECK_FALSE(legal_uci(load("4k3/8/8/8/8/8/8/RN2K3 w Q - 0 1")).count("e1c1"));
    // An enemy piece on the king's destination blocks too.
    CHECK_FALSE(legal_uci(load("4k3/8/8/8/8/8/8/R1n1K3 w Q - 0 1")).count("e1c1"));
  }
  SECTION("the castling rook shields the king along the back rank") {
    // King c1, rook b1, black rook a1. Long castling leaves the king on c1 and moves the
    // rook to d1, opening the rank: the king would stand in check, so it is illegal.
    Position pos = load("4k3/8/8/8/8/8/8/rRK5 w B - 0 1", true);
    CHECK_FALSE(pos.in_check());
    CHECK_FALSE(legal_uci(pos).count("c1b1"));
    CHECK_FALSE(pos.castling_legal(C1, B1));
    // Without the black rook it is legal.
    Position ok = load("4k3/8/8/8/8/8/8/1RK5 w B - 0 1", true);
    CHECK(ok.castling_legal(C1, B1));
  }
  SECTION("squares the king crosses must not be attacked") {
    // Black rook d8 controls d1, on the path of a king g1 castling long (to c1).
    CHECK_FALSE(legal_uci(load("3rk3/8/8/8/8/8/8/R5K1 w A - 0 1", true)).count("g1a1"));
    // Only the rook crosses b1; an attack there does not matter (rook b8 attacks b1).
    CHECK(legal_uci(load("1r2k3/8/8/8/8/8/8/R3K3 w Q - 0 1")).count("e1c1"));
  }
}

TEST_CASE("Chess960: castling rights lost by moves and captures", "[board][chess960]") {
  Position pos = load("1r2k2r/8/8/8/8/8/8/1R2K1R1 w BGbh - 0 1", true);
  CHECK(pos.castling_rights() == 15);
  CHECK(pos.castling_rook(castling_index(White, true)) == B1);
  CHECK(pos.castling_rook(castling_index(White, false)) == G1);
  CHECK(pos.castling_rook(castling_index(Black, true)) == B8);
  CHECK(pos.castling_rook(castling_index(Black, false)) == H8);
  // Rb1xb8+: White's b-rook moved (B lost) and Black's b-rook was captured (b lost).
  pos.play(uci_move(pos, "b1b8"));
  CHECK(pos.castling_rights() == (WhiteShort | BlackShort));
  CHECK(pos.key() == pos.compute_key());
  CHECK(fen_fields(pos.fen(), 3) == "1R2k2r/8/8/8/8/8/8/4K1R1 b Kk");
  // The black king moves: both black rights are gone.
  pos.play(uci_move(pos, "e8d7"));
  CHECK(pos.castling_rights() == WhiteShort);
  // The white g-rook moves: nothing left.
  pos.play(uci_move(pos, "g1g2"));
  CHECK(pos.castling_rights() == 0);
  CHECK(pos.key() == pos.compute_key());

  // Standard chess: a capture on h8 removes Black's short right only.
  Position std_pos = load("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  std_pos.play(uci_move(std_pos, "h1h8"));
  CHECK(std_pos.castling_rights() == (WhiteLong | BlackLong));
  CHECK(fen_fields(std_pos.fen(), 3) == "r3k2R/8/8/8/8/8/8/R3K3 b Qq");
}

// ===================================================================== Polyglot keys

TEST_CASE("Polyglot keys: the specification's reference positions", "[board][polyglot]") {
  // Polyglot book_format.html, "test positions".
  struct Ref {
    std::vector<const char*> moves;
    const char* fen;
    Key key;
  };
  const Ref refs[] = {
      {{}, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0x463b96181691fc9cULL},
      {{"e2e4"}, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", 0x823c9b50fd114196ULL},
      {{"e2e4", "d7d5"}, "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2", 0x0756b94461c50fb0ULL},
      {{"e2e4", "d7d5", "e4e5"}, "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2", 0x662fafb965db29d4ULL},
      {{"e2e4", "d7d5", "e4e5", "f7f5"},
       "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
       0x22a48b5a8e47ff78ULL},
      {{"e2e4", "d7d5", "e4e5", "f7f5", "e1e2"},
       "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR b kq - 0 3",
       0x652a607ca3f242c1ULL},
      {{"e2e4", "d7d5", "e4e5", "f7f5", "e1e2", "e8f7"},
       "rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 0 4",
       0x00fdd303c946bdd9ULL},
      {{"a2a4", "b7b5", "h2h4", "b5b4", "c2c4"},
       "rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3",
       0x3c8123ea7b067637ULL},
      {{"a2a4", "b7b5", "h2h4", "b5b4", "c2c4", "b4c3", "a1a3"},
       "rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 0 4",
       0x5c3f9b829b279560ULL},
  };
  for (const Ref& r : refs) {
    INFO(r.fen);
    Position by_fen = load(r.fen);
    CHECK(by_fen.key() == r.key);
    CHECK(by_fen.compute_key() == r.key);
    Position played;
    for (const char* m : r.moves) played.play(uci_move(played, m));
    CHECK(played.key() == r.key);
    CHECK(played.compute_key() == r.key);
    CHECK(fen_fields(played.fen(), 4) == fen_fields(load(r.fen).fen(), 4));
  }
}

TEST_CASE("Polyglot keys: incremental key equals the recomputed key in random playouts", "[board][polyglot]") {
  std::mt19937 rng(12345);
  int castles = 0, promotions = 0, en_passant = 0, plies = 0;
  const std::pair<const char*, bool> starts[] = {
      {StartFen.data(), false},
      {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false},
      {"n1n5/PPPk4/8/8/8/8/4Kppp/5N1N w - - 0 1", false},
      {"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", true},
      {"nrkbqrbn/pppppppp/8/8/8/8/PPPPPPPP/NRKBQRBN w BFbf - 0 1", true},
  };
  for (int game = 0; game < 150; ++game) {
    auto [fen, c960] = starts[game % 5];
    Position pos = load(fen, c960);
    for (int ply = 0; ply < 250; ++ply) {
      MoveList list;
      generate_legal(pos, list);
      if (list.empty()) break;
      Move m = list[rng() % list.size()];
      castles += m.kind() == MoveKind::Castling;
      promotions += m.kind() == MoveKind::Promotion;
      en_passant += m.kind() == MoveKind::EnPassant;
      std::string before = pos.fen();
      pos.play(m);
      ++plies;
      INFO("after " << before << " + " << m.raw());
      REQUIRE(pos.key() == pos.compute_key());
      REQUIRE(pos.checkers() == pos.attackers_to(pos.king(pos.side_to_move()), ~pos.side_to_move()));
      // The written FEN reads back to the same position (and repetition key).
      Position back = load(pos.fen(), c960);
      REQUIRE(back.fen() == pos.fen());
      REQUIRE(back.repetition_key() == pos.repetition_key());
      if (popcount(pos.pieces()) == 2) break;
    }
  }
  CHECK(plies > 10000);
  CHECK(castles > 0);
  CHECK(promotions > 0);
  CHECK(en_passant > 0);
}

TEST_CASE("Polyglot keys: null move flips only the side to move", "[board][polyglot]") {
  Position pos;
  Key before = pos.key();
  pos.play(Move::null());
  CHECK(pos.side_to_move() == Black);
  CHECK((pos.key() ^ before) == 0xF8D626AAAF278509ULL);  // Random64[780], "turn"
  CHECK(pos.key() == pos.compute_key());
}

// ===================================================================== game state

TEST_CASE("game state: check and checkmate", "[board][game]") {
  SECTION("fool's mate, played") {
    GameState g;
    for (const char* m : {"f2f3", "e7e5", "g2g4"}) {
      g.play(uci_move(g.position(), m));
      CHECK(g.termination() == Termination::None);
    }
    g.play(uci_move(g.position(), "d8h4"));
    CHECK(g.position().in_check());
    CHECK(g.termination() == Termination::Checkmate);
    CHECK(ends_game(g.termination()));
    CHECK(termination_name(g.termination()) == "checkmate");
  }
  SECTION("back-rank mate: rook a8, king g8 behind its own pawns") {
    Position pos = load("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1");
    CHECK(pos.in_check());
    CHECK(popcount(pos.checkers()) == 1);
    CHECK(termination_of(pos) == Termination::Checkmate);
    // Give the king luft and it is only check.
    CHECK(termination_of(load("R5k1/5pp1/7p/8/8/8/8/6K1 b - - 0 1")) == Termination::None);
  }
  SECTION("smothered mate: knight f7 against king h8 boxed in by rook g8, pawns g7 h7") {
    Position pos = load("6rk/5Npp/8/8/8/8/8/6K1 b - - 0 1");
    CHECK(pos.in_check());
    CHECK(termination_of(pos) == Termination::Checkmate);
    // Reached by play: Nh6-f7#.
    GameState g(load("6rk/6pp/7N/8/8/8/8/6K1 w - - 0 1"));
    g.play(uci_move(g.position(), "h6f7"));
    CHECK(g.termination() == Termination::Checkmate);
  }
  SECTION("mate delivered by an en passant capture") {
    // After ...d7-d5, exd6 e.p. opens the e-file for the rook e1 against king e8.
    // d8, f8: black rooks; f7: black pawn; d7: covered by the knight b6; e7: attacked by
    // the new pawn on d6 (and on the file). Neither rook can block or capture on the file.
    GameState g(load("3rkr2/5p2/1N6/3pP3/8/8/8/4R1K1 w - d6 0 2"));
    Move ep = uci_move(g.position(), "e5d6");
    CHECK(ep.kind() == MoveKind::EnPassant);
    g.play(ep);
    CHECK(g.position().piece_on(D5) == NoPiece);
    CHECK(g.position().piece_on(D6) == WhitePawn);
    CHECK(g.position().in_check());
    CHECK(g.termination() == Termination::Checkmate);
  }
  SECTION("check that is not mate") {
    Position pos = load("4k3/8/8/8/8/8/8/4R1K1 b - - 0 1");
    CHECK(pos.in_check());
    CHECK(termination_of(pos) == Termination::None);
  }
}

TEST_CASE("game state: stalemate", "[board][game]") {
  // King h8, queen f7 (covering g8, g7, h7 and nothing on h8), king g6.
  Position pos = load("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
  CHECK_FALSE(pos.in_check());
  CHECK(termination_of(pos) == Termination::Stalemate);
  CHECK(ends_game(Termination::Stalemate));
  // Black king a1, white queen c2 (covering a2, b1, b2).
  CHECK(termination_of(load("8/8/8/8/8/8/2Q5/k3K3 b - - 0 1")) == Termination::Stalemate);
  // Black has a pawn, but it is blocked: still stalemate.
  CHECK(termination_of(load("8/8/8/8/p7/P7/2Q5/k3K3 b - - 0 1")) == Termination::Stalemate);
  // Reached by play: Qd2-c2.
  GameState g(load("8/8/8/8/8/8/3Q4/k3K3 w - - 0 1"));
  CHECK(g.termination() == Termination::None);
  g.play(uci_move(g.position(), "d2c2"));
  CHECK(g.termination() == Termination::Stalemate);
}

TEST_CASE("game state: the stalemates_200d30 book reads as legal positions", "[board][game]") {
  // This Stockfish book holds positions that are not (yet) stalemates — each has legal
  // moves; it is used here (every tenth line of it) as a set of real positions: every FEN
  // must be accepted and written back unchanged.
  std::ifstream in(sample("fen/stalemates_200d30_v1-sample.epd"));
  REQUIRE(in.is_open());
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    line = trim(line);
    if (line.empty()) continue;
    ++n;
    INFO(line);
    auto r = Position::from_fen(line);
    REQUIRE(r);
    REQUIRE(r->fen() == line);
  }
  CHECK(n == 1080);
}

TEST_CASE("game state: insufficient material", "[board][game]") {
  // Square colours: a square is dark when file + rank is even (a1 = 0+0 is dark):
  // a1 c1 g1 a3 e3 g7 f8 h8 are dark; b1 d1 f1 c8 are light.
  struct Case {
    const char* fen;
    bool dead;
  };
  const Case cases[] = {
      {"4k3/8/8/8/8/8/8/4K3 w - - 0 1", true},          // K v K
      {"4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", true},        // K+B v K
      {"4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", true},        // K+N v K
      {"4kn2/8/8/8/8/8/8/4K3 w - - 0 1", true},         // K v K+N
      {"4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", true},       // K+B v K+B, f8 and c1 dark
      {"4k3/8/8/8/8/8/8/2B1K1b1 w - - 0 1", true},      // c1 and g1, both dark
      {"4k3/8/8/8/8/8/8/3BKb2 w - - 0 1", true},        // d1 and f1, both light
      {"4k2b/6b1/8/8/8/4B3/8/B1B1K3 w - - 0 1", true},  // five bishops, all dark
      {"2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1", false},     // c8 light, c1 dark
      {"4k3/8/8/8/8/8/8/2B1Kb2 w - - 0 1", false},      // c1 dark, f1 light
      {"4k2b/6b1/8/8/8/4B3/8/BB2K3 w - - 0 1", false},  // b1 is light: mixed
      {"4k3/8/8/8/8/8/8/1NN1K3 w - - 0 1", false},      // K+N+N v K
      {"4kn2/8/8/8/8/8/8/1N2K3 w - - 0 1", false},      // K+N v K+N
      {"4k3/8/8/8/8/8/8/1NB1K3 w - - 0 1", false},      // K+B+N v K
      {"4kb2/8/8/8/8/8/8/1N2K3 w - - 0 1", false},      // K+N v K+B
      {"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", false},       // K+P v K
      {"4k3/4p3/8/8/8/8/8/4K3 w - - 0 1", false},       // K v K+P
      {"4k3/8/8/8/8/8/8/R3K3 w - - 0 1", false},        // K+R v K
      {"4k3/8/8/8/8/8/8/3QK3 w - - 0 1", false},        // K+Q v K
  };
  for (const Case& c : cases) {
    INFO(c.fen);
    Position pos = load(c.fen);
    CHECK(insufficient_material(pos) == c.dead);
    CHECK((termination_of(pos) == Termination::InsufficientMaterial) == c.dead);
  }
  // A capture that leaves K+B v K ends the game at once.
  GameState g(load("4k3/8/8/8/8/8/3r4/2B1K3 w - - 0 1"));
  g.play(uci_move(g.position(), "c1d2"));
  CHECK(g.termination() == Termination::InsufficientMaterial);
  CHECK(ends_game(g.termination()));
}

TEST_CASE("game state: threefold and fivefold repetition", "[board][game]") {
  GameState g;
  const char* cycle[] = {"g1f3", "g8f6", "f3g1", "f6g8"};
  CHECK(g.repetitions() == 1);
  int occurrences = 1;  // of the start position
  for (int round = 1; round <= 4; ++round) {
    for (int i = 0; i < 4; ++i) {
      g.play(uci_move(g.position(), cycle[i]));
      if (i < 3) { CHECK(g.termination() != Termination::FivefoldRepetition); }
    }
    ++occurrences;
    CHECK(g.repetitions() == occurrences);
    Termination t = g.termination();
    if (occurrences < 3)
      CHECK(t == Termination::None);
    else if (occurrences < 5)
      CHECK(t == Termination::ThreefoldRepetition);
    else
      CHECK(t == Termination::FivefoldRepetition);
  }
  CHECK(occurrences == 5);
  CHECK(g.plies() == 16);
  CHECK_FALSE(ends_game(Termination::ThreefoldRepetition));
  CHECK(ends_game(Termination::FivefoldRepetition));

  // The third occurrence after the first shuffle: Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 brings
  // the start position back twice (3 in all); the position after Nf3 has occurred twice.
  GameState h;
  for (const char* m : {"g1f3", "g8f6", "f3g1", "f6g8", "g1f3"}) h.play(uci_move(h.position(), m));
  CHECK(h.repetitions() == 2);
  CHECK(h.termination() == Termination::None);
}

TEST_CASE("game state: repetition key ignores an en passant square with no legal capture", "[board][game]") {
  // Black king d8, pawn d4, white rook d1: after e2-e4 the d4 pawn stands beside the
  // e-pawn (so Polyglot hashes e3) but d4xe3 would leave the d-file open to the rook.
  Position with_ep = load("3k4/8/8/8/3p4/8/4P3/3RK3 w - - 0 1");
  with_ep.play(uci_move(with_ep, "e2e4"));
  CHECK(with_ep.ep_square() == E3);  // pseudo: a pawn stands beside (Polyglot rule)
  CHECK_FALSE(with_ep.ep_legal());
  Position without = load("3k4/8/8/8/3pP3/8/8/3RK3 b - - 0 1");
  CHECK(without.ep_square() == NoSquare);
  CHECK(with_ep.key() != without.key());                        // Polyglot hashes the square
  CHECK(with_ep.repetition_key() == without.repetition_key());  // FIDE: same position
  CHECK(with_ep.fen() == without.fen());

  // A legal capture makes them different positions.
  Position live = load("4k3/8/8/8/3p4/8/4P3/3RK3 w - - 0 1");
  live.play(uci_move(live, "e2e4"));
  CHECK(live.ep_legal());
  CHECK(live.repetition_key() != load("4k3/8/8/8/3pP3/8/8/3RK3 b - - 0 1").repetition_key());

  // In a game: the position after e2-e4 (pseudo e3) and the same placement reached again
  // by king moves (no e3) are one position for the repetition count.
  GameState g(load("3k4/8/8/8/3p4/8/4P3/3RK3 w - - 0 1"));
  g.play(uci_move(g.position(), "e2e4"));  // occurrence 1 (with pseudo e.p. e3)
  for (const char* m : {"d8c8", "e1f1", "c8d8", "f1e1"}) g.play(uci_move(g.position(), m));
  CHECK(g.repetitions() == 2);
}

TEST_CASE("game state: castling rights make positions differ", "[board][game]") {
  // Same placement; one side with castling rights, one without.
  Position a = load("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  Position b = load("r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1");
  CHECK(a.repetition_key() != b.repetition_key());
  // Shuffle the king: rights are lost, so the later position does not repeat the first.
  GameState g(a);
  for (const char* m : {"e1f1", "e8f8", "f1e1", "f8e8"}) g.play(uci_move(g.position(), m));
  CHECK(g.position().fen() == "r3k2r/8/8/8/8/8/8/R3K2R w - - 4 3");
  CHECK(g.repetitions() == 1);
  for (const char* m : {"e1f1", "e8f8", "f1e1", "f8e8"}) g.play(uci_move(g.position(), m));
  CHECK(g.repetitions() == 2);
}

TEST_CASE("game state: fifty- and seventy-five-move rules", "[board][game]") {
  CHECK(termination_of(load("4k3/8/8/8/8/8/8/R3K3 w - - 99 80")) == Termination::None);
  CHECK(termination_of(load("4k3/8/8/8/8/8/8/R3K3 w - - 100 80")) == Termination::FiftyMoveRule);
  CHECK(termination_of(load("4k3/8/8/8/8/8/8/R3K3 w - - 149 80")) == Termination::FiftyMoveRule);
  CHECK(termination_of(load("4k3/8/8/8/8/8/8/R3K3 w - - 150 80")) == Termination::SeventyFiveMoveRule);
  CHECK_FALSE(ends_game(Termination::FiftyMoveRule));
  CHECK(ends_game(Termination::SeventyFiveMoveRule));

  // Reaching 100 by a quiet move.
  GameState g(load("4k3/8/8/8/8/8/8/R3K3 w - - 99 80"));
  g.play(uci_move(g.position(), "a1a2"));
  CHECK(g.position().halfmove_clock() == 100);
  CHECK(g.termination() == Termination::FiftyMoveRule);

  // Checkmate on the move that makes the clock 100 (or 150) is still checkmate: Ra1-a8
  // mates the king g8 behind its pawns f7 g7 h7.
  GameState m100(load("6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80"));
  m100.play(uci_move(m100.position(), "a1a8"));
  CHECK(m100.position().halfmove_clock() == 100);
  CHECK(m100.termination() == Termination::Checkmate);
  GameState m150(load("6k1/5ppp/8/8/8/8/8/R5K1 w - - 149 80"));
  m150.play(uci_move(m150.position(), "a1a8"));
  CHECK(m150.position().halfmove_clock() == 150);
  CHECK(m150.termination() == Termination::Checkmate);

  // A capture or pawn move resets the clock.
  GameState r(load("4k3/8/8/8/8/8/4P3/R3K3 w - - 99 80"));
  r.play(uci_move(r.position(), "e2e3"));
  CHECK(r.position().halfmove_clock() == 0);
  CHECK(r.termination() == Termination::None);

  // Castling is neither (FIDE 9.3): it counts. En passant and promotions reset.
  Position c = load("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 7 20");
  c.play(uci_move(c, "e1g1"));
  CHECK(c.halfmove_clock() == 8);
  c.play(uci_move(c, "e8c8"));
  CHECK(c.halfmove_clock() == 9);
  Position e = load("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
  e.play(uci_move(e, "e1e2"));
  CHECK(e.halfmove_clock() == 1);
  e = load("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
  e.play(uci_move(e, "e5d6"));
  CHECK(e.halfmove_clock() == 0);
  Position p = load("4k3/1P6/8/8/8/8/8/4K3 w - - 12 40");
  p.play(uci_move(p, "b7b8q"));
  CHECK(p.halfmove_clock() == 0);
}

TEST_CASE("game state: the first rule that applies is reported", "[board][game]") {
  // K+N v K+N (mate remains possible), clock 140; knights shuffle. The header's order:
  // fivefold before the 75-move rule before threefold before the 50-move rule.
  GameState g(load("4k1n1/8/8/8/8/8/8/4K1N1 w - - 140 80"));
  CHECK(g.termination() == Termination::FiftyMoveRule);
  const char* cycle[] = {"g1f3", "g8f6", "f3g1", "f6g8"};
  const Termination expected[] = {Termination::FiftyMoveRule, Termination::ThreefoldRepetition,
                                  Termination::SeventyFiveMoveRule, Termination::FivefoldRepetition};
  for (int round = 0; round < 4; ++round) {
    for (const char* m : cycle) g.play(uci_move(g.position(), m));
    INFO("round " << round + 1 << ", clock " << g.position().halfmove_clock());
    CHECK(g.repetitions() == round + 2);
    CHECK(g.termination() == expected[round]);
  }
}

// ===================================================================== pins, e.p., promotions

TEST_CASE("move generation: en passant that would expose the king along the rank", "[board][movegen]") {
  // White king a5, pawn b5; Black pawn c5 just came from c7; black rook h5.
  // b5xc6 e.p. removes both pawns from the 5th rank: the rook would attack a5.
  Position pos = load("4k3/8/8/KPp4r/8/8/8/8 w - c6 0 1");
  CHECK(pos.ep_square() == C6);
  CHECK_FALSE(legal_uci(pos).count("b5c6"));
  CHECK(legal_uci(pos).count("b5b6"));
  // The same with the black king on e1 instead of e8.
  CHECK_FALSE(legal_uci(load("8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1")).count("b5c6"));
  CHECK(load("8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1").fen() == "8/8/8/KPp4r/8/8/8/4k3 w - - 0 1");
  // Without the rook the capture is legal.
  CHECK(legal_uci(load("4k3/8/8/KPp5/8/8/8/8 w - c6 0 1")).count("b5c6"));
  // A queen on the far side pins the same way; a bishop on the rank does not.
  CHECK_FALSE(legal_uci(load("4k3/8/8/KPp4q/8/8/8/8 w - c6 0 1")).count("b5c6"));
  CHECK(legal_uci(load("4k3/8/8/KPp4b/8/8/8/8 w - c6 0 1")).count("b5c6"));
}

TEST_CASE("move generation: en passant that resolves or ignores a check", "[board][movegen]") {
  // d7-d5 gave check to the king e4 (a black pawn on d5 attacks c4 and e4); e5xd6 e.p.
  // removes the checker, and the king may take it too.
  Position pos = load("4k3/8/8/3pP3/4K3/8/8/8 w - d6 0 1");
  CHECK(pos.in_check());
  auto moves = legal_uci(pos);
  CHECK(moves.count("e5d6"));
  CHECK(moves.count("e4d5"));
  // With a rook a4 checking as well (double check), only king moves remain.
  Position dbl = load("4k3/8/8/3pP3/r3K3/8/8/8 w - d6 0 1");
  CHECK(popcount(dbl.checkers()) == 2);
  CHECK_FALSE(legal_uci(dbl).count("e5d6"));
}

TEST_CASE("move generation: double check forces a king move", "[board][movegen]") {
  // King e1 checked by rook e8 and bishop b4 at once. The queen h4 could take the bishop
  // or block on e4, but only king moves are legal: d1, f1, f2 (d2 and e2 are attacked).
  Position pos = load("4r1k1/8/8/8/1b5Q/8/8/4K3 w - - 0 1");
  CHECK(popcount(pos.checkers()) == 2);
  MoveList list;
  generate_legal(pos, list);
  REQUIRE_FALSE(list.empty());
  for (Move m : list) CHECK(m.from() == E1);
  CHECK(legal_uci(pos) == std::set<std::string>{"e1d1", "e1f1", "e1f2"});
}

TEST_CASE("move generation: pinned pieces", "[board][movegen]") {
  // Knight d2 pinned by bishop b4 against king e1: no knight moves.
  Position pos = load("4k3/8/8/8/1b6/8/3N4/4K3 w - - 0 1");
  for (const std::string& m : legal_uci(pos)) CHECK(m.substr(0, 2) != "d2");
  // Rook e2 pinned on the e-file by rook e8: moves along the file only, capture included.
  Position rook = load("4r1k1/8/8/8/8/8/4R3/4K3 w - - 0 1");
  std::set<std::string> rook_moves;
  for (const std::string& m : legal_uci(rook))
    if (m.substr(0, 2) == "e2") rook_moves.insert(m);
  CHECK(rook_moves == std::set<std::string>{"e2e3", "e2e4", "e2e5", "e2e6", "e2e7", "e2e8"});
  // Pawn pinned diagonally may capture the pinner but not push.
  Position pawn = load("4k3/8/8/8/8/5b2/4P3/3K4 w - - 0 1");  // bishop f3, pawn e2, king d1
  auto moves = legal_uci(pawn);
  CHECK(moves.count("e2f3"));
  CHECK_FALSE(moves.count("e2e3"));
  CHECK_FALSE(moves.count("e2e4"));
  // Pawn pinned on a file may push but not capture.
  Position filepin = load("4r1k1/8/8/8/8/3b4/4P3/4K3 w - - 0 1");
  auto fm = legal_uci(filepin);
  CHECK(fm.count("e2e3"));
  CHECK(fm.count("e2e4"));
  CHECK_FALSE(fm.count("e2d3"));
  CHECK(pawn.pinned(White) == square_bb(E2));
}

TEST_CASE("move generation: promotions, with and without capture, four moves each", "[board][movegen]") {
  // Pawn b7 can push to b8 or take on a8 or c8: 3 destinations x 4 pieces.
  Position pos = load("r1n1k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
  auto moves = legal_uci(pos);
  for (const char* to : {"b8", "a8", "c8"})
    for (char piece : {'q', 'r', 'b', 'n'}) CHECK(moves.count(std::string("b7") + to + piece));
  MoveList list;
  generate_legal(pos, list, MoveFilter::only(Pawn));
  CHECK(list.size() == 12);
  for (Move m : list) CHECK(m.kind() == MoveKind::Promotion);
  // Black under-promotion with capture, played: the knight replaces the rook h1, which
  // also takes White's short castling right.
  Position b = load("4k3/8/8/8/8/8/6p1/4K2R b K - 0 1");
  auto bm = legal_uci(b);
  for (char piece : {'q', 'r', 'b', 'n'}) {
    CHECK(bm.count(std::string("g2g1") + piece));
    CHECK(bm.count(std::string("g2h1") + piece));
  }
  b.play(uci_move(b, "g2h1n"));
  CHECK(b.piece_on(H1) == BlackKnight);
  CHECK(b.piece_on(G2) == NoPiece);
  CHECK(b.castling_rights() == 0);
  CHECK(b.halfmove_clock() == 0);
  CHECK(b.key() == b.compute_key());
  // Promotion to a rook on g1 checks the king e1 along the rank.
  Position c = load("4k3/8/8/8/8/8/6p1/4K2R b K - 0 1");
  c.play(uci_move(c, "g2g1r"));
  CHECK(c.piece_on(G1) == BlackRook);
  CHECK(c.in_check());  // rook g1 checks the king e1 along the rank (f1 empty)
}

TEST_CASE("UCI parsing and writing", "[board][movegen]") {
  Position pos;
  CHECK(pos.parse_uci("e2e4") == Move(E2, E4));
  CHECK(pos.parse_uci("e2e5").is_none());
  CHECK(pos.parse_uci("e7e5").is_none());
  CHECK(pos.parse_uci("").is_none());
  CHECK(pos.parse_uci("zz").is_none());
  CHECK(pos.uci(Move::null()) == "0000");
  // Standard castling accepts both the king-to-destination and king-takes-rook forms.
  Position c = load("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  Move short_castle = c.parse_uci("e1g1");
  CHECK(short_castle.kind() == MoveKind::Castling);
  CHECK(c.parse_uci("e1h1") == short_castle);
  CHECK(c.uci(short_castle) == "e1g1");
  CHECK(c.is_legal(short_castle));
  CHECK_FALSE(c.is_legal(Move(E1, E3)));
  CHECK_FALSE(c.is_legal(Move(E1, G1)));  // castling is encoded king-takes-rook only
}

TEST_CASE("move generation: filtered by piece type and target", "[board][movegen]") {
  Position pos;
  MoveList list;
  generate_legal(pos, list, MoveFilter::only(Knight, square_bb(F3)));
  REQUIRE(list.size() == 1);
  CHECK(list[0] == Move(G1, F3));
  list.clear();
  generate_legal(pos, list, MoveFilter::only(Pawn, square_bb(E4)));
  REQUIRE(list.size() == 1);
  CHECK(list[0] == Move(E2, E4));
  list.clear();
  generate_legal(pos, list, MoveFilter::only(Knight));
  CHECK(list.size() == 4);
  // Castling is a king move whose target is the rook's square.
  Position c = load("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  list.clear();
  generate_legal(c, list, MoveFilter::only(King, square_bb(H1)));
  REQUIRE(list.size() == 1);
  CHECK(list[0] == Move(E1, H1, MoveKind::Castling));
  list.clear();
  generate_legal(c, list, MoveFilter::only(Rook));
  CHECK(list.size() == 19);  // rook a1: b1 c1 d1 a2-a8 (10); rook h1: g1 f1 h2-h8 (9)
}

}  // namespace test_board
