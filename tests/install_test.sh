#!/usr/bin/env bash
# The library as another project uses it: `cmake --install` into a fresh prefix, then the
# examples built from that prefix with g++ and with clang++, once through find_package(qipu)
# and once through pkg-config, and run on a game whose answers are known (FENs worked out by
# hand, 马f3). What is installed is BUILD_DIR's build when given (the test suite passes its
# own: a second Release build of the library took a minute of the test command), else a
# Release build of the library alone (no CLI11, no Catch2 needed) made in WORK_DIR.
# Usage: tests/install_test.sh SOURCE_DIR WORK_DIR [BUILD_DIR]
set -euo pipefail
src=$(realpath "$1")
work=$(realpath -m "$2")
prefix=$work/prefix
mkdir -p "$work"

fail() { echo "install_test: $*" >&2; exit 1; }

lib=${3:-}
if [ -z "$lib" ]; then
  lib=$work/lib
  cmake -S "$src" -B "$lib" -DCMAKE_BUILD_TYPE=Release \
    -DQIPU_BUILD_CLI=OFF -DQIPU_BUILD_TESTS=OFF -DQIPU_BUILD_EXAMPLES=OFF >/dev/null
  cmake --build "$lib" -j2 >/dev/null
fi
rm -rf "$prefix"
cmake --install "$lib" --prefix "$prefix" >/dev/null
[ -f "$prefix/include/qipu/game/pipeline.hpp" ] || fail "headers not installed under include/qipu/"
[ ! -e "$prefix/include/qipu/grammar" ] || fail "the private grammar headers were installed"
# With the program built: the installed qipu finds qipu-serve in libexec/qipu/, which
# reports the missing database (qipu alone would say that it cannot start it).
if [ -x "$prefix/bin/qipu" ]; then
  [ -x "$prefix/libexec/qipu/qipu-serve" ] || fail "qipu-serve not installed in libexec/qipu/"
  served=$("$prefix/bin/qipu" serve --db "$work/missing.db" 2>&1) && fail "qipu serve ran without a database"
  case $served in
    *"no database at"*) echo "installed qipu serve: qipu-serve found in libexec/qipu/" ;;
    *) fail "installed qipu serve printed: $served" ;;
  esac
fi

printf '[White "A"]\n[Black "B"]\n\n1. Nf3 Nf6 2. g3 *\n' >"$work/game.pgn"
want_fens="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1
rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1
rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 2 2
rnbqkb1r/pppppppp/5n2/8/8/5NP1/PPPPPP1P/RNBQKB1R b KQkq - 0 2"

# The examples as a project of their own, found through qipuConfig.cmake: all of them with
# g++, the one run with clang++ (every example again took seconds of the test command).
for cxx in g++ clang++; do
  build=$work/examples-$cxx
  rm -rf "$build"
  cmake -S "$src/examples" -B "$build" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_BUILD_TYPE=Release >/dev/null || fail "find_package(qipu) failed with $cxx"
  targets=()
  [ "$cxx" = g++ ] || targets=(--target replay_fens)
  cmake --build "$build" -j2 "${targets[@]}" >/dev/null || fail "the examples do not build against the installed qipu with $cxx"
  got=$("$build/replay_fens" "$work/game.pgn" | tail -n +2)
  [ "$got" = "$want_fens" ] || fail "replay_fens built with $cxx printed: $got"
  echo "find_package(qipu) with $cxx: examples built and replay_fens right"
done

# One example compiled by hand with the flags pkg-config gives.
pc_file=$(find "$prefix" -name qipu.pc)
export PKG_CONFIG_PATH=${pc_file%/*}
for cxx in g++ clang++; do
  # shellcheck disable=SC2046  # the flags are meant to split
  "$cxx" -std=c++20 "$src/examples/to_chinese.cpp" -o "$work/to_chinese-$cxx" $(pkg-config --cflags --libs qipu) \
    || fail "to_chinese does not link with $cxx and pkg-config qipu"
  got=$("$work/to_chinese-$cxx" "$work/game.pgn")
  case $got in
    *"1. 马f3 马f6 2. g3 *"*) echo "pkg-config qipu with $cxx: to_chinese built and right" ;;
    *) fail "to_chinese built with $cxx printed: $got" ;;
  esac
done
