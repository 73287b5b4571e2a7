#!/usr/bin/env bash
# Imports N games (bench/make_corpus: real games, made distinct) into one database in steps,
# and after each step prints the step's games/s, CPU time and peak RSS, the database's bytes
# per game and per indexed position, and the time of a fixed set of queries. Writes the
# table as TSV and plots games/s and query times against the database size with gnuplot.
#
#   bench/bench_scale.sh [N] [STEP]          (defaults 10000000 and 1000000)
#
# Environment: QIPU (default ./build/qipu), DB (default /tmp/qipu-scale.db; removed first),
# OUT (default bench/bench_scale: OUT.tsv, OUT.svg), IMPORT_ARGS (e.g. --no-position-index),
# RUNS (query runs, default 5; the mean is shown), PREGEN (default 1: each step's games are
# written to a file in the temporary folder first, untimed, so that make_corpus's mawk does
# not compete with the import for the cores; 0 pipes them in as it makes them), TMPDIR (where
# that file goes: about 700 MB a million games, and 140 MB for the calibration's games). Needs hyperfine, sqlite3, gnuplot-nox.
#
# calib_cpu_s: the CPU seconds of `qipu check --jobs 1` on the same 200,000 games (about a
# second), before and after each step (the mean): one thread's fixed work, so that a step
# slowed by the machine (a shared VM's speed varies by a fifth for minutes) can be told from
# one slowed by the code. user_s, sys_s: the step's CPU time (cpu_s) in user and kernel mode.
set -euo pipefail
n=${1:-10000000}
step=${2:-1000000}
qipu=${QIPU:-./build/qipu}
db=${DB:-/tmp/qipu-scale.db}
out=${OUT:-bench/bench_scale}
runs=${RUNS:-5}
here=$(dirname "$0")
# Plots a TSV this script wrote into an SVG beside it.
plot() {
  local tsv=$1 svg=${1%.tsv}.svg
  command -v gnuplot > /dev/null || { echo "bench_scale: wrote $tsv; no plot without gnuplot (apt-get install gnuplot-nox)" >&2; return 0; }
  gnuplot <<EOF
set terminal svg size 1000,420 dynamic noenhanced font "sans,11"
set output "$svg"
set datafile separator "\t"
set key autotitle columnhead top left
set multiplot layout 1,2 title "qipu: import into one database in steps, and queries after each step (2-core VM, shared)"
set xlabel "games in the database (millions)"
set ylabel "games/s (step)"
set yrange [0:*]
plot "$tsv" using (\$1/1e6):5 with linespoints title "import games/s (wall)", \\
     "$tsv" using (\$1/1e6):(\$2/\$4) with linespoints title "games per CPU second", \\
     "$tsv" using (\$1/1e6):(\$6*100) with linespoints title "peak RSS (MB x 100)"
set ylabel "query CPU ms (user + sys, whole command; wall in the TSV)"
set logscale y
set yrange [*:*]
plot for [c=14:26:2] "$tsv" using (\$1/1e6):c with linespoints
unset multiplot
EOF
  echo "wrote $tsv and $svg" >&2
}
# bench_scale.sh --plot TSV: only the plot, e.g. of a run stopped midway.
if [[ $n == --plot ]]; then plot "$2"; exit; fi
for tool in hyperfine sqlite3; do
  command -v $tool > /dev/null || { echo "bench_scale: $tool is needed (apt-get install $tool)" >&2; exit 2; }
done
rm -f "$db" "$db-wal" "$db-shm"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

start_fen="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
names=(explore_start explore_e4c5 explore_d4nf6c4e6 player eco fen_limit20 explore_breyer)
queries=(
  "$qipu explore --db $db --fen '$start_fen'"
  "$qipu explore --db $db --moves '1.e4 c5'"
  "$qipu explore --db $db --moves '1.d4 Nf6 2.c4 e6'"
  "$qipu search --db $db --player Kasparov --limit 20"
  "$qipu search --db $db --eco B90 --limit 20"
  "$qipu search --db $db --fen '$start_fen' --limit 20"
  # Past the aggregate's depth (17 units off their squares), reached by 0.4 % of the games:
  # a deep position (src/db/deep_positions.hpp), scanned before 2026-12-04.
  "$qipu explore --db $db --moves '1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 4.Ba4 Nf6 5.O-O Be7 6.Re1 b5 7.Bb3 d6 8.c3 O-O 9.h3 Nb8 10.d4 Nbd7'"
)

