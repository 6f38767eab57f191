#!/usr/bin/env bash
# Rules service throughput: ApplyMove on recorded real games versus the empty RPC
# (Rules.Ping) on the same server in the same run. Prints calls/s, p50/p99 and the ratio.
#   benchmarks/rules/rules_load.sh [build-dir] [extra rules_load flags...]
# Environment: SECONDS_EACH (5), INFLIGHT (32: calls in flight), THREADS (2: client threads),
# RULES_FLAGS (extra flags for the rules binary, e.g. --state_cache_entries=0), RULES_BIN (the
# rules binary to serve, default the build's: rules_ab.sh runs two builds with one client).
# --rounds=N repeats the mixed phase N times, each between two baseline phases, and reports
# the median ratio (on a shared machine one round is at the mercy of the neighbours).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
BUILD=${1:-${TABLERO_BUILD_DIR:-$ROOT/build}}
shift || true
SECS=${SECONDS_EACH:-5}
INFLIGHT=${INFLIGHT:-32}
THREADS=${THREADS:-2}
RULES_BIN=${RULES_BIN:-$BUILD/bin/rules}
for b in "$RULES_BIN" "$BUILD/bin/rules_load" "$BUILD/bin/healthcheck"; do
  [ -x "$b" ] || { echo "rules_load.sh: $b not found (build rules, rules_load, healthcheck)" >&2; exit 1; }
done

. benchmarks/common/services.sh
PORT=$(free_port)
LOG=$(mktemp /tmp/tablero-rules-load-XXXXXX)
SVC_PID=
cleanup() {
  [ -n "$SVC_PID" ] && kill "$SVC_PID" 2>/dev/null && wait "$SVC_PID" 2>/dev/null || true
  rm -f "$LOG"
}
trap cleanup EXIT

# shellcheck disable=SC2086
TABLERO_LOG_LEVEL=warn "$RULES_BIN" --listen="127.0.0.1:$PORT" ${RULES_FLAGS:-} >"$LOG" 2>&1 &
SVC_PID=$!
wait_serving "$BUILD/bin/healthcheck" "127.0.0.1:$PORT" tablero.v1.Rules ||
  { echo "rules_load.sh: the rules service did not become SERVING" >&2; cat "$LOG" >&2; exit 1; }

"$BUILD/bin/rules_load" --target="127.0.0.1:$PORT" --seconds="$SECS" --inflight="$INFLIGHT" \
  --threads="$THREADS" --server_pid="$SVC_PID" "$@"
