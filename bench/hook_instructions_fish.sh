#!/usr/bin/env bash
# shellcheck disable=SC2016 # the single-quoted $ are fish code, expanded by fish
# bench/hook_instructions.sh for fish: instructions per command that fish's
# hooks cost, counted by valgrind's callgrind. fish reads no command from a
# pipe interactively (its event handlers then never run), so the handlers
# are called in a loop inside one fish -i -c, as fish calls them after each
# command: no handler ("null", the loop alone), the builtin-only floor of
# bench/harness ("spool": one printf to a spool file, fish_postexec) and
# hookd's code (hookd init fish, agent running, capture off); a command
# costs (instructions over 2200 calls - over 200) / 2000.
#   bench/hook_instructions_fish.sh
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hookd-finstr.XXXXXX")
(cd "$here/.." && go build -tags sqlite_fts5 -o "$tmp/hookd" ./cmd/hookd)
H=$tmp/home
mkdir -p "$H/.run" "$H/.local/share/fish/generated_completions" "$H/.config/fish" && chmod 700 "$H/.run"
printf '# VERSION: 3.0\nSETUVAR __fish_initialized:3400\n' >"$H/.config/fish/fish_variables"
env=(HOME="$H" XDG_CONFIG_HOME="$H/.config" XDG_DATA_HOME="$H/.local/share"
  XDG_STATE_HOME="$H/.local/state" XDG_CACHE_HOME="$H/.cache" XDG_RUNTIME_DIR="$H/.run" HOOKD_CAPTURE=off)
env "${env[@]}" "$tmp/hookd" daemon --detach
trap 'env "${env[@]}" bash -c "kill \$(cut -d\" \" -f1 \$XDG_STATE_HOME/hookd/agent.pid)" 2>/dev/null; true' EXIT
env "${env[@]}" "$tmp/hookd" init fish >"$tmp/hookd.fish"
# Each rc defines `hook`, what fish runs after a command (its argument, the
# command line).
echo 'function hook; end' >"$tmp/null.fish"
{ echo "set -g HB_SPOOL $tmp/floor.spool"; cat "$here/harness/rc/spool.fish"; echo 'function hook; __hb_postexec $argv; end'; } >"$tmp/spool.fish"
{ cat "$tmp/hookd.fish"; echo 'function hook; _hookd_postexec $argv; end'; } >"$tmp/hookd.fish.rc"
count() { # count RC N: instructions of fish calling hook N times
  env "${env[@]}" valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.%p.out" \
    fish -i -c "source $1; set -l i 0; for i in (seq $2); hook \": c\$i\"; end" 2>&1 >/dev/null |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p' | head -1
}
for rc in "$tmp/null.fish" "$tmp/spool.fish" "$tmp/hookd.fish.rc"; do
  a=$(count "$rc" 200) b=$(count "$rc" 2200)
  printf '%-12s %8d instructions per command\n' "$(basename "${rc%.rc}" .fish)" $(((b - a) / 2000))
done
echo "fish $(fish -c 'echo $version'); records written by hookd's code: $(cat "$H"/.local/state/hookd/spool/*.spool 2>/dev/null | tr -cd '\0' | wc -c) NUL-ended fields (not ingested: the agent may have taken some)"