# Mean milliseconds of each query, wall then CPU (user + sys: the steadier figure on a
# shared machine), tab-separated, in the order above.
time_queries() {
  hyperfine -N -i -w 1 -r "$runs" --export-csv "$tmp/q.csv" "${queries[@]}" > /dev/null 2>&1 || {
    echo "bench_scale: a query failed" >&2
    printf '%s' "$(printf 'NA\tNA\t%.0s' "${names[@]}")"
    return
  }
  awk -F, 'NR > 1 { printf "%s%.1f\t%.1f", (NR > 2 ? "\t" : ""), $2 * 1000, ($5 + $6) * 1000 }' "$tmp/q.csv"
}

# bytes_per_game: the games' own tables (file less free pages, position index and
# aggregate); explore_bytes_per_game: the explorer's aggregate and deep positions; free: pages merges freed,
# reused by later writes.
header="games\tstep_games\twall_s\tcpu_s\tgames_per_s\trss_mb\tdb_bytes\tfree_bytes\tbytes_per_game\texplore_bytes_per_game\tpositions\tbytes_per_position"
for q in "${names[@]}"; do header+="\t${q}_ms\t${q}_cpu_ms"; done
header+="\tcalib_cpu_s\tuser_s\tsys_s"
printf "$header\n" | tee "$out.tsv"
"$here/make_corpus" 200000 0 > "$tmp/calib.pgn"
calibrate() {
  /usr/bin/time -f "%U %S" -o "$tmp/calib" "$qipu" check --jobs 1 "$tmp/calib.pgn" > /dev/null 2>&1 || true
  tail -1 "$tmp/calib" | awk '{ print $1 + $2 }'  # time puts a line before it when check exits 1
}
for ((done_ = 0; done_ < n; done_ += step)); do
  calib_before=$(calibrate)
  this=$(( n - done_ < step ? n - done_ : step ))
  input=-
  if [[ ${PREGEN:-1} != 0 ]]; then
    input=$tmp/step.pgn
    "$here/make_corpus" "$this" "$done_" > "$input"
  fi
  # shellcheck disable=SC2086 # IMPORT_ARGS holds options
  if [[ $input == - ]]; then "$here/make_corpus" "$this" "$done_"; fi |
    /usr/bin/time -f "%e %U %S %M" -o "$tmp/time" "$qipu" import --db "$db" ${IMPORT_ARGS:-} "$input" > "$tmp/import" || true
  rm -f "$tmp/step.pgn"
  read -r wall user sys rss <<< "$(tail -1 "$tmp/time")"
  calib=$(awk -v a="$calib_before" -v b="$(calibrate)" 'BEGIN { printf "%.2f", (a + b) / 2 }')
  games=$(sqlite3 "$db" "SELECT count(*) FROM game")
  bytes=$(stat -c %s "$db")
  # Entries of runs a merge in progress reads count in its target (schema 5); older files have no merges.
  positions=$(sqlite3 "$db" "SELECT coalesce(sum(entries), 0) FROM segment s WHERE NOT EXISTS (SELECT 1 FROM segment_merge m
    WHERE s.id >= m.first_source AND s.id < m.target)" 2> /dev/null || sqlite3 "$db" "SELECT coalesce(sum(entries), 0) FROM segment")
  index_bytes=$(sqlite3 "$db" "SELECT coalesce(sum(pgsize), 0) FROM dbstat WHERE name IN ('posting', 'posting_range', 'segment')")
  explore_bytes=$(sqlite3 "$db" "SELECT coalesce(sum(pgsize), 0) FROM dbstat WHERE name LIKE 'explore%' OR name LIKE 'deep%'")
  free_bytes=$(sqlite3 "$db" "SELECT freelist_count * page_size FROM pragma_freelist_count, pragma_page_size")
  row=$(awk -v g="$games" -v s="$this" -v w="$wall" -v u="$user" -v y="$sys" -v m="$rss" -v b="$bytes" -v p="$positions" \
    -v ib="$index_bytes" -v eb="$explore_bytes" -v fb="$free_bytes" 'BEGIN {
      printf "%d\t%d\t%.1f\t%.1f\t%.0f\t%.0f\t%.0f\t%.0f\t%.1f\t%.1f\t%.0f\t%s", g, s, w, u + y, s / w, m / 1024, b, fb,
        (b - fb - ib - eb) / g, eb / g, p, (p > 0 ? sprintf("%.2f", ib / p) : "NA") }')
  timed=$(time_queries)
  printf '%s\t%s\t%s\t%s\t%s\n' "$row" "${timed%$'\t'}" "$calib" "$user" "$sys" | tee -a "$out.tsv"
done

plot "$out.tsv"
