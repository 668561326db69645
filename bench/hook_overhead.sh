#!/usr/bin/env bash
# Per-command hook overhead of hookd in a real interactive bash and zsh, next
# to the builtin-only floor (`printf >> file`, the "spool" variant) and no
# hook at all, measured in the same run by bench/harness.
#   bench/hook_overhead.sh [-n 2000] [-r 5] [-s "bash zsh"] [-c off|pty]
# -c: output capture (default off: the recording path alone; pty: the shell
# runs under hookd shell, the proxy, and the hooks print the output marks).
# -v: the harness's variants (default "null spool hookd"; "hookd@paced" pauses
# between commands, so that work done after the prompt is not counted).
# Prints the harness's summary table; the raw JSON stays in the output dir.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
harness=$here/harness
N=2000 REPS=5 SHELLS="bash zsh" CAPTURE=off VARIANTS="null spool hookd"
while getopts "n:r:s:c:v:" o; do
  case $o in
    n) N=$OPTARG ;; r) REPS=$OPTARG ;; s) SHELLS=$OPTARG ;; c) CAPTURE=$OPTARG ;; v) VARIANTS=$OPTARG ;; *) exit 2 ;;
  esac
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/hookd-bench.XXXXXX")
(cd "$here/.." && go build -tags sqlite_fts5 -o "$tmp/hookd" ./cmd/hookd)
H=$tmp/home
mkdir -p "$H/.run" "$H/.config/hookd" && chmod 700 "$H/.run"
echo "capture: $CAPTURE" >"$H/.config/hookd/config.yaml"
env=(HOME="$H" XDG_CONFIG_HOME="$H/.config" XDG_DATA_HOME="$H/.local/share"
  XDG_STATE_HOME="$H/.local/state" XDG_CACHE_HOME="$H/.cache" XDG_RUNTIME_DIR="$H/.run")
env "${env[@]}" "$tmp/hookd" daemon --detach
trap 'env "${env[@]}" bash -c "kill \$(cut -d\" \" -f1 \$XDG_STATE_HOME/hookd/agent.pid)" 2>/dev/null; true' EXIT
tools=$("$harness/build_tools.sh" "$tmp/tools" 2>/dev/null | tail -1)
HOOKD="$tmp/hookd" HOOKD_HOME="$H" "$harness/run_hook_baselines.sh" -t "$tools" -n "$N" -r "$REPS" \
  -s "$SHELLS" -v "$VARIANTS" -o "$tmp/out"
echo "rows recorded by hookd: $(env "${env[@]}" "$tmp/hookd" history --json | wc -l)"
echo "raw results: $tmp/out"
