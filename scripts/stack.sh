#!/usr/bin/env bash
# The whole stack on this machine: scripts/stack.sh up | down | status
#   up:     installs missing packages, builds the services and the terminal client
#           (build/bin/tablero), starts PostgreSQL in .local/pg (port 55432) and the four
#           services (a restarted service's log in .local/logs/ is appended to, after a
#           separator line), waits until all report SERVING, builds the web client
#           and serves it with gRPC-Web at http://127.0.0.1:8080/ (the dev gateway,
#           web/gateway/: what Envoy does in production), prints the endpoints.
#   down:   stops the gateway, the services and PostgreSQL.
#   status: health of each service.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
LOCAL=$ROOT/.local
BUILD=${TABLERO_BUILD_DIR:-$ROOT/build}
PG_PORT=${TABLERO_PG_PORT:-55432}
SITE_PORT=${TABLERO_SITE_PORT:-8080}

# name grpc-port metrics-port
SERVICES=("rules 50051 9101" "matchmaking 50052 9102" "rating 50053 9103" "bot 50054 9104")
full_name() { case $1 in rules) echo tablero.v1.Rules;; matchmaking) echo tablero.v1.Matchmaking;;
  rating) echo tablero.v1.Rating;; bot) echo tablero.v1.Bot;; esac; }

pg_dir() {
  # PostgreSQL runs as the postgres user when we are root: it must reach the folder.
  local d=$LOCAL/pg
  if [ "$(id -u)" -eq 0 ] && ! runuser -u postgres -- test -x "$LOCAL" 2>/dev/null; then
    mkdir -p "$LOCAL"; chmod 755 "$LOCAL"
    if ! runuser -u postgres -- test -x "$LOCAL"; then
      d=/tmp/tablero-stack-pg-$(id -u)
      echo "stack: postgres cannot reach $LOCAL (parent folder permissions); using $d" >&2
    fi
  fi
  echo "$d"
}

up() {
  scripts/deps.sh
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  ninja -C "$BUILD" rules matchmaking rating bot healthcheck perft tablero
  mkdir -p "$LOCAL/logs" "$LOCAL/run"
  local pgd; pgd=$(pg_dir)
  scripts/pg.sh start "$pgd" "$PG_PORT"
  local db; db=$(scripts/pg.sh url "$PG_PORT")
  # The services' shared key for internal calls (matchmaking -> Rating.ReportGame), made
  # once per checkout and kept private to this user.
  if [ ! -s "$LOCAL/service-key" ]; then
    (umask 077; od -An -tx1 -N32 /dev/urandom | tr -d ' \n' >"$LOCAL/service-key")
  fi
  local key; key=$(cat "$LOCAL/service-key")
  for s in "${SERVICES[@]}"; do
    set -- $s
    local pidf=$LOCAL/run/$1.pid
    if [ -f "$pidf" ] && kill -0 "$(cat "$pidf")" 2>/dev/null; then continue; fi
    # Append: the log of a replica that crashed is kept for reading after the restart.
    echo "===== stack.sh up: $1 starting $(date -u +%Y-%m-%dT%H:%M:%SZ) =====" >>"$LOCAL/logs/$1.log"
    TABLERO_DATABASE_URL=$db TABLERO_SERVICE_KEY=$key \
    TABLERO_RULES_ADDR=127.0.0.1:50051 TABLERO_MATCHMAKING_ADDR=127.0.0.1:50052 \
    TABLERO_RATING_ADDR=127.0.0.1:50053 TABLERO_BOT_ADDR=127.0.0.1:50054 \
      nohup "$BUILD/bin/$1" --listen=127.0.0.1:$2 --metrics_listen=127.0.0.1:$3 \
      >>"$LOCAL/logs/$1.log" 2>&1 &
    echo $! >"$pidf"
  done
  for s in "${SERVICES[@]}"; do
    set -- $s
    local ok=0
    for _ in $(seq 1 300); do
      if "$BUILD/bin/healthcheck" --addr=127.0.0.1:$2 --service="$(full_name "$1")" >/dev/null 2>&1; then ok=1; break; fi
      sleep 0.1
    done
    if [ $ok -ne 1 ]; then
      echo "stack: $1 did not become SERVING; last log lines:" >&2
      tail -n 20 "$LOCAL/logs/$1.log" >&2
      exit 1
    fi
  done
  start_site
  echo "tablero is up:"
  echo "  site         http://127.0.0.1:$SITE_PORT/  (web client and gRPC-Web)"
  for s in "${SERVICES[@]}"; do
    set -- $s
    printf '  %-12s grpc 127.0.0.1:%s  metrics http://127.0.0.1:%s/metrics\n' "$1" "$2" "$3"
  done
  echo "  postgres     $db"
  echo "  logs         $LOCAL/logs/   stop with: scripts/stack.sh down"
}

# The web client and the dev gateway bridging gRPC-Web to the services (scripts/web.sh).
start_site() {
  scripts/web.sh build
  local pidf=$LOCAL/run/gateway.pid
  if [ -f "$pidf" ] && kill -0 "$(cat "$pidf")" 2>/dev/null; then return; fi
  nohup node web/dist/gateway/gateway.mjs --listen=127.0.0.1:$SITE_PORT --site=web/dist/site \
    --rules=127.0.0.1:50051 --matchmaking=127.0.0.1:50052 --rating=127.0.0.1:50053 --bot=127.0.0.1:50054 \
    >"$LOCAL/logs/gateway.log" 2>&1 &
  echo $! >"$pidf"
  for _ in $(seq 1 100); do
    if python3 -c "import urllib.request,sys; urllib.request.urlopen(sys.argv[1], timeout=1)" \
         "http://127.0.0.1:$SITE_PORT/" 2>/dev/null; then return; fi
    sleep 0.1
  done
  echo "stack: the site did not come up on port $SITE_PORT; last log lines:" >&2
  tail -n 20 "$LOCAL/logs/gateway.log" >&2
  exit 1
}

stop_pid() {
  local pidf=$1
  if [ -f "$pidf" ]; then
    local pid; pid=$(cat "$pidf")
    if kill -0 "$pid" 2>/dev/null; then
      kill -TERM "$pid"
      for _ in $(seq 1 150); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -KILL "$pid" 2>/dev/null || true
    fi
    rm -f "$pidf"
  fi
}

down() {
  stop_pid "$LOCAL/run/gateway.pid"
  for s in "${SERVICES[@]}"; do
    set -- $s
    local pidf=$LOCAL/run/$1.pid
    if [ -f "$pidf" ]; then
      local pid; pid=$(cat "$pidf")
      if kill -0 "$pid" 2>/dev/null; then
        kill -TERM "$pid"
        for _ in $(seq 1 150); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$pid" 2>/dev/null || true
      fi
      rm -f "$pidf"
    fi
  done
  scripts/pg.sh stop "$(pg_dir)"
  echo "tablero is down"
}

status() {
  printf '%-12s ' site
  python3 -c "import urllib.request,sys; urllib.request.urlopen(sys.argv[1], timeout=2); print('SERVING')" \
    "http://127.0.0.1:$SITE_PORT/" 2>/dev/null || echo "not answering on port $SITE_PORT"
  for s in "${SERVICES[@]}"; do
    set -- $s
    printf '%-12s ' "$1"
    "$BUILD/bin/healthcheck" --addr=127.0.0.1:$2 --service="$(full_name "$1")" 2>&1 || true
  done
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  status) status ;;
  *) echo "usage: scripts/stack.sh up | down | status" >&2; exit 2 ;;
esac
