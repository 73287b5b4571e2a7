// Tests of SAN (module notation): parsing every accepted form, resolving against
// hand-checked positions (each FEN below was set up and checked by hand on a board),
// formatting canonical SAN, and a round trip over real games whose files are
// written in clean SAN by their producers (lichess, TWIC, chess.js benchmark).
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "qipu/board/movegen.hpp"
#include "../src/notation/fast.hpp"
#include "qipu/notation/san.hpp"
#include "qipu/pgn/line_counter.hpp"
#include "qipu/pgn/reader.hpp"

#include "corpora.hpp"

// One namespace a file: the test files compile several to a unit (CMakeLists.txt).
namespace test_notation {

using namespace qipu;
namespace fs = std::filesystem;

namespace {

San parsed(std::string_view token) {
  auto p = parse_san(token);
  INFO("token " << token << ": " << p.error());
  REQUIRE(p.ok());
  return *p;
}

Position fen(std::string_view f) {
  auto r = Position::from_fen(f);
  INFO(f << ": " << r.error());
  REQUIRE(r);
  return *r;
}

Result<Move> resolve(const Position& pos, std::string_view token) { return resolve_san(pos, parsed(token)); }

Move resolved(const Position& pos, std::string_view token) {
  Result<Move> r = resolve(pos, token);
  INFO(token << ": " << r.error());
  REQUIRE(r.ok());
  return *r;
}

bool contains(const std::string& s, std::string_view part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("parse_san: plain moves and captures", "[notation]") {
  San e4 = parsed("e4");
  CHECK(e4.kind == San::Kind::Normal);
  CHECK(e4.piece == Pawn);
  CHECK(e4.to == E4);
  CHECK(e4.from_file == -1);
  CHECK(e4.from_rank == -1);
  CHECK_FALSE(e4.capture);
  CHECK(e4.style == 0);
  CHECK(e4.suffix == San::Suffix::None);

  San n = parsed("Nf3");
  CHECK(n.piece == Knight);
  CHECK(n.to == F3);
  CHECK(n.style == 0);

  San exd5 = parsed("exd5");
  CHECK(exd5.piece == Pawn);
  CHECK(exd5.capture);
  CHECK(exd5.from_file == 4);
  CHECK(exd5.to == D5);

  San rxe = parsed("Raxe1");
  CHECK(rxe.piece == Rook);
  CHECK(rxe.capture);
  CHECK(rxe.from_file == 0);
  CHECK(rxe.from_rank == -1);
  CHECK(rxe.to == E1);

  San r1 = parsed("R1a3");
  CHECK(r1.from_rank == 0);
  CHECK(r1.from_file == -1);

  San q = parsed("Qh4e1");
  CHECK(q.piece == Queen);
  CHECK(q.from_file == 7);
  CHECK(q.from_rank == 3);
  CHECK(q.to == E1);
  CHECK((q.style & StyleLongAlgebraic) == 0);  // a full origin square may be SAN (three queens)
}

TEST_CASE("parse_san: castling, null moves", "[notation]") {
  San s = parsed("O-O");
  CHECK(s.kind == San::Kind::CastleShort);
  CHECK(s.style == 0);
  San l = parsed("O-O-O");
  CHECK(l.kind == San::Kind::CastleLong);
  CHECK(l.style == 0);
  San z = parsed("0-0");
  CHECK(z.kind == San::Kind::CastleShort);
  CHECK(z.style == StyleZeroCastling);
  San zl = parsed("0-0-0+");
  CHECK(zl.kind == San::Kind::CastleLong);
  CHECK(zl.style == StyleZeroCastling);
  CHECK(zl.suffix == San::Suffix::Check);
  CHECK(parsed("O-O#").suffix == San::Suffix::Mate);
  CHECK(parsed("--").kind == San::Kind::Null);
  CHECK(parsed("Z0").kind == San::Kind::Null);
}

TEST_CASE("parse_san: promotions in every written form", "[notation]") {
  for (std::string_view t : {"e8=Q", "e8Q", "e8(Q)", "e8/Q", "e8q"}) {
    San s = parsed(t);
    INFO(t);
    CHECK(s.piece == Pawn);
    CHECK(s.to == E8);
    CHECK(s.promotion == Queen);
    CHECK_FALSE(s.capture);
  }
  San n = parsed("dxe8=N+");
  CHECK(n.promotion == Knight);
  CHECK(n.capture);
  CHECK(n.from_file == 3);
  CHECK(n.suffix == San::Suffix::Check);
  CHECK(parsed("a1=R").promotion == Rook);
  CHECK(parsed("a1(B)").promotion == Bishop);
  CHECK(parsed("h8=Q#").suffix == San::Suffix::Mate);
  // Lower-case pieces, as UCI writes them (d7d8b is a bishop, not a b-file).
  CHECK(parsed("e8q").promotion == Queen);
  CHECK(parsed("e8n").promotion == Knight);
  CHECK(parsed("e8b").promotion == Bishop);
  CHECK(parsed("e8=b").promotion == Bishop);
  CHECK(parsed("d7d8b").promotion == Bishop);
  CHECK(parsed("d7d8r").promotion == Rook);
}

TEST_CASE("parse_san: non-standard forms set their style flag", "[notation]") {
  San ep = parsed("exd6e.p.");
  CHECK(ep.capture);
  CHECK(ep.to == D6);
  CHECK(ep.style == StyleEpSuffix);
  CHECK((parsed("exd6e.p.+").style & StyleEpSuffix) != 0);

  San l1 = parsed("e2-e4");
  CHECK(l1.piece == Pawn);
  CHECK(l1.from_file == 4);
  CHECK(l1.from_rank == 1);
  CHECK(l1.to == E4);
  CHECK((l1.style & StyleLongAlgebraic) != 0);
  CHECK_FALSE(l1.capture);

  San l2 = parsed("e2e4");
  CHECK(l2.from_file == 4);
  CHECK(l2.from_rank == 1);
  CHECK((l2.style & StyleLongAlgebraic) != 0);

  San l3 = parsed("Ng1-f3");
  CHECK(l3.piece == Knight);
  CHECK(l3.from_file == 6);
  CHECK(l3.from_rank == 0);
  CHECK(l3.to == F3);
  CHECK((l3.style & StyleLongAlgebraic) != 0);

  San l4 = parsed("Nf3xe5");
  CHECK(l4.piece == Knight);
  CHECK(l4.capture);
  CHECK(l4.from_file == 5);
  CHECK(l4.from_rank == 2);
  CHECK(l4.to == E5);

  San p = parsed("Pe4");
  CHECK(p.piece == Pawn);
  CHECK(p.to == E4);
  CHECK(p.style == StylePawnLetter);

  San dc = parsed("Qh5++");
  CHECK(dc.suffix == San::Suffix::Check);
  CHECK(dc.style == StyleDoubleCheck);
  CHECK(parsed("Qh5+").style == 0);
  CHECK(parsed("Qxf7#").suffix == San::Suffix::Mate);
}

TEST_CASE("parse_san: junk is a syntax error with a message", "[notation]") {
  for (std::string_view t :
       {"", "e9", "i4", "Xe4", "Ke", "e8=K", "e8=P", "Nf3=Q", "O-O-O-O", "hello", "4", "+", "Nf3f", "-", "Bb", "exb"}) {
    auto p = parse_san(t);
    INFO("token '" << t << "'");
    CHECK_FALSE(p.ok());
    CHECK_FALSE(p.error().empty());
  }
}

TEST_CASE("resolve_san: ordinary moves from the start position", "[notation]") {
  Position start;
  Move e4 = resolved(start, "e4");
  CHECK(e4.from() == E2);
  CHECK(e4.to() == E4);
  Move nf3 = resolved(start, "Nf3");
  CHECK(nf3.from() == G1);
  CHECK(nf3.to() == F3);
  // Long algebraic and P resolve to the same moves.
  CHECK(resolved(start, "e2-e4") == e4);
  CHECK(resolved(start, "e2e4") == e4);
  CHECK(resolved(start, "Pe4") == e4);
  CHECK(resolved(start, "Ng1-f3") == nf3);
  CHECK(resolved(start, "Ng1f3") == nf3);
}

// Pure coordinate notation (pgn-extract -Wlalg/-Wuci, UCI): no piece letter, the piece is
// the one on the origin square; a king's two-square move is castling.
TEST_CASE("resolve_san: coordinate notation without a piece letter", "[notation]") {
  Position start;
  Move nf3 = resolved(start, "g1f3");
  CHECK(nf3.from() == G1);
  CHECK(nf3.to() == F3);
  CHECK(resolved(start, "g1-f3") == nf3);
  CHECK(resolved(start, "b1c3").from() == B1);
  CHECK(!resolve(start, "g1e2"));  // the e2 pawn is in the way
  // 1. b3 e5: the bishop c1 goes to b2.
  Position b3e5 = fen("rnbqkbnr/pppp1ppp/8/4p3/8/1P6/P1PPPPPP/RNBQKBNR w KQkq - 0 2");
  Move bb2 = resolved(b3e5, "c1b2");
  CHECK(bb2.from() == C1);
  CHECK(format_san(b3e5, bb2) == "Bb2");
  // Castling as a king move, and a capture written without x.
  Position castle = fen("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
  Move oo = resolved(castle, "e8g8");
  CHECK(oo.kind() == MoveKind::Castling);
  CHECK(format_san(castle, oo) == "O-O");
  CHECK(resolved(castle, "e8c8").kind() == MoveKind::Castling);
  CHECK(resolved(castle, "e8f8").kind() == MoveKind::Normal);
  CHECK(format_san(castle, resolved(castle, "a8a1")) == "Rxa1+");
  // Pawn moves keep working, and an empty origin square is still an error.
  CHECK(resolved(start, "e2e4").to() == E4);
  CHECK_FALSE(resolve(start, "e3e4").error().empty());
}

TEST_CASE("resolve_san: illegal moves say why", "[notation]") {
  Position start;
  SECTION("no piece can reach") {
    Result<Move> r = resolve(start, "Nd4");
    CHECK(!r);
    CHECK(r.kind() == Problem::illegal_move);
    CHECK(contains(r.error(), "no White knight can reach d4"));
    CHECK(contains(resolve(start, "e5").error(), "no White pawn can reach e5"));
    CHECK(contains(resolve(start, "Qh5").error(), "reach"));
  }
  SECTION("own piece on the target") { CHECK(contains(resolve(start, "Nd2").error(), "occupied")); }
  SECTION("pinned piece") {
    // The knight on e2 shields the king on e1 from the rook on e7.
    Position p = fen("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1");
    Result<Move> r = resolve(p, "Nc3");
    CHECK(!r);
    CHECK(contains(r.error(), "pinned"));
    CHECK(contains(r.error(), "e2"));
  }
  SECTION("king in check, move does not answer it") {
    // The rook on e3 checks the king on e1.
    Position p = fen("4k3/8/8/8/8/4r3/8/R3K3 w Q - 0 1");
    REQUIRE(p.in_check());
    Result<Move> r = resolve(p, "Ra2");
    CHECK(!r);
    CHECK(contains(r.error(), "in check"));
    CHECK(contains(resolve(p, "O-O-O").error(), "out of check"));
    // Answering the check is fine.
    CHECK(resolved(p, "Kd1").to() == D1);
  }
  SECTION("king walks into check") {
    Position p = fen("4k3/8/8/8/8/8/3r4/7K w - - 0 1");
    // d2 rook covers the second rank: Kh2 and Kg2 are illegal, Kg1 is fine.
    CHECK(contains(resolve(p, "Kh2").error(), "check"));
    CHECK(resolved(p, "Kg1").to() == G1);
  }
  SECTION("castling") {
    // No right: only queenside is allowed by the FEN.
    Position noright = fen("4k3/8/8/8/8/8/8/R3K2R w Q - 0 1");
    CHECK(contains(resolve(noright, "O-O").error(), "no right to castle kingside"));
    CHECK(resolved(noright, "O-O-O").kind() == MoveKind::Castling);
    // Blocked: the start position.
    CHECK(contains(resolve(start, "O-O").error(), "between"));
    CHECK(contains(resolve(start, "O-O-O").error(), "between"));
    // Through check: the rook on f8 covers f1, the king's path; c1 and d1 are free.
    Position through = fen("1k3r2/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    CHECK(contains(resolve(through, "O-O").error(), "through or into check"));
    Move ooo = resolved(through, "O-O-O");
    CHECK(ooo.kind() == MoveKind::Castling);
    // Into check: the rook on g8 covers g1, the king's destination.
    Position into = fen("1k4r1/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    CHECK(contains(resolve(into, "O-O").error(), "check"));
    // Out of check.
    Position out = fen("1k2r3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    CHECK(contains(resolve(out, "O-O").error(), "out of check"));
    // Black castles too.
    Position black = fen("r3k2r/8/8/8/8/8/8/4K3 b kq - 0 1");
    Move bo = resolved(black, "O-O");
    CHECK(bo.from() == E8);
    CHECK(bo.kind() == MoveKind::Castling);
    CHECK(black.uci(bo) == "e8g8");
    CHECK(black.uci(resolved(black, "O-O-O")) == "e8c8");
  }
}

TEST_CASE("resolve_san: ambiguity and disambiguation", "[notation]") {
  SECTION("by file: knights on b1 and f1 both reach d2") {
    Position p = fen("4k3/8/8/8/8/8/8/1N1K1N2 w - - 0 1");
    Result<Move> r = resolve(p, "Nd2");
    CHECK(!r);
    CHECK(r.kind() == Problem::ambiguous_move);
    CHECK(contains(r.error(), "b1"));
    CHECK(contains(r.error(), "f1"));
    CHECK(resolved(p, "Nbd2").from() == B1);
    CHECK(resolved(p, "Nfd2").from() == F1);
    CHECK(format_san(p, Move(B1, D2)) == "Nbd2");
    CHECK(format_san(p, Move(F1, D2)) == "Nfd2");
    CHECK(format_san(p, Move(B1, C3)) == "Nc3");  // only one knight reaches c3
  }
  SECTION("by rank: rooks on a1 and a5 both reach a3") {
    Position p = fen("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1");
    CHECK(resolve(p, "Ra3").kind() == Problem::ambiguous_move);
    CHECK(resolved(p, "R1a3").from() == A1);
    CHECK(resolved(p, "R5a3").from() == A5);
    CHECK(format_san(p, Move(A1, A3)) == "R1a3");
    CHECK(format_san(p, Move(A5, A3)) == "R5a3");
    CHECK(format_san(p, Move(A1, B1)) == "Rb1");
  }
  SECTION("by file and rank: three queens reach e1") {
    // Queens e4 (down the file), h4 (diagonal g3-f2) and h1 (along the rank) all reach e1.
    Position p = fen("2k5/8/8/8/4Q2Q/8/K7/7Q w - - 0 1");
    Result<Move> all = resolve(p, "Qe1");
    CHECK(all.kind() == Problem::ambiguous_move);
    CHECK(contains(all.error(), "e4"));
    CHECK(contains(all.error(), "h4"));
    CHECK(contains(all.error(), "h1"));
    CHECK(resolve(p, "Qhe1").kind() == Problem::ambiguous_move);  // h4 and h1
    CHECK(resolve(p, "Q4e1").kind() == Problem::ambiguous_move);  // e4 and h4
    CHECK(resolved(p, "Qh4e1").from() == H4);
    CHECK(resolved(p, "Qee1").from() == E4);
    CHECK(resolved(p, "Q1e1").from() == H1);
    CHECK(format_san(p, Move(H4, E1)) == "Qh4e1");
    CHECK(format_san(p, Move(E4, E1)) == "Qee1");
    CHECK(format_san(p, Move(H1, E1)) == "Q1e1");
  }
  SECTION("a pinned rival does not make a move ambiguous") {
    // Knights c3 and g3 reach e2... use e4: the knight on c3 is pinned by the bishop a5 to e1.
    Position p = fen("4k3/8/8/b7/8/2N3N1/8/4K3 w - - 0 1");
    Move m = resolved(p, "Ne4");
    CHECK(m.from() == G3);
    CHECK(format_san(p, m) == "Ne4");  // no disambiguation: c3 cannot legally move
  }
}

TEST_CASE("resolve_san: promotions and en passant", "[notation]") {
  SECTION("under-promotion") {
    Position p = fen("7k/P7/8/8/8/8/8/K7 w - - 0 1");
    Move n = resolved(p, "a8=N");
    CHECK(n.kind() == MoveKind::Promotion);
    CHECK(n.promotion() == Knight);
    CHECK(resolved(p, "a8N").promotion() == Knight);
    CHECK(resolved(p, "a8(R)").promotion() == Rook);
    CHECK(resolved(p, "a8/B").promotion() == Bishop);
    CHECK(format_san(p, n) == "a8=N");
    CHECK(format_san(p, Move(A7, A8, MoveKind::Promotion, Queen)) == "a8=Q+");  // rank 8 to h8
    CHECK(format_san(p, Move(A7, A8, MoveKind::Promotion, Rook)) == "a8=R+");
    CHECK(format_san(p, Move(A7, A8, MoveKind::Promotion, Bishop)) == "a8=B");
    CHECK(contains(resolve(p, "a8").error(), "promotion"));
    CHECK(resolve(p, "Ka2")->to() == A2);
  }
  SECTION("capture-promotion") {
    Position p = fen("1r5k/P7/8/8/8/8/8/K7 w - - 0 1");
    Move q = resolved(p, "axb8=Q");
    CHECK(q.from() == A7);
    CHECK(q.to() == B8);
    CHECK(format_san(p, q) == "axb8=Q+");
    CHECK(format_san(p, Move(A7, B8, MoveKind::Promotion, Knight)) == "axb8=N");
  }
  SECTION("promotion piece on a non-last rank") {
    Position start;
    CHECK(contains(resolve(start, "e4=Q").error(), "last rank"));
  }
  SECTION("en passant") {
    Position p = fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
    Move ep = resolved(p, "exd6");
    CHECK(ep.kind() == MoveKind::EnPassant);
    CHECK(ep.from() == E5);
    CHECK(ep.to() == D6);
    CHECK(resolved(p, "exd6e.p.") == ep);
    CHECK(format_san(p, ep) == "exd6");
    Position after = p;
    after.play(ep);
    CHECK(after.piece_on(D5) == NoPiece);  // the captured pawn is gone
    // Without the en passant square, there is nothing to capture.
    Position none = fen("4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1");
    CHECK(contains(resolve(none, "exd6").error(), "nothing to capture"));
  }
  SECTION("en passant that would expose the king along the rank") {
    // Capturing removes both pawns from the fifth rank: the rook on h5 would check a5.
    Position p = fen("8/8/8/K2pP2r/8/8/8/4k3 w - d6 0 1");
    Result<Move> r = resolve(p, "exd6");
    CHECK(!r);
    CHECK(r.kind() == Problem::illegal_move);
    CHECK_FALSE(r.error().empty());
  }
  SECTION("null move") {
    Position start;
    CHECK(resolve(start, "--")->is_null());
    CHECK(resolve(start, "Z0")->is_null());
    CHECK(format_san(start, Move::null()) == "--");
    // Not while in check (kokopu semantic-error game 7 refuses it too).
    Position check = fen("4k3/8/8/8/8/4r3/8/4K3 w - - 0 1");
    Result<Move> r = resolve(check, "--");
    CHECK(!r);
    CHECK(contains(r.error(), "check"));
  }
}

TEST_CASE("format_san: check, mate, castling", "[notation]") {
  // Scholar's mate: 1.e4 e5 2.Bc4 Nc6 3.Qh5 Nf6 4.Qxf7#.
  Position scholar = fen("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4");
  CHECK(format_san(scholar, Move(H5, F7)) == "Qxf7#");
  CHECK(format_san_body(scholar, Move(H5, F7)) == "Qxf7");
  CHECK(format_san(scholar, Move(C4, F7)) == "Bxf7+");
  CHECK(format_san(scholar, Move(H5, H7)) == "Qxh7");
  // Castling, plain and giving check (the rook lands on f1 facing the king on f8).
  Position cast = fen("5k2/8/8/8/8/8/8/R3K2R w KQ - 0 1");
  CHECK(format_san(cast, resolved(cast, "O-O")) == "O-O+");
  CHECK(format_san(cast, resolved(cast, "O-O-O")) == "O-O-O");
  // Pawn moves and captures.
  Position start;
  CHECK(format_san(start, Move(E2, E4)) == "e4");
  CHECK(format_san(start, Move(G1, F3)) == "Nf3");
  Position cap = fen("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
  CHECK(format_san(cap, Move(E4, D5)) == "exd5");
  // Fool's mate: 1.f3 e5 2.g4 Qh4#.
  Position fool = fen("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2");
  CHECK(format_san(fool, resolved(fool, "Qh4")) == "Qh4#");
}

TEST_CASE("format_san: Chess960 castling", "[notation]") {
  // King b1, rooks a1 and h1: O-O-O has the king go to c1 and the rook to d1.
  auto r = Position::from_fen("1k6/8/8/8/8/8/8/RK5R w HA - 0 1", true);
  INFO(r.error());
  REQUIRE(r);
  Position p = *r;
  Move oo = resolved(p, "O-O");
  CHECK(oo.kind() == MoveKind::Castling);
  CHECK(format_san(p, oo) == "O-O");
  Move ooo = resolved(p, "O-O-O");
  CHECK(format_san(p, ooo) == "O-O-O");
  Position after = p;
  after.play(ooo);
  CHECK(after.piece_on(C1) == WhiteKing);
  CHECK(after.piece_on(D1) == WhiteRook);
}

namespace {

// Walks the mainline of every game, resolving each token and writing it back.
struct RoundTrip : pgn::Visitor {
  Position pos;
  int depth = 0;
  bool dead = false;
  long moves = 0;
  std::vector<std::string> mismatches;
  std::string where;
  pgn::LineCounter lines;
  pgn::Visit begin_game(const pgn::GameInfo& info) override {
    pos = Position();
    depth = 0;
    dead = false;
    where = "game " + std::to_string(info.index);
    lines = pgn::LineCounter(info.text, info.start);
    return pgn::Visit::Continue;
  }
  pgn::Visit tag(std::string_view name, std::string_view value, std::uint64_t) override {
    if (name == "FEN") {
      auto r = Position::from_fen(value);
      if (r)
        pos = *r;
      else
        dead = true, mismatches.push_back(where + ": bad FEN");
    }
    return pgn::Visit::Continue;
  }
  pgn::Visit begin_variation(std::uint64_t) override { return pgn::Visit::Skip; }
  pgn::Visit move(std::string_view token, std::uint64_t p) override {
    if (dead || depth) return pgn::Visit::Continue;
    auto s = parse_san(token);
    if (!s) return fail(token, p, "unparsed");
    Result<Move> r = resolve_san(pos, *s);
    if (!r) return fail(token, p, r.error());
    std::string written = format_san(pos, *r);
    if (written != token) fail(token, p, "written back as " + written);
    pos.play(*r);
    ++moves;
    return pgn::Visit::Continue;
  }
  pgn::Visit fail(std::string_view token, std::uint64_t offset, const std::string& why) {
    mismatches.push_back(where + " line " + std::to_string(lines.at(offset).line) + ": " + std::string(token) + ": " +
                         why);
    dead = true;
    return pgn::Visit::Continue;
  }
};

}  // namespace

// Lichess exports (the bundled sample is one) write standard SAN with + and #: every
// mainline token must come back unchanged from format_san(resolve_san(token)).
TEST_CASE("format_san writes the tokens of clean-SAN files unchanged", "[notation]") {
  for (const char* file : {QIPU_SOURCE_DIR "/data/world-championships.pgn"}) {
    RoundTrip v;
    pgn::ReadStats stats = pgn::read_pgn_file(file, v);
    INFO(file);
    CHECK(stats.games > 0);
    CHECK(v.moves > 1000);
    std::string first;
    for (std::size_t i = 0; i < v.mismatches.size() && i < 10; ++i) first += v.mismatches[i] + "\n";
    INFO(first);
    CHECK(v.mismatches.empty());
  }
}

namespace {
struct TokenCollector : pgn::Visitor {
  std::vector<std::string> tokens;
  pgn::Visit move(std::string_view t, std::uint64_t) override {
    tokens.emplace_back(t);
    return pgn::Visit::Continue;
  }
};
std::optional<San> optional_san(const std::string& token) {
  auto r = parse_san(token);
  return r ? std::optional<San>(*r) : std::nullopt;
}

bool same(const std::optional<San>& a, const std::optional<San>& b) {
  if (!a || !b) return !a && !b;
  return a->kind == b->kind && a->piece == b->piece && a->from_file == b->from_file && a->from_rank == b->from_rank &&
         a->to == b->to && a->promotion == b->promotion && a->capture == b->capture && a->suffix == b->suffix &&
         a->style == b->style;
}
}  // namespace

// parse_san reads the common shapes in one forward pass and everything else with the
// general reader. A trailing "!" (a glyph, which parse_san drops) always sends a token
// to the general reader, so comparing the two readings checks the fast one.
TEST_CASE("parse_san: the one-pass reading of common moves equals the general one", "[notation][corpus]") {
  QIPU_NEEDS_CORPORA("real", "edge/pgn-extract");
  TokenCollector c;
  for (const char* f : {"real/lichess-twic/pgn-reader__benches__twic1599_1000k.pgn", "real/chesscom/cancer0707.pgn",
                        "edge/pgn-extract/eco.pgn"})
    pgn::read_pgn_file(corpora::path(f), c);
  for (std::string odd : {"e8=Q+",   "exd8=N#", "Qh4e1",    "Nbxd7",   "R1e2",    "ed5",   "e2e4",   "Pe4",
                          "Ng1-f3",  "e8Q",     "exf6e.p.", "Kxe2++",  "O-O",     "0-0-0", "--",     "Z0",
                          "b8=K",    "Nf3=Q",   "x",        "e",       "+",       "Bb",    "a1xb2",  "N1xe5+",
                          "Qh4xe1+", "Qh4xe1#", "Qh4xe1=Q", "exd8=Q+", "bxa8=N#", "e8=",   "e8=Q++", "e2xd3",
                          "Ng1f3",   "Ng1xf3",  "Nx4e5",    "N4xe5",   "e45",     "Ne4e",  "Nf3x",   "exe5",
                          "xd5",     "Pxd5",    "Cd5",      "e8=P",    "e8=K",    "h",     "Qa1b2c3"})
    c.tokens.push_back(odd);
  REQUIRE(c.tokens.size() > 100000);
  for (const auto& t : c.tokens) {
    INFO(t);
    CHECK(same(optional_san(t), optional_san(t + "!")));
    // The reader's path: the token at the start of longer text, then a delimiter.
    std::string text = t + " 2. Nf3 Nc6";
    San whole, in_text;
    bool plain = parse_plain_san(t, whole);
    std::size_t n = read_plain_san(text.data(), text.data() + text.size(), in_text);
    CHECK((n == t.size()) == plain);
    if (plain) CHECK(same(whole, in_text));
  }
}

namespace {

// The positions of the mainlines, as replayed by resolve_san.
struct PositionCollector : pgn::Visitor {
  std::vector<Position> positions;
  Position pos;
  bool dead = false;
  pgn::Visit begin_game(const pgn::GameInfo&) override {
    pos = Position();
    dead = false;
    return pgn::Visit::Continue;
  }
  pgn::Visit tag(std::string_view name, std::string_view value, std::uint64_t) override {
    if (name == "FEN") {
      auto r = Position::from_fen(value);
      if (r)
        pos = *r;
      else
        dead = true;
    }
    return pgn::Visit::Continue;
  }
  pgn::Visit begin_variation(std::uint64_t) override { return pgn::Visit::Skip; }
  pgn::Visit move(std::string_view token, std::uint64_t) override {
    if (dead) return pgn::Visit::Continue;
    auto s = parse_san(token);
    Move m = s ? resolve_san(pos, *s).value() : Move::none();
    if (m.is_none())
      dead = true;
    else
      positions.push_back(pos), pos.play(m);
    return pgn::Visit::Continue;
  }
};

// The move a SAN names among the generated legal moves, or none when it names none or
// several: SAN's rules written out over move generation, without find_move's geometry.
Move named_by(const Position& pos, const MoveList& legal, const San& san) {
  if (san.kind != San::Kind::Normal) {
    Square rook = pos.castling_rook(castling_index(pos.side_to_move(), san.kind == San::Kind::CastleLong));
    for (Move m : legal)
      if (m.kind() == MoveKind::Castling && m.to() == rook) return m;
    return Move::none();
  }
  Move found = Move::none();
  int count = 0;
  for (Move m : legal) {
    Square from = m.from();
    if (m.kind() == MoveKind::Castling || type_of(pos.piece_on(from)) != san.piece || m.to() != san.to) continue;
    if ((san.from_file >= 0 && file_of(from) != san.from_file) ||
        (san.from_rank >= 0 && rank_of(from) != san.from_rank))
      continue;
    PieceType promotion = m.kind() == MoveKind::Promotion ? m.promotion() : NoPieceType;
    if (san.piece == Pawn && ((file_of(from) != file_of(m.to())) != san.capture || promotion != san.promotion))
      continue;
    found = m, ++count;
  }
  return count == 1 ? found : Move::none();
}

// SANs worth asking about in a position: both castlings, every piece to every square,
// with and without the origin of each legal move; every pawn push and capture, with
// promotions.
std::vector<San> probe_sans(const Position& pos, const MoveList& legal) {
  std::vector<San> sans(2);
  sans[0].kind = San::Kind::CastleShort, sans[1].kind = San::Kind::CastleLong;
  for (int sq = 0; sq < 64; ++sq) {
    San san;
    san.to = Square(sq);
    for (PieceType piece : {Knight, Bishop, Rook, Queen, King}) san.piece = piece, sans.push_back(san);
    san.piece = Pawn;
    for (PieceType promotion : {NoPieceType, Queen, Knight}) {
      san.promotion = promotion;
      san.capture = false, san.from_file = -1;
      sans.push_back(san);
      san.capture = true;
      for (int df : {-1, 1})
        if (int f = file_of(Square(sq)) + df; f >= 0 && f < 8) san.from_file = std::int8_t(f), sans.push_back(san);
    }
  }
  for (Move m : legal) {
    PieceType piece = type_of(pos.piece_on(m.from()));
    if (piece == Pawn || m.kind() == MoveKind::Castling) continue;
    San san;
    san.piece = piece, san.to = m.to();
    san.from_file = std::int8_t(file_of(m.from())), sans.push_back(san);
    san.from_rank = std::int8_t(rank_of(m.from())), sans.push_back(san);
    san.from_file = -1, sans.push_back(san);
  }
  return sans;
}

}  // namespace

// find_move and resolve_san find the piece by geometry and test it for king safety, with
// shortcuts for the usual single candidate; move generation is the independent answer.
TEST_CASE("find_move names the move generation finds, on every sample position", "[notation]") {
  PositionCollector c;
  pgn::read_pgn_file(QIPU_SOURCE_DIR "/data/world-championships.pgn", c);
  REQUIRE(c.positions.size() > 50000);
  long checked = 0, found = 0, mismatches = 0;
  for (std::size_t i = 0; i < c.positions.size(); i += 5) {  // every fifth: a few seconds
    const Position& pos = c.positions[i];
    MoveList legal;
    generate_legal(pos, legal);
    for (const San& san : probe_sans(pos, legal)) {
      Move expected = named_by(pos, legal, san);
      auto resolved = resolve_san(pos, san);
      Move fast = find_move(pos, san), general = resolved ? *resolved : Move::none();
      ++checked, found += !expected.is_none();
      if (fast == expected && general == expected) continue;
      if (++mismatches <= 5) {
        INFO(pos.fen() << " piece " << int(san.piece) << " to " << square_name(san.to) << " from file "
                       << int(san.from_file) << " rank " << int(san.from_rank) << " promotion " << int(san.promotion));
        CHECK(fast == expected);
        CHECK(general == expected);
      }
    }
  }
  INFO(checked << " SANs, " << found << " naming a move");
  CHECK(mismatches == 0);
  CHECK(found > 1500000);  // 1.8 million on the world championship games
}

}  // namespace test_notation
