#!/usr/bin/env bash
# Live play at site scale, on one throwaway Postgres in one run (README.md):
# the rules and bot services and one matchmaking replica, then benchmarks/matchmaking/watch_scale
#   1. idle: STREAMS streams with player tokens over ROOMS rooms, held idle (threads, CPU,
#      RSS per stream, Postgres transactions/s, against the same replica with none open);
#   2. fanout: WATCHERS watchers of one room while MOVES moves are played (commit to the
#      last watcher, p50/p99), the watchers on WatchBatches, then on Watch;
#   3. burst: CALLS unary calls at once (peak threads, outcomes);
#   4. matchmaking_load's moves without and with HOLD idle streams held, ROUNDS times each,
#      alternating (committed moves/s, and the ratio of the two).
#   benchmarks/matchmaking/watch_scale.sh [build dir]
# Environment: STEPS (the steps to run, default "idle fanout burst moves"), STREAMS (20000),
# ROOMS (1000), IDLE_SECONDS (30, after SETTLE_SECONDS 20), WATCHERS (1000), MOVES (100),
# CALLS (3000), HOLD (10000), ROUNDS (2), SECONDS_EACH (10), GAMES (24).
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${1:-build}
BIN=$BUILD/bin
STREAMS=${STREAMS:-20000}
ROOMS=${ROOMS:-1000}
IDLE_SECONDS=${IDLE_SECONDS:-30}
SETTLE_SECONDS=${SETTLE_SECONDS:-20}
WATCHERS=${WATCHERS:-1000}
MOVES=${MOVES:-100}
CALLS=${CALLS:-3000}
HOLD=${HOLD:-10000}
ROUNDS=${ROUNDS:-2}
SECS=${SECONDS_EACH:-10}
GAMES=${GAMES:-24}
STEPS=" ${STEPS:-idle fanout burst moves} "
for b in rules bot matchmaking matchmaking_load watch_scale healthcheck; do
  [ -x "$BIN/$b" ] || { echo "watch_scale.sh: $BIN/$b not found (ninja -C $BUILD $b)" >&2; exit 1; }
done
. benchmarks/common/services.sh
PGTMP=$(mktemp -d /tmp/tablero-watchscale-XXXXXX)
chmod 755 "$PGTMP"
PG_PORT=$(free_port)
PIDS=()
cleanup() {
  local rc=$?
  if [ "$rc" != 0 ] && [ -f "$PGTMP/mm.log" ]; then
    echo "watch_scale.sh: failed ($rc); the replica's log ends:" >&2
    tail -n 20 "$PGTMP/mm.log" >&2
  fi
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  scripts/pg.sh stop "$PGTMP/data" || true
  rm -rf "$PGTMP"
}
trap cleanup EXIT
scripts/pg.sh start "$PGTMP/data" "$PG_PORT" >/dev/null
DB=$(scripts/pg.sh url "$PG_PORT")
RULES=127.0.0.1:$(free_port)
BOT=127.0.0.1:$(free_port)
MM=127.0.0.1:$(free_port)
export TABLERO_SERVICE_KEY=watch-scale-$$
TABLERO_LOG_LEVEL=warn "$BIN/rules" --listen="$RULES" --metrics_listen= 2>"$PGTMP/rules.log" &
PIDS+=($!)
TABLERO_LOG_LEVEL=warn "$BIN/bot" --listen="$BOT" --metrics_listen= 2>"$PGTMP/bot.log" &
PIDS+=($!)
# One client address (this machine) opens every stream and mints every guest.
TABLERO_DATABASE_URL=$DB TABLERO_LOG_LEVEL=warn "$BIN/matchmaking" --listen="$MM" \
  --metrics_listen= --rules_addr="$RULES" --bot_addr="$BOT" --rating_addr= \
  --guests_per_minute=0 --watch_max_per_address=1000000 2>"$PGTMP/mm.log" &
