#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Every C++ file is as .clang-format writes it (the style was applied once, in
# its own commit). Lists the files that differ and exits 1; exit 77 (skip) when
# clang-format is not installed. Fix with: clang-format -i FILE
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null || { echo "clang-format not installed: skipped"; exit 77; }
if [ -d .git ] || git rev-parse --git-dir >/dev/null 2>&1; then
  list=$(git ls-files '*.cpp' '*.h')
else
  list=$(find app core ui tests -name '*.cpp' -o -name '*.h')
fi
bad=0
for f in $list; do
  if ! clang-format --dry-run -Werror "$f" >/dev/null 2>&1; then
    echo "not formatted: $f (clang-format -i $f)"
    bad=1
  fi
done
exit "$bad"
