#!/usr/bin/env bash
# The ApplyMove handler's cost per call as a server sees it: rules_apply_bench under
# callgrind's cache simulation, with POLLUTE_KB (256) of memory written between calls (gRPC's
# own work evicts the caches there), one process per kind. Prints per call: instructions,
# L1 instruction / data misses, last-level misses (a 512 KiB cache stands for the L2), and
# est = Ir + 12 * L1 misses + 50 * last-level misses, an estimate of the cycles that does
# not depend on the machine's load. Deterministic: the same code gives the same figures.
#   benchmarks/rules/rules_handler_profile.sh [build-dir] [tag]
# Keeps the callgrind files (OUT_DIR, default a temporary directory) for
#   callgrind_annotate --sort=I1mr OUT_DIR/cg.TAG.KIND
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${1:-${TABLERO_BUILD_DIR:-$(pwd)/build}}
TAG=${2:-now}
BENCH="$BUILD/bin/rules_apply_bench"
[ -x "$BENCH" ] || { echo "rules_handler_profile.sh: $BENCH not found" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "rules_handler_profile.sh: valgrind not installed" >&2; exit 1; }
OUT=${OUT_DIR:-$(mktemp -d /tmp/tablero-handler-profile-XXXXXX)}
KINDS=${KINDS:-chess shogi4 checkers}
for k in $KINDS; do
  nice valgrind --tool=callgrind --cache-sim=yes --I1=32768,8,64 --D1=32768,8,64 \
    --LL=524288,8,64 --collect-atstart=no --callgrind-out-file="$OUT/cg.$TAG.$k" \
    "$BENCH" --reps=1 --pollute_kb="${POLLUTE_KB:-256}" --kinds="$k" >"$OUT/cg.$TAG.$k.out" 2>&1 &
done
wait
for k in $KINDS; do
  n=$(grep -o "[0-9]* requests" "$OUT/cg.$TAG.$k.out" | cut -d' ' -f1)
  callgrind_annotate --inclusive=yes "$OUT/cg.$TAG.$k" 2>/dev/null |
    awk '/RulesService::ApplyMoveBytes/ && !seen { print; seen = 1 }' | sed 's/([^)]*)//g; s/,//g' |
    awk -v k="$k" -v t="$TAG" -v n="$n" '{
      printf "%s %-9s Ir %6.1fk  I1mr %4.0f  D1mr %4.0f  D1mw %4.0f  ILmr %3.0f  DLmr %3.0f  DLmw %3.0f  est %5.1fk\n",
        t, k, $1/n/1000, $4/n, $5/n, $6/n, $7/n, $8/n, $9/n,
        ($1 + 12*($4+$5+$6) + 50*($7+$8+$9))/n/1000 }'
done
echo "callgrind files: $OUT"
