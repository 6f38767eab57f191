#!/usr/bin/env bash
# Two rules servers against each other on one machine: runs rules_load.sh (--rounds=5 each)
# alternately on A and B, N times, with the same client (the current build's rules_load),
# then summarises each side: the median ratios, mean calls/s, CPU per call of client and
# server, p99. On a shared machine only what is measured alternately in one sitting compares.
#   benchmarks/rules/rules_ab.sh A_RULES_BINARY B_RULES_BINARY [N=3] [build-dir]
# Environment: SECONDS_EACH (3), and everything rules_load.sh reads.
# Example: a worktree at the old commit built apart, then
#   benchmarks/rules/rules_ab.sh /tmp/old/build/bin/rules build/bin/rules 3
set -euo pipefail
cd "$(dirname "$0")/../.."
A=${1:?usage: $0 A_RULES_BINARY B_RULES_BINARY [N=3] [build-dir]}
B=${2:?usage: $0 A_RULES_BINARY B_RULES_BINARY [N=3] [build-dir]}
N=${3:-3}
BUILD=${4:-${TABLERO_BUILD_DIR:-$(pwd)/build}}
for b in "$A" "$B"; do [ -x "$b" ] || { echo "rules_ab.sh: $b is not an executable" >&2; exit 1; }; done
OUT=$(mktemp /tmp/tablero-rules-ab-XXXXXX)
trap 'rm -f "$OUT"' EXIT
for i in $(seq "$N"); do
  for side in A B; do
    bin=$A
    [ "$side" = B ] && bin=$B
    echo "== $side run $i load $(cut -d' ' -f1 /proc/loadavg)" | tee -a "$OUT"
    RULES_BIN=$bin SECONDS_EACH=${SECONDS_EACH:-3} benchmarks/rules/rules_load.sh "$BUILD" \
      --handler_cost=false --rounds=5 2>&1 | grep -E "^(ping|apply_move mixed|median)" | tee -a "$OUT"
  done
done
python3 benchmarks/rules/rules_ab_summary.py "$OUT"
