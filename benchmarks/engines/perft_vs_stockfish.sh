#!/usr/bin/env bash
# Chess perft speed: our perft tool against Stockfish's own "go perft" on the same
# positions, in the same run. Usage:
#   benchmarks/engines/perft_vs_stockfish.sh <build bin dir> [repeats]
# Environment: STOCKFISH (binary, default: stockfish on PATH, else the Debian package's
# /usr/games/stockfish), MIN_RATIO (exit 1 if a required position is slower than this),
# QUICK=1 (only the two required positions).
# Each run is repeated (default 3) and the fastest kept, runs of the two engines
# interleaved so that load from other processes hits both alike. Times are wall-clock
# minus each program's start-up (its depth-1 time, best of the repeats), so Stockfish's
# network loading does not count against it. Ratio = our nodes/s / Stockfish's nodes/s.
set -euo pipefail

bin_dir=${1:?usage: $0 <build bin dir> [repeats]}
repeats=${2:-3}
perft="$bin_dir/perft"
sf=${STOCKFISH:-$(command -v stockfish || echo /usr/games/stockfish)}
[[ -x "$perft" ]] || { echo "no perft binary at $perft" >&2; exit 2; }
[[ -x "$sf" ]] || { echo "no Stockfish at $sf (set STOCKFISH)" >&2; exit 2; }

# name | FEN | depth | required (counts toward MIN_RATIO)
positions=(
  "initial|rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1|6|yes"
  "kiwipete|r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1|5|yes"
  "position3|8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1|6|no"
  "position4|r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1|5|no"
  "position5|rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8|5|no"
  "position6|r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10|5|no"
)
if [[ "${QUICK:-0}" == 1 ]]; then positions=("${positions[@]:0:2}"); fi

now_ns() { date +%s%N; }

# run_ours FEN DEPTH -> "nodes ns"
run_ours() {
  local t0 t1 out
  t0=$(now_ns)
  out=$("$perft" --game chess --fen "$1" --depth "$2" | tail -1)
  t1=$(now_ns)
  echo "${out#nodes } $((t1 - t0))"
}

run_sf() {
  local t0 t1 out
  t0=$(now_ns)
  out=$(printf 'position fen %s\ngo perft %s\nquit\n' "$1" "$2" | "$sf" | grep 'Nodes searched' || true)
  t1=$(now_ns)
  echo "${out#Nodes searched: } $((t1 - t0))"
}

best_of() {  # best_of FUNC FEN DEPTH -> "nodes best_ns"
  local best="" nodes="" r
  for ((i = 0; i < repeats; i++)); do
    r=$("$1" "$2" "$3")
    nodes=${r% *}
    if [[ -z "$best" || ${r#* } -lt $best ]]; then best=${r#* }; fi
  done
  echo "$nodes $best"
}

start=rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\ w\ KQkq\ -\ 0\ 1
ours_start=$(best_of run_ours "$start" 1); ours_start=${ours_start#* }
sf_start=$(best_of run_sf "$start" 1); sf_start=${sf_start#* }

echo "Stockfish: $(echo quit | "$sf" | head -1)"
echo "start-up subtracted: ours $((ours_start / 1000000)) ms, Stockfish $((sf_start / 1000000)) ms"
printf '%-10s %5s %12s %10s %10s %10s %10s %7s\n' position depth nodes ours_ms sf_ms ours_Mnps \
  sf_Mnps ratio
status=0
for p in "${positions[@]}"; do
  IFS='|' read -r name fen depth required <<<"$p"
  best_o="" best_s="" nodes_o="" nodes_s=""
  for ((k = 0; k < repeats; k++)); do  # interleaved
    r=$(run_ours "$fen" "$depth"); nodes_o=${r% *}; t=${r#* }
    if [[ -z "$best_o" || $t -lt $best_o ]]; then best_o=$t; fi
    r=$(run_sf "$fen" "$depth"); nodes_s=${r% *}; t=${r#* }
    if [[ -z "$best_s" || $t -lt $best_s ]]; then best_s=$t; fi
  done
  if [[ "$nodes_o" != "$nodes_s" ]]; then
    echo "$name: node counts differ: ours $nodes_o, Stockfish $nodes_s" >&2
    status=1
    continue
  fi
  to=$((best_o - ours_start)); ts=$((best_s - sf_start))
  ((to > 0)) || to=1
  ((ts > 0)) || ts=1
  line=$(awk -v n="$nodes_o" -v to="$to" -v ts="$ts" 'BEGIN {
    printf "%10.1f %10.1f %10.1f %10.1f %7.2f", to / 1e6, ts / 1e6, n / to * 1e3, n / ts * 1e3, ts / to }')
  printf '%-10s %5s %12s %s\n' "$name" "$depth" "$nodes_o" "$line"
  ratio=$(awk -v to="$to" -v ts="$ts" 'BEGIN { printf "%.3f", ts / to }')
  if [[ "$required" == yes && -n "${MIN_RATIO:-}" ]] &&
    awk -v r="$ratio" -v m="$MIN_RATIO" 'BEGIN { exit !(r < m) }'; then
    echo "$name: ratio $ratio is below MIN_RATIO=$MIN_RATIO" >&2
    status=1
  fi
done
exit $status