MM_PID=$!
PIDS+=($MM_PID)
for addr in $MM $RULES $BOT; do
  wait_serving "$BIN/healthcheck" "$addr" || { echo "$addr did not become SERVING" >&2; exit 1; }
done
# Waits until Postgres is quiet: under QUIET_TPS transactions/s over 2 s, twice running
# (at most 120 s), then vacuums and checkpoints. What a step leaves behind (presence rows of
# closed streams, the set-up's guests and rooms for autovacuum to visit, a checkpoint of the
# set-up's writes) must not fall into the next step's window.
QUIET_TPS=${QUIET_TPS:-100}
quiet() {
  wait_quiet
  psql "$DB" -qc "VACUUM (ANALYZE)" >/dev/null
  psql "$DB" -qc "CHECKPOINT" >/dev/null
}
wait_quiet() {
  local q="SELECT sum(xact_commit + xact_rollback) FROM pg_stat_database"
  local calm=0 a b
  for _ in $(seq 1 60); do
    a=$(psql "$DB" -Atc "$q"); sleep 2; b=$(psql "$DB" -Atc "$q")
    if [ $(((b - a) / 2)) -lt "$QUIET_TPS" ]; then
      calm=$((calm + 1))
      [ "$calm" -ge 2 ] && return 0
    else
      calm=0
    fi
  done
  echo "watch_scale.sh: Postgres still busy ($(((b - a) / 2)) tx/s) after 120 s" >&2
}
WS=("$BIN/watch_scale" --target="$MM" --pid="$MM_PID" --database_url="$DB")

step() { [[ "$STEPS" == *" $1 "* ]]; }

if step idle; then
  echo "== idle: $STREAMS streams over $ROOMS rooms, ${IDLE_SECONDS}s windows"
  "${WS[@]}" --phase=idle --streams="$STREAMS" --rooms="$ROOMS" --idle_seconds="$IDLE_SECONDS" --settle_seconds="$SETTLE_SECONDS"
fi
if step fanout; then
  quiet
  echo "== fanout: $WATCHERS watchers, $MOVES moves, on WatchBatches and on Watch"
  "${WS[@]}" --phase=fanout --watchers="$WATCHERS" --moves="$MOVES" --rpc=batches
  quiet
  "${WS[@]}" --phase=fanout --watchers="$WATCHERS" --moves="$MOVES" --rpc=watch
fi
if step burst; then
  quiet
  echo "== burst: $CALLS unary calls at once"
  "${WS[@]}" --phase=burst --calls="$CALLS"
fi
step moves || exit 0

