#!/usr/bin/env bash
# Times qipu serve at the server: each API call of an explorer step, a game page and a
# search page, as the server reports it in its Server-Timing header (the handler's time,
# connection opened and JSON written; no network), and the page's first load in bytes.
#
#   bench/bench_serve.sh [QIPU] DB [RUNS]
#
# Make the database from the pgnmentor corpus (116,794 games after duplicates):
#   cat ../shared/corpora/real/pgnmentor/*.pgn > /tmp/pgnmentor.pgn
#   qipu import --db /tmp/pm.db /tmp/pgnmentor.pgn
set -euo pipefail
qipu=./build/qipu
if [[ $# -gt 0 && -x $1 && ! $1 == *.db ]]; then qipu=$1; shift; fi
[[ $# -gt 0 ]] || { echo "usage: $0 [QIPU] DB [RUNS]" >&2; exit 2; }
db=$1
runs=${2:-20}
command -v curl >/dev/null || { echo "curl is needed" >&2; exit 2; }

log=$(mktemp)
"$qipu" serve --db "$db" --port 0 >"$log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; rm -f "$log"' EXIT
for _ in $(seq 50); do grep -q http "$log" && break; sleep 0.1; done
url=$(grep -o 'http://[^ ]*/' "$log")

# name|path
calls=(
  "explorer: start position|api/explore"
  "explorer: step to 1.e4 c5 2.Nf3 d6|api/explore?moves=1.e4+c5+2.Nf3+d6&notation=en&style=compact"
  "explorer: step to Najdorf 6.Bg5|api/explore?moves=1.e4+c5+2.Nf3+d6+3.d4+cxd4+4.Nxd4+Nf6+5.Nc3+a6+6.Bg5"
  "explorer: step by FEN after 1.d4 Nf6|api/explore?fen=rnbqkb1r/pppppppp/5n2/8/3P4/8/PPP1PPPP/RNBQKBNR+w+KQkq+-+1+2"
  "game page (id 1000, zh)|api/game/1000?notation=zh&style=compact"
  "game page (id 100000)|api/game/100000"
  "search page: no filter|api/search"
  "search page: player carlsen|api/search?player=carlsen"
  "search page: player carlsen, by date desc, page 3|api/search?player=carlsen&sort=date&desc=1&offset=100"
  "search page: draws, by Elo|api/search?result=draw&sort=elo&desc=1"
  "search page: ECO B90-B99 since 2000|api/search?eco=B90-B99&date-from=2000"
  "search page: moves 1.e4 c5 2.Nf3 d6|api/search?moves=1.e4+c5+2.Nf3+d6"
  "count: no filter|api/count"
  "count: player carlsen|api/count?player=carlsen"
  "count: draws|api/count?result=draw"
  "count: moves 1.e4 c5 2.Nf3 d6|api/count?moves=1.e4+c5+2.Nf3+d6"
  "event standings|api/event?id=1"
)

games=$("$qipu" search --db "$db" --count)
echo "## $db ($games games), $runs runs each, $(date -u +%Y-%m-%d)"
echo
echo "| call | median ms | min ms | max ms | bytes |"
echo "|---|---:|---:|---:|---:|"
for entry in "${calls[@]}"; do
  name=${entry%%|*}
  path=${entry#*|}
  times=()
  for _ in $(seq "$runs"); do
    t=$(curl -s -D - -o /dev/null "$url$path" | tr -d '\r' | sed -n 's/^Server-Timing: app;dur=//p')
    times+=("$t")
  done
  bytes=$(curl -s "$url$path" | wc -c)
  printf '%s\n' "${times[@]}" | sort -g | awk -v name="$name" -v bytes="$bytes" \
    '{ t[NR] = $1 } END { printf "| %s | %.1f | %.1f | %.1f | %d |\n", name, t[int((NR + 1) / 2)], t[1], t[NR], bytes }'
done

# The first load: the page, its script and styles, the twelve pieces and the first view's
# three API calls, as sent (compressed when the browser asks for it) and as is.
first=(index.html style.css board.js app.js api/info api/search api/count)
for p in wK wQ wR wB wN wP bK bQ bR bB bN bP; do first+=("pieces/$p.svg"); done
plain=0 sent=0
for p in "${first[@]}"; do
  plain=$((plain + $(curl -s "$url$p" | wc -c)))
  sent=$((sent + $(curl -s --compressed -o /dev/null -w '%{size_download}' "$url$p")))
done
echo
echo "First load (${#first[@]} requests): $plain bytes as is, $sent bytes as sent with compression"
