#!/usr/bin/env bash
# Run the tests and list the packages by the time each took, slowest
# first, then the slowest tests: where the suite's time goes.
#   bench/slowest.sh [-t N] [-f FILE] [GO TEST ARGS...]
# -t: how many tests to list (default 15); -f: summarize the `go test -json`
# output saved in FILE instead of running the tests.
# The arguments go to `go test -json` (default: -tags sqlite_fts5 -count=1
# ./...), run from the repository's root. The raw JSON is kept in
# $TMPDIR/hookd-slowest.json for a closer look. Exits with go test's status.
# Examples:
#   bench/slowest.sh
#   bench/load.sh bench/slowest.sh            # the same on a loaded machine
#   HOOKD_TEST_CAPTURE=pty bench/slowest.sh -tags sqlite_fts5 -count=1 ./cmd/hookd
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=15
raw=${TMPDIR:-/tmp}/hookd-slowest.json
from=
while (($#)); do
  case $1 in
    -t) top=${2:?-t wants a number}; shift 2 ;;
    -f) from=${2:?-f wants a file}; shift 2 ;;
    -h | --help) sed -n '2,14s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) break ;;
  esac
done
if [[ -n $from ]]; then
  raw=$from status=0 us=0
  grep -q '"Action":"fail"' "$raw" && status=1
else
  (($#)) || set -- -tags sqlite_fts5 -count=1 ./...
  cd "$here/.." || exit
  start=$EPOCHREALTIME
  go test -json "$@" >"$raw"
  status=$?
  end=$EPOCHREALTIME
  us=$((${end//[.,]/} - ${start//[.,]/}))
fi

# test2json writes each event's fields in a fixed order (Time, Action,
# Package, Test, Elapsed, Output): enough for awk, no JSON tool needed.
awk -v top="$top" -v wall="$((us / 1000000)).$((us % 1000000 / 100000))" '
function field(name,   re, v) {
  re = "\"" name "\":(\"[^\"]*\"|[0-9.e+-]+)"
  if (!match($0, re)) return ""
  v = substr($0, RSTART + length(name) + 3, RLENGTH - length(name) - 3)
  gsub(/"/, "", v)
  return v
}
{
  action = field("Action")
  if (action != "pass" && action != "fail" && action != "skip") next
  pkg = field("Package"); test = field("Test"); el = field("Elapsed")
  sub(/^github\.com\/hookd\/hookd\/?/, "", pkg)
  if (pkg == "") pkg = "."
  if (test == "") {
    if (el == "") next
    ptime[pkg] = el; pres[pkg] = action
  } else {
    # Subtests too: the time of a parent leaves out its parallel subtests
    # (the bash and zsh runs of forEachShell).
    n++; ttime[n] = el; tname[n] = pkg " " test; tres[n] = action
  }
}
END {
  printf "%-40s %9s  %s\n", "package", "seconds", "result"
  m = 0
  for (p in ptime) { m++; order[m] = p }
  for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++)
    if (ptime[order[j]] + 0 > ptime[order[i]] + 0) { t = order[i]; order[i] = order[j]; order[j] = t }
  for (i = 1; i <= m; i++) printf "%-40s %9.1f  %s\n", order[i], ptime[order[i]], pres[order[i]]
  printf "%-40s %9s\n", "(wall time of go test)", wall
  printf "\n%-60s %9s  %s\n", "slowest tests and subtests", "seconds", "result"
  for (i = 1; i <= n; i++) idx[i] = i
  for (i = 1; i <= n && i <= top; i++) {
    for (j = i + 1; j <= n; j++)
      if (ttime[idx[j]] + 0 > ttime[idx[i]] + 0) { t = idx[i]; idx[i] = idx[j]; idx[j] = t }
    printf "%-60s %9.1f  %s\n", tname[idx[i]], ttime[idx[i]], tres[idx[i]]
  }
}' "$raw"
if ((status != 0)); then
  echo
  echo "go test failed (exit $status); the failures:"
  grep -E '"Action":"fail"' "$raw" | awk '{ if (match($0, /"Test":"[^"]*"/)) print "  " substr($0, RSTART + 8, RLENGTH - 9) }' | sort -u | head -40
fi
exit "$status"
