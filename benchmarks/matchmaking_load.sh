#!/usr/bin/env bash
# Matchmaking load: a throwaway Postgres, the rules service, two matchmaking replicas and
# the load generator (README-matchmaking.md). Run from the repository after building:
#   benchmarks/matchmaking_load.sh [build dir] [extra matchmaking_load flags...]
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
shift || true
BIN=$BUILD/bin
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
PGTMP=$(mktemp -d /tmp/tablero-mmload-XXXXXX)
chmod 755 "$PGTMP"
PG_PORT=$(port)
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
RULES=127.0.0.1:$(port)
"$BIN/rules" --listen="$RULES" --metrics_listen= 2>"$PGTMP/rules.log" &
PIDS+=($!)
TARGETS=""
for i in 1 2; do
  addr=127.0.0.1:$(port)
  TABLERO_DATABASE_URL=$DB "$BIN/matchmaking" --listen="$addr" --metrics_listen= \
    --rules_addr="$RULES" 2>"$PGTMP/mm$i.log" &
  PIDS+=($!)
  TARGETS="${TARGETS:+$TARGETS,}$addr"
done
for addr in ${TARGETS//,/ } $RULES; do
  for _ in $(seq 1 100); do
    "$BIN/healthcheck" --addr="$addr" >/dev/null 2>&1 && break
    sleep 0.1
  done
done
"$BIN/matchmaking_load" --targets="$TARGETS" "$@"
