#!/usr/bin/env bash
# What hookd adds to starting a new shell, as a person feels it: a real bash,
# zsh or fish is spawned on a pseudo-terminal, and the time is taken to its first
# prompt on the screen and to the output of the first command typed the
# moment that prompt appears. Each variant runs -n times (default 20),
# alternating with the others in the same run, in a scratch HOME with the
# agent running:
#   none   the rc without hookd's lines
#   off    + eval "$(hookd init SHELL)" at the end, HOOKD_CAPTURE=off
#   on     + the same line, capture on (the default in a terminal): without
#          the early line the rc runs twice (the "rc runs" column)
#   early  + eval "$(hookd init SHELL --early)" as the first line too, capture
#          on: the rc runs once
# for (a) an empty rc, (b) a realistic rc of Debian's packaged plugins
# (zsh: powerlevel9k, zsh-autosuggestions, fzf's key bindings, zoxide,
# direnv, compinit, zsh-syntax-highlighting; bash: bash-completion, fzf,
# zoxide, direnv; fish: fzf's fish bindings, zoxide, direnv; config.fish takes
# `hookd init fish | source`) and (c) any rc file you name with -r (its hookd lines are
# dropped and put back per variant): check your own config that way.
# It also times `hookd version`, `hookd init`, `hookd suggest` and each coding
# agent's hook (`hookd agent-hook AGENT` fed its documented payload) against a
# hello-world Go binary built in the same run; -b BIN times another hookd
# binary's (main's, say) version and hooks in the same alternation, and the
# variants off-base and early-base start the shell with it, as off and early
# do with this tree's. -s "" times only those.
#
#   bench/startup.sh [-n 20] [-s "bash zsh fish"] [-r "empty plugins ~/.zshrc"] [-v "none off on early off-base early-base"] [-b BIN]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
N=20 SHELLS="bash zsh fish" RCS="empty plugins" VARIANTS="none off on early" BASE=""
while getopts "n:s:r:v:b:" o; do
  case $o in
    n) N=$OPTARG ;; s) SHELLS=$OPTARG ;; r) RCS=$OPTARG ;; v) VARIANTS=$OPTARG ;; b) BASE=$OPTARG ;; *) exit 2 ;;
  esac
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hookd-startup.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
(cd "$here/.." && go build -tags sqlite_fts5 -o "$tmp/bin/hookd" ./cmd/hookd &&
  go build -o "$tmp/startup" ./bench/startup)
mkdir -p "$tmp/hello"
printf 'package main\n\nimport "os"\n\nfunc main() { os.Stdout.WriteString("hello, world\\n") }\n' >"$tmp/hello/main.go"
printf 'module hello\n\ngo 1.21\n' >"$tmp/hello/go.mod"
(cd "$tmp/hello" && go build -o "$tmp/hello-world" .)
echo "$(uname -srm), $(nproc) cores; $(bash --version | head -1)"
command -v zsh >/dev/null && zsh --version
command -v fish >/dev/null && fish --version
"$tmp/startup" -hookd "$tmp/bin/hookd" -hello "$tmp/hello-world" -n "$N" -base "$BASE" \
  -payloads "$here/../internal/recording/agenthook/testdata" \
  -shells "${SHELLS// /,}" -rc "${RCS// /,}" -variants "${VARIANTS// /,}"