echo "== moves without and with $HOLD idle streams, $ROUNDS rounds of ${SECS}s each"
: >"$PGTMP/rounds"
# The replica's CPU time so far (user + system), in clock ticks.
replica_ticks() { awk '{print $14 + $15}' "/proc/$MM_PID/stat"; }
# Postgres's: the postmaster's own and its reaped children's, plus its live children's.
pg_ticks() {
  local pm c t
  pm=$(head -n 1 "$PGTMP/data/postmaster.pid")
  t=$(awk '{print $14 + $15 + $16 + $17}' "/proc/$pm/stat")
  for c in $(ps -o pid= --ppid "$pm"); do
    t=$((t + $(awk '{print $14 + $15}' "/proc/$c/stat" 2>/dev/null || echo 0)))
  done
  echo "$t"
}
# Prints the load's summary and the replica's CPU per committed move (which, unlike the
# rate, does not depend on what else the machine runs) on stderr, and its committed
# moves/s on stdout.
load() {
  local t0 t1 p0 p1 rate secs
  t0=$(replica_ticks)
  p0=$(pg_ticks)
  "$BIN/matchmaking_load" --targets="$MM" --games="$GAMES" --seconds="$SECS" >"$PGTMP/load.log"
  t1=$(replica_ticks)
  p1=$(pg_ticks)
  grep -E "^(committed_moves_per_s|MakeMove)" "$PGTMP/load.log" >&2 || true
  rate=$(sed -n 's/^committed_moves_per_s=//p' "$PGTMP/load.log")
  secs=$(sed -n 's/.* seconds=\([0-9.]*\).*/\1/p' "$PGTMP/load.log")
  python3 -c "import sys; hz = $(getconf CLK_TCK); t, p, n = float(sys.argv[1]) / hz, float(sys.argv[5]) / hz, float(sys.argv[2]) * float(sys.argv[3])
print(f'{1000 * t / n:.3f} {1000 * p / n:.3f}' if n else '0 0', file=open(sys.argv[4], 'w'))
print(f'CPU over the load (its set-up included) per committed move: replica {1000 * t / n:.2f} ms, Postgres {1000 * p / n:.2f} ms' if n else 'no moves', file=sys.stderr)" \
    "$((t1 - t0))" "${rate:-0}" "${secs:-$SECS}" "$PGTMP/cpu_per_move" "$((p1 - p0))"
  echo "$rate"
}
# Holds HOLD idle streams (in the background) and waits until they are open and settled.
hold_open() {
  "${WS[@]}" --phase=hold --streams="$HOLD" --rooms=$((HOLD / 20)) >"$PGTMP/hold.log" 2>&1 &
  HOLD_PID=$!
  for _ in $(seq 1 1200); do grep -q "^holding" "$PGTMP/hold.log" && break; sleep 0.5; done
  echo "-- round $round: $(grep '^holding' "$PGTMP/hold.log")"
  grep -E "^(refused|reopened)" "$PGTMP/hold.log" | head -3 >&2 || true
  sleep "$SETTLE_SECONDS"  # the held streams' presence rows are written before the load
}
hold_close() {
  kill "$HOLD_PID" 2>/dev/null || true
  wait "$HOLD_PID" 2>/dev/null || true
}
# Odd rounds measure without streams first, even rounds with them first, so a drift over
# the run (the tables growing, the machine's speed) does not favour either side.
for round in $(seq 1 "$ROUNDS"); do
  if [ $((round % 2)) = 1 ]; then
    quiet
    echo "-- round $round: no streams held"
    without=$(load)
    cpu_without=$(cat "$PGTMP/cpu_per_move")
    hold_open
    quiet
    with=$(load)
    cpu_with=$(cat "$PGTMP/cpu_per_move")
    hold_close
  else
    hold_open
    quiet
    with=$(load)
    cpu_with=$(cat "$PGTMP/cpu_per_move")
    hold_close
    quiet
    echo "-- round $round: no streams held"
    without=$(load)
    cpu_without=$(cat "$PGTMP/cpu_per_move")
  fi
  echo "$without $with $cpu_without $cpu_with" >>"$PGTMP/rounds"
done
python3 - "$PGTMP/rounds" "$HOLD" <<'PY'
import statistics, sys
# Each round: moves/s without and with streams, then CPU per move (replica, Postgres)
# without and with.
rounds = [tuple(map(float, l.split())) for l in open(sys.argv[1]) if l.strip()]
for i, (a, b, *_) in enumerate(rounds, 1):
    ratio = f"{100 * b / a:5.1f}%" if a > 0 else "no moves without streams"
    print(f"round {i}: committed moves/s without streams {a:7.1f}, with {sys.argv[2]} idle streams {b:7.1f}: {ratio}")
ok = [r[1] / r[0] for r in rounds if r[0] > 0]
if len(ok) < len(rounds):
    sys.exit("watch_scale.sh: a round committed no moves without streams (see the load's errors)")
print(f"median ratio: {100 * statistics.median(ok):.1f}%")
for name, without, with_ in (("replica", 2, 4), ("Postgres", 3, 5)):
    cpu = [r[with_] / r[without] for r in rounds if r[without] > 0]
    if cpu:
        print(f"{name} CPU per committed move, with streams over without: median {statistics.median(cpu):.2f}x "
              f"(rounds: {', '.join(f'{x:.2f}' for x in cpu)})")
PY
