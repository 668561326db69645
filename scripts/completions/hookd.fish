# fish completion for hookd, installed by the packages
# (/usr/share/fish/vendor_completions.d/hookd.fish), which fish loads the
# first time it completes hookd. hookd itself says what fits: `hookd
# __complete -- WORD…` prints one candidate a line (a tab and a description
# after it), or :files for file names. In a shell that ran `hookd init
# fish`, its own completion (the same, through the binary it names) is
# kept and this one adds nothing.
functions -q _hookd_complete; and return 0
function __hookd_packaged_complete
    set -l w (commandline -opc)[2..] (commandline -ct)
    set -l out (command hookd __complete -- $w 2>/dev/null)
    if test "$out[1]" = :files
        __fish_complete_path (commandline -ct)
        return
    end
    printf '%s\n' $out
end
complete -c hookd -f -a '(__hookd_packaged_complete)'
