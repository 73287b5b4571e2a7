// write_pgn writes runs of plain moves (no comment, NAG or variation between them) in a
// loop of its own (Writer::plain_run); game::detail::write_pgn_one_by_one writes every
// move through the general path. They must give the same bytes for every sample game
// (data/, tests/data/ and hand-made games with every kind of annotation), in every
// notation and style, at several line widths, with the annotations kept, stripped (as
// filter strips them: emptied, not removed) and without the moves' shapes (games from
// the database, written from a board).
#include <catch2/catch.hpp>

#include <filesystem>
#include <functional>

#include "../src/game/writer_detail.hpp"
#include "cli_util.hpp"
#include "replay_util.hpp"
#include "qipu/game/pipeline.hpp"
#include "qipu/game/writer.hpp"

// One namespace a file: the test files compile several to a unit (CMakeLists.txt).
namespace test_writer_fast {

using namespace qipu;

namespace {

// Games no sample file has: a set-up position with Black to move at move 120
// (promotion, both castlings, check), every kind of note between and after plain runs
// (a comment with a newline, a ; comment holding "}", NAGs, nested variations), an
// illegal move whose rest stays text, and a null move.
constexpr const char* HandMade = R"pgn([Event "Set up"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "W"]
[Black "B"]
[Result "*"]
[SetUp "1"]
[FEN "r3k2r/pP4pp/8/8/8/8/P5PP/R3K2R b KQkq - 0 120"]

120... O-O 121. bxa8=Q Rxa8 122. O-O-O Rxa2 123. Rd8+ Kf7 124. Rhd1 Ra1+ 125. Kc2 Rxd1 126. Kxd1 h5 *

[Event "Notes"]
[Site "?"]
[Date "2024.01.01"]
[Round "1"]
[White "A"]
[Black "B"]
[Result "*"]

{Before} 1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 $1 4. Ba4 Nf6 5. O-O Be7 {a comment
with a newline} 6. Re1 b5 7. Bb3 d6 (7... O-O 8. c3 d5 (8... d6 9. h3) 9. exd5 Nxd5) 8. c3 O-O 9. h3 Nb8
; a rest-of-line comment with } in it
10. d4 Nbd7 11. Nbd2 $14 Bb7 12. Bc2 Re8 13. Nf1 Bf8 14. Ng3 g6 15. a4 c5 16. d5 c4 17. Ke2 Qd7 18. Bh6 *

[Event "Null"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "W"]
[Black "B"]
[Result "*"]

1. e4 -- 2. d4 d5 3. Nc3 Nf6 {end} *
)pgn";

// Every game of data/*.pgn, tests/data/**/*.pgn and HandMade.
const std::vector<game::GameRecord>& sample_games() {
  static const std::vector<game::GameRecord> games = [] {
    std::vector<game::PipelineInput> inputs{{"hand-made", HandMade}};
    for (const char* dir : {QIPU_SOURCE_DIR "/data", QIPU_SOURCE_DIR "/tests/data"})
      for (const auto& entry : std::filesystem::recursive_directory_iterator(dir))
        if (entry.path().extension() == ".pgn") inputs.push_back({entry.path().string(), {}});
    return replayed_games(inputs);
  }();
  return games;
}

// The notes emptied as filter's --no-comments --no-nags --no-variations leave them.
void empty_notes(game::Line& line) {
  for (auto& node : line)
    if (node.notes) {
      node.notes->comments.clear(), node.notes->pre_comments.clear(), node.notes->nags.clear();
      node.notes->variations.clear();
    }
}

// The moves without their shapes, as the database gives them: written from a board.
void drop_shapes(game::Line& line) {
  for (auto& node : line) {
    node.shape = SanShape{};
    if (node.notes)
      for (auto& v : node.notes->variations) drop_shapes(v);
  }
}

game::GameRecord copy_of(const game::GameRecord& rec) {
  game::GameRecord c;
  c.tags = rec.tags, c.start_fen = rec.start_fen, c.start_position = rec.start_position, c.result = rec.result;
  c.final_comments = rec.final_comments;
  std::function<game::Line(const game::Line&)> copy_line = [&](const game::Line& line) {
    game::Line out;
    for (const auto& node : line) {
      game::MoveNode n;
      n.move = node.move, n.shape = node.shape;
      if (node.notes) {
        n.annotate() = {node.notes->token, node.notes->pre_comments, node.notes->comments, node.notes->nags, {}};
        for (const auto& v : node.notes->variations) n.notes->variations.push_back(copy_line(v));
      }
      out.push_back(std::move(n));
    }
    return out;
  };
  c.mainline = copy_line(rec.mainline);
  return c;
}

// Every style the writer has: each notation, spaced or not, each way of castling.
std::vector<game::WriterOptions> every_style(std::size_t line_width) {
  std::vector<game::WriterOptions> out;
  for (const Notation& n : notations())
    for (bool spaced : {false, true})
      for (auto castling : {WriteStyle::Castling::Letters, WriteStyle::Castling::Zeros, WriteStyle::Castling::Words})
        out.push_back({&n, WriteStyle{spaced, castling}, line_width});
  out.push_back({});  // the default: English, no notation given
  return out;
}

// How many of the games' writes differ between the two paths (the first is shown).
std::size_t differences(const std::vector<game::GameRecord>& games, const std::vector<game::WriterOptions>& styles) {
  std::size_t n = 0;
  for (const auto& rec : games)
    for (const auto& w : styles) {
      std::string fast = game::write_pgn(rec, w), general = game::detail::write_pgn_one_by_one(rec, w);
      if (fast != general && n++ == 0) {
        INFO("game " << rec.tag("White") << " - " << rec.tag("Black") << ", notation "
                     << (w.notation ? w.notation->code : "default") << ", width " << w.line_width);
        CHECK(fast == general);
      }
    }
  return n;
}

}  // namespace

