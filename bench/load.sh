#!/usr/bin/env bash
# Run a command while busy loops keep every core loaded, as a shared CI
# machine or a laptop compiling in the background would: the way to check
# that the test suite does not depend on having the machine to itself.
#   bench/load.sh [-n LOOPS] [--] COMMAND [ARG...]
# -n: how many busy loops (default: one per core, `nproc`).
# The loops run at the same priority as the command (not niced: they are
# meant to compete for the cores) and are killed when the command ends, or
# when this script is interrupted. The command's exit status is the script's;
# its wall time and the load are reported on stderr at the end.
# Examples:
#   bench/load.sh go test -tags sqlite_fts5 -count=1 ./...
#   bench/load.sh -n 4 go test -tags sqlite_fts5 -count=3 -run TestCapture ./cmd/hookd
#   bench/load.sh .ci/run
set -uo pipefail
loops=$(nproc 2>/dev/null || echo 2)
while getopts "n:h" o; do
  case $o in
    n) loops=$OPTARG ;;
    h) sed -n '2,14s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
if (($# == 0)); then
  echo "usage: bench/load.sh [-n LOOPS] [--] COMMAND [ARG...]" >&2
  exit 2
fi
if ! [[ $loops =~ ^[0-9]+$ ]]; then
  echo "load.sh: -n wants a number of loops, not $loops" >&2
  exit 2
fi

pids=()
stop() {
  ((${#pids[@]})) && kill "${pids[@]}" 2>/dev/null
  wait "${pids[@]}" 2>/dev/null
  pids=()
}
trap stop EXIT
trap 'stop; exit 130' INT
trap 'stop; exit 143' TERM

for ((i = 0; i < loops; i++)); do
  # A subshell spinning on a builtin: 100% of a core, no forks, no I/O.
  (trap - INT TERM EXIT; while :; do :; done) &
  pids+=($!)
done

start=$EPOCHREALTIME
"$@"
status=$?
end=$EPOCHREALTIME
load=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)
stop
us=$((${end//[.,]/} - ${start//[.,]/})) # EPOCHREALTIME has six decimals
printf 'load.sh: %s: exit %d after %d.%ds with %d busy loops (load average %s)\n' \
  "$*" "$status" $((us / 1000000)) $((us % 1000000 / 100000)) "$loops" "$load" >&2
exit "$status"
