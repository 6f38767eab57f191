#!/usr/bin/env bash
# Builds search_bench at an older commit, for search_speed.sh's same-run ratios. Usage:
#   benchmarks/bot/baseline_bench.sh REV OUT
# (e.g. `baseline_bench.sh 49aa09e base_bench`: the four-player shogi search before
# issue 27). REV is checked out in a temporary worktree, built Release (the bot library and
# search_bench only, a few minutes) and its search_bench copied to OUT; the worktree is then
# removed. Every version is measured by this checkout's search_bench source (it uses only
# the bot's public API; --depth needs a bot with Request::max_depth).
set -euo pipefail
rev=${1:?usage: baseline_bench.sh REV OUT}
out=$(realpath -m "${2:?usage: baseline_bench.sh REV OUT}")  # (before the cd below)
cd "$(dirname "$0")/../.."
git rev-parse --verify --quiet "$rev^{commit}" >/dev/null || {
  echo "baseline_bench.sh: no commit $rev" >&2
  exit 2
}
tree=$(mktemp -d)
trap 'git worktree remove --force "$tree" >/dev/null 2>&1 || rm -rf "$tree"' EXIT
git worktree add --detach "$tree" "$rev" >/dev/null
# The same harness for every version: this checkout's search_bench source, and its build
# target where REV has none.
cp benchmarks/bot/search_bench.cc "$tree/benchmarks/bot/search_bench.cc"
if ! grep -q 'add_executable(search_bench' "$tree/benchmarks/CMakeLists.txt"; then
  printf '%s\n' 'add_executable(search_bench bot/search_bench.cc)' \
    'target_link_libraries(search_bench tablero_bot absl::flags absl::flags_parse)' \
    >>"$tree/benchmarks/CMakeLists.txt"
fi
cmake -S "$tree" -B "$tree/build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C "$tree/build" search_bench >/dev/null
cp "$tree/build/bin/search_bench" "$out"
echo "$out: search_bench at $(git rev-parse --short "$rev")"
