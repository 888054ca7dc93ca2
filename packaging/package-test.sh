#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The Debian package as a researcher on a clean Debian 12 gets it:
#   1. builds scalelab_<version>_<arch>.deb with CPack from BUILD_DIR (or takes
#      the one named by SCALELAB_PACKAGE_DEB) and checks its control fields and
#      lintian (no error, no warning);
#   2. installs it with --no-install-recommends into a fresh Debian 12 chroot
#      made by mmdebstrap from the mirrors apt uses here (the base tarball is
#      cached in $SCALELAB_PACKAGE_CACHE, downloaded packages too);
#   3. runs `scalelab --version`, `scalelab profiles`, a render and the window
#      offscreen with a screenshot (copied to BUILD_DIR/package-test/);
#   4. purges it (and the dependencies it pulled in) and checks that the file
#      system is as before.
# Usage: packaging/package-test.sh BUILD_DIR     (root; exit 77 = skipped)
#   SCALELAB_PACKAGE_DEB  a .deb built elsewhere, tested instead of packaging
#                         BUILD_DIR. `./setup.sh test` passes the release .deb
#                         the reproducible-build check made and compared. (A
#                         test build packages its release executable,
#                         app/release/scalelab, not the tests' one with the
#                         fault-injection hook.)
set -euo pipefail
build=$(cd "${1:?usage: $0 BUILD_DIR}" && pwd)
out=$build/package-test
cache=${SCALELAB_PACKAGE_CACHE:-/var/cache/scalelab-package}
fail() { echo "package-test: FAIL: $*" >&2; exit 1; }
step() { printf '\npackage-test: %s (%ss)\n' "$*" "$SECONDS"; }

if [ "$(id -u)" != 0 ]; then echo "package-test: skipped: needs root (chroot, mounts)"; exit 77; fi
for tool in cpack lintian mmdebstrap dpkg-deb; do
  command -v "$tool" >/dev/null || { echo "package-test: skipped: $tool is missing (./setup.sh test installs it)"; exit 77; }
done

rm -rf "$out"; mkdir -p "$out"

if [ -n "${SCALELAB_PACKAGE_DEB:-}" ]; then
  step "the package given: $SCALELAB_PACKAGE_DEB"
  [ -s "$SCALELAB_PACKAGE_DEB" ] || fail "SCALELAB_PACKAGE_DEB=$SCALELAB_PACKAGE_DEB is not a file"
  mkdir -p "$out/deb"; cp "$SCALELAB_PACKAGE_DEB" "$out/deb/"
else
  step "building the package"
  (cd "$build" && cpack -G DEB -B "$out/deb" >"$out/cpack.log" 2>&1) || { cat "$out/cpack.log"; fail "cpack failed"; }
