#include "qipu/game/pipeline.hpp"

#include <pthread.h>
#include <sys/resource.h>
#include <unistd.h>

#include <condition_variable>
#include <csignal>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

namespace qipu::game {

namespace {

// Games cut from one input, replayed together on one worker.
struct Batch {
  std::size_t seq = 0;
  std::size_t input = 0;
  std::vector<char> text;           // the games' texts, one after another: one allocation a batch
  std::vector<std::size_t> starts;  // where each game's text begins in `text`
  std::vector<pgn::RawGame> games;  // text views point into `text` once submitted
  std::vector<GameRecord> records;
  std::unique_ptr<detail::GameHooks> hooks;    // the records' values, made by the worker
  std::vector<pgn::SyntaxError> input_errors;  // the workers' (outside any game)
  std::vector<pgn::SyntaxError> read_errors;   // the input's own, after the games read before them
  std::size_t bytes = 0;
  std::size_t worker = 0;  // who replayed it, and frees it when it can
};

constexpr std::size_t BatchGames = 256;
constexpr std::size_t BatchBytes = 1 << 20;
// Delivered batches kept for their worker to free, per worker; the caller frees the rest.
constexpr std::size_t SpentPerWorker = 8;

// A parser and a replayer that append records to whichever batch is current, or, run
// alone, hand each record straight on (`hand_on`). The games' values and the callbacks
// that take them are `current`: the batch's, or alone the worker's own.
struct Worker {
  const detail::Hooks& caller;
  pgn::GameParser parser;
  Replayer replayer;
  pgn::ReadStats stats;
  std::vector<GameRecord>* records = nullptr;
  std::vector<pgn::SyntaxError>* errors = nullptr;
  detail::GameHooks* current = nullptr;
  std::function<void(GameRecord&)> hand_on;

  Worker(const PipelineOptions& o, const detail::Hooks& hooks_of)
      : caller(hooks_of),
        parser(o.reader),
        replayer(
            replay_options(o.replay), [this](GameRecord& r) { return done(r); },
            [this](const pgn::SyntaxError& e) { errors->push_back(e); },
            caller.moves ? Replayer::MoveHandler(
                               [this](GameRecord& r, const Position& before, Move m) { current->move(r, before, m); })
                         : nullptr) {}

  // The caller's replay options, the game's watch (PipelineCallbacks::watch) in place
  // of theirs when it has one.
  ReplayOptions replay_options(ReplayOptions o) {
    if (caller.watches) o.watch = [this](const GameRecord& r, const Position& now) { return current->watch(r, now); };
    return o;
  }
  pgn::Visit done(GameRecord& r) {
    current->prepare(r);
    if (hand_on) {
      hand_on(r);
    } else {
      current->trim(r);
      records->push_back(std::move(r));
    }
    return pgn::Visit::Continue;
  }
  void run(Batch& b) {
    records = &b.records;
    errors = &b.input_errors;
    b.records.reserve(b.games.size());
    b.hooks = caller.make(b.games.size());
    current = b.hooks.get();
    for (const auto& g : b.games) parse(g, b.records.size());
  }
  // Parses a game, the i-th of its batch (alone: 0).
  void parse(const pgn::RawGame& g, std::size_t i) {
    current->start(i);
    (void)parser.parse(g, replayer, stats);
  }
};

unsigned worker_count(unsigned jobs) {
  if (jobs == 0) jobs = std::max(1u, std::thread::hardware_concurrency());
  return jobs;
}

// Workers leave SIGINT, SIGTERM and SIGHUP to the program's own threads, where their
// handlers expect them: qipu's remove unfinished output files, and hold these signals back
// while they make one (src/cli/common.cpp), which a worker taking them would defeat. Fault
// signals stay open, so that a crash in a worker is still reported.
void leave_interrupts_to_caller() {
  sigset_t s;
  sigemptyset(&s);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&s, sig);
  pthread_sigmask(SIG_BLOCK, &s, nullptr);
}

// Workers take the cores the calling thread leaves (nice 19; a thread may always lower its
// own priority). That thread reads the input and takes every record in order, so the
// workers wait for it whenever it falls behind; as their equal it got about two thirds of
// a core beside two workers on two cores, and they then stopped at their batches in flight
// with a core idle (1 M games into a 1 M-game database: 37.8 s against 34.3, three pairs,
// bench_import.md, 2026-12-05).
void yield_to_caller() { (void)setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 19); }

