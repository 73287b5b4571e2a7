#!/usr/bin/env bash
# The test command (README command 2 runs it after installing the packages):
#   1. the whole suite in a Release build (build-release/; README command 1's profile-guided
#      build compiles the same sources twice more, which the tests do not need);
#   2. the suite again under AddressSanitizer and UBSan (build-asan/, clang -O1), less the
#      tests in ASAN_SKIP (see there);
#   3. a short run of every libFuzzer target (built in build-asan/ too: -DQIPU_FUZZ=ON
#      instruments that build for coverage) on its seed corpus, FUZZ_SECONDS each
#      (default 5: a smoke run that replays the seeds, about a second, and tries a few
#      thousand new inputs; 10 s each took 23 s of a test command near CI's limit); a crash
#      fails the command.
# Any failure stops it with a non-zero exit. The tests that read the large corpora find
# them at $QIPU_CORPORA, else ../shared/corpora beside the checkout, and are skipped (with
# one line each, and ctest's "Skipped") where they are not there.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzz_seconds=${FUZZ_SECONDS:-5}
corpora=${QIPU_CORPORA:-../shared/corpora}
if [ -d "$corpora" ]; then
  echo "== corpora: $corpora (the corpus tests run)"
else
  echo "== corpora: $corpora is absent, so the corpus tests are skipped (QIPU_CORPORA=DIR names them)"
fi

# Slow there (minutes: whole real corpora, 256 MB of PGN, deep perft) or timing-bound
# (the SIGKILL rounds); the Release run covers them, the fuzz targets the same code.
# Also left to the Release run: tests that compare two ways of getting one answer over every
# sample game (filter's early stops against full replays, find_move against move
# generation, the explorer's aggregate against the scan, --add-eco against eco, German
# against English, the writer's runs of plain moves against move by move, explore against
# the scan after mixed imports with and without the index, stored-position queries against
# replaying the games, filter's moves and positions against convert's replay, the chunker
# against a byte-by-byte recount, the deep positions' rows against the scan (their other tests, of
# kills, forged rows and damaged chunks, stay), filter's tag counts against a tag scan and its
# output against convert's, the ECO lines against the ECO file, the player index against a
# scan, the movetext scanner against the grammar, merges done in parts against whole ones,
# explore against the scan without the index; and tests of sizes: the transaction of 45,000
# games, the batches at 2 M game ids, the levels that merges in parts reach, a merge of a
# million empty chunks): about 230 CPU-seconds under the sanitizers, for code the other unit
# tests and the fuzz targets already run there.
ASAN_SKIP='^(en → zh → en|search: pgnmentor positions|pgn memory does not grow|perft: random\.perft|perft: Ethereal fischer|perft: the six classic|db import killed with SIGKILL|install_test|filter speed:|find_move names|explorer aggregate equals the scan on every|filter --add-eco: every game|german fast:|runs of plain moves|imports with(out)? the index into a database|dbtrust: position queries over games without|filter: moves, positions and material against|pgn chunker agrees with a byte-by-byte|deep positions: the rows and the games before them|filter: tag criteria count what a scan|filter: no criteria writes what convert|explore: the ECO lines an import keeps|one transaction of 45,000 games|left to choose, an import into a database of 2 M|merges done in parts keep at most a level|the player index gives each player.s games as a scan|pgn movetext scan gives the grammar.s events|merges done a part at a time give what whole merges give|import --no-position-index into a new database stores no aggregate|a damaged run of a million empty chunks)'

# The stage's heading with the wall time and the CPU time (user, system) spent so far: the
# machine is often shared, and CPU seconds say what a stage costs whatever else runs.
# `times` must run in this shell: in $(…) it would report that subshell's children, nothing.
stage() {
  local file cpu
  file=$(mktemp)
  { times; } > "$file"
  cpu=$(tail -n 1 "$file")
  rm -f "$file"
  echo "== $* at ${SECONDS} s, CPU so far ${cpu/ / + } (user + system)"
}

