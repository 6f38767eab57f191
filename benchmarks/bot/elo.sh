#!/usr/bin/env bash
# Elo estimates of the chess levels: each level against Stockfish at a UCI_Elo (its published
# scale: calibrated at 60 s + 0.6 s a game, anchored to CCRL 40/4), one row per level with the
# anchor, A's score and 95% error bar, and the level's Elo = anchor + the Elo of the score,
# with the interval the error bar gives.
#
# Stockfish turns UCI_Elo into a fractional Skill Level L (((Elo - 1346.6) / 143.4)^(1/0.806))
# and picks its deliberately imperfect move when its iteration of depth 1 + int(L) ends. At a
# real time control it goes on searching after the pick, and its hash carries those deeper
# results into the next move's shallow pick: a search stopped at the pick's depth plays much
# weaker (level 1 scored 0.875 against UCI_Elo 1400 at `go depth 1`, 0.475 at 20k nodes). So
# Stockfish gets a node budget (UCI_NODES, 10k a move: its pick's depth and some more, far
# short of the 1-2 s a move of its calibration), which keeps its side independent of the
# machine's load. Levels 1-9 are seeded node budgets (independent of load as well); level 10
# gets MOVETIME_MS_10 (300, what matchmaking asks per CPU move), seeded (that many ms times
# kSeededNodesPerMs nodes, as in ladder.sh), or with CLOCK_10=1 on the clock, so that its row
# depends on the load (printed).
#   benchmarks/bot/elo.sh [build-dir] [extra match_runner flags...]
# Environment: GAMES (per level, 100), LEVELS ("1 ... 10"), ANCHORS (LEVEL:UCI_ELO pairs: the
# Stockfish a level scores roughly 25-75% against; a level without one is played against the
# level below's estimate + STEP (100), the first level against 1400), UCI_NODES (10000),
# MOVETIME_MS_10 (300), CLOCK_10 (0), SEED (1).
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${1:-${TABLERO_BUILD_DIR:-$(pwd)/build}}
shift || true
RUNNER="$BUILD/bin/match_runner"
[ -x "$RUNNER" ] || { echo "elo.sh: $RUNNER not found (ninja match_runner)" >&2; exit 1; }
STOCKFISH=${STOCKFISH:-/usr/games/stockfish}
GAMES=${GAMES:-100}
SEED=${SEED:-1}
MOVETIME_MS_10=${MOVETIME_MS_10:-300}
CLOCK_10=${CLOCK_10:-0}
ANCHORS=${ANCHORS:-}
STEP=${STEP:-100}
UCI_NODES=${UCI_NODES:-10000}
last=""
anchor_of() {
  for p in $ANCHORS; do [ "${p%%:*}" = "$1" ] && { echo "${p#*:}"; return; }; done
  [ -z "$last" ] && { echo 1400; return; }
  awk -v e="$last" -v s="$STEP" 'BEGIN { a = int((e + s) / 10 + 0.5) * 10;
    print (a < 1350 ? 1350 : (a > 2850 ? 2850 : a)) }'
}
printf '%-5s %-7s %-5s %-6s %-18s %-14s %-22s %s\n' level anchor pick games "A score (95%)" \
  "W/D/L" "Elo (95%)" wall
for level in ${LEVELS:-1 2 3 4 5 6 7 8 9 10}; do
  elo=$(anchor_of "$level")
  [ -n "$elo" ] || { echo "elo.sh: no anchor for level $level" >&2; exit 1; }
  pick=$(awk -v e="$elo" 'BEGIN { x = (e - 1346.6) / 143.4; l = x > 0 ? exp(log(x) / 0.806) : 0;
    if (l > 20) l = 20; print 1 + int(l) }')
  if [ "$level" = 10 ] && [ "$CLOCK_10" = 1 ]; then
    timing=(--movetime_ms="$MOVETIME_MS_10")
  elif [ "$level" = 10 ]; then
    timing=(--seeded --movetime_ms="$MOVETIME_MS_10")
  else
    timing=(--seeded --movetime_ms=1000)
  fi
  out=$("$RUNNER" --game=chess --a="$level" --uci="$STOCKFISH" \
    --uci_option=UCI_LimitStrength=true,UCI_Elo="$elo" --uci_nodes="$UCI_NODES" \
    --games="$GAMES" --seed="$SEED" "${timing[@]}" "$@" 2>/dev/null)
  n=$(sed -n 's/.*, \([0-9]*\) games,.*/\1/p' <<<"$out")
  score=$(sed -n 's/^A score \([0-9.]*\) +\/- \([0-9.]*\).*/\1 +\/- \2/p' <<<"$out")
  wdl=$(sed -n 's/^A score .*(95%)  \(+[0-9]* =[0-9]* -[0-9]*\).*/\1/p' <<<"$out")
  rel=$(sed -n 's/^A score .* Elo \([-+0-9]*\) \[\([-+0-9]*\), \([-+0-9]*\)\]$/\1 \2 \3/p' <<<"$out")
  read -r d lo hi <<<"$rel"
  wall=$(sed -n 's/.*; wall \([0-9]*\) s$/\1 s/p' <<<"$out")
  note=""
  [ "$level" = 10 ] && note=" (${MOVETIME_MS_10} ms a move, seeded)"
  [ "$level" = 10 ] && [ "$CLOCK_10" = 1 ] &&
    note=" (${MOVETIME_MS_10} ms a move on the clock, load $(cut -d' ' -f1-3 /proc/loadavg))"
  printf '%-5s %-7s %-5s %-6s %-18s %-14s %-22s %s\n' "$level" "$elo" "$pick" "$n" "$score" "$wdl" \
    "$((elo + d)) [$((elo + lo)), $((elo + hi))]" "$wall$note"
  last=$((elo + d))
done
