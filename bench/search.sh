#!/usr/bin/env bash
# The search (Ctrl-R, hookd search) on a generated history of 1,000,000
# commands with about 1 GB of output (bench/searchgen; ~12 minutes to make,
# kept in $DB for the next run):
#   - the engine's Go benchmarks (internal/search/bench_test.go): the corpus
#     read from SQLite and from its cache, each key to its updated list
#     (median, p99, CPU per key), the first key in every scope, the output
#     search;
#   - whole-process figures (bench/searchbench): Ctrl-R to the first screen
#     on a pty, hookd search --output-only WORD, each with hookd version as
#     the baseline measured in the same run;
#   - what the search adds to the start of every hookd command: package
#     initialisers (GODEBUG=inittrace=1 hookd version) and the wall time of
#     hookd version and hookd init bash, against BASE (a git revision,
#     for instance the commit before the search).
#   bench/search.sh            # DB=${TMPDIR:-/tmp}/hookd-search-bench.db
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$here/..
DB=${DB:-${TMPDIR:-/tmp}/hookd-search-bench.db}
N=${N:-21}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hookd-searchbench.XXXXXX")
trap 'rm -rf "$tmp"; [[ -z ${BASE-} ]] || git -C "$root" worktree remove --force "$tmp/base-src" 2>/dev/null || true' EXIT
(cd "$root" && go build -tags sqlite_fts5 -o "$tmp/hookd" ./cmd/hookd &&
  go build -tags sqlite_fts5 -o "$tmp/searchgen" ./bench/searchgen &&
  go build -o "$tmp/searchbench" ./bench/searchbench)
if [[ ! -e $DB ]]; then
  echo "generating $DB (1,000,000 commands, 1 GB of output)…"
  "$tmp/searchgen" -db "$DB" -n 1000000 -output 1G
fi
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"

echo "## engine (go test -bench, HOOKD_SEARCH_BENCH_DB=$DB)"
(cd "$root" && HOOKD_SEARCH_BENCH_DB=$DB go test -tags sqlite_fts5 -timeout 60m -run XXX -bench . -benchtime 5x ./internal/search | grep -E '^Benchmark')

echo "## whole process (bench/searchbench, $N runs each, interleaved with the baseline)"
H=$tmp/home
mkdir -p "$H/.local/share/hookd" "$H/.local/state" "$H/.run" && chmod 700 "$H/.run"
ln -s "$DB" "$H/.local/share/hookd/history.db"
"$tmp/searchbench" -bin "$tmp/hookd" -home "$H" -n "$N"

if [[ -n ${BASE-} ]]; then
  echo "## start-up against $BASE"
  git -C "$root" worktree add -q --detach "$tmp/base-src" "$BASE"
  (cd "$tmp/base-src" && go build -tags sqlite_fts5 -o "$tmp/hookd-base" ./cmd/hookd)
  python3 "$here/search_init.py" "$tmp/hookd-base" "$tmp/hookd" 40
fi
