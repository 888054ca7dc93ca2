#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# ScaleLab set-up for a fresh Debian 12 machine (Debian packages only).
#   ./setup.sh app    install, build and open the app
#   ./setup.sh test   install, build and run every test, the real loopback
#                     Slurm + SSH cluster included (needs root for the cluster),
#                     and the sanitize tests below (in build-asan/)
#   ./setup.sh test24        only the cluster tests on Slurm 24.11 (chroot; `test` runs them too)
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
APP_PACKAGES="build-essential cmake ninja-build lld pkg-config qt6-base-dev libqt6sql6-sqlite libsqlite3-dev qt6-svg-dev libqt6svg6
  nlohmann-json3-dev libexpected-dev libssh-dev libssl-dev zlib1g-dev libre2-dev libprotobuf-dev protobuf-compiler libqcustomplot-dev libgl-dev fonts-dejavu-core"
# What the tests add: the real Slurm cluster, sshd, login shells, TOTP,
# PyTorch for the real DDP runs, an X server for GUI screenshots, PDF text.
TEST_PACKAGES="slurm-wlm slurm-client slurmdbd mariadb-server munge openssh-server openssh-client lmod
  zsh fish tcsh dash libpam-google-authenticator oathtool python3-torch python3-sklearn procps iproute2
  xvfb xauth poppler-utils mmdebstrap rsync git"
# What the packaging and portability checks add (packaging/, clang_check).
PACKAGE_TEST_PACKAGES="clang-format lintian mmdebstrap appstream desktop-file-utils man-db file clang"

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
# Supported systems) and memory safety. Only what those tests need is built
# (no benches, no cluster tests). Build and run are separate steps so that
# `test` can build while the cluster tests wait on Slurm (see there).
asan_dir=${SCALELAB_ASAN_BUILD_DIR:-$here/build-asan}
sanitized_clang_build() {
  local start=$SECONDS targets
  # -O1 and line tables only: about half the compile time of -O2 -g, still
  # fast enough to run the tests and enough for symbolised sanitizer reports.
  CC=clang CXX=clang++ cmake -S "$here" -B "$asan_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" -DSCALELAB_SANITIZE=ON -DSCALELAB_UNITY=ON >/dev/null
  targets=$(cd "$here/tests" && ls unit/tst_*.cpp gui/tst_*.cpp fuzz/fuzz_*.cpp | sed 's|.*/||; s|\.cpp$||')
  # shellcheck disable=SC2086
  cmake --build "$asan_dir" -j"$(nproc)" --target scalelab $targets
  echo "setup: clang + sanitizer build took $((SECONDS - start)) s"
}
sanitized_clang_run() {
  local start=$SECONDS rc=0
  (
    cd "$asan_dir"
    export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1"
    export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
    # Leaks inside system libraries only, each entry says why (no ODR suppression).
    export LSAN_OPTIONS="suppressions=$here/tests/sanitizers/lsan.supp:print_suppressions=0:use_tls=0"
    # Instrumented code runs 2-5x slower: QtTest's 5-minute limit per function is too short.
    export QTEST_FUNCTION_TIMEOUT=900000
    ctest --output-on-failure -j2 --timeout 900 -L 'unit|gui|fuzz'
  ) || rc=$?
  echo "setup: clang + sanitizer tests took $((SECONDS - start)) s"
  # ctest's status, not the echo's: a failed sanitized test fails the run.
  return $rc
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
  # Called as `f || …`, where set -e is off: a failed build is reported here.
  SCALELAB_TESTCLUSTER_SLURM=24.11 "$here/tests/cluster/testcluster" build-root \
    || { echo "setup: building the Debian 13 root failed (see /var/cache/scalelab-testcluster/build.log)"; return 1; }
  echo "setup: Debian 13 root ready in $((SECONDS - t)) s"
  t=$SECONDS
  # The status is ctest's: inside `f || …` set -e is off, so it is passed on by hand.
  local rc=0
  (cd "$build" && ctest --output-on-failure -j2 --timeout 900 -L slurm24) || rc=$?
  echo "setup: Slurm 24.11 cluster suite took $((SECONDS - t)) s (all of test24: $((SECONDS - start)) s)"
  return $rc
}

# Reproducible builds: the same commit built twice from different folders
# gives the same executable and .deb, byte for byte (prints both hashes).
# With SCALELAB_REPRO_DIR set the two trees are kept: `test` installs the
# first tree's release .deb in the package test.
reproducible_check() {
  local start=$SECONDS
  "$here/packaging/reproducible.sh" HEAD
  echo "setup: reproducible-build check took $((SECONDS - start)) s"
}

