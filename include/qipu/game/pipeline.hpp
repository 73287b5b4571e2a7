// Reads PGN files and replays their games on worker threads, handing the records back
// in input order. Large files are split at game boundaries, so one file uses every core.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "qipu/game/record.hpp"
#include "qipu/game/replay.hpp"
#include "qipu/notation/notation.hpp"
#include "qipu/pgn/reader.hpp"

namespace qipu::game {

struct PipelineOptions {
  pgn::ReaderOptions reader = replay_reader_options();
  ReplayOptions replay;
  // Threads; 0: every core; 1: all on the calling thread. Workers run at nice 19, so that
  // the calling thread, which takes every record in order, keeps a core to itself.
  unsigned jobs = 0;
  // Batches (256 games or 1 MB of text each) read ahead of the one being delivered, per
  // worker. The caller sometimes stops taking records for a while (an import's commit
  // sorts and writes a batch's index, waits for a checkpoint); with two a worker, the
  // workers then ran out of work within some 30 ms and a core idled (bench_import.md,
  // 2026-12-02). Each holds its records until delivered: an import's take 2-3 MB. An import
  // reads further ahead (db::ImportBatchesAhead); `check`, which stops for nothing, was 9 %
  // slower with 24 (0.401 against 0.366 s on pgnmentor, medians of 12 pairs).
  std::size_t batches_ahead = 8;
};

// What happened to one input as a whole.
struct InputReport {
  std::string path;
  std::string encoding;                        // "utf-8", "gb18030", "windows-1252"
  std::string compression;                     // "plain", "gzip", "zstd"
  std::uint64_t bytes = 0;                     // decoded bytes read
  std::vector<pgn::SyntaxError> input_errors;  // cannot open, corrupt data, dropped chunks
  bool opened = false;
};

// An input: a path ("-" is standard input), or text given in memory under a name.
struct PipelineInput {
  std::string path;
  std::optional<std::string> text;
};

namespace detail {
// The callbacks' signatures: the record, then the game's value when the pipeline carries
// one (PipelineCallbacks<Extra>), or the record alone (PipelineCallbacks<>).
template <class Extra>
struct GameSignatures {
  using Move = void(GameRecord&, Extra&, const Position& before, qipu::Move);
  using Watch = game::Watch(const GameRecord&, Extra&, const Position& now);
  using Each = void(GameRecord&, Extra&);
  using Game = void(const InputReport&, GameRecord&, Extra&);
};
template <>
struct GameSignatures<void> {
  using Move = void(GameRecord&, const Position& before, qipu::Move);
  using Watch = game::Watch(const GameRecord&, const Position& now);
  using Each = void(GameRecord&);
  using Game = void(const InputReport&, GameRecord&);
};
}  // namespace detail

// What the caller does with the games. `Extra` is the type of a value the pipeline
// carries with each game, from before its first move to its turn in `game`: what the
// workers compute of a game for the calling thread (the importer's encoded rows,
// filter's verdict). Each game gets its own, value-initialised; the callbacks get it
// after the record. It must be default-constructible and movable. PipelineCallbacks<>
// (Extra void) carries none, and its callbacks take the record alone.
template <class Extra = void>
struct PipelineCallbacks {
  using Sig = detail::GameSignatures<Extra>;
  // Each mainline move as it is replayed, with the position before it, on the worker
  // thread: work on every position (the importer encodes moves) without a second replay.
  std::function<typename Sig::Move> move;
  // Each mainline position as the replay reaches it, the start's first, on the worker
  // thread, until it answers Whole or Skip (ReplayOptions::watch, whose place it takes,
  // with the game's value): work on a game's first positions only, called no more once
  // it is done (filter classifies the opening from the replay's own positions). A
  // position may come twice in a row: the replay shows it again after a token that
  // turned out no move (an illegal move, a glyph word).
  std::function<typename Sig::Watch> watch;
  // Each game, on the worker thread that replayed it (the calling thread with one job):
  // for heavy per-game work such as writing the game out (store the result in
  // GameRecord::output or the game's value). Must be thread-safe.
  std::function<typename Sig::Each> prepare;
  // Each game, on its worker after `prepare`, before the record waits its turn for the
  // calling thread: frees what `game` will not read, so that waiting records hold little
  // memory. Not called with one job, where each record goes straight to `game` and the
  // replayer reuses its memory.
  std::function<typename Sig::Each> trim;
  // Each game, in input order, on the calling thread. With more than one job, the record
  // and its value are freed afterwards on a worker (the one that made them, mostly): keep
  // nothing of them, and give `Extra` no destructor that needs the calling thread.
  std::function<typename Sig::Game> game;
  // Once per input, after its last game.
  std::function<void(const InputReport&)> input_done;
  // Now and then while reading, with bytes read so far over all inputs.
  std::function<void(std::uint64_t bytes, std::uint64_t games)> progress;
};

// Reads every input and replays every game.
template <class Extra>
void run_pipeline(const std::vector<PipelineInput>& inputs, const PipelineOptions& options,
                  const PipelineCallbacks<Extra>& callbacks);
template <class Extra>
void run_pipeline(const std::vector<std::string>& paths, const PipelineOptions& options,
                  const PipelineCallbacks<Extra>& callbacks);

// ---- below: how run_pipeline<Extra> reaches the untyped pipeline (pipeline.cpp) ----

namespace detail {
// The games' values and the callbacks that take them, as the untyped pipeline
// (pipeline.cpp) sees them: one for each batch of games, or for a worker running alone.
class GameHooks {
 public:
  virtual ~GameHooks() = default;
  virtual void start(std::size_t i) = 0;  // a new value, for the batch's i-th game
  // These three are for the game started last.
  virtual void move(GameRecord& rec, const Position& before, Move m) = 0;
  virtual Watch watch(const GameRecord& rec, const Position& now) = 0;
  virtual void prepare(GameRecord& rec) = 0;
  virtual void trim(GameRecord& rec) = 0;
  virtual void game(const InputReport& in, GameRecord& rec, std::size_t i) = 0;
};

template <class Extra>
class TypedHooks final : public GameHooks {
 public:
  TypedHooks(const PipelineCallbacks<Extra>& cb, std::size_t games) : cb_(cb) {
    if constexpr (Carried) values_.reserve(games);
  }
  void start(std::size_t i) override {
    if constexpr (Carried) {
      values_.resize(i);  // drops the value of a game that made no record
      values_.emplace_back();
    }
  }
  void move(GameRecord& rec, const Position& before, Move m) override { call(cb_.move, rec, before, m); }
  Watch watch(const GameRecord& rec, const Position& now) override {
    if constexpr (Carried)
      return cb_.watch(rec, values_.back(), now);
    else
      return cb_.watch(rec, now);
  }
  void prepare(GameRecord& rec) override { call(cb_.prepare, rec); }
  void trim(GameRecord& rec) override { call(cb_.trim, rec); }
  void game(const InputReport& in, GameRecord& rec, std::size_t i) override {
    if (!cb_.game) return;
    if constexpr (Carried)
      cb_.game(in, rec, values_[i]);
    else
      cb_.game(in, rec);
  }