fi
debs=("$out"/deb/*.deb)
[ ${#debs[@]} = 1 ] || fail "expected one .deb, found: ${debs[*]}"
deb=${debs[0]}
version=$(dpkg-deb -f "$deb" Version); arch=$(dpkg-deb -f "$deb" Architecture)
[ "$(basename "$deb")" = "scalelab_${version}_${arch}.deb" ] || fail "file name $(basename "$deb") is not name_version_arch.deb"
dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed 's/^ *//' | grep -qx 'libqt6sql6-sqlite' \
  || fail "Depends lacks libqt6sql6-sqlite: $(dpkg-deb -f "$deb" Depends)"
# Linked libraries come from shlibdeps: RE2 (the researchers' metric patterns) among them.
dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed 's/^ *//' | grep -q '^libre2-' \
  || fail "Depends lacks libre2: $(dpkg-deb -f "$deb" Depends)"
# ... and libprotobuf (TensorBoard event files).
dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed 's/^ *//' | grep -q '^libprotobuf[0-9]' \
  || fail "Depends lacks libprotobuf: $(dpkg-deb -f "$deb" Depends)"
dpkg-deb -f "$deb" Maintainer | grep -qE '<[^@ ]+@[^> ]+>' || fail "Maintainer has no e-mail"
[ -n "$(dpkg-deb -f "$deb" Homepage)" ] || fail "no Homepage"
dpkg-deb -I "$deb" control | sed -n '/^Description:/,$p' >"$out/description.txt"
[ "$(wc -l <"$out/description.txt")" -gt 3 ] || fail "no long description"
dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./|/|' >"$out/files.txt"
grep -q '^/usr/bin/scalelab$' "$out/files.txt" || fail "not installed under /usr: $(head -3 "$out/files.txt")"
echo "$(basename "$deb"): $(wc -l <"$out/files.txt") entries; Depends: $(dpkg-deb -f "$deb" Depends)"

step "lintian"
# --pedantic shows everything; only errors and warnings fail the test.
lintian --pedantic --display-info --tag-display-limit 0 "$deb" >"$out/lintian.txt" 2>&1 || true
cat "$out/lintian.txt"
if grep -E '^[EW]: ' "$out/lintian.txt"; then fail "lintian reports errors or warnings (above)"; fi

step "the Debian 12 chroot"
# The mirrors apt uses on this machine (bookworm, -updates, -security).
sources=$(apt-get indextargets --format '$(SITE) $(CODENAME) $(COMPONENT)' 'Identifier: Packages' \
          | awk '$2 ~ /^bookworm(-updates|-security)?$/' | sort -u)
[ -n "$sources" ] || fail "apt has no bookworm sources here"
key=$(printf '%s\nvariant=apt v1\n' "$sources" | sha256sum | cut -c1-12)
base=$cache/bookworm-$key.tar
mkdir -p "$cache/archives/partial"
if [ ! -s "$base" ]; then
  args=(); while read -r site codename component; do args+=("deb $site $codename $component"); done <<<"$sources"
  echo "creating $base"
  mmdebstrap --variant=apt --format=tar --skip=cleanup/apt/lists bookworm "$base.tmp" "${args[@]}" >"$out/mmdebstrap.log" 2>&1 \
    || { tail -20 "$out/mmdebstrap.log"; fail "mmdebstrap failed"; }
  mv "$base.tmp" "$base"
fi
root=$(mktemp -d /tmp/scalelab-chroot.XXXXXX)
mounts=()
cleanup() {
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount -l "${mounts[i]}" 2>/dev/null || true; done
  rm -rf --one-file-system "$root"
}
trap cleanup EXIT
tar -C "$root" -xf "$base"
for m in proc dev var/cache/apt/archives; do mkdir -p "$root/$m"; done
mount -t proc proc "$root/proc"; mounts+=("$root/proc")
mount --rbind /dev "$root/dev"; mount --make-rslave "$root/dev"; mounts+=("$root/dev")
mount --bind "$cache/archives" "$root/var/cache/apt/archives"; mounts+=("$root/var/cache/apt/archives")
cp /etc/resolv.conf "$root/etc/resolv.conf"
in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"; }
in_root apt-get update -qq >"$out/apt-update.log" 2>&1 || { cat "$out/apt-update.log"; fail "apt-get update in the chroot failed"; }
# What is there before: every path, outside the places apt and dpkg keep their books.
snapshot() {
  (cd "$root" && find . -xdev \( -path ./proc -o -path ./dev -o -path ./tmp -o -path ./var/cache/apt \
      -o -path ./var/lib/apt -o -path ./var/lib/dpkg -o -path ./var/log -o -path ./var/cache/debconf \
      -o -path ./var/cache/ldconfig -o -path ./etc/ld.so.cache -o -path ./run \) -prune -o -print | sort)
}
snapshot >"$out/before.txt"

step "installing with --no-install-recommends"
cp "$deb" "$root/tmp/"
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "/tmp/$(basename "$deb")" \
  >"$out/install.log" 2>&1 || { tail -30 "$out/install.log"; fail "installing the package failed"; }
grep -E '^(Setting up|Unpacking) ' "$out/install.log" | wc -l | xargs echo "packages unpacked or set up:"

step "running the installed program"
run() {  # as a researcher would: a non-root HOME, no display
  chroot "$root" env -i PATH=/usr/bin:/bin HOME=/tmp/home LANG=C.UTF-8 QT_QPA_PLATFORM=offscreen "$@"
}
mkdir -p "$root/tmp/home"
v=$(run scalelab --version) || fail "scalelab --version failed"
[ "$v" = "scalelab $version" ] || fail "scalelab --version printed \"$v\", expected \"scalelab $version\""
echo "--version: $v"
run scalelab profiles >"$out/profiles.txt" 2>"$out/profiles.err" || { cat "$out/profiles.err"; fail "scalelab profiles failed"; }
ids=$(awk '/^[^ ]/ {print $1}' "$out/profiles.txt" | sort | tr '\n' ' ')
[ "$ids" = "aau-ai-cloud generic lumi m3 mahti puhti testbed " ] || fail "profiles listed: \"$ids\""
echo "profiles: $ids"
example=/usr/share/scalelab/examples/pytorch-ddp-digits.json
run scalelab render "$example" >"$out/render.sh" 2>"$out/render.err" || { cat "$out/render.err"; fail "scalelab render failed"; }
grep -qx '#SBATCH --job-name=ddp-digits' "$out/render.sh" || fail "render: no job-name line in $(head -5 "$out/render.sh")"
grep -q '^srun .* -m torch.distributed.run .*--nproc_per_node=2 ' "$out/render.sh" || fail "render: no torchrun launch line for 2 GPUs"
echo "render: $(wc -l <"$out/render.sh") script lines"
run scalelab --screenshot /tmp/home/window.png --place compose --spec "$example" --size 1280x800 >"$out/screenshot.log" 2>&1 \
  || { cat "$out/screenshot.log"; fail "the window did not start offscreen"; }
cp "$root/tmp/home/window.png" "$out/window.png"
size=$(file "$out/window.png" | grep -oE '[0-9]+ x [0-9]+')
[ "$size" = "1280 x 800" ] || fail "screenshot is \"$size\", expected 1280 x 800"
echo "screenshot: $out/window.png ($size)"
run scalelab runs >/dev/null 2>"$out/runs.err" || { cat "$out/runs.err"; fail "scalelab runs (the run store) failed"; }
modes=$(cd "$root/tmp/home" && stat -c '%a %n' .local/share/ScaleLab .local/share/ScaleLab/runs.sqlite .config/ScaleLab .config/ScaleLab/ScaleLab.conf)
echo "$modes"
[ "$(echo "$modes" | awk '{print $1}' | tr '\n' ' ')" = "700 600 700 600 " ] || fail "private data is not 0700/0600"
for f in /usr/share/man/man1/scalelab.1.gz /usr/share/bash-completion/completions/scalelab \
         /usr/share/zsh/vendor-completions/_scalelab /usr/share/fish/vendor_completions.d/scalelab.fish \
         /usr/share/applications/io.github.scalelab.scalelab.desktop /usr/share/metainfo/io.github.scalelab.scalelab.metainfo.xml; do
  [ -s "$root$f" ] || fail "$f is not installed"
done

step "purging"
in_root env DEBIAN_FRONTEND=noninteractive apt-get purge -y -q --autoremove scalelab >"$out/purge.log" 2>&1 \
  || { tail -30 "$out/purge.log"; fail "purging failed"; }
state=$(in_root dpkg-query -W -f='${db:Status-Status}' scalelab 2>/dev/null || true)
[ -z "$state" ] || [ "$state" = not-installed ] || fail "scalelab is still known to dpkg as \"$state\""
snapshot >"$out/after.txt"
if ! diff -u "$out/before.txt" "$out/after.txt" >"$out/left-over.diff"; then
  cat "$out/left-over.diff"; fail "purging left the file system changed (above)"
fi
echo "nothing left after purge ($(wc -l <"$out/before.txt") paths compared)"
step "passed"
