# Floor of a file-spool design (fish): append one record per command using
# builtins only -- no fork, no exec. One open(O_APPEND)+write per prompt.
# Record: CMD_DURATION, exit code, cwd, command line (fish_postexec's argument).
# Spool file: $HB_SPOOL, else $BENCH_TMP/hb-spool.<pid> (set by hook_overhead.py).
set -g __hb_spool $BENCH_TMP/hb-spool.$fish_pid
set -q HB_SPOOL; and set __hb_spool $HB_SPOOL
function __hb_postexec --on-event fish_postexec
    set -l ec $status
    printf '%s\t%s\t%s\t%s\n' $CMD_DURATION $ec $PWD (string replace -a \n '\n' -- $argv[1]) >>$__hb_spool
end
