#!/usr/bin/env bash
# Instructions per command that bash's hook costs, counted by valgrind's
# callgrind: deterministic where hook_overhead.sh's times are noisy. bash -i
# reads `: N` lines from a pipe (no terminal: PS0 and PROMPT_COMMAND still
# run) with an empty rc ("null"), the builtin-only floor of
# bench/harness ("spool") and hookd's script (agent running); a command
# costs (instructions over 2200 lines - over 200) / 2000.
#   bench/hook_instructions.sh [RCFILE...]   (extra rc files are counted too)
# Needs valgrind. Forked children (the init's subshells) are not counted.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
harness=$here/harness
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hookd-instr.XXXXXX")
(cd "$here/.." && go build -tags sqlite_fts5 -o "$tmp/hookd" ./cmd/hookd)
H=$tmp/home
mkdir -p "$H/.run" && chmod 700 "$H/.run"
env=(HOME="$H" XDG_CONFIG_HOME="$H/.config" XDG_DATA_HOME="$H/.local/share"
  XDG_STATE_HOME="$H/.local/state" XDG_CACHE_HOME="$H/.cache" XDG_RUNTIME_DIR="$H/.run" HOOKD_CAPTURE=off)
env "${env[@]}" "$tmp/hookd" daemon --detach
trap 'env "${env[@]}" bash -c "kill \$(cut -d\" \" -f1 \$XDG_STATE_HOME/hookd/agent.pid)" 2>/dev/null; true' EXIT
: >"$tmp/null.rc"
{ echo "HB_SPOOL=$tmp/floor.spool"; cat "$harness/rc/spool.bash"; } >"$tmp/spool.rc"
env "${env[@]}" "$tmp/hookd" init bash >"$tmp/hookd.rc"
for ((i = 1; i <= 2200; i++)); do echo ": c$i"; done >"$tmp/lines"
count() { # count RC N: instructions of the shell itself (the last process to end)
  env "${env[@]}" valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.%p.out" \
    bash --noprofile --rcfile "$1" -i < <(head -n "$2" "$tmp/lines") 2>&1 >/dev/null |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p' | tail -1
}
for rc in "$tmp/null.rc" "$tmp/spool.rc" "$tmp/hookd.rc" "$@"; do
  a=$(count "$rc" 200) b=$(count "$rc" 2200)
  printf '%-12s %8d instructions per command\n' "$(basename "$rc" .rc)" $(((b - a) / 2000))
done
rm -f "$tmp"/cg.*.out
echo "scratch: $tmp"
