#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Reproducible-build check: one commit built twice, at different paths
# (different lengths too), without ccache, with SOURCE_DATE_EPOCH set to the
# commit's time; the executable and the .deb are compared byte for byte.
# Prints both hashes; exit 1 when they differ (then diffoscope, if installed,
# says where). Trees are unity builds (SCALELAB_UNITY), as every build of
# ./setup.sh is: about a third of the CPU time of compiling one source at a time.
# Usage:
#   packaging/reproducible.sh [COMMIT]   two clones of COMMIT (default HEAD)
#   packaging/reproducible.sh --against BUILD_DIR
#       one clone of HEAD, configured with BUILD_DIR's options, against the
#       release executable and package of BUILD_DIR itself (`./setup.sh test`:
#       its build made with SOURCE_DATE_EPOCH set, so the product is built
#       once less). When the work tree has changes HEAD does not have, the
#       two-clone check runs instead.
#   SCALELAB_REPRO_DIR  where the trees go (default: a new folder in /tmp)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
against=""
if [ "${1:-}" = "--against" ]; then
  against=$(cd "${2:?usage: $0 --against BUILD_DIR}" && pwd)
  set -- HEAD
  if [ -n "$(git -C "$repo" status --porcelain --untracked-files=no)" ]; then
    echo "reproducible: the work tree has changes HEAD does not have: two clones of HEAD are compared instead"
    against=""
  fi
fi
commit=$(git -C "$repo" rev-parse "${1:-HEAD}")
work=${SCALELAB_REPRO_DIR:-$(mktemp -d /tmp/scalelab-repro.XXXXXX)}
mkdir -p "$work"
SOURCE_DATE_EPOCH=$(git -C "$repo" log -1 --format=%ct "$commit")
export SOURCE_DATE_EPOCH
export CCACHE_DISABLE=1   # a cache hit would hide a compiler that is not deterministic
echo "reproducible: commit $commit, SOURCE_DATE_EPOCH=$SOURCE_DATE_EPOCH, in $work"

# The options of BUILD_DIR that reach the product, as -D arguments (none without --against).
cache_options() {
  local name
  [ -n "$against" ] || return 0
  for name in SCALELAB_TEST_HOOKS SCALELAB_WERROR SCALELAB_UNITY; do
    sed -n "s/^$name:BOOL=\(.*\)$/-D$name=\1/p" "$against/CMakeCache.txt"
  done
}
# The installed executable of a build tree (the hooked one of a test build is not).
release_exe() {
  if [ -x "$1/app/release/scalelab" ]; then echo "$1/app/release/scalelab"; else echo "$1/app/scalelab"; fi
}

build_in() {
  local src=$1 start=$SECONDS
  git clone -q --no-hardlinks "$repo" "$src"
  git -C "$src" -c advice.detachedHead=false checkout -q "$commit"
  # shellcheck disable=SC2046
  cmake -S "$src" -B "$src/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBUILD_TESTING=OFF \
    -DSCALELAB_UNITY=ON $(cache_options) >"$src.configure.log"
  # Everything the package holds (with the test hooks on, the hooked executable too).
  nice cmake --build "$src/build" -j"$(nproc)" >"$src.build.log" 2>&1 \
    || { tail -30 "$src.build.log"; exit 1; }
  package "$src/build" "$src/deb" "$src"
  echo "reproducible: built $src in $((SECONDS - start)) s"
}
package() { # BUILD_DIR OUT_DIR LOG_PREFIX
  (cd "$1" && cpack -G DEB -B "$2" >"$3.cpack.log" 2>&1) || { cat "$3.cpack.log"; exit 1; }
}

if [ -n "$against" ]; then
  one=$against; one_deb=$work/against-deb
  package "$against" "$one_deb" "$work/against"
  echo "reproducible: against $against (built before, SOURCE_DATE_EPOCH as above)"
else
  build_in "$work/a"
  one=$work/a/build; one_deb=$work/a/deb
fi
build_in "$work/second-tree/b"

status=0
compare() {
  local what=$1 first=$2 second=$3 h1 h2
  h1=$(sha256sum <"$first" | cut -d' ' -f1); h2=$(sha256sum <"$second" | cut -d' ' -f1)
  echo "reproducible: $what"
  echo "  $h1  $first"
  echo "  $h2  $second"
  if [ "$h1" != "$h2" ]; then
    status=1
    echo "  DIFFERENT"
    command -v diffoscope >/dev/null && diffoscope --text "$work/$what.diffoscope.txt" "$first" "$second" >/dev/null 2>&1 \
      && echo "  see $work/$what.diffoscope.txt"
  fi
}
compare scalelab "$(release_exe "$one")" "$(release_exe "$work/second-tree/b/build")"
deb_a=$(ls "$one_deb"/*.deb); deb_b=$(ls "$work"/second-tree/b/deb/*.deb)
compare "$(basename "$deb_a")" "$deb_a" "$deb_b"
if [ "$status" = 0 ]; then
  echo "reproducible: identical"
  # `./setup.sh test` installs this package in the package test.
  echo "reproducible: package $deb_a"
  [ -z "${SCALELAB_REPRO_DIR:-}" ] && rm -rf "$work"
fi
exit "$status"
