// A game as read and replayed: tags, the move tree with its annotations, and every
// problem found, each tied to its place in the source.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "qipu/board/game_state.hpp"
#include "qipu/notation/san.hpp"
#include "qipu/pgn/visitor.hpp"

namespace qipu::game {

struct Diagnostic {
  bool error = true;              // false: a warning
  pgn::SourcePos pos;             // where in the source
  int ply = 0;                    // 1 for White's first move; 0 for the game as a whole
  std::string move;               // "31. Qxe1" as written, or empty
  std::string message;            // what is wrong and what was expected
  Problem kind = Problem::other;  // the same for programs (problem_code)
};

struct MoveNode;
using Line = std::vector<MoveNode>;

// What a move may carry besides itself; most moves carry nothing, so it is allocated
// only when needed and a plain move stays small.
struct Annotations {
  std::string token;                      // the text as written, kept when the move is not replayed
  std::vector<std::string> pre_comments;  // comments before the move (start of a line)
  std::vector<std::string> comments;      // comments after the move
  std::vector<std::uint8_t> nags;
  std::vector<Line> variations;  // alternatives to this move, in order
};

struct MoveNode {
  Move move;       // Move::none() when the token was not replayed
  SanShape shape;  // how SAN writes the move, when the replayer found it
  std::unique_ptr<Annotations> notes;

  Annotations& annotate() {
    if (!notes) notes = std::make_unique<Annotations>();
    return *notes;
  }
  [[nodiscard]] std::string_view token() const { return notes ? std::string_view(notes->token) : std::string_view(); }
};

using Tags = std::vector<std::pair<std::string, std::string>>;

struct GameRecord {
  // User-provided on purpose (why: ARCHITECTURE.md, "Records are reused").
  GameRecord() {}  // NOLINT(modernize-use-equals-default)

  std::uint64_t index = 0;  // position of the game in its input, from 1
  pgn::SourcePos start;
  Tags tags;                             // in source order
  std::optional<std::string> start_fen;  // set-up position, when given
  Position start_position;
  Line mainline;
  std::vector<std::string> final_comments;  // comments of a game with no moves
  std::string result;                       // movetext result, empty when missing
  Termination termination = Termination::None;
  Position final_position;
  std::vector<Diagnostic> diagnostics;
  std::string raw;                 // the game's text as decoded (kept for rejects)
  const char* encoding = "utf-8";  // what raw was decoded from (pgn::RawGame::encoding)
  std::string output;              // what a pipeline's prepare step made of the game, as text
  bool wanted = true;              // ReplayOptions::wanted's answer: false, its moves were left unread

  // Makes the record as new, keeping the memory of its tags, moves and diagnostics for
  // the next game read into it.
  void clear();

  [[nodiscard]] std::string_view tag(std::string_view name) const;
  [[nodiscard]] int error_count() const;
  [[nodiscard]] int warning_count() const;
  [[nodiscard]] bool valid() const { return error_count() == 0; }
  // Plies of the mainline that were replayed.
  [[nodiscard]] int plies() const;
};

// Tag names compared as the PGN standard does: case-sensitive, byte for byte.
bool same_name(std::string_view a, std::string_view b);

// A tag name's bit in a 64-bit set, from its length and first byte: two names rarely
// share one, so a set of names nearly always tells a name outside it at once.
constexpr std::uint64_t name_bit(std::string_view name) {
  return std::uint64_t{1} << ((name.size() * 7 + (name.empty() ? 0 : name[0])) & 63);
}

// Up to this many tags, repeated names are found by name bits and compares (no
// allocation, as every game needs); beyond, by a hash set: 80,000 tags fill every bit.
constexpr std::size_t FewTags = 64;
// Indexes of the tags whose name an earlier tag has, for more than FewTags tags.
std::vector<std::size_t> repeated_tags(const Tags& tags);

// Calls f(i) for each tag whose name an earlier tag has, in order; linear in the tags.
template <class F>
void for_each_repeated_tag(const Tags& tags, F&& f) {
  if (tags.size() > FewTags) {
    for (std::size_t i : repeated_tags(tags)) f(i);
    return;
  }
  std::uint64_t seen = 0;
  for (std::size_t i = 0; i < tags.size(); ++i) {
    std::uint64_t bit = name_bit(tags[i].first);
    if (seen & bit)  // compared with the earlier names only when one shares the bit
      for (std::size_t j = 0; j < i; ++j)
        if (same_name(tags[j].first, tags[i].first)) {
          f(i);
          break;
        }
    seen |= bit;
  }
}

// The values of the tags that say where a game starts; empty when missing.
struct StartTags {
  std::string_view fen, variant, setup, game;
};

// Sets rec.start_position (and start_fen) from the Variant, SetUp and FEN tags (and Game,
// to recognise xiangqi), or says what is wrong with them. Slips in the FEN's clocks are
// accepted and described in the notes (Position::FenSlips::Repair). SetUp "1" without a
// FEN tag plays from the standard start (the replayer warns of it).
Result<void> set_up_start(GameRecord& rec);
// The same, with the tags already found (the replayer notes them as they are read).
Result<void> set_up_start(GameRecord& rec, const StartTags& tags);

// "31. Qxe1" or "31... Qxe1" for a move played from `before` (the text shown as by
// display_token).
std::string numbered_move(const Position& before, std::string_view san);
std::string numbered_move(int fullmove, Color side, std::string_view san);

// A token as messages show it: control bytes as \xNN, and cut to 40 characters with
// "…", so that a 20 MB junk token gives a one-line message.
std::string display_token(std::string_view token);

}  // namespace qipu::game

namespace qipu::game {

// Calls f(before, node, after) for each replayed move of `line` played from `start`,
// stopping at the first move that was not replayed.
template <class F>
void for_each_move(const Position& start, const Line& line, F&& f) {
  Position pos = start;
  for (const MoveNode& node : line) {
    if (node.move.is_none()) return;
    Position after = pos;
    after.play(node.move);
    f(pos, node, after);
    pos = after;
  }
}

}  // namespace qipu::game
