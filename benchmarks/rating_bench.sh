#!/usr/bin/env bash
# Rating reports applied per second versus PostgreSQL's own simple-update rate (pgbench -N),
# on the same throwaway PostgreSQL in the same run. Prints both rates and their ratio.
#   benchmarks/rating_bench.sh [build-dir]
# Environment: SECONDS_EACH (10), CLIENTS (8: pgbench clients), POOL (CLIENTS: the rating
# service's database connections), INFLIGHT (64: ReportGame calls in flight), SCALE (10:
# pgbench scale), ROUNDS (2: pgbench and rating_bench alternate, best of each is kept, so
# that a busy machine disturbs both alike).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
BUILD=${1:-${TABLERO_BUILD_DIR:-$ROOT/build}}
SECS=${SECONDS_EACH:-10}
CLIENTS=${CLIENTS:-8}
POOL=${POOL:-$CLIENTS}
ROUNDS=${ROUNDS:-2}
INFLIGHT=${INFLIGHT:-64}
SCALE=${SCALE:-10}
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
for b in "$BUILD/bin/rating" "$BUILD/bin/rating_bench" "$PGBIN/pgbench"; do
  [ -x "$b" ] || { echo "rating_bench.sh: $b not found (build the rating and rating_bench targets)" >&2; exit 1; }
done

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
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
TABLERO_DATABASE_URL="$URL" TABLERO_DB_POOL_SIZE="$POOL" TABLERO_LOG_LEVEL=warn \
  "$BUILD/bin/rating" --listen="127.0.0.1:$SVC_PORT" >"$TMP/rating.log" 2>&1 &
SVC_PID=$!

PG_TPS=0
RATE=0
for round in $(seq 1 "$ROUNDS"); do
  # Each run starts right after a checkpoint, so both pay the same full-page writes.
  "$PGBIN/psql" -q "$URL" -c CHECKPOINT
  echo "== round $round: pgbench -N (simple update), $CLIENTS clients, ${SECS}s"
  "$PGBIN/pgbench" -N -c "$CLIENTS" -j 2 -T "$SECS" "$URL" >"$TMP/pgbench.log" 2>&1
  grep -E "^(tps|latency average)" "$TMP/pgbench.log"
  tps=$(sed -n 's/^tps = \([0-9.]*\) .*/\1/p' "$TMP/pgbench.log" | tail -n 1)
  PG_TPS=$(python3 -c "print(max($PG_TPS, $tps))")
  "$PGBIN/psql" -q "$URL" -c CHECKPOINT
  echo "== round $round: rating service, $POOL database connections, $INFLIGHT reports in flight, ${SECS}s"
  "$BUILD/bin/rating_bench" --target="127.0.0.1:$SVC_PORT" --seconds="$SECS" \
    --inflight="$INFLIGHT" --seed="$round" | tee "$TMP/bench.log"
  rate=$(sed -n 's/^rating_reports_per_sec=//p' "$TMP/bench.log")
  RATE=$(python3 -c "print(max($RATE, $rate))")
done

python3 - "$PG_TPS" "$RATE" <<'PY'
import sys
pg, rate = float(sys.argv[1]), float(sys.argv[2])
print(f"pgbench simple-update tps: {pg:.1f}")
print(f"rating reports applied/s:  {rate:.1f}")
print(f"ratio: {100 * rate / pg:.1f}% of pgbench -N")
PY
