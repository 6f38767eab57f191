#!/usr/bin/env bash
# The level ladder of one game: each level against the one below (match_runner, seeded node
# budgets, so the result does not depend on the machine's load), one row per pair with A's
# score, its 95% error bar, the games played, A's first places, the wall time and how the
# games ended (the engine's reasons; Chinese Checkers: all_finished when every place was
# decided by finishing). In games of 3+ seats A takes one seat and the lower level all the
# others (equal levels score 0.5), e.g. `ladder.sh checkers build --seats=3 --max_plies=2000`.
# The issue's target: 0.60-0.75 every step.
#   benchmarks/bot/ladder.sh GAME [build-dir] [extra match_runner flags...]
# Environment: GAMES (games per pair, 40), LEVELS ("2 3 ... 10": the upper level of each
# pair), MOVETIME_MS (300: the budget matchmaking asks; it sets level 10's node budget).
set -euo pipefail
cd "$(dirname "$0")/../.."
GAME=${1:?usage: ladder.sh GAME [build-dir] [match_runner flags...]}
BUILD=${2:-${TABLERO_BUILD_DIR:-$(pwd)/build}}
shift 2 || shift $#
RUNNER="$BUILD/bin/match_runner"
[ -x "$RUNNER" ] || { echo "ladder.sh: $RUNNER not found (ninja match_runner)" >&2; exit 1; }
GAMES=${GAMES:-40}
MOVETIME_MS=${MOVETIME_MS:-300}
printf '%-6s %-6s %6s %-18s %-14s %-8s %-7s %s\n' "$GAME" pair games "A score (95%)" "W/D/L" \
  first wall ended
for a in ${LEVELS:-2 3 4 5 6 7 8 9 10}; do
  out=$("$RUNNER" --game="$GAME" --a="$a" --b=$((a - 1)) --games="$GAMES" \
    --movetime_ms="$MOVETIME_MS" --seeded "$@" 2>/dev/null)
  n=$(sed -n 's/.*, \([0-9]*\) games,.*/\1/p' <<<"$out")
  score=$(sed -n 's/^A score \([0-9.]*\) +\/- \([0-9.]*\).*/\1 +\/- \2/p' <<<"$out")
  wdl=$(sed -n 's/^A score .*(95%)  \(+[0-9]* =[0-9]* -[0-9]*\).*/\1/p' <<<"$out")
  first=$(sed -n 's/^A first place: \([0-9]*\) of.*/\1/p' <<<"$out")
  wall=$(sed -n 's/.*; wall \([0-9]*\) s$/\1 s/p' <<<"$out")
  ended=$(sed -n 's/^ended: *//p' <<<"$out")
  printf '%-6s %-6s %6s %-18s %-14s %-8s %-7s %s\n' "" "$a-$((a - 1))" "$n" "$score" "$wdl" \
    "$first" "$wall" "$ended"
done
