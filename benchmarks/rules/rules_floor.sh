#!/usr/bin/env bash
# The transport floor of the rules benchmark: records real traffic from the rules service,
# then serves it from rules_replay (the same server and wire path, every answer found by
# lookup instead of computed) and measures apply-move against the empty RPC there. The
# ratio printed is the best rules_load.sh could ever show on this machine: the rest of
# the gap is the bytes, not the games.
#   benchmarks/rules/rules_floor.sh [build-dir] [extra rules_load flags...]
# Environment: SECONDS_EACH (5), INFLIGHT (32), THREADS (2), as rules_load.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
BUILD=${1:-${TABLERO_BUILD_DIR:-$ROOT/build}}
shift || true
for b in rules rules_load rules_replay healthcheck; do
  [ -x "$BUILD/bin/$b" ] || { echo "rules_floor.sh: $BUILD/bin/$b not found" >&2; exit 1; }
done
. benchmarks/common/services.sh
TRAFFIC=$(mktemp /tmp/tablero-rules-traffic-XXXXXX)
LOG=$(mktemp /tmp/tablero-rules-floor-XXXXXX)
PID=
stop() { [ -n "$PID" ] && kill "$PID" 2>/dev/null && wait "$PID" 2>/dev/null || true; PID=; }
trap 'stop; rm -f "$TRAFFIC" "$LOG"' EXIT
start() {  # start BINARY FLAGS...: a server on a free port, waits until SERVING
  PORT=$(free_port)
  TABLERO_LOG_LEVEL=warn "$BUILD/bin/$1" --listen="127.0.0.1:$PORT" "${@:2}" >"$LOG" 2>&1 &
  PID=$!
  wait_serving "$BUILD/bin/healthcheck" "127.0.0.1:$PORT" tablero.v1.Rules && return
  echo "rules_floor.sh: $1 did not become SERVING" >&2; cat "$LOG" >&2; exit 1
}

start rules
"$BUILD/bin/rules_load" --target="127.0.0.1:$PORT" --phases=none --save_traffic="$TRAFFIC" "$@"
stop
start rules_replay --traffic="$TRAFFIC"
echo "rules_replay (answers by lookup, no game work):"
"$BUILD/bin/rules_load" --target="127.0.0.1:$PORT" --load_traffic="$TRAFFIC" --handler_cost=false \
  --seconds="${SECONDS_EACH:-5}" --inflight="${INFLIGHT:-32}" --threads="${THREADS:-2}" \
  --server_pid="$PID" "$@"
