#!/usr/bin/env bash
# bench/hook_instructions.sh for zsh: instructions per command that zsh's
# hooks cost, counted by valgrind's callgrind. zsh -i reads `: N` lines from
# a pipe (precmd and preexec still run) with an empty .zshrc ("null"), the
# builtin-only floor of bench/harness ("spool") and hookd's code (agent
# running); a command costs (instructions over 2200 lines - over 200) / 2000.
#   bench/hook_instructions_zsh.sh [ZSHRC...]   (extra rc files are counted too)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hookd-zinstr.XXXXXX")
(cd "$here/.." && go build -tags sqlite_fts5 -o "$tmp/hookd" ./cmd/hookd)
H=$tmp/home
mkdir -p "$H/.run" && chmod 700 "$H/.run"
env=(HOME="$H" XDG_CONFIG_HOME="$H/.config" XDG_DATA_HOME="$H/.local/share"
  XDG_STATE_HOME="$H/.local/state" XDG_CACHE_HOME="$H/.cache" XDG_RUNTIME_DIR="$H/.run" HOOKD_CAPTURE=off)
env "${env[@]}" "$tmp/hookd" daemon --detach
trap 'env "${env[@]}" bash -c "kill \$(cut -d\" \" -f1 \$XDG_STATE_HOME/hookd/agent.pid)" 2>/dev/null; true' EXIT
: >"$tmp/null.zsh"
{ echo "HB_SPOOL=$tmp/floor.spool"; cat "$here/harness/rc/spool.zsh"; } >"$tmp/spool.zsh"
env "${env[@]}" "$tmp/hookd" init zsh >"$tmp/hookd.zsh"
for ((i = 1; i <= 2200; i++)); do echo ": c$i"; done >"$tmp/lines"
count() { # count RC N: instructions of the shell itself (the last process to end)
  mkdir -p "$tmp/zd" && cp "$1" "$tmp/zd/.zshrc"
  env "${env[@]}" ZDOTDIR="$tmp/zd" valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.%p.out" \
    zsh -i < <(head -n "$2" "$tmp/lines") 2>&1 >/dev/null |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p' | tail -1
}
for rc in "$tmp/null.zsh" "$tmp/spool.zsh" "$tmp/hookd.zsh" "$@"; do
  a=$(count "$rc" 200) b=$(count "$rc" 2200)
  printf '%-12s %8d instructions per command\n' "$(basename "$rc" .zsh)" $(((b - a) / 2000))
done
rm -f "$tmp"/cg.*.out
echo "scratch: $tmp"
