#!/usr/bin/env bash
# Search speed of the bot beside Stockfish's own `bench`, in the same run. Usage:
#   benchmarks/bot/search_speed.sh <build bin dir> [baseline search_bench binary ...]
# A baseline is search_bench built from an older commit (the same source measures any
# version of the bot through its public API); without one only the current search runs.
# Every baseline runs in each round, interleaved with the current search.
# Environment: STOCKFISH (binary, default: stockfish on PATH, else the Debian package's
# /usr/games/stockfish), REPEATS (rounds, default 2: the programs run interleaved so that
# load hits them alike).
#
# The bot searches seeded (level 10: a node budget from the time budget, 250 nodes per ms
# in chess, 20 in four-player shogi), so every version searches a fixed number of nodes
# per position whatever the load, and two versions that explore the same tree print the
# same moves (search_bench's per-position lines).
#
# Printed per program: nodes per second of wall-clock time (Stockfish's own "Nodes/second"
# for bench) and per second of CPU time (less sensitive to other processes on a shared
# machine), then the ratios: our chess nps over Stockfish's, and new over each baseline per
# game (baselines numbered in the order given: baseline1, baseline2, ...).
set -euo pipefail

bin_dir=${1:?usage: $0 <build bin dir> [baseline search_bench ...]}
baselines=("${@:2}")
bench="$bin_dir/search_bench"
sf=${STOCKFISH:-$(command -v stockfish || echo /usr/games/stockfish)}
# Node budgets: 1M nodes per chess position, 200k per four-player shogi position.
declare -A budget=([chess]=4000 [shogi4]=10000 [shogi4_games]=10000)
repeats=${REPEATS:-2}
positions=$(dirname "$0")/shogi4_game_positions.txt
[[ -x "$bench" ]] || { echo "no search_bench at $bench" >&2; exit 2; }
[[ -x "$sf" ]] || { echo "no Stockfish at $sf (set STOCKFISH)" >&2; exit 2; }
for b in "${baselines[@]}"; do [[ -x "$b" ]] || { echo "no baseline at $b" >&2; exit 2; }; done

# Stockfish: bench (16 MB hash, 1 thread, depth 13) -> "wall_nps cpu_nps"
run_sf() {
  local out nodes wall cpu
  out=$({ "$sf" bench 16 1 13 2>&1 >/dev/null; times; } | tail -6)
  nodes=$(awk '/Nodes searched/ { print $4 }' <<<"$out")
  wall=$(awk '/Nodes\/second/ { print $3 }' <<<"$out")
  # `times`: the last line is the children's user and system time, as 0m5.537s 0m0.083s.
  cpu=$(tail -1 <<<"$out" | awk '{
    s = 0; for (i = 1; i <= 2; ++i) { split($i, a, /[ms]/); s += a[1] * 60 + a[2] } print s }')
  awk -v n="$nodes" -v w="$wall" -v c="$cpu" 'BEGIN { printf "%d %d\n", w, n / c }'
}

# search_bench BINARY GAME -> "wall_nps cpu_nps". shogi4_games: four-player shogi on the
# positions of games the bot played (shogi4_game_positions.txt, made by game_positions.sh).
run_bot() {
  local args=(--game="$2")
  [[ $2 == shogi4_games ]] && args=(--game=shogi4 --moves_file="$positions")
  "$1" "${args[@]}" --budget_ms="${budget[$2]}" --seed=1 |
    awk '/^total/ { printf "%d %d\n", $10, $12 }'
}

declare -A wall cpu
add() {  # add NAME "wall cpu": keep the best of the repeats
  [[ $2 =~ ^[0-9]+\ [0-9]+$ ]] || { echo "search_speed.sh: the $1 run printed no speed" >&2; exit 1; }
  local w=${2% *} c=${2#* }
  if [[ -z "${wall[$1]:-}" || $w -gt ${wall[$1]} ]]; then wall[$1]=$w; fi
  if [[ -z "${cpu[$1]:-}" || $c -gt ${cpu[$1]} ]]; then cpu[$1]=$c; fi
}

games=(chess shogi4 shogi4_games)
names=(stockfish "${games[@]}")
for i in "${!baselines[@]}"; do
  for g in "${games[@]}"; do names+=("${g}_baseline$((i + 1))"); done
done
for ((k = 0; k < repeats; k++)); do
  add stockfish "$(run_sf)"
  for g in "${games[@]}"; do
    add "$g" "$(run_bot "$bench" "$g")"
    for i in "${!baselines[@]}"; do
      add "${g}_baseline$((i + 1))" "$(run_bot "${baselines[$i]}" "$g")"
    done
  done
done

echo "Stockfish: $(echo quit | "$sf" | head -1); bot: seeded, best of $repeats"
printf '%-24s %12s %12s\n' program wall_nps cpu_nps
for n in "${names[@]}"; do printf '%-24s %12d %12d\n' "$n" "${wall[$n]}" "${cpu[$n]}"; done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
echo "chess / stockfish: wall $(ratio "${wall[chess]}" "${wall[stockfish]}")," \
  "cpu $(ratio "${cpu[chess]}" "${cpu[stockfish]}")"
for i in "${!baselines[@]}"; do
  for g in "${games[@]}"; do
    b="${g}_baseline$((i + 1))"
    echo "$g new / baseline$((i + 1)) ($(basename "${baselines[$i]}")): wall" \
      "$(ratio "${wall[$g]}" "${wall[$b]}"), cpu $(ratio "${cpu[$g]}" "${cpu[$b]}")"
  done
done