// Reads inputs in order, hands batches to workers, delivers results in order; with one
// job, does it all on the calling thread.
class Runner {
 public:
  Runner(const std::vector<PipelineInput>& inputs, const PipelineOptions& o, const detail::Hooks& h)
      : inputs_(inputs), opts_(o), hooks_(h), reports_(inputs.size()) {}

  void run() {
    unsigned n = worker_count(opts_.jobs);
    if (n == 1) return run_alone();
    spent_.resize(n);
    for (unsigned i = 0; i < n; ++i)
      threads_.emplace_back([this, i] {
        leave_interrupts_to_caller();
        yield_to_caller();
        work(i);
      });
    try {
      for (std::size_t i = 0; i < inputs_.size(); ++i) read_input(i);
      close_queue();
      while (delivered_ < next_seq_) deliver_next();
    } catch (...) {
      // A callback failed (a full disk under import): stop the workers before the
      // error leaves, or their joinable threads would end the process.
      close_queue();
      for (auto& t : threads_) t.join();
      throw;
    }
    for (auto& t : threads_) t.join();
    finish_inputs(inputs_.size());
  }

 private:
  void close_queue() {
    {
      std::lock_guard lock(mu_);
      closing_ = true;
    }
    cv_work_.notify_all();
  }

 private:
  // Reads input i game by game: take(raw) for each game, fail(message) when the input
  // cannot be opened or read on.
  template <class Take, class Fail>
  void read_games(std::size_t i, Take&& take, Fail&& fail) {
    InputReport& rep = reports_[i];
    const PipelineInput& in = inputs_[i];
    rep.path = in.path;
    try {
      auto src = in.text ? pgn::memory_source(*in.text, in.path) : pgn::open_source(in.path);
      rep.opened = true;
      rep.compression = src->compression();
      pgn::GameChunker chunker(*src, opts_.reader);
      pgn::RawGame raw;
      try {
        while (chunker.next(raw)) {
          if (rep.encoding.empty()) rep.encoding = chunker.encoding();
          rep.bytes = chunker.bytes_read();
          take(raw);
        }
      } catch (const pgn::SourceError& e) { fail(e.what()); }
      if (rep.encoding.empty()) rep.encoding = chunker.encoding();
      rep.bytes = chunker.bytes_read();
    } catch (const pgn::SourceError& e) { fail(e.what()); }
  }

  // Cuts input i into batches for the workers.
  void read_input(std::size_t i) {
    Batch batch;
    batch.input = i;
    read_games(
        i,
        [&](const pgn::RawGame& raw) {
          add_game(batch, raw);
          if (batch.games.size() >= BatchGames || batch.bytes >= BatchBytes) submit(batch, i);
        },
        [&](const char* message) {
          batch.read_errors.push_back({0, {}, message, false, false, Problem::input_error});
        });
    submit(batch, i);
  }

  // --jobs 1: one thread reads, replays and delivers, with no batch copies or queues.
  void run_alone() {
    Worker w(opts_, hooks_);
    auto own = hooks_.make(1);
    w.current = own.get();
    for (std::size_t i = 0; i < inputs_.size(); ++i) {
      InputReport& rep = reports_[i];
      w.errors = &rep.input_errors;
      w.hand_on = [&](GameRecord& r) {
        ++games_;
        own->game(rep, r, 0);
      };
      std::size_t since_progress = 0;
      read_games(
          i,
          [&](const pgn::RawGame& raw) {
            w.parse(raw, 0);
            bytes_read_ += raw.text.size();
            if (++since_progress == BatchGames && hooks_.progress) {
              since_progress = 0;
              hooks_.progress(bytes_read_, games_);
            }
          },
          [&](const char* message) {
            rep.input_errors.push_back({0, {}, message, false, false, Problem::input_error});
          });
      finish_inputs(i + 1);
    }
  }