# Ninja when it is installed (README command 2 installs ninja-build): it compiles a target's
# files while the libraries it links are still being built, where make waits for them; on
# two cores that keeps both busy through the build (the program is one big unit, see
# CMakeLists.txt). A build directory keeps the generator it was made with.
generator() {
  if [ ! -f "$1/CMakeCache.txt" ] && command -v ninja > /dev/null; then echo "-GNinja"; fi
}

stage "suite (Release)"
# No link-time optimisation: it only saves the program 2.5 % of its instructions, and cost
# the test command an LTO link of the whole library for each program that links it.
# -O2, not CMake's -O3: the build took 232 CPU-seconds against 272, and the tests ran no slower
# (128 s against 138 s of wall, one run each).
cmake -S . -B build-release $(generator build-release) -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" -DQIPU_LTO=OFF
cmake --build build-release -j2 --target qipu_tests  # and what it runs; not qipu_bench
ctest --test-dir build-release -j2 --output-on-failure

stage "suite under AddressSanitizer and UBSan (skipping: $ASAN_SKIP)"
# clang, which the fuzz targets need anyway, compiles this in half GCC's time; one build
# serves the tests and the fuzz targets (compiling the library once less).
targets=(fuzz_pgn fuzz_fen fuzz_move fuzz_convert fuzz_runs)
cmake -S . -B build-asan $(generator build-asan) -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE=-O1 -DQIPU_FUZZ=ON
cmake --build build-asan -j2 --target qipu_tests "${targets[@]}"
# The fast tests only: the corpus, slow and browser tests read whole collections or drive
# Chromium, minutes under the sanitizers; the Release run covers them, the fuzz targets the
# same code on hostile input.
# Reports give allocation and free stacks two frames deep (run a failing test again without
# these options for more; the bad access itself keeps its whole stack), and freed memory
# waits in a 16 MB quarantine, not 256 MB: with the leak scan skipped in the programs the
# tests launch (tests/setup.cpp), 12 % less CPU for this run and a fifth of its system time,
# most of it page faults. Two frames, not five: each allocation's stack is recorded, and
# qipu --version took 41 CPU-ms against 50; this run 270 CPU-seconds against 293.
ASAN_OPTIONS=malloc_context_size=2:quarantine_size_mb=16 \
  ctest --test-dir build-asan -j2 --output-on-failure -E "$ASAN_SKIP" -L unit

stage "fuzz targets, ${fuzz_seconds} s each,"
# One target's run; its report goes to build-asan/TARGET.log.
fuzz() {
  local t=$1 corpus=tests/fuzz/corpus/${1#fuzz_} work
  work=$(mktemp -d)  # new inputs go here, not into the checked-in seeds
  # A fixed seed, so that a red run can be repeated; FUZZ_SEED=0 asks libFuzzer for a random one.
  build-asan/"$t" -seed="${FUZZ_SEED:-1}" -max_total_time="$fuzz_seconds" -timeout=10 -max_len=8192 -print_final_stats=1 \
    -artifact_prefix=build-asan/"$t"- "$work" "$corpus" 2> build-asan/"$t".log
  local status=$?
  rm -rf "$work"
  return $status
}
# Two at a time, one a core: the same fuzzing in half the wall time.
for pair in "fuzz_pgn fuzz_fen" "fuzz_move fuzz_convert" "fuzz_runs"; do
  pids=()
  for t in $pair; do
    fuzz "$t" &
    pids+=($!)
  done
  i=0
  for t in $pair; do
    echo "-- $t"
    if ! wait "${pids[$i]}"; then
      tail -n 60 build-asan/"$t".log
      echo "$t found a crash: the input is in build-asan/$t-crash-*" >&2
      exit 1
    fi
    grep -E 'stat::(number_of_executed_units|average_exec_per_sec)' build-asan/"$t".log
    i=$((i + 1))
  done
done
stage "all tests passed"
