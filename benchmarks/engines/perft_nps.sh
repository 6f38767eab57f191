#!/usr/bin/env bash
# Legal-move generation speed of four-player shogi beside chess's, in the same run: perft
# node counts per second from each game's start position through the perft tool.
# Usage:
#   benchmarks/engines/perft_nps.sh <build bin dir> [shogi4 depth (7)] [chess depth (6)]
# Prints one line per game (nodes, seconds, nodes/s) and the ratio shogi4 / chess. Chess is
# reported as not available when the perft tool cannot run it (engine not built yet).
set -euo pipefail

bin_dir=${1:?usage: $0 <build bin dir> [shogi4 depth] [chess depth]}
shogi_depth=${2:-7}
chess_depth=${3:-6}
perft="$bin_dir/perft"
[[ -x "$perft" ]] || { echo "no perft binary at $perft" >&2; exit 2; }

now_ns() { date +%s%N; }

# measure GAME DEPTH -> "nodes ns" (empty on failure)
measure() {
  local t0 t1 out
  t0=$(now_ns)
  out=$("$perft" --game "$1" --depth "$2" 2>/dev/null | tail -1) || return 1
  t1=$(now_ns)
  [[ "$out" == nodes\ * ]] || return 1
  echo "${out#nodes } $((t1 - t0))"
}

report() {  # NAME DEPTH NODES NS -> prints a line, echoes nodes/s to fd 3
  awk -v name="$1" -v d="$2" -v n="$3" -v ns="$4" 'BEGIN {
    s = ns / 1e9; nps = (s > 0) ? n / s : 0;
    printf "%-7s depth %d  nodes %12.0f  seconds %8.3f  nodes/s %12.0f\n", name, d, n, s, nps }'
}

nps() { awk -v n="$1" -v ns="$2" 'BEGIN { printf "%.0f", (ns > 0) ? n / (ns / 1e9) : 0 }'; }

read -r s_nodes s_ns < <(measure shogi4 "$shogi_depth") || { echo "shogi4: perft failed" >&2; exit 1; }
report shogi4 "$shogi_depth" "$s_nodes" "$s_ns"
s_nps=$(nps "$s_nodes" "$s_ns")

if "$perft" --game chess --depth 1 >/dev/null 2>&1 && out=$(measure chess "$chess_depth"); then
  read -r c_nodes c_ns <<<"$out"
  report chess "$chess_depth" "$c_nodes" "$c_ns"
  c_nps=$(nps "$c_nodes" "$c_ns")
  awk -v a="$s_nps" -v b="$c_nps" 'BEGIN { printf "ratio shogi4/chess nodes/s: %.3f\n", (b > 0) ? a / b : 0 }'
else
  echo "chess   not available (the chess engine's perft does not run in this build)"
fi
