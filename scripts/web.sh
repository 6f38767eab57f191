#!/usr/bin/env bash
# The web client (web/): installs its npm packages from web/package-lock.json (npm ci) when
# they are missing or older than the lockfile, generates the client code from proto/, type-
# checks and bundles the site and the dev gateway into web/dist.
#   scripts/web.sh build
set -euo pipefail
cd "$(dirname "$0")/../web"
major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$major" -lt 18 ]; then
  echo "web: Node.js 18 or newer is needed (found: $(node --version 2>/dev/null || echo none)); run scripts/deps.sh" >&2
  exit 1
fi
case "${1:-build}" in
  build)
    stamp=node_modules/.tablero-npm-ci
    if [ "${CI:-}" = true ] || [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ]; then
      npm ci --no-audit --no-fund --loglevel=error
      touch "$stamp"
    fi
    npm run --silent build
    ;;
  *) echo "usage: scripts/web.sh build" >&2; exit 2 ;;
esac
