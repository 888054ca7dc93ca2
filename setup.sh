#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# ScaleLab set-up for a fresh Debian 12 machine (Debian packages only).
#   ./setup.sh app    install, build and open the app
#   ./setup.sh test   install, build and run every test, the real loopback
#                     Slurm + SSH cluster included (needs root for the cluster)
#   ./setup.sh test24        the cluster tests again on Slurm 24.11 (chroot)
#   ./setup.sh sanitize      the unit, GUI and fuzz-replay tests built with
#                            clang under AddressSanitizer + UBSan (build-asan/)
#   ./setup.sh reproducible  the same commit built twice, compared byte for byte
#   ./setup.sh bench  build and print the benchmark ratios
set -euo pipefail
cd "$(dirname "$0")"
here=$PWD
build=${SCALELAB_BUILD_DIR:-$here/build}
mode=${1:-app}

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# What building and running the app needs.
APP_PACKAGES="build-essential cmake ninja-build pkg-config qt6-base-dev libqt6sql6-sqlite qt6-svg-dev libqt6svg6
  nlohmann-json3-dev libexpected-dev libssh-dev libqcustomplot-dev libgl-dev fonts-dejavu-core"
# What the tests add: the real Slurm cluster, sshd, login shells, TOTP,
# PyTorch for the real DDP runs, an X server for GUI screenshots, PDF text.
TEST_PACKAGES="slurm-wlm slurm-client slurmdbd mariadb-server munge openssh-server openssh-client
  zsh fish tcsh dash libpam-google-authenticator oathtool python3-torch python3-sklearn procps iproute2
  xvfb xauth poppler-utils mmdebstrap"
# What the packaging and portability checks add (packaging/, clang_check).
PACKAGE_TEST_PACKAGES="lintian mmdebstrap appstream desktop-file-utils man-db file clang"

install_packages() {
  local wanted="$1" missing=""
  for p in $wanted; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
  done
  if [ -n "$missing" ]; then
    echo "setup: installing$missing"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
  fi
}

build() {
  # "$@": extra cache settings, e.g. the test hooks for `./setup.sh test`.
  cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
  cmake --build "$build" -j"$(nproc)"
}

# The unit, GUI and fuzz-replay tests again, built with clang and
# -fsanitize=address,undefined in their own directory and run with leak
# detection on: one extra build checks both the second compiler (README:
# Supported systems) and memory safety. Only what those tests need is built.
sanitized_clang_tests() {
  local asan=${SCALELAB_ASAN_BUILD_DIR:-$here/build-asan} start=$SECONDS targets
  CC=clang CXX=clang++ cmake -S "$here" -B "$asan" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DSCALELAB_SANITIZE=ON >/dev/null
  targets=$(cd "$here/tests" && ls unit/tst_*.cpp gui/tst_*.cpp fuzz/fuzz_*.cpp | sed 's|.*/||; s|\.cpp$||')
  # shellcheck disable=SC2086
  cmake --build "$asan" -j"$(nproc)" --target scalelab $targets
  (
    cd "$asan"
    export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1"
    export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
    # Leaks inside system libraries (fontconfig, the X/GL stack) are theirs, not ours.
    export LSAN_OPTIONS="suppressions=$here/tests/sanitizers/lsan.supp:print_suppressions=0"
    ctest --output-on-failure -j2 --timeout 900 -L 'unit|gui|fuzz'
  )
  echo "setup: clang + sanitizer build and tests took $((SECONDS - start)) s"
}

# Every cluster and GUI-cluster test again on Slurm 24.11 (label slurm24):
# Debian 13 packages in a chroot built once (mmdebstrap, ~7 min) and cached
# under /var/cache/scalelab-testcluster; the 24.11 cluster comes up after the
# 22.05 one is down (same ports) and goes down at the end. Only the executable
# and those tests are built. Prints how long each part took.
slurm24_cluster_tests() {
  local start=$SECONDS t targets
  cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSCALELAB_TEST_HOOKS=ON >/dev/null
  targets=$(cd "$here/tests" && ls cluster/tst_*.cpp guicluster/tst_*.cpp | sed 's|.*/||; s|\.cpp$||')
  # shellcheck disable=SC2086
  cmake --build "$build" -j"$(nproc)" --target scalelab $targets
  echo "setup: build for the 24.11 suite took $((SECONDS - start)) s"
  t=$SECONDS
  SCALELAB_TESTCLUSTER_SLURM=24.11 "$here/tests/cluster/testcluster" build-root
  echo "setup: Debian 13 root ready in $((SECONDS - t)) s"
  t=$SECONDS
  (cd "$build" && ctest --output-on-failure -j2 --timeout 900 -L slurm24)
  echo "setup: Slurm 24.11 cluster suite took $((SECONDS - t)) s (all of test24: $((SECONDS - start)) s)"
}

# Reproducible builds: the same commit built twice from different folders
# gives the same executable and .deb, byte for byte (prints both hashes).
reproducible_check() {
  local start=$SECONDS
  "$here/packaging/reproducible.sh" HEAD
  echo "setup: reproducible-build check took $((SECONDS - start)) s"
}

case "$mode" in
  app)
    install_packages "$APP_PACKAGES"
    build -DSCALELAB_TEST_HOOKS=OFF
    exec "$build/app/scalelab"
    ;;
  test)
    install_packages "$APP_PACKAGES $TEST_PACKAGES $PACKAGE_TEST_PACKAGES"
    # The crash-consistency tests kill scalelab at chosen points through a
    # hook that only test builds contain.
    build -DSCALELAB_TEST_HOOKS=ON
    # The cluster fixtures (tests/cluster/testcluster) start before the tests
    # that need them and stop after them; `ctest` alone does the same. Label
    # "package": the .deb in a fresh Debian 12 chroot, lintian, desktop files.
    # The cluster tests on Slurm 24.11 (label slurm24) are `./setup.sh test24`
    # until their whole suite has passed here (README: Slurm versions).
    (cd "$build" && ctest --output-on-failure -j2 --timeout 900 -LE 'bench|slurm24')
    ;;
  test24)
    install_packages "$APP_PACKAGES $TEST_PACKAGES"
    slurm24_cluster_tests
    ;;
  sanitize)
    # Not yet part of `test`: see the README (Hostile input).
    install_packages "$APP_PACKAGES $TEST_PACKAGES $PACKAGE_TEST_PACKAGES"
    sanitized_clang_tests
    ;;
  reproducible)
    install_packages "$APP_PACKAGES $PACKAGE_TEST_PACKAGES"
    reproducible_check
    ;;
  bench)
    install_packages "$APP_PACKAGES $TEST_PACKAGES"
    build
    for b in "$build"/tests/bench_*; do [ -x "$b" ] && "$b"; done
    ;;
  *)
    echo "usage: $0 app|test|test24|bench|sanitize|reproducible" >&2
    exit 2
    ;;
esac
