#!/usr/bin/env bash
# Per-command cost of output capture, split in two, with bench/harness's
# hook_overhead.py: the shell is started as `hookd shell -- SHELL ARGS`
# (through --shell-path, a two-line wrapper), so the harness's own rc file is
# the one the shell under the proxy reads. (bench/hook_overhead.sh -c pty
# instead lets the hook re-execute the shell under the proxy; for bash that
# loses the harness's --rcfile, see docs/benchmarks.md.)
#   bench/capture_prompt.sh [-n 2000] [-r 3] [-s "bash zsh"]
# Three harness runs per shell, one after the other (not interleaved with
# each other; each is interleaved with its own baseline):
#   direct-null  no proxy, empty snippet            -> us/cmd of the bare shell
#   proxy-null   under the proxy, empty snippet     -> us/cmd with the extra pty
#                                                      hop alone (no marks, nothing stored)
#   proxy-hookd  under the proxy, hookd's hooks vs no hooks: marks printed, every
#                command's output (empty here) stored through the outbox; the
#                overhead line is the hooks' cost on top of the hop
# The CPU columns under the proxy are hookd's own CPU (the shell below it is
# not reaped during the loop).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
harness=$here/harness
N=2000 REPS=3 SHELLS="bash zsh"
while getopts "n:r:s:" o; do
  case $o in n) N=$OPTARG ;; r) REPS=$OPTARG ;; s) SHELLS=$OPTARG ;; *) exit 2 ;; esac
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/hookd-capprompt.XXXXXX")
(cd "$here/.." && go build -tags sqlite_fts5 -o "$tmp/hookd" ./cmd/hookd)
H=$tmp/home
mkdir -p "$H/.run" "$H/.config/hookd" && chmod 700 "$H/.run"
echo "capture: pty" >"$H/.config/hookd/config.yaml"
env=(HOME="$H" XDG_CONFIG_HOME="$H/.config" XDG_DATA_HOME="$H/.local/share"
  XDG_STATE_HOME="$H/.local/state" XDG_CACHE_HOME="$H/.cache" XDG_RUNTIME_DIR="$H/.run")
env "${env[@]}" "$tmp/hookd" daemon --detach
trap 'env "${env[@]}" bash -c "kill \$(cut -d\" \" -f1 \$XDG_STATE_HOME/hookd/agent.pid)" 2>/dev/null; true' EXIT
echo "# capture_prompt: n=$N reps=$REPS shells='$SHELLS' cpus=$(nproc) kernel=$(uname -r) out=$tmp"
for sh in $SHELLS; do
  path=$(command -v "$sh")
  printf '#!/bin/sh\nexec %q shell -- %q "$@"\n' "$tmp/hookd" "$path" >"$tmp/proxied-$sh"
  chmod +x "$tmp/proxied-$sh"
  common=(--shell "$sh" -n "$N" --reps "$REPS" --home "$H" --env "HOOKD=$tmp/hookd")
  for v in direct-null proxy-null proxy-hookd; do
    args=("${common[@]}" --label "$v" --json "$tmp/$sh.$v.json")
    case $v in
      direct-null) args+=(--rc "$harness/rc/null.sh") ;;
      proxy-null) args+=(--rc "$harness/rc/null.sh" --shell-path "$tmp/proxied-$sh") ;;
      proxy-hookd) args+=(--rc "$harness/rc/hookd.$sh" --shell-path "$tmp/proxied-$sh") ;;
    esac
    echo "== $sh $v"
    python3 "$harness/hook_overhead.py" "${args[@]}" >"$tmp/$sh.$v.log" 2>&1 ||
      { echo "   FAILED, see $tmp/$sh.$v.log"; continue; }
    grep -A3 '^# summary over reps' "$tmp/$sh.$v.log" | sed 's/^/   /'
    tail -1 "$tmp/$sh.$v.log" | sed 's/^/   /'
  done
done
echo "rows recorded by hookd: $(env "${env[@]}" "$tmp/hookd" history --json | wc -l)"
