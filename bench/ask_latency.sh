#!/usr/bin/env bash
# Whole-process latency of the ask path on a large history: `hookd ask
# --dry-run 'why !!ctx'` (everything from Enter to the request leaving
# hookd — history lookup, the 1 MiB captured output, redaction, the budget,
# the request built — plus printing it, as an upper bound), `hookd ctx -1`,
# and `hookd version` (process start alone), with hyperfine.
#   bench/ask_latency.sh [ROWS (default 1000000)]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROWS=${1:-1000000}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hookd-benchask.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
(cd "$here/.." && go build -tags sqlite_fts5 -o "$tmp/hookd" ./cmd/hookd)
H=$tmp/home
mkdir -p "$H/.run" && chmod 700 "$H/.run"
export HOME=$H XDG_CONFIG_HOME=$H/.config XDG_DATA_HOME=$H/.local/share \
  XDG_STATE_HOME=$H/.local/state XDG_CACHE_HOME=$H/.cache XDG_RUNTIME_DIR=$H/.run
python3 "$here/gen_spools.py" "$XDG_STATE_HOME/hookd/spool" "$ROWS" 10
"$tmp/hookd" history -n 1 >/dev/null # ingest
# The last command of one session gets a 1 MiB captured output (a build
# log with errors in it), through the outbox, as the proxy hands it over.
read -r session seq < <("$tmp/hookd" history -n 1 --json | python3 -c 'import json,sys; e=json.loads(sys.stdin.readline()); print(e["session"], e["seq"])')
python3 - "$XDG_STATE_HOME/hookd/outputs" "$session" "$seq" <<'PY'
import json, os, sys
d, session, seq = sys.argv[1], sys.argv[2], int(sys.argv[3])
os.makedirs(d, mode=0o700, exist_ok=True)
lines, n = [], 0
while n < (1 << 20) - 200:
    i = len(lines)
    l = f"src/pkg{i % 40}/file{i}.go:{i % 300}:{i % 80}: " + ("error: undefined: thing%d" % i if i % 97 == 0 else "compiling ok, nothing to see here") + "\n"
    lines.append(l); n += len(l)
raw = "".join(lines).encode()
hdr = json.dumps({"session": session, "seq": seq, "status": 2, "size": len(raw), "time": 1_800_000_000_000_000})
open(os.path.join(d, f"{session}.{seq}.term.out"), "wb").write(hdr.encode() + b"\n" + raw)
PY
"$tmp/hookd" history -n 1 >/dev/null # ingest the output
echo "output stored: $("$tmp/hookd" out -1 2>/dev/null | wc -c || true) bytes (HOOKD_SESSION=$session)"
export HOOKD_SESSION=$session HOOKD_LLM_PROVIDER=openai HOOKD_LLM_BASE_URL=http://127.0.0.1:9/v1 HOOKD_LLM_API_KEY=bench
"$tmp/hookd" ask --dry-run 'why !!ctx' | tail -c 300
hyperfine -N --warmup 3 --runs 30 --export-json "$tmp/h.json" \
  "$tmp/hookd version" \
  "$tmp/hookd ask --dry-run 'why !!ctx'" \
  "$tmp/hookd ctx -1" >/dev/null
python3 - "$tmp/h.json" "$tmp/" <<'PY'
import json, sys
print("| command (whole process) | median ms | min ms | max ms |")
print("|---|---|---|---|")
for r in json.load(open(sys.argv[1]))["results"]:
    cmd = r["command"].replace(sys.argv[2], "")
    print(f"| `{cmd}` | {r['median']*1000:.1f} | {r['min']*1000:.1f} | {r['max']*1000:.1f} |")
PY
