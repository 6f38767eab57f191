#!/usr/bin/env bash
# Installs the Debian 12 packages tablero needs to build, test and run, if any is missing.
# Safe to run again: it does nothing when everything is there.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build pkg-config git
  libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler
  libabsl-dev libpqxx-dev prometheus-cpp-dev zlib1g-dev
  libjemalloc-dev  # the matchmaking replica's allocator (services/matchmaking/CMakeLists.txt)
  libgtest-dev libgmock-dev libbenchmark-dev
  postgresql postgresql-contrib
  stockfish
  python3 python3-grpcio python3-grpc-tools
  prometheus
  docker-compose python3-yaml
  tmux
  clang  # lint.thread_safety: clang checks the lock annotations GCC ignores
)
# The web client (web/): Node.js and npm (18 or newer; Debian's packages unless a node and
# npm are already on PATH) build it, Chromium runs its browser tests. TABLERO_DEPS_WEB=0
# leaves them out (the service images' build stage).
if [ "${TABLERO_DEPS_WEB:-1}" != 0 ]; then
  PACKAGES+=(chromium)
  command -v node >/dev/null 2>&1 || PACKAGES+=(nodejs)
  command -v npm >/dev/null 2>&1 || PACKAGES+=(npm)
fi

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
