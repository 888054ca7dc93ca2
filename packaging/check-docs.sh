#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The man page and the shell completions follow the program: every command
# of `scalelab --help` is in scalelab(1), bash completes the commands, a
# command's options, profile ids and run ids, and the zsh and fish files parse.
# Usage: packaging/check-docs.sh PATH/TO/scalelab
set -euo pipefail
bin=$(cd "$(dirname "${1:?usage: $0 PATH/TO/scalelab}")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
status=0
bad() { echo "check-docs: $*"; status=1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp XDG_DATA_HOME= XDG_CONFIG_HOME= SCALELAB_DATA_DIR=$tmp/data SCALELAB_SETTINGS_FILE=$tmp/settings.ini
mkdir -p "$tmp/bin"; ln -s "$bin" "$tmp/bin/scalelab"; export PATH="$tmp/bin:$PATH"

commands=$(scalelab --help | awk '/^Commands:/ {on = 1; next} on && /^  [a-z]/ {print $1} on && /^$/ {exit}' | sort)
[ -n "$commands" ] || bad "no commands found in scalelab --help"
# `help` is offered by the completions beside the commands; compared without it.
completable=$(echo "$commands" | grep -vx help)
for c in $commands; do
  grep -q "^\.B $c\b" "$here/scalelab.1" || bad "scalelab(1) has no entry for the command $c"
done
man --warnings -l "$here/scalelab.1" >/dev/null 2>"$tmp/man.err" || true
[ ! -s "$tmp/man.err" ] || { cat "$tmp/man.err"; bad "man reports problems in scalelab.1"; }

complete_bash() {  # words of a command line, the last one being completed
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _scalelab; printf "%s\n" "${COMPREPLY[@]}" | sort' \
    _ "$here/completions/scalelab.bash" "$@"
}
got=$(complete_bash scalelab "" | grep -vx help)
[ "$got" = "$completable" ] || bad "bash completes the commands as [$(echo $got)], expected [$(echo $completable)]"
got=$(complete_bash scalelab study --g)
[ "$got" = "--gpus" ] || bad "bash completes 'study --g' as [$got], expected --gpus"
profiles=$(scalelab profiles | awk '/^[^ ]/ {print $1}' | sort)
got=$(complete_bash scalelab lint job.sh --profile "")
[ "$got" = "$profiles" ] || bad "bash completes profile ids as [$(echo $got)], expected [$(echo $profiles)]"
got=$(complete_bash scalelab lint job.sh --profile pu)
[ "$got" = "puhti" ] || bad "bash completes '--profile pu' as [$got], expected puhti"
# Run ids: the first column of `scalelab runs` (an empty store gives none).
got=$(complete_bash scalelab cancel "")
runs=$(scalelab runs | awk '$1 ~ /^[0-9]+$/ {print $1}' | sort)
[ "$got" = "$runs" ] || bad "bash completes run ids as [$got], expected [$runs]"
if command -v zsh >/dev/null; then zsh -n "$here/completions/_scalelab" || bad "zsh completion does not parse"; fi
if command -v fish >/dev/null; then
  fish -n "$here/completions/scalelab.fish" || bad "fish completion does not parse"
  got=$(fish -c "source $here/completions/scalelab.fish; complete -C 'scalelab '" | cut -f1 | sort | grep -vx help || true)
  [ "$got" = "$completable" ] || bad "fish completes the commands as [$(echo $got)], expected [$(echo $completable)]"
fi
[ "$status" = 0 ] && echo "check-docs: man page and completions follow $(echo $commands | wc -w) commands"
exit "$status"
