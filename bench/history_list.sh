#!/usr/bin/env bash
# `hookd history` listing a whole generated history to a pipe (issue 32):
# wall time, CPU time and the database reads (pread64, from strace -c) per
# row, for this checkout and, with BASE=REV, for that revision measured in
# the same run, on the same database. The histories come from
# bench/searchgen (about 1 KB of output per command) and are kept in $DIR
# for the next run:
#   bench/history_list.sh [ROWS…]        # default: 100000 1000000
#   BASE=main bench/history_list.sh 100000
# STRACE=0 leaves out the count of reads (strace makes the old listing of
# a million rows take many minutes).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$here/..
DIR=${DIR:-${TMPDIR:-/tmp}/hookd-history-bench}
RUNS=${RUNS:-5}
sizes=("$@")
((${#sizes[@]})) || sizes=(100000 1000000)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hookd-historylist.XXXXXX")
trap 'rm -rf "$tmp"; [[ -z ${BASE-} ]] || git -C "$root" worktree remove --force "$tmp/base-src" 2>/dev/null || true' EXIT
(cd "$root" && go build -tags sqlite_fts5 -o "$tmp/hookd" ./cmd/hookd && go build -tags sqlite_fts5 -o "$tmp/searchgen" ./bench/searchgen)
bins=("$tmp/hookd")
if [[ -n ${BASE-} ]]; then
  git -C "$root" worktree add -q --detach "$tmp/base-src" "$BASE"
  (cd "$tmp/base-src" && go build -tags sqlite_fts5 -o "$tmp/hookd-base" ./cmd/hookd)
  bins=("$tmp/hookd-base" "$tmp/hookd")
fi
mkdir -p "$DIR"
for n in "${sizes[@]}"; do
  db=$DIR/h$n.db
  if [[ ! -e $db ]]; then
    echo "generating $db ($n commands, ~1 KB of output each)…"
    "$tmp/searchgen" -db "$db" -n "$n" -output "$((n / 1000))M"
  fi
  H=$tmp/home
  rm -rf "$H" && mkdir -p "$H/.run" "$H/.local/share/hookd" && chmod 700 "$H/.run" "$H/.local/share/hookd"
  export HOME=$H XDG_CONFIG_HOME=$H/.config XDG_DATA_HOME=$H/.local/share \
    XDG_STATE_HOME=$H/.local/state XDG_CACHE_HOME=$H/.cache XDG_RUNTIME_DIR=$H/.run
  ln -s "$db" "$H/.local/share/hookd/history.db"
  echo "## $n commands ($(du -h "$db" | cut -f1) database), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "| binary | median wall s | median CPU s (user+sys) | pread64 per row |"
  echo "|---|---|---|---|"
  for bin in "${bins[@]}"; do
    "$bin" history | wc -l >/dev/null # warm the page cache
    walls=() cpus=()
    for _ in $(seq "$RUNS"); do
      /usr/bin/time -f '%e %U %S' -o "$tmp/t" sh -c "\"$bin\" history | cat >/dev/null"
      read -r w u s <"$tmp/t"
      walls+=("$w") cpus+=("$(echo "$u + $s" | bc)")
    done
    reads=
    if [[ ${STRACE-1} != 0 ]]; then
      reads=$(strace -f -c -e trace=pread64 -o "$tmp/s" "$bin" history >/dev/null 2>&1; awk '$NF == "pread64" {print $4}' "$tmp/s")
    fi
    med() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
    echo "| $(basename "$bin") | $(med "${walls[@]}") | $(med "${cpus[@]}") | ${reads:+$(echo "scale=1; $reads / $n" | bc)} |"
  done
done
