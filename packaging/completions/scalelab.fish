# SPDX-License-Identifier: GPL-3.0-or-later
# fish completion for scalelab(1). Commands and options are read from
# scalelab's own --help, profile ids from `scalelab profiles` and run ids from
# `scalelab runs`, so this file needs no edit when commands change
# (`runs --all` completes from --help; hidden runs are not offered as ids).

function __scalelab_commands
    scalelab --help 2>/dev/null | awk '/^Commands:/ {on = 1; next} on && /^  [a-z]/ {n = $1; $1 = ""; sub(/^ +/, ""); print n "\t" $0} on && /^$/ {exit}'
end

function __scalelab_command
    for w in (commandline -opc)[2..-1]
        if not string match -q -- '-*' $w
            echo $w
            return 0
        end
    end
    return 1
end

function __scalelab_options
    set -l cmd (__scalelab_command); or return
    scalelab $cmd --help 2>/dev/null | grep -oE -- '(^|[][ ,|(])--?[a-zA-Z][a-zA-Z0-9-]*' | grep -oE -- '--?[a-zA-Z][a-zA-Z0-9-]*' | sort -u
end

function __scalelab_wants_run
    contains -- (__scalelab_command) cancel fetch
end

complete -c scalelab -f
complete -c scalelab -n 'not __scalelab_command' -a '(__scalelab_commands)'
complete -c scalelab -n 'not __scalelab_command' -l help -d 'print the commands'
complete -c scalelab -n 'not __scalelab_command' -l version -d 'print the version'
complete -c scalelab -n 'not __scalelab_command' -l screenshot -r -F -d 'save the window as PNG'
complete -c scalelab -n 'not __scalelab_command' -l place -x -a 'compose jobs results'
complete -c scalelab -n 'not __scalelab_command' -l spec -r -F
complete -c scalelab -n '__scalelab_command; and string match -q -- "-*" (commandline -ct)' -a '(__scalelab_options)'
complete -c scalelab -n '__fish_seen_subcommand_from lint' -l profile -x -a '(scalelab profiles 2>/dev/null | awk \'/^[^ ]/ {print $1}\')'
complete -c scalelab -n '__scalelab_wants_run' -a '(scalelab runs 2>/dev/null | awk \'$1 ~ /^[0-9]+$/ {print $1}\')'
complete -c scalelab -n '__fish_seen_subcommand_from render submit study lint report' -F
