#!/usr/bin/env bash
# `hookd stats --by command --since 1y` as a whole process on a generated
# history (issue 34, docs/benchmarks.md §22): wall, user and system time
# of each run, and the median wall time. The history comes from
# bench/searchgen (1,000,000 commands, 1 GB of output by default) and is
# kept in $DIR for the next run; the first run of hookd on it migrates it
# (the stats index: a few seconds), which is not timed.
#   bench/stats.sh [ARGS…]     # default ARGS: --by command --since 1y
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$here/..
DIR=${DIR:-${TMPDIR:-/tmp}/hookd-stats-bench}
N=${N:-1000000}
RUNS=${RUNS:-7}
args=("$@")
((${#args[@]})) || args=(--by command --since 1y)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hookd-stats.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
(cd "$root" && go build -tags sqlite_fts5 -o "$tmp/hookd" ./cmd/hookd && go build -tags sqlite_fts5 -o "$tmp/searchgen" ./bench/searchgen)
mkdir -p "$DIR/data/hookd" "$DIR/run"
chmod 700 "$DIR/run"
db=$DIR/data/hookd/history.db
[[ -e $db ]] || "$tmp/searchgen" -db "$db" -n "$N" -output 1G
export HOME=$DIR XDG_DATA_HOME=$DIR/data XDG_STATE_HOME=$DIR/state XDG_CONFIG_HOME=$DIR/config XDG_RUNTIME_DIR=$DIR/run
"$tmp/hookd" stats "${args[@]}" >/dev/null # migrates, warms the page cache
rm -f "$db".schema*.bak
for ((i = 0; i < RUNS; i++)); do
  /usr/bin/time -f '%e %U %S' -a -o "$tmp/times" "$tmp/hookd" stats "${args[@]}" >/dev/null
done
echo "hookd stats ${args[*]} on $N commands, $RUNS runs (wall user sys, s):"
cat "$tmp/times"
sort -n "$tmp/times" | awk '{w[NR] = $1} END {print "median wall: " w[int((NR + 1) / 2)] " s"}'
