#!/bin/sh
# Prints the Debian packages that hold the shared libraries the given binaries load, one a
# line: the runtime image installs exactly these, so a library a service starts to use
# reaches the image with no list to keep by hand. Fails if a library is missing or belongs
# to no package (a library built by hand would not exist in the runtime image).
#   runtime-packages.sh BINARY...
set -eu
[ $# -gt 0 ] || { echo "usage: runtime-packages.sh BINARY..." >&2; exit 2; }
out=$(ldd "$@")
if echo "$out" | grep -q 'not found'; then
  echo "runtime-packages: unresolved libraries:" >&2
  echo "$out" | grep 'not found' >&2
  exit 1
fi
libs=$(echo "$out" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }' | sort -u)
# Debian 12 merged /lib into /usr/lib; dpkg knows each file under one of the two names,
# so ask for both in one query (dpkg-query -S is slow per call).
paths=$(for l in $libs; do
  echo "$l"
  echo "$l" | sed -e 's#^/usr/lib/#/lib/#;t' -e 's#^/lib/#/usr/lib/#'
done)
owners=$(dpkg-query -S $paths 2>/dev/null || true)
pkgs=""
for l in $libs; do
  base=${l#/usr}
  pkg=$(echo "$owners" | awk -v a="$base" -v b="/usr$base" \
    '{ p = $NF } p == a || p == b { split($1, n, ":"); print n[1]; exit }')
  if [ -z "$pkg" ]; then
    echo "runtime-packages: no package owns $l" >&2
    exit 1
  fi
  pkgs="$pkgs $pkg"
done
printf '%s\n' $pkgs | sort -u
