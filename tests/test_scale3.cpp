// Import at scale, round 3 (issue 17, bench/bench_import.md "2026-12-02: the importer's
// thread and the workers (branch scale3)"): the position index's merge schedule writes each
// entry once a level, and the pipeline keeps its workers busy while the calling thread is
// held up. Pure functions and a few thousand two-move games: well under a second.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

#include "merge_policy.hpp"
#include "qipu/db/position_index.hpp"
#include "qipu/game/pipeline.hpp"

// One namespace a file: the test files compile several to a unit (CMakeLists.txt).
namespace test_scale3 {

using namespace qipu;

namespace {

// Entries of a default batch (20,000 games) of games of `plies` plies on average.
constexpr std::uint64_t batch_entries(std::uint64_t plies) { return 20000 * (plies + 1); }

// Runs `batches` batches of n entries through the size policy, as the importer does after
// each batch; returns how many entries were written in all (each batch once, each merge's
// output once) and leaves the runs' sizes in `sizes`.
std::uint64_t entries_written(std::uint64_t n, int batches, std::vector<std::uint64_t>& sizes) {
  std::uint64_t written = 0;
  for (int b = 0; b < batches; ++b) written += n + merge_test::add_run(sizes, n);
  return written;
}

}  // namespace

TEST_CASE("eight default batches merge into one run of level 1", "[scale3]") {
  // pgnmentor's games average 83 plies, lichess's blitz about 70, short ones 60.
  for (std::uint64_t plies : {60, 70, 83}) {
    INFO(plies << " plies a game");
    std::vector<std::uint64_t> sizes;
    entries_written(batch_entries(plies), int(db::MergeFanout), sizes);
    REQUIRE(sizes.size() == 1);
    CHECK(db::run_level(sizes[0], db::IndexRunBase) == 1);
  }
}

TEST_CASE("up to 10 M games each index entry is written twice and then once more at level 2", "[scale3]") {
  // Batches of 20,000 games: level 0 (the batch), level 1 (eight batches), level 2 (64
  // level-1 runs, 512 batches: 10.24 M games).
  for (std::uint64_t plies : {60, 83}) {
    INFO(plies << " plies a game");
    std::vector<std::uint64_t> sizes;
    std::uint64_t n = batch_entries(plies);
    std::uint64_t written = entries_written(n, 511, sizes);
    CHECK(written == 511 * n + 63 * 8 * n);
    CHECK(sizes.size() == 63 + 7);
    CHECK(std::count(sizes.begin(), sizes.end(), 8 * n) == 63);
    written += entries_written(n, 1, sizes);
    CHECK(written == 512 * n + 64 * 8 * n + 512 * n);
    CHECK(sizes == std::vector<std::uint64_t>{512 * n});
    CHECK(db::run_level(sizes[0], db::IndexRunBase, db::IndexUpperFanout) == 2);
  }
}

TEST_CASE("while the calling thread holds a record, the workers replay many batches ahead", "[scale3]") {
  // An import's commit keeps its thread from taking records for a while; the workers should
  // go on with what is read. 6,000 two-move games (batches of 256): the first record is held
  // until the workers have prepared sixteen batches (two batches a worker could be prepared
  // before), or at most 20 s, which only a failing build waits.
  std::string text;
  for (int i = 0; i < 6000; ++i) text += "[Event \"g" + std::to_string(i) + "\"]\n\n1. e4 e5 1-0\n\n";
  std::atomic<std::size_t> prepared{0};
  std::size_t seen = 0, prepared_while_held = 0;
  game::PipelineOptions o;
  o.jobs = 2;
  game::PipelineCallbacks<> cb;
  cb.prepare = [&](game::GameRecord&) { ++prepared; };
  cb.game = [&](const game::InputReport&, game::GameRecord&) {
    if (seen++ != 0) return;
    auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (prepared < 16 * 256 && std::chrono::steady_clock::now() < until)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    prepared_while_held = prepared;
  };
  game::run_pipeline(std::vector<game::PipelineInput>{{"memory.pgn", text}}, o, cb);
  CHECK(seen == 6000);
  CHECK(prepared_while_held >= 16 * 256);
}

}  // namespace test_scale3
