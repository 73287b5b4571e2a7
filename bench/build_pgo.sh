#!/usr/bin/env bash
# A Release build optimised with a profile (GCC's -fprofile-generate / -fprofile-use):
# an instrumented qipu checks, converts, imports and filters training games, then the same build
# directory is compiled again with the counts it recorded. The training games are
# data/*.pgn (the world championship matches in English and Chinese notation, and the
# classics), the same matches converted by the instrumented qipu to German, traditional
# Chinese, figurines and compact Chinese, and, where the corpora are found
# ($QIPU_CORPORA, else ../shared/corpora beside the source tree), the lichess and TWIC
# files: never the pgnmentor benchmark's games.
# Usage: bench/build_pgo.sh [build-dir]   (default: build-pgo)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(realpath -m "${1:-$here/build-pgo}")
profile=$build/pgo-profile
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

rm -rf "$profile"
# Ninja when installed (README command 1 installs ninja-build): it compiles the program's one
# big unit while the library is still building, where make would wait for the library.
generator=()
if [ ! -f "$build/CMakeCache.txt" ] && command -v ninja > /dev/null; then generator=(-GNinja); fi
cmake -S "$here" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DQIPU_PGO=generate -DQIPU_PGO_DIR="$profile"
cmake --build "$build" -j2 --target qipu
inputs=("$here"/data/*.pgn)
corpora=${QIPU_CORPORA:-$here/../shared/corpora}
for f in "$corpora"/real/lichess-twic/*.pgn; do [ -e "$f" ] && inputs+=("$f"); done
# Each notation's own paths (issue 16: every form read within 1.3x of English): the
# world championship games written by this qipu in the forms Chinese readers meet that
# data/ has not (German letters, traditional characters, figurines, compact Chinese), so
# that their code is laid out hot, not cold.
forms=()
for to in de zh-Hant fan "zh --style compact"; do
  out=$work/wc-${to// /}.pgn
  # shellcheck disable=SC2086 # $to holds the style's option
  "$build"/qipu convert --to $to "$here"/data/world-championships.pgn -o "$out" 2>/dev/null || true
  [ -s "$out" ] && forms+=("$out")
done
echo "training on ${#inputs[@]} files and ${#forms[@]} converted"
# Exit codes are not looked at: training games may hold errors, which is the point.
"$build"/qipu check --jobs 2 "${inputs[@]}" "${forms[@]}" >/dev/null || true
"$build"/qipu convert --to zh "${inputs[@]}" -o "$work/out.txt" 2>/dev/null || true
"$build"/qipu import --db "$work/train.db" "${inputs[@]}" >/dev/null 2>&1 || true
# filter's jobs as bench/bench_filter.sh times them (one job: the calling thread's loop),
# so that the writer, ECO tags and the duplicate key are laid out hot too.
train_filter() { "$build"/qipu filter --jobs 1 "$@" "${inputs[@]}" -o /dev/null 2>/dev/null || true; }
train_filter --player Kasparov
train_filter --moves "1.e4 c5 2.Nf3 d6" --transpose
train_filter --add-eco
train_filter --dedup
train_filter --no-comments --no-nags --no-variations
cmake -S "$here" -B "$build" -DQIPU_PGO=use
cmake --build "$build" -j2 --target qipu
echo "profile-guided build: $build/qipu"
