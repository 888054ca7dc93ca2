#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Reproducible-build check: builds one commit twice, from two clones at
# different paths (different lengths too), without ccache, with
# SOURCE_DATE_EPOCH set to the commit's time, and compares the executable
# and the .deb byte for byte. Prints both hashes; exit 1 when they differ
# (then diffoscope, if installed, says where). Both trees are unity builds
# (SCALELAB_UNITY), as every build of ./setup.sh is: about a third of the
# CPU time of compiling one source at a time.
# Usage: packaging/reproducible.sh [COMMIT]      (default: HEAD)
#   SCALELAB_REPRO_DIR  where the two trees go (default: a new folder in /tmp)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
commit=$(git -C "$repo" rev-parse "${1:-HEAD}")
work=${SCALELAB_REPRO_DIR:-$(mktemp -d /tmp/scalelab-repro.XXXXXX)}
SOURCE_DATE_EPOCH=$(git -C "$repo" log -1 --format=%ct "$commit")
export SOURCE_DATE_EPOCH
export CCACHE_DISABLE=1   # a cache hit would hide a compiler that is not deterministic
echo "reproducible: commit $commit, SOURCE_DATE_EPOCH=$SOURCE_DATE_EPOCH, in $work"

build_in() {
  local src=$1 start=$SECONDS
  git clone -q --no-hardlinks "$repo" "$src"
  git -C "$src" -c advice.detachedHead=false checkout -q "$commit"
  cmake -S "$src" -B "$src/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBUILD_TESTING=OFF \
    -DSCALELAB_UNITY=ON >"$src.configure.log"
  nice cmake --build "$src/build" -j"$(nproc)" >"$src.build.log" 2>&1 || { tail -30 "$src.build.log"; exit 1; }
  (cd "$src/build" && cpack -G DEB -B "$src/deb" >"$src.cpack.log" 2>&1) || { cat "$src.cpack.log"; exit 1; }
  echo "reproducible: built $src in $((SECONDS - start)) s"
}
build_in "$work/a"
build_in "$work/second-tree/b"

status=0
compare() {
  local what=$1 one=$2 two=$3 h1 h2
  h1=$(sha256sum <"$one" | cut -d' ' -f1); h2=$(sha256sum <"$two" | cut -d' ' -f1)
  echo "reproducible: $what"
  echo "  $h1  $one"
  echo "  $h2  $two"
  if [ "$h1" != "$h2" ]; then
    status=1
    echo "  DIFFERENT"
    command -v diffoscope >/dev/null && diffoscope --text "$work/$what.diffoscope.txt" "$one" "$two" >/dev/null 2>&1 \
      && echo "  see $work/$what.diffoscope.txt"
  fi
}
compare scalelab "$work/a/build/app/scalelab" "$work/second-tree/b/build/app/scalelab"
deb_a=$(ls "$work"/a/deb/*.deb); deb_b=$(ls "$work"/second-tree/b/deb/*.deb)
compare "$(basename "$deb_a")" "$deb_a" "$deb_b"
if [ "$status" = 0 ]; then
  echo "reproducible: identical"
  [ -z "${SCALELAB_REPRO_DIR:-}" ] && rm -rf "$work"
fi
exit "$status"
