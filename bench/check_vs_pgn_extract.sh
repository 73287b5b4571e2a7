#!/usr/bin/env bash
# Times qipu check (and convert --to zh) against pgn-extract on the pgnmentor corpus,
# both in one hyperfine session. Needs: apt-get install pgn-extract hyperfine
# qipu exits 1 on this corpus (its one illegal move), hence -i.
# Usage: bench/check_vs_pgn_extract.sh [build-dir]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
corpus=$(mktemp --suffix=.pgn)
results=$(mktemp --suffix=.json)
trap 'rm -f "$corpus" "$results"' EXIT
cat "$here"/../shared/corpora/real/pgnmentor/*.pgn > "$corpus"
pgn_extract=$(command -v pgn-extract || echo /usr/games/pgn-extract)  # Debian puts it in /usr/games
bytes=$(stat -c %s "$corpus")
games=$(grep -c '^\[Event ' "$corpus")
echo "corpus: $bytes bytes, $games games"
hyperfine -i --warmup 1 --runs 3 --export-json "$results" \
  -n "pgn-extract -s -o /dev/null" "$pgn_extract -s -o /dev/null $corpus" \
  -n "qipu check --jobs 1" "$build/qipu check --jobs 1 $corpus" \
  -n "qipu check --jobs 2" "$build/qipu check --jobs 2 $corpus" \
  -n "qipu convert --to zh --jobs 1" "$build/qipu convert --to zh --jobs 1 $corpus -o /dev/null" \
  -n "qipu convert --to zh --jobs 2" "$build/qipu convert --to zh --jobs 2 $corpus -o /dev/null" || true
python3 - "$bytes" "$games" "$results" <<'PY'
import json, sys
bytes_, games = int(sys.argv[1]), int(sys.argv[2])
res = json.load(open(sys.argv[3]))["results"]
# Wall time, and CPU time (user + system, all threads): --jobs 1 is one thread, so its
# two agree; the ratios compare both with pgn-extract's.
ext = next(r for r in res if r["command"].startswith("pgn-extract"))
base, base_cpu = ext["mean"], ext["user"] + ext["system"]
for r in res:
    t, cpu = r["mean"], r["user"] + r["system"]
    print(f'{r["command"]:32s} {t:7.3f} s  {bytes_/t/1e6:7.1f} MB/s  {games/t:9.0f} games/s  {base/t:5.1f}x pgn-extract'
          f'   cpu {cpu:6.3f} s  {base_cpu/cpu:5.1f}x')
PY
