#!/usr/bin/env bash
# How long `explore --fen` takes at many real positions, not only the few bench_scale.sh
# times: the positions of every EVERYth real game at plies 16 to 30 (answered by the
# aggregate, the deep positions or the scan, whichever applies) that 3 or more real games reach,
# each timed by hyperfine (7 runs after a warm-up, process start included) on a database
# that bench_scale.sh made. Prints, by how many real games reach the position, the positions,
# the median of their median times, the slowest median and how many took over 20 ms
# (issue #17's bound); writes each position's real games, median and slowest ms, a hash of
# the answer (to compare two builds' answers) and its FEN to TSV.
#
#   bench/bench_explore_positions.sh DB [TSV]      (TSV default /tmp/qipu-explore-positions.tsv)
#
# The real games are make_corpus's: the pgnmentor corpus without its duplicates, which
# bench_scale.sh copies (85.6 copies each at 10 M games). Environment: QIPU (default
# ./build/qipu), QIPU_CORPUS_BASE and QIPU_CORPUS_DIR (as make_corpus), EVERY (default 400).
# Needs hyperfine. 58 s in all for the 1,083 positions of EVERY=400 (2026-12-06).
set -euo pipefail
db=${1:?usage: bench_explore_positions.sh DB [TSV]}
out=${2:-/tmp/qipu-explore-positions.tsv}
qipu=${QIPU:-./build/qipu}
every=${EVERY:-400}
here=$(dirname "$0")
command -v hyperfine > /dev/null || { echo "bench_explore_positions: hyperfine is needed (apt-get install hyperfine)" >&2; exit 2; }
[[ -s $db ]] || { echo "bench_explore_positions: no database $db (make one with bench/bench_scale.sh)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
base=${QIPU_CORPUS_BASE:-/tmp/qipu-corpus-base.pgn}
"$here/make_corpus" 1 > /dev/null  # makes the base when it is missing
"$qipu" import --db "$tmp/real.db" "$base" > /dev/null

# Game g's position after ply p is line p of its FENs (games counted from 0, a blank line after each).
"$qipu" convert --to fen --jobs 1 "$base" 2> /dev/null |
  awk -v every="$every" '/^$/ { g++; p = 0; next } { p++; if (g % every == 0 && p >= 16 && p <= 30) print }' |
  sort -u > "$tmp/fens"
: > "$out"
while read -r fen; do
  n=$("$qipu" search --db "$tmp/real.db" --count --fen "$fen")
  ((n >= 3)) || continue
  answer=$("$qipu" explore --db "$db" --fen "$fen" | md5sum | cut -c1-8)
  hyperfine -N -w 1 -r 7 --export-csv "$tmp/t.csv" "$qipu explore --db $db --fen '$fen'" > /dev/null 2>&1
  # hyperfine's CSV: command, mean, stddev, median, user, system, min, max (seconds)
  awk -F, -v n="$n" -v a="$answer" -v fen="$fen" 'NR == 2 { printf "%d\t%.2f\t%.2f\t%s\t%s\n", n, $4 * 1000, $8 * 1000, a, fen }' \
    "$tmp/t.csv" >> "$out"
done < "$tmp/fens"

# By median time, so that each band's values arrive sorted.
sort -t$'\t' -k2,2g "$out" | awk -F'\t' '
  function band(n) { return n <= 5 ? 1 : n <= 8 ? 2 : n <= 14 ? 3 : n <= 22 ? 4 : n <= 29 ? 5 : n <= 59 ? 6 : n <= 119 ? 7 : n <= 232 ? 8 : 9 }
  function add(b, ms) { ms_at[b, ++count[b]] = ms; over[b] += ms > 20 }
  function line(name, b,   k) {
    k = count[b]
    printf "%-13s %9d %9.1f %9.1f %9d\n", name, k, k ? ms_at[b, int((k + 1) / 2)] : 0, k ? ms_at[b, k] : 0, over[b]
  }
  { add(band($1), $2 + 0); add(0, $2 + 0) }
  END {
    split("3-5 6-8 9-14 15-22 23-29 30-59 60-119 120-232 233+", names, " ")
    printf "%-13s %9s %9s %9s %9s\n", "real games", "positions", "median ms", "slowest", "over 20"
    for (b = 1; b <= 9; b++) line(names[b], b)
    line("all", 0)
  }'
echo "bench_explore_positions: wrote $out" >&2
