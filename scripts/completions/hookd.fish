# fish completion for hookd, installed by the packages
# (/usr/share/fish/vendor_completions.d/hookd.fish), loaded by fish when
# hookd is first completed. hookd itself says what fits: `hookd __complete
# -- WORD…` prints one candidate a line (a tab and a description after it,
# as fish reads them), or :files for file names. The shell code of `hookd
# init fish` completes the same way.
function __hookd_packaged_complete
    set -l w (commandline -opc)
    set -l out (command $w[1] __complete -- $w[2..] (commandline -ct) 2>/dev/null)
    if test "$out[1]" = :files
        __fish_complete_path (commandline -ct)
        return
    end
    printf '%s\n' $out
end
complete -c hookd -f -a '(__hookd_packaged_complete)'