case "$mode" in
  app)
    install_packages "$APP_PACKAGES"
    build -DSCALELAB_TEST_HOOKS=OFF -DSCALELAB_UNITY=ON
    exec "$build/app/scalelab"
    ;;
  test)
    install_packages "$APP_PACKAGES $TEST_PACKAGES $PACKAGE_TEST_PACKAGES"
    # The crash-consistency tests kill scalelab at chosen points through a
    # hook that only test builds contain.
    # Warnings are errors here (and so in CI): cmake/CompilePolicy.cmake.
    # The product as a unity build (SCALELAB_UNITY): a third of the CPU time.
    build -DSCALELAB_TEST_HOOKS=ON -DSCALELAB_WERROR=ON -DSCALELAB_UNITY=ON
    # Every step runs even when an earlier one failed; the exit status says
    # whether all passed. Order, for the 45-minute budget on 2 cores:
    # 0. The fast stage (unit, ssh, gui and fuzz-replay tests, about 2 min):
    #    when one of them fails nothing else runs, so a broken change fails
    #    in minutes, not after the cluster suites.
    # 1. The other tests that need no cluster: CPU-bound, so alone on the
    #    machine. Label "package": lintian, desktop files, the man page.
    # 2. The cluster tests (Slurm 22.05; the fixtures start and stop the
    #    cluster) mostly wait on Slurm, so the clang + sanitizer build runs
    #    beside them at nice 19: it takes only the CPU they leave idle, so
    #    their jobs are not slowed. It is started after step 1 so the two
    #    compilers never compete with CPU-bound tests that have time limits.
    #    Then the same cluster suite on Slurm 24.11 (label slurm24, a Debian 13
    #    chroot, cached in /var/cache): only one cluster can be up at a time.
    # 3. The sanitized tests, once the cluster is down: they are CPU-bound too.
    # Beside the cluster tests, also at nice 19: the reproducible-build check
    # (the same commit built twice from two folders, compared byte for byte).
    failed=""
    #    The package test (package_deb) waits for the release .deb of the
    #    reproducible-build check: this build has the test hooks in it.
    if ! (cd "$build" && ctest --output-on-failure -j2 --timeout 900 -L '^(unit|ssh|gui|fuzz)$'); then
      echo "setup: failed: the fast stage (ctest -L 'unit|ssh|gui|fuzz'); the later stages did not run" >&2
      exit 1
    fi
    (cd "$build" && ctest --output-on-failure -j2 --timeout 900 -LE 'bench|slurm24|cluster|^unit$|^ssh$|^gui$|^fuzz$' \
      -E '^package_deb$') || failed="$failed local"
    asan_log=$build/sanitize-build.log
    ( renice -n 19 -p "$BASHPID" >/dev/null; sanitized_clang_build ) >"$asan_log" 2>&1 &
    asan_build=$!
    repro_log=$build/reproducible.log
    repro_dir=$build/reproducible
    rm -rf "$repro_dir"
    ( renice -n 19 -p "$BASHPID" >/dev/null; SCALELAB_REPRO_DIR=$repro_dir reproducible_check ) >"$repro_log" 2>&1 &
    repro=$!
    (cd "$build" && ctest --output-on-failure -j2 --timeout 900 -L cluster -LE 'bench|slurm24') || failed="$failed cluster"
    slurm24_cluster_tests || failed="$failed cluster-24.11"
    if wait "$asan_build"; then
      tail -1 "$asan_log"
      sanitized_clang_run || failed="$failed sanitizers"
    else
      tail -40 "$asan_log"; failed="$failed sanitizer-build"
    fi
    if wait "$repro"; then
      grep -E '^(reproducible|setup):|^  [0-9a-f]{64} ' "$repro_log"
    else
      tail -40 "$repro_log"; failed="$failed reproducible"
    fi
    # 4. The release .deb in a fresh Debian 12 chroot (label package).
    release_deb=$(ls "$repro_dir"/a/deb/*.deb 2>/dev/null | head -1 || true)
    if [ -n "$release_deb" ]; then
      (cd "$build" && SCALELAB_PACKAGE_DEB=$release_deb ctest --output-on-failure --timeout 1800 -R '^package_deb$') \
        || failed="$failed package"
    else
      echo "setup: no release .deb from the reproducible-build check; the package test did not run" >&2
      failed="$failed package"
    fi
    rm -rf "$repro_dir"
    if [ -n "$failed" ]; then echo "setup: failed:$failed" >&2; exit 1; fi
    echo "setup: all tests passed"
    ;;
  test24)
    install_packages "$APP_PACKAGES $TEST_PACKAGES"
    slurm24_cluster_tests
    ;;
  sanitize)
    # Also part of `test` (beside the cluster tests there).
    install_packages "$APP_PACKAGES $TEST_PACKAGES $PACKAGE_TEST_PACKAGES"
    sanitized_clang_build
    sanitized_clang_run
    ;;
  reproducible)
    install_packages "$APP_PACKAGES $PACKAGE_TEST_PACKAGES"
    reproducible_check
    ;;
  bench)
    # sqlite3: bench_results' baseline (the same queries through the sqlite3 tool).
    install_packages "$APP_PACKAGES $TEST_PACKAGES sqlite3"
    build
    for b in "$build"/tests/bench_*; do [ -x "$b" ] && "$b"; done
    ;;
  *)
    echo "usage: $0 app|test|test24|bench|sanitize|reproducible" >&2
    exit 2
    ;;
esac
