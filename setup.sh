#!/usr/bin/env bash
# ScaleLab set-up for a fresh Debian 12 machine (Debian packages only).
#   ./setup.sh app    install, build and open the app
#   ./setup.sh test   install, build and run every test, the real loopback
#                     Slurm + SSH cluster included (needs root for the cluster)
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
  xvfb xauth poppler-utils"

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
  cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
  cmake --build "$build" -j"$(nproc)"
}

case "$mode" in
  app)
    install_packages "$APP_PACKAGES"
    build
    exec "$build/app/scalelab"
    ;;
  test)
    install_packages "$APP_PACKAGES $TEST_PACKAGES"
    build
    cd "$build"
    # The cluster fixture (tests/cluster/testcluster) starts before the tests
    # that need it and stops after them; `ctest` alone does the same.
    ctest --output-on-failure -j2 --timeout 900 -LE bench
    ;;
  bench)
    install_packages "$APP_PACKAGES $TEST_PACKAGES"
    build
    for b in "$build"/tests/bench_*; do [ -x "$b" ] && "$b"; done
    ;;
  *)
    echo "usage: $0 app|test|bench" >&2
    exit 2
    ;;
esac
