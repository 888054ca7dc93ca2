# SPDX-License-Identifier: GPL-3.0-or-later
# bash completion for scalelab(1).
# Nothing is listed here by hand: commands come from `scalelab --help`, each
# command's options from `scalelab COMMAND --help`, profile ids from
# `scalelab profiles` and run ids from `scalelab runs` (first column), so a
# new command or option (`runs --all` too) completes without editing this
# file. Hidden runs are not offered: `runs` leaves them out without --all.

_scalelab_commands() {
    "$1" --help 2>/dev/null | awk '/^Commands:/ {on = 1; next} on && /^  [a-z]/ {print $1} on && /^$/ {exit}'
}

_scalelab_options() {
    "$1" "$2" --help 2>/dev/null | grep -oE -- '(^|[][ ,|(])--?[a-zA-Z][a-zA-Z0-9-]*' | grep -oE -- '--?[a-zA-Z][a-zA-Z0-9-]*' | sort -u
}

_scalelab() {
    local cur prev prog cmd i
    COMPREPLY=()
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    prog=${COMP_WORDS[0]}
    cmd=
    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in -*) ;; *) cmd=${COMP_WORDS[i]}; break ;; esac
    done
    case $prev in
        --profile)
            COMPREPLY=($(compgen -W "$("$prog" profiles 2>/dev/null | awk '/^[^ ]/ {print $1}')" -- "$cur"))
            return ;;
        --place)
            COMPREPLY=($(compgen -W "compose jobs results" -- "$cur")); return ;;
        --ssh-config|--spec|--screenshot|-o|--output)
            COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --connection|--gpus|--name|--size|--batch-size|--repeats)
            return ;;
    esac
    if [[ -z $cmd ]]; then
        if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W "--help --version --screenshot --place --spec --size --dark" -- "$cur"))
        else
            COMPREPLY=($(compgen -W "$(_scalelab_commands "$prog") help" -- "$cur"))
        fi
        return
    fi
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(_scalelab_options "$prog" "$cmd")" -- "$cur"))
        return
    fi
    case $cmd in
        cancel|fetch)
            COMPREPLY=($(compgen -W "$("$prog" runs 2>/dev/null | awk '$1 ~ /^[0-9]+$/ {print $1}')" -- "$cur")) ;;
        help)
            COMPREPLY=($(compgen -W "$(_scalelab_commands "$prog")" -- "$cur")) ;;
        profiles|status|runs) ;;
        *)
            COMPREPLY=($(compgen -f -- "$cur")) ;;
    esac
}
complete -o filenames -F _scalelab scalelab
