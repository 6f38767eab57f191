#!/usr/bin/env bash
# A private PostgreSQL cluster in a folder: pg.sh start DIR PORT | stop DIR | url PORT
# Listens on 127.0.0.1 only, trust authentication, superuser "tablero", database "tablero".
# Run as root it runs the server as the "postgres" user, as PostgreSQL requires.
set -euo pipefail

PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -n "$PGBIN" ] || { echo "pg.sh: PostgreSQL server binaries not found (run scripts/deps.sh)" >&2; exit 1; }

as_owner() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

cmd=${1:-}
dir=${2:-}
case "$cmd" in
  start)
    port=${3:?port}
    mkdir -p "$dir"
    if [ "$(id -u)" -eq 0 ]; then chown postgres:postgres "$dir"; chmod 700 "$dir"; fi
    if [ ! -f "$dir/PG_VERSION" ]; then
      as_owner "$PGBIN/initdb" -D "$dir" -U tablero --auth=trust -E UTF8 --locale=C.UTF-8 >"$dir.initdb.log" 2>&1 \
        || { cat "$dir.initdb.log" >&2; exit 1; }
    fi
    if as_owner "$PGBIN/pg_ctl" -D "$dir" status >/dev/null 2>&1; then
      echo "pg.sh: already running in $dir"
    else
      as_owner "$PGBIN/pg_ctl" -D "$dir" -l "$dir/server.log" -w -t 60 start \
        -o "-p $port -c listen_addresses=127.0.0.1 -c unix_socket_directories='' -c max_connections=300 -c fsync=on" >/dev/null
    fi
    for _ in $(seq 1 100); do
      "$PGBIN/pg_isready" -q -h 127.0.0.1 -p "$port" && break
      sleep 0.1
    done
    "$PGBIN/psql" -h 127.0.0.1 -p "$port" -U tablero -d postgres -tAc \
      "SELECT 1 FROM pg_database WHERE datname='tablero'" | grep -q 1 \
      || "$PGBIN/createdb" -h 127.0.0.1 -p "$port" -U tablero tablero
    ;;
  stop)
    if [ -f "$dir/PG_VERSION" ]; then
      as_owner "$PGBIN/pg_ctl" -D "$dir" -m fast -w stop >/dev/null 2>&1 || true
    fi
    ;;
  url)
    echo "postgresql://tablero@127.0.0.1:${2:?port}/tablero"
    ;;
  *)
    echo "usage: pg.sh start DIR PORT | stop DIR | url PORT" >&2
    exit 2
    ;;
esac
