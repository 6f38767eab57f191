#!/usr/bin/env bash
# The benchmark scripts the READMEs show, run end to end at a tiny size so that one cannot
# break unnoticed (rating_bench.sh once did: its service began to require credentials). Only
# that a script finishes and prints its result line is checked, never a figure: speed is
# shown by running the benchmarks, not asserted in tests.
#   tests/bench_smoke_test.sh CASE BUILD_DIR
# CASE: rules, bot, rating, matchmaking, watch, search, positions, ladder or elo.
set -euo pipefail
name=${1:?usage: $0 CASE BUILD_DIR}
build=${2:?usage: $0 CASE BUILD_DIR}
cd "$(dirname "$0")/.."
out=$(mktemp /tmp/tablero-bench-smoke-XXXXXX)
trap 'rm -f "$out"' EXIT

# run PATTERN COMMAND...: COMMAND succeeds and prints a line matching PATTERN.
run() {
  local pattern=$1
  shift
  if ! "$@" >"$out" 2>&1; then
    cat "$out"
    echo "bench_smoke_test: failed: $*" >&2
    exit 1
  fi
  if ! grep -Eq -- "$pattern" "$out"; then
    cat "$out"
    echo "bench_smoke_test: no line matching '$pattern' from: $*" >&2
    exit 1
  fi
  grep -E -- "$pattern" "$out"
}

case $name in
  rules) run '^ratio=[0-9.]+$' env SECONDS_EACH=1 benchmarks/rules/rules_load.sh "$build" ;;
  bot)
    # bot_load exits 1 when p99 is over budget + slack: a slack of a minute keeps a busy
    # machine (ctest runs tests side by side) from failing a test that checks no figure.
    run '^2 +4 ' benchmarks/bot/bot_load.sh "$build" --games=chess --concurrency=1,2 --calls=2 \
      --budget_ms=50 --slack_ms=60000
    ;;
  rating)
    run '^ratio of best rates: [0-9.]+%' env SECONDS_EACH=1 ROUNDS=1 SCALE=1 \
      benchmarks/rating/rating_bench.sh "$build"
    ;;
  matchmaking)
    run '^ratio of best rates: [0-9.]+%' env SECONDS_EACH=1 ROUNDS=1 GAMES=4 \
      benchmarks/matchmaking/matchmaking_load.sh "$build"
    ;;
  watch)
    run 'fanout \(Watch\): 20 watchers, 5 moves: commit to last watcher p50=' env STEPS=fanout \
      WATCHERS=20 MOVES=5 benchmarks/matchmaking/watch_scale.sh "$build"
    ;;
  search)
    run '^chess / stockfish: wall [0-9.]+, cpu [0-9.]+$' env REPEATS=1 \
      benchmarks/bot/search_speed.sh "$build/bin"
    ;;
  positions) run '^[^|]+ \| [^ ]+' env GAMES=1 benchmarks/bot/game_positions.sh "$build/bin" ;;
  ladder) run '^ +2-1 +[0-9]+ ' env GAMES=2 LEVELS=2 benchmarks/bot/ladder.sh chess "$build" ;;
  elo) run '^1 +[0-9]+ ' env GAMES=2 LEVELS=1 benchmarks/bot/elo.sh "$build" ;;
  *)
    echo "bench_smoke_test: unknown case $name" >&2
    exit 2
    ;;
esac
