#!/usr/bin/env bash
# Times qipu filter against pgn-extract doing the same jobs on the pgnmentor corpus (84 MB,
# all 75 files of the corpora's real/pgnmentor: issue #19's corpus), in one hyperfine
# session: a player filter, a position filter, ECO tags, stripping comments/NAGs/variations,
# and duplicates, 10 runs a job (a single session's 3 runs were too few: hand runs just
# after moved the ECO ratio from 8.5x to 10.5x). Then, unless --no-big, a 1 GB .zst (the
# corpus repeated) filtered by player, beside qipu check on the same file.
# Needs: apt-get install pgn-extract hyperfine zstd.
# Usage: bench/bench_filter.sh [build-dir] [--no-big] [--runs N]
# The corpora: $QIPU_CORPORA, else ../shared/corpora beside the checkout (as the tests).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=$here/build runs=10 with_big=yes
while (($#)); do
  case $1 in
    --no-big) with_big=no ;;
    --runs) runs=$2; shift ;;
    -*) echo "bench_filter.sh: unknown option $1" >&2; exit 2 ;;
    *) build=$1 ;;
  esac
  shift
done
qipu=$build/qipu
corpora=${QIPU_CORPORA:-$here/../shared/corpora}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
corpus=$work/pm.pgn
cat "$corpora"/real/pgnmentor/*.pgn > "$corpus"
# The whole corpus or nothing: the bytes MANIFEST.tsv lists for real/pgnmentor.
want=$(awk -F'\t' '$1 ~ /^real\/pgnmentor\// { n += $7 } END { print n + 0 }' "$corpora/MANIFEST.tsv")
[ "$(stat -c %s "$corpus")" = "$want" ] || { echo "pgnmentor: $(stat -c %s "$corpus") bytes, MANIFEST.tsv says $want" >&2; exit 2; }
pgn_extract=$(command -v pgn-extract || echo /usr/games/pgn-extract)
eco=/usr/share/pgn-extract/eco.pgn  # Debian's pgn-extract package
printf '1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 *\n' > "$work/najdorf.pgn"
echo "corpus: $(stat -c %s "$corpus") bytes, $(grep -c '^\[Event ' "$corpus") games; $runs runs a job; load: $(cut -d' ' -f1-3 /proc/loadavg)"
hyperfine -i --warmup 1 --runs "$runs" --export-json "$work/filter.json" \
  -n "player: pgn-extract -Tp" "$pgn_extract -s -TpKasparov -o /dev/null $corpus" \
  -n "player: qipu" "$qipu filter --jobs 1 --player Kasparov $corpus -o /dev/null" \
  -n "position: pgn-extract -x" "$pgn_extract -s -x$work/najdorf.pgn -o /dev/null $corpus" \
  -n "position: qipu" "$qipu filter --jobs 1 --moves '1.e4 c5 2.Nf3 d6 3.d4 cxd4 4.Nxd4 Nf6 5.Nc3 a6' --transpose $corpus -o /dev/null" \
  -n "eco: pgn-extract -e" "$pgn_extract -s -e$eco -o /dev/null $corpus" \
  -n "eco: qipu" "$qipu filter --jobs 1 --add-eco $corpus -o /dev/null" \
  -n "strip: pgn-extract -C -N -V" "$pgn_extract -s -C -N -V -o /dev/null $corpus" \
  -n "strip: qipu" "$qipu filter --jobs 1 --no-comments --no-nags --no-variations $corpus -o /dev/null" \
  -n "dups: pgn-extract -D" "$pgn_extract -s -D -o /dev/null $corpus" \
  -n "dups: qipu" "$qipu filter --jobs 1 --dedup $corpus -o /dev/null" \
  -n "check: qipu" "$qipu check --jobs 1 $corpus" || true
python3 - "$work/filter.json" <<'PY'
import json, sys
res = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
# Wall time, and CPU time (user): on a shared machine the CPU times are the fairer
# comparison, both programs being single-threaded here.
print(f'{"job":10s} {"pgn-extract":>12s} {"qipu":>9s} {"ratio":>7s}   {"CPU pgn-extract":>15s} {"qipu":>8s} {"ratio":>7s}')
for job in ["player", "position", "eco", "strip", "dups"]:
    ext = next(r for n, r in res.items() if n.startswith(job + ": pgn-extract"))
    q = res[job + ": qipu"]
    print(f'{job:10s} {ext["mean"]:10.2f} s {q["mean"]:7.2f} s {ext["mean"] / q["mean"]:6.1f}x'
          f'   {ext["user"]:13.2f} s {q["user"]:6.2f} s {ext["user"] / q["user"]:6.1f}x')
c = res["check: qipu"]
print(f'check --jobs 1: {c["mean"]:.2f} s wall, {c["user"]:.2f} s CPU')
PY
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
[ "$with_big" = no ] && exit 0
big=$work/big.pgn.zst
for i in $(seq 12); do cat "$corpus"; done | zstd -q -1 -o "$big"
echo "big: $(( $(for i in $(seq 12); do stat -c %s "$corpus"; done | paste -sd+ | bc) / 1000000 )) MB of PGN, $(stat -c %s "$big") bytes zstd"
hyperfine -i --runs 1 \
  -n "qipu check --jobs 2 (1 GB zst)" "$qipu check --jobs 2 $big" \
  -n "qipu filter --jobs 2 --player Kasparov (1 GB zst)" "$qipu filter --jobs 2 --player Kasparov $big -o /dev/null"
