#!/usr/bin/env bash
# Times `qipu check --jobs 1` on the same games in English SAN and in the notations Chinese
# readers meet (zh in both styles the converter writes, zh-Hant, figurines, German), with
# hyperfine, and prints each one's time against English's (issue 16: within 1.3x).
# The games: the pgnmentor corpus (../shared/corpora/real/pgnmentor), or the first MB of
# it given as a second argument, each file written by `qipu convert` first.
# Usage: bench/bench_zh.sh [build-dir] [MB]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
mb=${2:-}
qipu=$build/qipu
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat "$here"/../shared/corpora/real/pgnmentor/*.pgn > "$dir/all.pgn"
if [ -n "$mb" ]; then head -c $((mb * 1000000)) "$dir/all.pgn" > "$dir/cut.pgn"; mv "$dir/cut.pgn" "$dir/all.pgn"; fi
# English as qipu writes it, so that every file holds the same games laid out alike.
"$qipu" convert --jobs 2 --to en "$dir/all.pgn" -o "$dir/en.pgn" 2>/dev/null || true
"$qipu" convert --jobs 2 --to zh "$dir/all.pgn" -o "$dir/zh.pgn" 2>/dev/null || true
"$qipu" convert --jobs 2 --to zh --style compact "$dir/all.pgn" -o "$dir/zh-compact.pgn" 2>/dev/null || true
"$qipu" convert --jobs 2 --to zh-Hant "$dir/all.pgn" -o "$dir/zh-Hant.pgn" 2>/dev/null || true
"$qipu" convert --jobs 2 --to fan "$dir/all.pgn" -o "$dir/fan.pgn" 2>/dev/null || true
"$qipu" convert --jobs 2 --to de "$dir/all.pgn" -o "$dir/de.pgn" 2>/dev/null || true
ls -l "$dir"/*.pgn | awk '{print $5, $9}'
args=()
for f in en zh zh-compact zh-Hant fan de; do args+=(-n "check $f" "$qipu check --jobs 1 $dir/$f.pgn"); done
# qipu exits 1 on the corpus (its one illegal move), hence -i.
hyperfine -i --warmup 1 --runs 5 --export-json "$dir/zh.json" "${args[@]}"
python3 - "$dir/zh.json" <<'PY'
import json, sys
res = json.load(open(sys.argv[1]))["results"]
en = res[0]
base, base_cpu = en["mean"], en["user"] + en["system"]
print(f'{"":18s} {"wall":>8s} {"x en":>6s} {"cpu":>8s} {"x en":>6s}')
for r in res:
    cpu = r["user"] + r["system"]
    print(f'{r["command"]:18s} {r["mean"]:7.3f}s {r["mean"] / base:6.2f} {cpu:7.3f}s {cpu / base_cpu:6.2f}')
PY
