#!/usr/bin/env bash
# Throughput and keystroke round trip through hookd's output-capture proxy
# (`hookd shell -- CMD`), next to a direct pty, `script -q` and a bare Go
# proxy, all measured in the same run by bench/harness/pty_throughput.sh.
#   bench/capture_throughput.sh [pty_throughput.sh options: -s 200 -r 10 -k 2000 -c text|ansi ...]
# Builds hookd into a scratch dir and runs it with a scratch HOME and XDG_*
# dirs (exported for the whole harness: `cat`, `script` and the helpers do
# not look at them). The harness's "custom" rows are hookd.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
harness=$here/harness

tmp=$(mktemp -d "${TMPDIR:-/tmp}/hookd-captp.XXXXXX")
(cd "$here/.." && go build -tags sqlite_fts5 -o "$tmp/hookd" ./cmd/hookd)
H=$tmp/home
mkdir -p "$H/.run" && chmod 700 "$H/.run"
export HOME="$H" XDG_CONFIG_HOME="$H/.config" XDG_DATA_HOME="$H/.local/share" \
  XDG_STATE_HOME="$H/.local/state" XDG_CACHE_HOME="$H/.cache" XDG_RUNTIME_DIR="$H/.run"
# Tools: reuse -t DIR if given, else build them once here.
if [[ " $* " != *" -t "* ]]; then
  set -- -t "$("$harness/build_tools.sh" "$tmp/tools" 2>/dev/null | tail -1)" "$@"
fi
PTY_PROXY_CMD="$tmp/hookd shell --" "$harness/pty_throughput.sh" "$@"
echo "hookd: $tmp/hookd (custom = hookd shell --)"
