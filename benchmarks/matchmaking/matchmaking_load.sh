#!/usr/bin/env bash
# Matchmaking load against PostgreSQL's own ceiling, on one throwaway Postgres in one run:
# the rules and bot services, two matchmaking replicas and the load generator
# (README.md), alternating with `pgbench -N` (simple update) on the same server.
#   benchmarks/matchmaking/matchmaking_load.sh [build dir] [extra matchmaking_load flags...]
# Environment: SECONDS_EACH (10), ROUNDS (3: pgbench and the load alternate, so a busy
# machine disturbs both alike), CLIENTS (8: pgbench clients), GAMES (24: guest-vs-guest
# games), CPU_GAMES (8: guest-vs-CPU games), POOL (16: each replica's database connections).
set -euo pipefail
cd "$(dirname "$0")/../.."
. benchmarks/common/pgbench_rounds.sh
BUILD=${1:-build}
shift || true
BIN=$BUILD/bin
SECS=${SECONDS_EACH:-10}
ROUNDS=${ROUNDS:-3}
CLIENTS=${CLIENTS:-8}
GAMES=${GAMES:-24}
CPU_GAMES=${CPU_GAMES:-8}
POOL=${POOL:-16}
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
for b in "$BIN/rules" "$BIN/bot" "$BIN/matchmaking" "$BIN/matchmaking_load" "$BIN/healthcheck" \
  "$PGBIN/pgbench"; do
  [ -x "$b" ] || { echo "matchmaking_load.sh: $b not found" >&2; exit 1; }
done
. benchmarks/common/services.sh
PGTMP=$(mktemp -d /tmp/tablero-mmload-XXXXXX)
chmod 755 "$PGTMP"
PG_PORT=$(free_port)
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  scripts/pg.sh stop "$PGTMP/data" || true
  rm -rf "$PGTMP"
}
trap cleanup EXIT
scripts/pg.sh start "$PGTMP/data" "$PG_PORT" >/dev/null
DB=$(scripts/pg.sh url "$PG_PORT")
"$PGBIN/pgbench" -i -q -s 1 "$DB" >"$PGTMP/pgbench-init.log" 2>&1
RULES=127.0.0.1:$(free_port)
BOT=127.0.0.1:$(free_port)
TABLERO_LOG_LEVEL=warn "$BIN/rules" --listen="$RULES" --metrics_listen= 2>"$PGTMP/rules.log" &
PIDS+=($!)
TABLERO_LOG_LEVEL=warn "$BIN/bot" --listen="$BOT" --metrics_listen= 2>"$PGTMP/bot.log" &
PIDS+=($!)
TARGETS=""
for i in 1 2; do
  addr=127.0.0.1:$(free_port)
  TABLERO_DATABASE_URL=$DB TABLERO_DB_POOL_SIZE=$POOL TABLERO_LOG_LEVEL=warn \
    "$BIN/matchmaking" --listen="$addr" --metrics_listen= \
    --rules_addr="$RULES" --bot_addr="$BOT" --guests_per_minute=0 2>"$PGTMP/mm$i.log" &
  PIDS+=($!)
  TARGETS="${TARGETS:+$TARGETS,}$addr"
done
for addr in ${TARGETS//,/ } $RULES $BOT; do
  wait_serving "$BIN/healthcheck" "$addr" || { echo "$addr did not become SERVING" >&2; exit 1; }
done

: >"$PGTMP/rounds"
for round in $(seq 1 "$ROUNDS"); do
  echo "== round $round"
  pgbench_round "$DB" "$CLIENTS" "$SECS" "$PGTMP/pgbench.log"
  tps=$PGBENCH_TPS
  echo "== round $round: matchmaking, $GAMES guest games + $CPU_GAMES CPU games, ${SECS}s"
  "$BIN/matchmaking_load" --targets="$TARGETS" --games="$GAMES" --cpu_games="$CPU_GAMES" \
    --seconds="$SECS" "$@" | tee "$PGTMP/load.log"
  rate=$(sed -n 's/^committed_moves_per_s=//p' "$PGTMP/load.log")
  echo "$tps $rate" >>"$PGTMP/rounds"
done

pgbench_summary "$PGTMP/rounds" "matchmaking" "committed moves/s"
