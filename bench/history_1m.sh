#!/usr/bin/env bash
# Whole-process figures on a large history: ingest throughput (spool →
# SQLite, through `hookd history`, which ingests before it reads), then
# `hookd history -n 20`, `--failed -n 20` and text queries with hyperfine,
# the database size, and the agent's RSS idle and while ingesting.
#   bench/history_1m.sh [ROWS (default 1000000)]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROWS=${1:-1000000}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hookd-bench1m.XXXXXX")
(cd "$here/.." && go build -tags sqlite_fts5 -o "$tmp/hookd" ./cmd/hookd)
H=$tmp/home
mkdir -p "$H/.run" && chmod 700 "$H/.run"
export HOME=$H XDG_CONFIG_HOME=$H/.config XDG_DATA_HOME=$H/.local/share \
  XDG_STATE_HOME=$H/.local/state XDG_CACHE_HOME=$H/.cache XDG_RUNTIME_DIR=$H/.run
spool=$XDG_STATE_HOME/hookd/spool
python3 "$here/gen_spools.py" "$spool" "$ROWS" 10
echo "spool: $(du -sh --apparent-size "$spool" | cut -f1) for $ROWS records"
t0=$(date +%s.%N)
"$tmp/hookd" history -n 1 >/dev/null
t1=$(date +%s.%N)
python3 -c "import sys; r=$ROWS; d=$t1-$t0; print(f'ingest (whole process, {r} records): {d:.2f} s = {r/d:,.0f} records/s')"
db=$XDG_DATA_HOME/hookd/history.db
echo "database: $(du -b "$db" | cut -f1) bytes for $ROWS rows ($(python3 -c "print(round($(du -b "$db" | cut -f1)/$ROWS*1e6/2**20))") MiB per million)"
hyperfine -N --warmup 3 --runs 30 --export-json "$tmp/hyperfine.json" \
  "$tmp/hookd version" \
  "$tmp/hookd history -n 20" \
  "$tmp/hookd history --failed -n 20" \
  "$tmp/hookd history -n 20 make" \
  "$tmp/hookd history -n 20 no-such-text-anywhere" \
  "$tmp/hookd history -n 20 --cwd /home/user/src/project"
python3 - "$tmp/hyperfine.json" "$tmp/" <<'PY'
import json, sys
print("| command (whole process) | median ms | min ms | max ms |")
print("|---|---|---|---|")
for r in json.load(open(sys.argv[1]))["results"]:
    cmd = r["command"].replace(sys.argv[2], "")
    print(f"| `{cmd}` | {r['median']*1000:.1f} | {r['min']*1000:.1f} | {r['max']*1000:.1f} |")
PY

# Agent RSS: idle on this database, then while it ingests another 200,000.
"$tmp/hookd" daemon --detach
sleep 2
pid=$(cut -d' ' -f1 "$XDG_STATE_HOME/hookd/agent.pid")
echo "agent RSS idle: $(grep VmRSS /proc/"$pid"/status | awk '{print $2}') kB"
python3 "$here/gen_spools.py" "$tmp/more" 200000 4
peak=0
mv "$tmp"/more/*.spool "$spool"/
for _ in $(seq 100); do
  r=$(grep VmRSS /proc/"$pid"/status | awk '{print $2}')
  ((r > peak)) && peak=$r
  sleep 0.05
done
echo "agent RSS peak while ingesting 200,000 records: $peak kB; after: $(grep VmRSS /proc/"$pid"/status | awk '{print $2}') kB"
kill "$pid"
rm -rf "$tmp"
