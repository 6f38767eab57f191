#!/usr/bin/env bash
# Builds everything (the web client too: scripts/web.sh) and runs every test with ctest,
# against a throwaway PostgreSQL that lives in a temporary folder for the length of the run.
# Then runs the engine tests once more under AddressSanitizer + UndefinedBehaviorSanitizer.
#   scripts/test.sh            everything
#   TABLERO_SKIP_SANITIZE=1    skip the sanitizer pass (quicker local runs)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
BUILD=${TABLERO_BUILD_DIR:-$ROOT/build}
JOBS=${TABLERO_JOBS:-$(nproc)}

scripts/deps.sh
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C "$BUILD" -j "$JOBS"
scripts/web.sh build

PGTMP=$(mktemp -d /tmp/tablero-test-pg-XXXXXX)
chmod 755 "$PGTMP"
PG_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cleanup() { scripts/pg.sh stop "$PGTMP/data" || true; rm -rf "$PGTMP"; }
trap cleanup EXIT
scripts/pg.sh start "$PGTMP/data" "$PG_PORT"
export TABLERO_TEST_DATABASE_URL
TABLERO_TEST_DATABASE_URL=$(scripts/pg.sh url "$PG_PORT")

ctest --test-dir "$BUILD" --output-on-failure -j "$JOBS" --timeout 1200

if [ "${TABLERO_SKIP_SANITIZE:-0}" != 1 ]; then
  SAN=${BUILD}-sanitize
  cmake -S . -B "$SAN" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DTABLERO_ENGINES_ONLY=ON -DTABLERO_SANITIZE=ON >/dev/null
  ninja -C "$SAN" -j "$JOBS"
  ctest --test-dir "$SAN" --output-on-failure -j "$JOBS" -LE slow --timeout 1200
fi
