#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The desktop entry and the AppStream metainfo are clean: no error, warning,
# info, pedantic note or hint from desktop-file-validate and
# `appstreamcli validate --pedantic`, and they agree with the app
# (desktop id = setDesktopFileName, StartupWMClass = the window class).
# --no-net: the screenshot and homepage URLs are not fetched in CI.
# Usage: packaging/check-desktop.sh        (exit 77 = tools missing: skipped)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
for tool in appstreamcli desktop-file-validate; do
  command -v "$tool" >/dev/null || { echo "check-desktop: skipped: $tool missing (./setup.sh test installs it)"; exit 77; }
done
id=io.github.scalelab.scalelab
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# Validated under their installed names (the validators check id = file name).
cp "$here/scalelab.desktop" "$tmp/$id.desktop"
cp "$here/scalelab.metainfo.xml" "$tmp/$id.metainfo.xml"
status=0
out=$(desktop-file-validate "$tmp/$id.desktop" 2>&1) || status=1
[ -z "$out" ] || { echo "desktop-file-validate:"; echo "$out"; status=1; }
out=$(appstreamcli validate --pedantic --no-net --no-color "$tmp/$id.metainfo.xml" 2>&1) || status=1
echo "$out"
[ "$out" = "✔ Validation was successful." ] || { echo "appstreamcli reports notes (above)"; status=1; }
grep -qx 'StartupWMClass=ScaleLab' "$here/scalelab.desktop" || { echo "StartupWMClass is not ScaleLab"; status=1; }
grep -q "setDesktopFileName(QStringLiteral(\"$id\"))" "$here/../app/GuiMain.cpp" \
  || { echo "GuiMain does not setDesktopFileName(\"$id\")"; status=1; }
for shot in $(grep -o 'resources/screenshots/[a-z-]*\.png' "$here/scalelab.metainfo.xml"); do
  [ -f "$here/../$shot" ] || { echo "metainfo screenshot $shot is not in the repository"; status=1; }
done
[ "$status" = 0 ] && echo "check-desktop: clean"
exit "$status"
