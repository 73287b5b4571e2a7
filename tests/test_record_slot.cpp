// Tests of the value the pipeline carries with each game (game::PipelineCallbacks<Extra>):
// each game's value is its own from its first move to its turn on the calling thread, in
// input order, with one job and with two (batches on workers); and the importer's value
// (db::GameEncoding) holds the rows of its own record. Also: workers run below the
// calling thread's priority.
#include <catch2/catch.hpp>

#include <sys/resource.h>
#include <unistd.h>

#include "cli_util.hpp"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <stdexcept>
#include <thread>

#include "qipu/db/eco.hpp"
#include "qipu/db/store.hpp"
#include "qipu/game/pipeline.hpp"

// One namespace a file: the test files compile several to a unit (CMakeLists.txt).
namespace test_record_slot {

using namespace qipu;

namespace {

// The bundled samples: 2,089 games, 1.8 MB, so that two jobs cut them into many batches
// (pipeline.cpp: 256 games or 1 MB), in English and in Chinese, with variations and set-ups.
const std::vector<std::string> Samples = {QIPU_SOURCE_DIR "/data/world-championships.pgn",
                                          QIPU_SOURCE_DIR "/data/world-championships-zh.pgn",
                                          QIPU_SOURCE_DIR "/data/classics.pgn", QIPU_TEST_DATA "/pgn/features.pgn"};

// A game whose second move is illegal: invalid, it gets no rows.
const game::PipelineInput Illegal = {"illegal", std::string("[Event \"x\"]\n\n1. e4 Ke7 2. Ke3 *\n")};

// Games in a file, counted from its text: the Event tags that open a line.
std::size_t events_in(const std::string& path) {
  std::string text = cli_test::slurp(path);
  std::size_t n = 0;
  for (std::size_t at = 0; (at = text.find("[Event ", at)) != std::string::npos; ++at)
    n += at == 0 || text[at - 1] == '\n';
  return n;
}

// Positions hashed in order, so that two lists of them compare as one number.
std::uint64_t add_position(std::uint64_t h, Key k) { return (h ^ k) * 0x100000001b3ULL + 1; }

// What the callbacks learned of one game, each in its own step.
struct Seen {
  std::uint64_t index = 0;  // prepare: the record's index
  int moves = 0;            // move: mainline moves seen
  std::uint64_t path = 0;   // move: the positions they were played from, hashed in order
  bool trimmed = false;     // trim was called
  bool operator==(const Seen&) const = default;
};

// Each game's value as `game` received it, after checking it against its own record:
// the positions before its mainline moves, found again from the record's moves.
std::vector<std::pair<std::string, Seen>> values_by_game(unsigned jobs) {
  game::PipelineOptions o;
  o.jobs = jobs;
  game::PipelineCallbacks<Seen> cb;
  cb.move = [](game::GameRecord&, Seen& s, const Position& before, Move) {
    ++s.moves;
    s.path = add_position(s.path, before.key());
  };
  cb.prepare = [](game::GameRecord& rec, Seen& s) { s.index = rec.index; };
  cb.trim = [](game::GameRecord&, Seen& s) { s.trimmed = true; };
  std::vector<std::pair<std::string, Seen>> out;
  cb.game = [&](const game::InputReport& in, game::GameRecord& rec, Seen& s) {
    std::uint64_t path = 0;
    game::for_each_move(rec.start_position, rec.mainline,
                        [&](const Position& before, const game::MoveNode&, const Position&) {
                          path = add_position(path, before.key());
                        });
    INFO(in.path << ", game " << rec.index << " (" << rec.tag("White") << " - " << rec.tag("Black") << "), jobs "
                 << jobs);
    CHECK(s.index == rec.index);
    CHECK(s.moves == rec.plies());
    CHECK(s.path == path);
    out.emplace_back(in.path, s);
  };
  game::run_pipeline(Samples, o, cb);
  return out;
}

}  // namespace

// An import onto a full disk throws from `game` (the hostile tests): the error must
// reach the caller once the workers have stopped, with no game handed on after it.
TEST_CASE("pipeline: an error thrown by `game` reaches the caller, with no game after it", "[game][slot]") {
  for (unsigned jobs : {2u, 4u}) {
    game::PipelineOptions o;
    o.jobs = jobs;
    game::PipelineCallbacks<Seen> cb;
    std::size_t games = 0;
    cb.game = [&](const game::InputReport&, game::GameRecord&, Seen&) {
      if (++games == 500) throw std::runtime_error("disk full");
    };
    CHECK_THROWS_WITH(game::run_pipeline(Samples, o, cb), "disk full");
    CHECK(games == 500);
  }
}

TEST_CASE("pipeline: each game's value is its own, from its first move to its turn", "[game][slot]") {
  auto one = values_by_game(1);
  auto two = values_by_game(2);
  // Every game once, in input order: indexes 1, 2, … in each file.
  std::map<std::string, std::uint64_t> last;
  for (const auto& [path, seen] : one) CHECK(seen.index == ++last[path]);
  for (const auto& path : Samples) CHECK(last[path] == events_in(path));
  std::size_t moves = 0;
  for (const auto& g : one) moves += std::size_t(g.second.moves);
  CHECK(moves > 150000);  // the values were filled, not only compared empty
  // Two jobs: the same values, each trimmed on its worker; one job trims none.
  REQUIRE(two.size() == one.size());
  for (std::size_t i = 0; i < one.size(); ++i) {
    CHECK_FALSE(one[i].second.trimmed);
    CHECK(two[i].second.trimmed);
    two[i].second.trimmed = false;
    CHECK(two[i] == one[i]);
  }
}

// The calling thread takes every record in order, so the workers must not take its core.
TEST_CASE("pipeline: workers run at nice 19 and the calling thread as before", "[game][slot]") {
  auto nice_now = [] { return getpriority(PRIO_PROCESS, static_cast<id_t>(gettid())); };
  const int caller_before = nice_now();
  game::PipelineOptions o;
  o.jobs = 2;
  game::PipelineCallbacks<Seen> cb;
  std::set<int> on_workers, on_caller;
  std::mutex mu;
  cb.prepare = [&](game::GameRecord&, Seen&) {
    std::lock_guard lock(mu);
    on_workers.insert(nice_now());
  };
  cb.game = [&](const game::InputReport&, game::GameRecord&, Seen&) { on_caller.insert(nice_now()); };
  game::run_pipeline(Samples, o, cb);
  CHECK(on_workers == std::set<int>{19});
  CHECK(on_caller == std::set<int>{caller_before});
  CHECK(nice_now() == caller_before);
}

// How far the workers get ahead of a caller that stops at its first game: at most
// batches_ahead a worker, and two, and the one being delivered (pipeline.cpp: 256 games a
// batch at most). The caller waits until they are past that bound for one batch a worker,
// or for `patience`: workers at nice 19 may be slow to come under a loaded machine.
TEST_CASE("pipeline: workers run ahead of the caller by batches_ahead batches a worker", "[game][slot]") {
  constexpr std::size_t Bound = (1 * 2 + 3) * 256;
  auto most_ahead = [](std::size_t ahead, std::chrono::milliseconds patience) {
    game::PipelineOptions o;
    o.jobs = 2;
    o.batches_ahead = ahead;
    game::PipelineCallbacks<Seen> cb;
    std::atomic<std::size_t> replayed{0};
    std::size_t delivered = 0, most = 0;
    cb.prepare = [&](game::GameRecord&, Seen&) { ++replayed; };
    cb.game = [&](const game::InputReport&, game::GameRecord&, Seen&) {
      if (++delivered == 1)
        for (auto until = std::chrono::steady_clock::now() + patience;
             replayed.load() <= Bound && std::chrono::steady_clock::now() < until;)
          std::this_thread::sleep_for(std::chrono::milliseconds(5));
      most = std::max(most, replayed.load() - delivered);
    };
    game::run_pipeline(Samples, o, cb);
    return most;
  };
  CHECK(most_ahead(1, std::chrono::milliseconds(500)) <= Bound);
  CHECK(most_ahead(4, std::chrono::seconds(30)) > Bound);
}

TEST_CASE("import: each game's encoding holds its own record's rows", "[db][slot]") {
  std::optional<db::EcoTable> eco;
  if (std::filesystem::exists(db::DefaultEcoFile)) eco = db::EcoTable::load(db::DefaultEcoFile);
  std::vector<game::PipelineInput> inputs = {Illegal};
  for (const auto& p : Samples) inputs.push_back({p, std::nullopt});
  for (unsigned jobs : {1u, 2u}) {
    game::PipelineOptions o;
    o.jobs = jobs;
    game::PipelineCallbacks<db::GameEncoding> cb;
    db::encode_while_replaying(cb, eco ? &*eco : nullptr, true);
    std::size_t stored = 0, invalid = 0, named = 0;
    cb.game = [&](const game::InputReport& in, game::GameRecord& rec, db::GameEncoding& enc) {
      INFO(in.path << ", game " << rec.index << ", jobs " << jobs);
      REQUIRE(enc.rows.has_value() == rec.valid());
      if (!enc.rows) return void(++invalid);
      // What encoding the finished record again gives, replaying its mainline.
      Result<db::EncodedGame> again = db::encode_game(rec);
      REQUIRE(enc.rows->ok());
      REQUIRE(again.ok());
      const db::EncodedGame& rows = **enc.rows;
      CHECK(rows.moves == again->moves);
      CHECK(rows.keys == again->keys);
      CHECK(rows.explore == again->explore);
      CHECK(rows.material == again->material);
      CHECK(rows.notes == again->notes);
      const db::Opening* op = eco ? eco->classify(again->keys) : nullptr;
      CHECK(rows.eco == (op ? op->eco : ""));
      CHECK(rows.opening == (op ? op->name : ""));
      named += op != nullptr;
      ++stored;
    };
    game::run_pipeline(inputs, o, cb);
    CHECK(invalid >= 1);  // the illegal game, and any the samples hold
    std::size_t games = 1;
    for (const auto& p : Samples) games += events_in(p);
    CHECK(stored + invalid == games);
    if (eco) CHECK(named > stored / 2);
  }
}

}  // namespace test_record_slot
