#!/usr/bin/env bash
# Times qipu search and explore on imported databases, warm cache, whole commands
# (process start included), with hyperfine.
#
#   bench/bench_search.sh [QIPU] DB...
#
# QUERIES=REGEX keeps the queries whose name matches (grep -E), e.g. QUERIES=player for a
# database without the position index, where position queries replay every game.
#
# Make the databases with the pgnmentor corpus, once as is and once ten times over:
#   cat ../shared/corpora/real/pgnmentor/*.pgn > /tmp/pgnmentor.pgn
#   qipu import --db /tmp/pm.db /tmp/pgnmentor.pgn
#   qipu import --db /tmp/pm10.db --allow-duplicates $(printf '/tmp/pgnmentor.pgn %.0s' {1..10})
set -euo pipefail
qipu=./build/qipu
if [[ $# -gt 0 && -x $1 && ! $1 == *.db ]]; then qipu=$1; shift; fi
[[ $# -gt 0 ]] || { echo "usage: $0 [QIPU] DB..." >&2; exit 2; }
command -v hyperfine >/dev/null || { echo "hyperfine is needed (apt-get install hyperfine)" >&2; exit 2; }

# name|arguments
queries=(
  "position count 1.d4 Nf6 (--fen)|search --fen 'rnbqkb1r/pppppppp/5n2/8/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 1 2' --count"
  "position count 1.d4 Nf6 (--moves --transpose)|search --moves '1.d4 Nf6' --transpose --count"
  "move order 1.e4 c5 2.Nf3 d6 (--moves)|search --moves '1.e4 c5 2.Nf3 d6' --count"
  "deep position: Najdorf 6.Bg5 (--transpose)|search --moves '1.e4 c5 2.Nf3 d6 3.d4 cxd4 4.Nxd4 Nf6 5.Nc3 a6 6.Bg5' --transpose --count"
  "explore 1.d4 Nf6|explore --moves '1.d4 Nf6'"
  "explore Najdorf 6.Bg5|explore --moves '1.e4 c5 2.Nf3 d6 3.d4 cxd4 4.Nxd4 Nf6 5.Nc3 a6 6.Bg5'"
  "player substring, table|search --player carlsen"
  "player substring, count|search --player carlsen --count"
  "player and opponent, table|search --white carlsen --black anand"
  "player and opponent, count|search --white carlsen --black anand --count"
  "player won, count|search --player kasparov --won --count"
  "player broad substring, table|search --white a --substring"
  "player broad substring, count|search --white a --substring --count"
  "result draw, table|search --result draw"
  "result draw, count|search --result draw --count"
  "date 1990-1995, table|search --date-from 1990 --date-to 1995"
  "date 1990-1995, count|search --date-from 1990 --date-to 1995 --count"
  "ECO C60-C99, table|search --eco C60-C99"
  "ECO C60-C99, count|search --eco C60-C99 --count"
  "result + date + ECO, count|search --result 1-0 --date-from 2000 --eco B --count"
)

for db in "$@"; do
  games=$("$qipu" search --db "$db" --count)
  echo "## $db ($games games)"
  echo
  echo "| query | matches | mean ms | σ ms |"
  echo "|---|---:|---:|---:|"
  for q in "${queries[@]}"; do
    name=${q%%|*}
    args=${q#*|}
    [[ -z ${QUERIES:-} ]] || grep -qE "$QUERIES" <<< "$name" || continue
    matches=$(eval "$qipu ${args/--count/} --db '$db' --count" 2>/dev/null || true)
    [[ $name == explore* ]] && matches=-
    json=$(mktemp)
    hyperfine -N --warmup 3 --runs 20 --export-json "$json" "$qipu $args --db $db" >/dev/null 2>&1
    python3 - "$json" "$name" "${matches:-?}" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
print(f"| {sys.argv[2]} | {sys.argv[3]} | {r['mean']*1000:.1f} | {r['stddev']*1000:.1f} |")
PY
    rm -f "$json"
  done
  echo
done
