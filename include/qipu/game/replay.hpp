// Replays the games a PGN reader visits: every mainline and variation move is resolved
// on the board, and every problem is recorded at its ply and source position.
#pragma once

#include <functional>
#include <memory>

#include "qipu/game/record.hpp"
#include "qipu/notation/notation.hpp"
#include "qipu/pgn/reader.hpp"
#include "qipu/pgn/visitor.hpp"

namespace qipu::game {

// What a caller watching a game's mainline for a position wants next (ReplayOptions::watch).
enum class Watch {
  More,   // ask again after the next move
  Whole,  // stop asking: the game is wanted whole
  Skip    // leave the rest of the game unread (a position it can no longer reach)
};

// What replaying callers want of the reader: every language's piece words, and text
// that is not PGN reported as a game (an invalid one) rather than skipped.
inline pgn::ReaderOptions replay_reader_options() {
  pgn::ReaderOptions o;
  o.junk_as_game = true;
  o.words.pieces = all_piece_words();
  o.words.chinese_forms = true;
  return o;
}

struct ReplayOptions {
  // Strict: non-standard SAN (superfluous disambiguation, missing or wrong +/#, 0-0,
  // P, long algebraic, e.p.) is an error instead of a warning.
  bool strict = false;
  // Keep every game's raw text in the record; invalid games always keep theirs (rejects).
  bool keep_raw = false;
  // The notation the input is written in, tried first for every move. Needed only where
  // letters mean different pieces in different languages (Dutch P, Hungarian H);
  // nullptr: told from the game's moves (README, "Commands": the language guess).
  const Notation* notation = nullptr;
  // Called once a game's tags are read, before its first move: false leaves the rest of
  // its movetext unread (the record keeps the tags and the first move; its end, result
  // and tags are not checked), for callers that choose games by their tags (filter).
  // Optional.
  std::function<bool(const GameRecord&)> wanted = nullptr;
  // Called with each mainline position as it is reached, the start's first, until it
  // answers Whole or Skip; Skip leaves the rest of the movetext unread, as `wanted` does
  // (filter: a position the game can no longer reach). Optional.
  std::function<Watch(const GameRecord&, const Position& now)> watch = nullptr;
};

// A pgn::Visitor that builds a GameRecord per game and hands it to `on_game`.
class Replayer : public pgn::Visitor {
 public:
  using GameHandler = std::function<pgn::Visit(GameRecord&)>;
  // Errors outside any game (unreadable or corrupt input).
  using InputErrorHandler = std::function<void(const pgn::SyntaxError&)>;
  // Each mainline move as it is replayed, with the position before it (the pipeline's
  // PipelineCallbacks::move).
  using MoveHandler = std::function<void(GameRecord&, const Position& before, Move)>;
  Replayer(ReplayOptions options, GameHandler on_game, InputErrorHandler on_input_error = {},
           MoveHandler on_mainline_move = {});
  ~Replayer() override;

  pgn::Visit begin_game(const pgn::GameInfo& info) override;
  pgn::Visit tag(std::string_view name, std::string_view value, std::uint64_t offset) override;
  pgn::Visit move(std::string_view token, std::uint64_t offset) override;
  pgn::Visit san_move(std::string_view token, const San& san, std::uint64_t offset) override;
  pgn::Visit nag(int nag, std::uint64_t offset) override;
  pgn::Visit comment(std::string_view text, std::uint64_t offset) override;
  pgn::Visit begin_variation(std::uint64_t offset) override;
  void end_variation() override;
  void result(std::string_view text, std::uint64_t offset) override;
  pgn::Visit end_game(const pgn::GameEnd& end) override;
  void syntax_error(const pgn::SyntaxError& error) override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace qipu::game
