#!/usr/bin/env bash
# The API contract's checks with Buf (proto/buf.yaml): `buf lint`, then `buf breaking`
# against the previous commit. buf is the npm package @bufbuild/buf (web/package.json),
# installed by `npm ci` (scripts/web.sh build).
#   scripts/buf.sh                      lint, and breaking against the previous commit
#   TABLERO_BUF_AGAINST=<git ref>       compare with that commit instead
#
# "The previous commit": HEAD when proto/ has uncommitted changes (what you are about to
# commit against what is committed), else HEAD~1 (what the last commit changed; on a merge
# commit, the branch merged against the main line before it). In a shallow clone without
# that commit, one more commit of history is fetched; if there is still none (a single
# commit, or no remote), or the base predates proto/buf.yaml (the check starts with the
# commit that adds it), the breaking check is skipped with a line saying why. Lint always
# runs.
set -euo pipefail
cd "$(dirname "$0")/.."
BUF=web/node_modules/.bin/buf
if [ ! -x "$BUF" ]; then
  echo "buf: $BUF is missing: run scripts/web.sh build (npm ci in web/)" >&2
  exit 1
fi
"$BUF" lint proto
echo "buf lint: OK"

if [ -n "${TABLERO_BUF_AGAINST:-}" ]; then
  base=$TABLERO_BUF_AGAINST
elif ! git diff --quiet HEAD -- proto 2>/dev/null; then
  base=HEAD
else
  base=HEAD~1
fi
has() { git rev-parse --verify -q "$1^{commit}" >/dev/null 2>&1; }
if ! has "$base" && [ "$(git rev-parse --is-shallow-repository 2>/dev/null)" = true ]; then
  timeout 60 git fetch -q --deepen=1 2>/dev/null || true
fi
if ! has "$base"; then
  echo "buf breaking: skipped: no commit $base here (a single-commit or shallow clone)"
  exit 0
fi
if ! git cat-file -e "$base:proto/buf.yaml" 2>/dev/null; then
  echo "buf breaking: skipped: $base predates proto/buf.yaml (the compatibility baseline starts there)"
  exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git archive "$base" proto | tar -x -C "$tmp"
"$BUF" breaking proto --against "$tmp/proto"
echo "buf breaking against $base ($(git rev-parse --short "$base")): OK"