TEST_CASE("the sample games hold what the fast path must get right", "[writer]") {
  const auto& games = sample_games();
  REQUIRE(games.size() > 2000);  // both world championship files, the rest and the hand-made
  std::size_t plain_after_plain = 0, notes = 0, unreplayed = 0, variations = 0;
  for (const auto& rec : games)
    for (std::size_t i = 0; i < rec.mainline.size(); ++i) {
      const auto& node = rec.mainline[i];
      plain_after_plain += i > 0 && !node.notes && !rec.mainline[i - 1].notes && !node.move.is_none();
      notes += node.notes != nullptr;
      unreplayed += node.move.is_none();
      variations += node.notes && !node.notes->variations.empty();
    }
  CHECK(plain_after_plain > 100000);
  CHECK(notes > 20);
  CHECK(unreplayed > 0);
  CHECK(variations > 3);
}

TEST_CASE("runs of plain moves are written as move by move, in every notation and style", "[writer]") {
  const auto& games = sample_games();
  CHECK(differences(games, every_style(79)) == 0);
}

TEST_CASE("runs of plain moves wrap lines as move by move, at every width", "[writer]") {
  std::vector<game::WriterOptions> styles;
  for (std::size_t width : {0, 1, 7, 20, 40, 80, 255})
    for (const char* code : {"en", "zh", "fan"}) styles.push_back({find_notation(code), {}, width});
  CHECK(differences(sample_games(), styles) == 0);
}

TEST_CASE("runs of plain moves after notes were emptied, as filter strips them", "[writer]") {
  std::vector<game::GameRecord> games;
  std::size_t emptied = 0;
  for (const auto& rec : sample_games()) {
    games.push_back(copy_of(rec));
    game::GameRecord& g = games.back();
    empty_notes(g.mainline);
    for (const auto& node : g.mainline) emptied += node.notes != nullptr;
    // the general path writes an emptied node as a plain move: the same text as with no notes
    game::GameRecord bare = copy_of(g);
    for (auto& node : bare.mainline)
      if (!node.move.is_none()) node.notes.reset();
    CHECK(game::detail::write_pgn_one_by_one(g) == game::detail::write_pgn_one_by_one(bare));
  }
  CHECK(emptied > 20);
  CHECK(differences(games, every_style(79)) == 0);
}

TEST_CASE("runs of plain moves without their shapes are written from a board as move by move", "[writer]") {
  std::vector<game::GameRecord> games;
  for (const auto& rec : sample_games()) {
    games.push_back(copy_of(rec));
    drop_shapes(games.back().mainline);
  }
  std::vector<game::WriterOptions> styles;
  for (const char* code : {"en", "zh", "de", "fan"}) styles.push_back({find_notation(code), {}, 79});
  CHECK(differences(games, styles) == 0);
  // and from the board they are the moves the shapes give
  for (std::size_t i = 0; i < games.size(); ++i) CHECK(game::write_pgn(games[i]) == game::write_pgn(sample_games()[i]));
}

TEST_CASE("the hand-made games read back as written", "[writer]") {
  auto games = replayed_games({{"hand-made", HandMade}});
  REQUIRE(games.size() == 3);
  std::string text;
  for (const auto& rec : games) text += game::write_pgn(rec);
  // independently known: the set-up game's numbers, promotion and castlings
  CHECK(cli_test::contains(text, "120... O-O 121. bxa8=Q Rxa8 122. O-O-O Rxa2 123. Rd8+ Kf7 124. Rhd1 Ra1+"));
  CHECK(cli_test::contains(text, "; a rest-of-line comment with } in it\n"));
  CHECK(cli_test::contains(text, "17. Ke2 Qd7 18. Bh6"));  // unreplayed: kept as text
  auto again = replayed_games({{"again", text}});
  REQUIRE(again.size() == games.size());
  for (std::size_t i = 0; i < games.size(); ++i) CHECK(game::write_pgn(again[i]) == game::write_pgn(games[i]));
}

TEST_CASE("tag values are escaped eight bytes at a time as byte by byte", "[writer]") {
  auto by_byte = [](std::string_view v) {
    std::string out;
    for (char c : v) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    return out;
  };
  // a quote or backslash at every place of values of every length up to 40, in UTF-8 too
  std::vector<std::string> values{
      "", "?", "Käsper, Jüri", "\"", "\\", "\\\"\\\"\\\"\\\"\\\"", "国际象棋 \"世界\" 冠军赛"};
  for (std::size_t size = 1; size <= 40; ++size)
    for (std::size_t at = 0; at < size; ++at)
      for (char special : {'"', '\\'}) {
        std::string v(size, 'a' + char(size % 26));
        v[at] = special;
        values.push_back(v);
        values.push_back(std::string(size, 'x'));
      }
  for (const auto& v : values) CHECK(game::escape_tag_value(v) == by_byte(v));
  game::GameRecord rec;
  rec.tags = {{"Event", "The \"Open\" of C:\\chess, 2024"}, {"Annotator", "a \\ and a \" after eight"}};
  std::string text = game::write_pgn(rec);
  CHECK(cli_test::contains(text, "[Event \"The \\\"Open\\\" of C:\\\\chess, 2024\"]\n"));
  CHECK(cli_test::contains(text, "[Annotator \"a \\\\ and a \\\" after eight\"]\n"));
}

}  // namespace test_writer_fast