  static void add_game(Batch& b, const pgn::RawGame& raw) {
    if (b.text.empty()) b.text.reserve(BatchBytes + (BatchBytes >> 4));  // the batch's usual size
    b.starts.push_back(b.text.size());
    b.text.insert(b.text.end(), raw.text.begin(), raw.text.end());
    b.games.push_back(raw);
    b.bytes += raw.text.size();
  }

  // Queues the batch (even an empty one, to keep per-input order) and starts a new one.
  void submit(Batch& batch, std::size_t input) {
    // Views must point into the batch's own copies, which move with it.
    for (std::size_t k = 0; k < batch.games.size(); ++k)
      batch.games[k].text = {batch.text.data() + batch.starts[k], batch.games[k].text.size()};
    batch.seq = next_seq_++;
    bytes_read_ += batch.bytes;
    {
      std::lock_guard lock(mu_);
      queue_.push_back(std::move(batch));
    }
    cv_work_.notify_one();
    batch = Batch{};
    batch.input = input;
    while (next_seq_ - delivered_ > opts_.batches_ahead * threads_.size() + 2) deliver_next();
  }

  void work(std::size_t id) {
    Worker w(opts_, hooks_);
    std::vector<Batch> spent;
    for (;;) {
      Batch b;
      {
        std::unique_lock lock(mu_);
        cv_work_.wait(lock, [&] { return !queue_.empty() || closing_; });
        if (queue_.empty()) return;
        b = std::move(queue_.front());
        queue_.pop_front();
        spent.swap(spent_[id]);
      }
      spent.clear();
      b.worker = id;
      w.run(b);
      {
        std::lock_guard lock(mu_);
        done_.emplace(b.seq, std::move(b));
      }
      cv_done_.notify_all();
    }
  }

  // Waits for the next batch in order and hands its games to the caller.
  void deliver_next() {
    Batch b;
    {
      std::unique_lock lock(mu_);
      cv_done_.wait(lock, [&] { return done_.count(delivered_) > 0; });
      auto it = done_.find(delivered_);
      b = std::move(it->second);
      done_.erase(it);
    }
    ++delivered_;
    finish_inputs(b.input);
    InputReport& rep = reports_[b.input];
    for (auto& e : b.input_errors) rep.input_errors.push_back(std::move(e));
    for (auto& e : b.read_errors) rep.input_errors.push_back(std::move(e));
    for (std::size_t k = 0; k < b.records.size(); ++k) {
      ++games_;
      b.hooks->game(rep, b.records[k], k);
    }
    if (hooks_.progress) hooks_.progress(bytes_read_, games_);
    // The worker that made the records frees them: freed here, most of their memory went
    // back to that worker's malloc arena under its lock while the worker allocated from it.
    // A worker that is not taking batches is left at most SpentPerWorker of them; the
    // rest, and those left when the workers have ended, are freed here, after the lock.
    std::lock_guard lock(mu_);
    if (spent_[b.worker].size() < SpentPerWorker) spent_[b.worker].push_back(std::move(b));
  }

  // Reports inputs before `upto` as done, once each.
  void finish_inputs(std::size_t upto) {
    for (; finished_ < upto; ++finished_)
      if (hooks_.input_done) hooks_.input_done(reports_[finished_]);
  }

  const std::vector<PipelineInput>& inputs_;
  const PipelineOptions& opts_;
  const detail::Hooks& hooks_;
  std::vector<InputReport> reports_;
  std::vector<std::thread> threads_;
  std::mutex mu_;
  std::condition_variable cv_work_, cv_done_;
  std::deque<Batch> queue_;
  std::map<std::size_t, Batch> done_;
  std::vector<std::vector<Batch>> spent_;  // delivered, by the worker that frees them
  bool closing_ = false;
  std::size_t next_seq_ = 0, delivered_ = 0, finished_ = 0;
  std::uint64_t bytes_read_ = 0, games_ = 0;
};

}  // namespace

void detail::run_pipeline(const std::vector<PipelineInput>& inputs, const PipelineOptions& options,
                          const Hooks& hooks) {
  Runner(inputs, options, hooks).run();
}

}  // namespace qipu::game