 private:
  static constexpr bool Carried = !std::is_void_v<Extra>;
  template <class F, class... Args>
  void call(const F& f, GameRecord& rec, Args&&... args) {
    if (!f) return;
    if constexpr (Carried)
      f(rec, values_.back(), std::forward<Args>(args)...);
    else
      f(rec, std::forward<Args>(args)...);
  }
  const PipelineCallbacks<Extra>& cb_;
  std::vector<std::conditional_t<Carried, Extra, char>> values_;
};

// What run_pipeline<Extra> hands the untyped pipeline.
struct Hooks {
  std::function<std::unique_ptr<GameHooks>(std::size_t games)> make;  // for each batch of games
  bool moves = false;                                                 // whether GameHooks::move calls anything
  bool watches = false;  // whether GameHooks::watch replaces ReplayOptions::watch
  const std::function<void(const InputReport&)>& input_done;
  const std::function<void(std::uint64_t, std::uint64_t)>& progress;
};
void run_pipeline(const std::vector<PipelineInput>& inputs, const PipelineOptions& options, const Hooks& hooks);
}  // namespace detail

template <class Extra>
void run_pipeline(const std::vector<PipelineInput>& inputs, const PipelineOptions& options,
                  const PipelineCallbacks<Extra>& callbacks) {
  detail::Hooks hooks{
      [&callbacks](std::size_t games) { return std::make_unique<detail::TypedHooks<Extra>>(callbacks, games); },
      bool(callbacks.move), bool(callbacks.watch), callbacks.input_done, callbacks.progress};
  detail::run_pipeline(inputs, options, hooks);
}
template <class Extra>
void run_pipeline(const std::vector<std::string>& paths, const PipelineOptions& options,
                  const PipelineCallbacks<Extra>& callbacks) {
  std::vector<PipelineInput> inputs;
  for (const auto& p : paths) inputs.push_back({p, std::nullopt});
  run_pipeline(inputs, options, callbacks);
}

}  // namespace qipu::game
