// Perft speed, single thread: start position depth 6 and Kiwipete depth 5.
// Run: ./build/qipu_bench --benchmark_filter=Perft
#include <benchmark/benchmark.h>

#include "qipu/board/perft.hpp"

namespace {

void run(benchmark::State& state, std::string_view fen, int depth) {
  qipu::Position pos = qipu::Position::from_fen(fen).value();
  std::uint64_t nodes = 0;
  for (auto _ : state) nodes += qipu::perft(pos, depth);
  state.counters["nodes/s"] = benchmark::Counter(double(nodes), benchmark::Counter::kIsRate);
}

void PerftStart6(benchmark::State& state) { run(state, qipu::StartFen, 6); }
void PerftKiwipete5(benchmark::State& state) {
  run(state, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5);
}

}  // namespace

BENCHMARK(PerftStart6)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(PerftKiwipete5)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK_MAIN();
