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
sanitized_clang_run() { # [ctest label regex] (default: all three)
  local start=$SECONDS rc=0 labels=${1:-unit|gui|fuzz}
  (
    cd "$asan_dir"
    export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1"
    export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
    # Leaks inside system libraries only, each entry says why (no ODR suppression).
    export LSAN_OPTIONS="suppressions=$here/tests/sanitizers/lsan.supp:print_suppressions=0:use_tls=0"
    # Instrumented code runs 2-5x slower: QtTest's 5-minute limit per function is too short.
    export QTEST_FUNCTION_TIMEOUT=900000
    ctest --output-on-failure -j2 --timeout 900 -L "$labels"
  ) || rc=$?
  echo "setup: clang + sanitizer tests ($labels) took $((SECONDS - start)) s"
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
# `test` compares its own build's release executable (app/release/scalelab,
# without the fault-injection hook the tests' executable has) and package
# with one more tree, so the product is built twice, not three times; with
# SCALELAB_REPRO_DIR set the packages are kept for the package test.
# The package test (packaging/package-test.sh) on that release .deb.
release_and_package_test() {
  local deb rc=0
  deb=$(ls "$repro_dir"/against-deb/*.deb "$repro_dir"/a/deb/*.deb 2>/dev/null | head -1 || true)
  [ -n "$deb" ] || { echo "setup: no release .deb from the reproducible-build check" >&2; return 1; }
  SCALELAB_PACKAGE_DEB=$deb "$here/packaging/package-test.sh" "$build" || rc=$?
  [ "$rc" = 77 ] && { echo "setup: the package test was skipped (see above)"; return 0; }
  echo "setup: the package test ended with status $rc"
  return "$rc"
}
reproducible_check() { # [--against BUILD_DIR]
  local start=$SECONDS
  "$here/packaging/reproducible.sh" "${@:-HEAD}"
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
    # The Debian 13 root of the Slurm 24.11 suite (mmdebstrap: mostly download
    # and unpacking, a few minutes when /var/cache has none) is built beside
    # the compiler at nice 19, so it is ready when that suite starts.
    mkdir -p "$build"
    root_log=$build/debian13-root.log
    ( renice -n 19 -p "$BASHPID" >/dev/null; SCALELAB_TESTCLUSTER_SLURM=24.11 "$here/tests/cluster/testcluster" build-root ) \
      >"$root_log" 2>&1 &
    root_build=$!
    # The crash-consistency tests kill scalelab at chosen points through a
    # hook that only test builds contain.
    # Warnings are errors here (and so in CI): cmake/CompilePolicy.cmake.
    # The product as a unity build (SCALELAB_UNITY): a third of the CPU time.
    # The commit's time for rcc (this build only): its release executable and
    # package are one side of the reproducible-build check, which sets the
    # same time for CPack.
    commit_time=$(git -C "$here" log -1 --format=%ct 2>/dev/null || date +%s)
    stage=$SECONDS
    SOURCE_DATE_EPOCH=$commit_time build -DSCALELAB_TEST_HOOKS=ON -DSCALELAB_WERROR=ON -DSCALELAB_UNITY=ON
    echo "setup: the build took $((SECONDS - stage)) s"
    # Every step runs even when an earlier one failed; the exit status says
    # whether all passed. Order, for the 45-minute budget on 2 cores:
    # 0. The fast stage (unit, ssh, gui and fuzz-replay tests, about 2 min):
    #    when one of them fails nothing else runs, so a broken change fails
    #    in minutes, not after the cluster suites.
    # 1. The other tests that need no cluster: CPU-bound, so alone on the
    #    machine. Label "package": lintian, desktop files, the man page.
    # 2. The cluster suites mostly wait on Slurm: Slurm 22.05 (host packages),
    #    then 24.11 (label slurm24, the Debian 13 chroot built beside the
    #    compiler); only one cluster can be up at a time (same ports). Beside
    #    them at nice 19, taking only the CPU they leave idle: the clang +
    #    sanitizer build with its unit and fuzz tests, and the reproducible-
    #    build check followed by the package test on its release .deb.
    # 3. The sanitized GUI tests, once the cluster is down (their waits have
    #    time limits, so they run alone).
    failed=""
    stage=$SECONDS
    if ! (cd "$build" && ctest --output-on-failure -j2 --timeout 900 -L '^(unit|ssh|gui|fuzz)$'); then
      echo "setup: failed: the fast stage (ctest -L 'unit|ssh|gui|fuzz'); the later stages did not run" >&2
      exit 1
    fi
    echo "setup: the fast stage took $((SECONDS - stage)) s"; stage=$SECONDS
    (cd "$build" && ctest --output-on-failure -j2 --timeout 900 -LE 'bench|slurm24|cluster|^unit$|^ssh$|^gui$|^fuzz$' \
      -E '^package_deb$') || failed="$failed local"
    echo "setup: the other local tests took $((SECONDS - stage)) s"; stage=$SECONDS
    # Beside the cluster suites, at nice 19 (they take only the CPU those
    # leave idle): the sanitizer build and its unit and fuzz tests (no short
    # time limits in them); the reproducible-build check and then the package
    # test with its release .deb (a fresh Debian 12 chroot).
    asan_log=$build/sanitize.log
    ( renice -n 19 -p "$BASHPID" >/dev/null; sanitized_clang_build && sanitized_clang_run 'unit|fuzz' ) >"$asan_log" 2>&1 &
    asan=$!
    repro_log=$build/reproducible.log
    repro_dir=$build/reproducible
    rm -rf "$repro_dir"
    ( renice -n 19 -p "$BASHPID" >/dev/null; SCALELAB_REPRO_DIR=$repro_dir reproducible_check --against "$build" \
        && release_and_package_test ) \
      >"$repro_log" 2>&1 &
    repro=$!
    (cd "$build" && ctest --output-on-failure -j2 --timeout 900 -L cluster -LE 'bench|slurm24') || failed="$failed cluster"
    echo "setup: Slurm 22.05 cluster suite took $((SECONDS - stage)) s"
    wait "$root_build" || { tail -5 "$root_log"; echo "setup: the Debian 13 root beside the build failed; trying again" >&2; }
    slurm24_cluster_tests || failed="$failed cluster-24.11"
    stage=$SECONDS
    # 3. The sanitized GUI tests (their waits have time limits): alone, after the cluster.
    if wait "$asan"; then
      grep -E '^setup:' "$asan_log"
      echo "setup: waited $((SECONDS - stage)) s for the sanitizer build and its unit tests"
      sanitized_clang_run gui || failed="$failed sanitizers"
    else
      tail -80 "$asan_log"; failed="$failed sanitizers"
    fi
    # 4. The reproducible-build check and the package test.
    stage=$SECONDS
    if wait "$repro"; then
      grep -E '^(reproducible|setup|package-test):|^  [0-9a-f]{64} ' "$repro_log"
    else
      tail -60 "$repro_log"; failed="$failed reproducible-or-package"
    fi
    echo "setup: waited $((SECONDS - stage)) s for the reproducible-build check and the package test"
    rm -rf "$repro_dir"
    if [ -n "$failed" ]; then echo "setup: failed:$failed" >&2; exit 1; fi
    echo "setup: all tests passed ($SECONDS s in all)"
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
