#!/usr/bin/env bash
# Whole-process figures on a large history: ingest throughput (spool →
# SQLite, through `hookd history`, which ingests before it reads), then
# `hookd history -n 20`, `--failed -n 20` and text queries with hyperfine,
# the database size, and the agent's RSS idle and while ingesting.
#   bench/history_1m.sh [ROWS (default 1000000)]
# With BASE=REV (a git revision), the same figures for that revision are
# measured in the same run, first, as the baseline.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROWS=${1:-1000000}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hookd-bench1m.XXXXXX")
trap 'rm -rf "$tmp"; [[ -z ${BASE-} ]] || git -C "$here/.." worktree remove --force "$tmp/base-src" 2>/dev/null || true' EXIT
(cd "$here/.." && go build -tags sqlite_fts5 -o "$tmp/hookd" ./cmd/hookd)
bins=("$tmp/hookd")
if [[ -n ${BASE-} ]]; then
  git -C "$here/.." worktree add -q --detach "$tmp/base-src" "$BASE"
  (cd "$tmp/base-src" && go build -tags sqlite_fts5 -o "$tmp/hookd-base" ./cmd/hookd)
  bins=("$tmp/hookd-base" "$tmp/hookd")
fi
python3 "$here/gen_spools.py" "$tmp/spool-template" "$ROWS" 10
python3 "$here/gen_spools.py" "$tmp/more-template" 200000 4
echo "spool: $(du -sh --apparent-size "$tmp/spool-template" | cut -f1) for $ROWS records"

for bin in "${bins[@]}"; do
  echo "## $(basename "$bin") ($("$bin" version))"
  H=$tmp/home-$(basename "$bin")
  mkdir -p "$H/.run" && chmod 700 "$H/.run"
  export HOME=$H XDG_CONFIG_HOME=$H/.config XDG_DATA_HOME=$H/.local/share \
    XDG_STATE_HOME=$H/.local/state XDG_CACHE_HOME=$H/.cache XDG_RUNTIME_DIR=$H/.run
  spool=$XDG_STATE_HOME/hookd/spool
  mkdir -p "$spool" && chmod 700 "$XDG_STATE_HOME/hookd" "$spool"
  cp "$tmp"/spool-template/*.spool "$spool"/
  t0=$(date +%s.%N)
  "$bin" history -n 1 >/dev/null
  t1=$(date +%s.%N)
  python3 -c "import sys; r=$ROWS; d=$t1-$t0; print(f'ingest (whole process, {r} records): {d:.2f} s = {r/d:,.0f} records/s')"
  db=$XDG_DATA_HOME/hookd/history.db
  echo "database: $(du -b "$db" | cut -f1) bytes for $ROWS rows ($(python3 -c "print(round($(du -b "$db" | cut -f1)/$ROWS*1e6/2**20))") MiB per million)"
  hyperfine -N --warmup 3 --runs 30 --export-json "$tmp/hyperfine.json" \
    "$bin version" \
    "$bin history -n 20" \
    "$bin history --failed -n 20" \
    "$bin history -n 20 make" \
    "$bin history -n 20 no-such-text-anywhere" \
    "$bin history -n 20 --cwd /home/user/src/project" >/dev/null
  python3 - "$tmp/hyperfine.json" "$tmp/" <<'PY'
import json, sys
print("| command (whole process) | median ms | min ms | max ms |")
print("|---|---|---|---|")
for r in json.load(open(sys.argv[1]))["results"]:
    cmd = r["command"].replace(sys.argv[2], "")
    print(f"| `{cmd}` | {r['median']*1000:.1f} | {r['min']*1000:.1f} | {r['max']*1000:.1f} |")
PY

  # Agent RSS: idle on this database, then while it ingests another 200,000.
  "$bin" daemon --detach
  sleep 2
  pid=$(cut -d' ' -f1 "$XDG_STATE_HOME/hookd/agent.pid")
  echo "agent RSS idle: $(grep VmRSS /proc/"$pid"/status | awk '{print $2}') kB"
  peak=0
  cp "$tmp"/more-template/*.spool "$spool"/
  for _ in $(seq 100); do
    r=$(grep VmRSS /proc/"$pid"/status | awk '{print $2}')
    ((r > peak)) && peak=$r
    sleep 0.05
  done
  echo "agent RSS peak while ingesting 200,000 records: $peak kB; after: $(grep VmRSS /proc/"$pid"/status | awk '{print $2}') kB"
  kill "$pid"
  rm -rf "$H"
done
