#!/usr/bin/env bash
# The bot service on time under load: starts the bot binary on a free port and runs
# bot_load against it (1 game thinking, the same-run baseline, then 8 at once).
#   benchmarks/bot/bot_load.sh [build-dir] [extra bot_load flags...]
# Environment: BOT_FLAGS (extra flags for the bot binary), BOT_BIN (the bot binary to serve,
# default the build's: to measure an older build with the same client).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
BUILD=${1:-${TABLERO_BUILD_DIR:-$ROOT/build}}
shift || true
BOT_BIN=${BOT_BIN:-$BUILD/bin/bot}
for b in "$BOT_BIN" "$BUILD/bin/bot_load" "$BUILD/bin/healthcheck"; do
  [ -x "$b" ] || { echo "bot_load.sh: $b not found (build bot, bot_load, healthcheck)" >&2; exit 1; }
done

. benchmarks/common/services.sh
PORT=$(free_port)
LOG=$(mktemp)
SVC_PID=
cleanup() {
  [ -n "$SVC_PID" ] && kill "$SVC_PID" 2>/dev/null && wait "$SVC_PID" 2>/dev/null || true
  rm -f "$LOG"
}
trap cleanup EXIT

# shellcheck disable=SC2086
TABLERO_LOG_LEVEL=warn "$BOT_BIN" --listen="127.0.0.1:$PORT" ${BOT_FLAGS:-} >"$LOG" 2>&1 &
SVC_PID=$!
wait_serving "$BUILD/bin/healthcheck" "127.0.0.1:$PORT" tablero.v1.Bot ||
  { echo "bot_load.sh: the bot service did not become SERVING" >&2; cat "$LOG" >&2; exit 1; }
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
"$BUILD/bin/bot_load" --target="127.0.0.1:$PORT" "$@"
