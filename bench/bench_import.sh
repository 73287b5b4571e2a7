#!/usr/bin/env bash
# Imports a PGN file into fresh databases, with and without the position index, and
# prints games/s, MB/s, CPU time, peak RSS, bytes per game and per indexed position,
# and the size of every table and index (SQLite's dbstat).
#
#   bench/bench_import.sh [QIPU] [PGN] [RUNS]
#
# Defaults: ./build/qipu, /tmp/pgnmentor.pgn (cat ../shared/corpora/real/pgnmentor/*.pgn),
# 3 runs each; the best run is reported, as other work on the machine only slows runs.
set -euo pipefail
qipu=${1:-./build/qipu}
pgn=${2:-/tmp/pgnmentor.pgn}
runs=${3:-3}
[[ -f $pgn ]] || { echo "no $pgn: cat ../shared/corpora/real/pgnmentor/*.pgn > $pgn" >&2; exit 2; }
command -v sqlite3 >/dev/null || { echo "sqlite3 is needed (apt-get install sqlite3)" >&2; exit 2; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mb=$(stat -c %s "$pgn")

# One import; prints "wall user sys rss_kb".
import_once() {
  rm -f "$dir/b.db" "$dir/b.db-wal" "$dir/b.db-shm"
  /usr/bin/time -f "%e %U %S %M" -o "$dir/time" "$qipu" import --db "$dir/b.db" "$@" "$pgn" > "$dir/out" || true
  tail -1 "$dir/time"  # after a "Command exited with non-zero status" line (rejected games)
}

echo "| import | games/s | MB/s | wall s | CPU s (user+sys) | peak RSS MB | DB bytes | bytes/game | bytes/position |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for mode in "--no-position-index" ""; do
  best=""
  for ((i = 0; i < runs; ++i)); do
    r=$(import_once $mode)
    if [[ -z $best ]] || awk -v a="$r" -v b="$best" 'BEGIN { split(a, x); split(b, y); exit !(x[1] < y[1]) }'; then best=$r; fi
  done
  read -r wall user sys rss <<< "$best"
  games=$(awk '/ games in /{print $1}' "$dir/out")
  stored=$(sqlite3 "$dir/b.db" "SELECT count(*) FROM game")
  bytes=$(stat -c %s "$dir/b.db")
  # Position bytes: the index's own pages, per entry.
  # Entries of runs a merge in progress reads count in its target (schema 5); older files have no merges.
  pos=$(sqlite3 "$dir/b.db" "SELECT coalesce(sum(entries),0) FROM segment s WHERE NOT EXISTS (SELECT 1 FROM segment_merge m
    WHERE s.id >= m.first_source AND s.id < m.target)" 2> /dev/null || sqlite3 "$dir/b.db" "SELECT coalesce(sum(entries),0) FROM segment")
  pos_bytes=$(sqlite3 "$dir/b.db" "SELECT coalesce(sum(pgsize),0) FROM dbstat WHERE name IN ('posting','posting_range','segment')")
  awk -v g="$games" -v w="$wall" -v u="$user" -v s="$sys" -v m="$rss" -v b="$bytes" -v n="$stored" -v mb="$mb" \
      -v p="$pos" -v pb="$pos_bytes" -v name="${mode:-with position index}" 'BEGIN {
    printf "| %s | %d | %.1f | %.2f | %.2f | %.0f | %d | %.1f | %s |\n", name, g / w, mb / 1e6 / w, w, u + s, m / 1024, b, \
      b / n, (p > 0 ? sprintf("%.2f", pb / p) : "-") }'
  if [[ $mode == --no-position-index ]]; then
    echo
    echo "Size of each table and index without the position index ($stored games):"
    echo
    echo "| table or index | bytes | bytes/game |"
    echo "|---|---:|---:|"
    sqlite3 -separator ' ' "$dir/b.db" "SELECT name, sum(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC" |
      awk -v n="$stored" '{ printf "| %s | %d | %.1f |\n", $1, $2, $2 / n }'
    echo
    echo "| import | games/s | MB/s | wall s | CPU s (user+sys) | peak RSS MB | DB bytes | bytes/game | bytes/position |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
  fi
done
