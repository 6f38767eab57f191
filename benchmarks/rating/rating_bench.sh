#!/usr/bin/env bash
# Rating reports applied per second versus PostgreSQL's own simple-update rate (pgbench -N),
# on the same throwaway PostgreSQL in the same run. Prints both rates and their ratio.
#   benchmarks/rating/rating_bench.sh [build-dir]
# Environment: SECONDS_EACH (10), CLIENTS (8: pgbench clients), POOL (CLIENTS: the rating
# service's database connections), INFLIGHT (64: ReportGame calls in flight), SCALE (10:
# pgbench scale), ROUNDS (3: pgbench and rating_bench alternate, so that a busy machine
# disturbs both alike; each round's ratio is printed, then the ratio of the best rates and
# the median of the round ratios).
set -euo pipefail
cd "$(dirname "$0")/../.."
. benchmarks/common/pgbench_rounds.sh
ROOT=$(pwd)
BUILD=${1:-${TABLERO_BUILD_DIR:-$ROOT/build}}
SECS=${SECONDS_EACH:-10}
CLIENTS=${CLIENTS:-8}
POOL=${POOL:-$CLIENTS}
ROUNDS=${ROUNDS:-3}
INFLIGHT=${INFLIGHT:-64}
SCALE=${SCALE:-1}
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
for b in "$BUILD/bin/rating" "$BUILD/bin/rating_bench" "$PGBIN/pgbench"; do
  [ -x "$b" ] || { echo "rating_bench.sh: $b not found (build the rating and rating_bench targets)" >&2; exit 1; }
done

. benchmarks/common/services.sh
TMP=$(mktemp -d /tmp/tablero-rating-bench-XXXXXX)
chmod 755 "$TMP"
PG_PORT=$(free_port)
SVC_PID=
cleanup() {
  [ -n "$SVC_PID" ] && kill "$SVC_PID" 2>/dev/null && wait "$SVC_PID" 2>/dev/null || true
  scripts/pg.sh stop "$TMP/data" || true
  rm -rf "$TMP"
}
trap cleanup EXIT
scripts/pg.sh start "$TMP/data" "$PG_PORT"
URL=$(scripts/pg.sh url "$PG_PORT")

"$PGBIN/pgbench" -i -q -s "$SCALE" "$URL" >"$TMP/pgbench-init.log" 2>&1
SVC_PORT=$(free_port)
KEY=rating-bench-$$  # the service credentials ReportGame requires, shared with rating_bench
TABLERO_DATABASE_URL="$URL" TABLERO_DB_POOL_SIZE="$POOL" TABLERO_LOG_LEVEL=warn \
  "$BUILD/bin/rating" --listen="127.0.0.1:$SVC_PORT" --service_key="$KEY" >"$TMP/rating.log" 2>&1 &
SVC_PID=$!

ROUNDS_LOG="$TMP/rounds"
: >"$ROUNDS_LOG"
for round in $(seq 1 "$ROUNDS"); do
  # Each run starts right after a checkpoint, so both pay the same full-page writes.
  [ "${CHECKPOINTS:-0}" = 1 ] && "$PGBIN/psql" -q "$URL" -c CHECKPOINT
  echo "== round $round"
  pgbench_round "$URL" "$CLIENTS" "$SECS" "$TMP/pgbench.log"
  tps=$PGBENCH_TPS
  [ "${CHECKPOINTS:-0}" = 1 ] && "$PGBIN/psql" -q "$URL" -c CHECKPOINT
  echo "== round $round: rating service, $POOL database connections, $INFLIGHT reports in flight, ${SECS}s"
  "$BUILD/bin/rating_bench" --target="127.0.0.1:$SVC_PORT" --service_key="$KEY" --seconds="$SECS" \
    --inflight="$INFLIGHT" --seed="$round" | tee "$TMP/bench.log"
  rate=$(sed -n 's/^rating_reports_per_sec=//p' "$TMP/bench.log")
  echo "$tps $rate" >>"$ROUNDS_LOG"
done

pgbench_summary "$ROUNDS_LOG" "rating" "reports/s"
