#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Every source file names its licence in its first lines (SPDX). Without an
# argument, adds the line to files that lack it; --check only lists them
# (exit 1 when any does; the package_spdx test runs this).
# C++ sources: "// SPDX-...", CMake, shell and Python: "# SPDX-..." (after a #! line).
set -euo pipefail
cd "$(dirname "$0")/.."
check=${1:-}
line='SPDX-License-Identifier: GPL-3.0-or-later'
missing=0
while IFS= read -r f; do
  head -5 "$f" | grep -q 'SPDX-License-Identifier:' && continue
  missing=$((missing + 1))
  if [ "$check" = --check ]; then echo "no SPDX line: $f"; continue; fi
  case $f in
    *.cpp|*.h) { echo "// $line"; cat "$f"; } >"$f.spdx" ;;
    *)
      if head -1 "$f" | grep -q '^#!'; then { head -1 "$f"; echo "# $line"; tail -n +2 "$f"; } >"$f.spdx"
      else { echo "# $line"; cat "$f"; } >"$f.spdx"; fi ;;
  esac
  chmod --reference="$f" "$f.spdx"; mv "$f.spdx" "$f"
done < <(git ls-files -- '*.cpp' '*.h' '*.cmake' '*.sh' 'CMakeLists.txt' '*/CMakeLists.txt' \
           '*.py' 'tests/cluster/testcluster' '.ci/run' | grep -v '^tests/data/')
if [ "$check" = --check ]; then
  [ "$missing" = 0 ] && echo "spdx: every source file has its SPDX line"
  [ "$missing" = 0 ]
else
  echo "spdx: added the line to $missing files"
fi
