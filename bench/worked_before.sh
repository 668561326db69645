#!/usr/bin/env bash
# "It worked before" on the failure path, over a large history: whole-process
# `hookd suggest` for a failure whose command worked before (the comparison
# found and printed) and for one that never worked (nothing to compare), the
# hook's inline form and the JSON form, median and p99 of RUNS runs each;
# and the ingest of the history (contexts noted: keys, git branch from a real
# repository's reflog, environment records).
#   bench/worked_before.sh [ROWS (default 1000000)] [RUNS (default 200)]
# With BASE=REV (a git revision), the same for that revision, first, in the
# same run: the baseline (it has no comparison to make).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROWS=${1:-1000000} RUNS=${2:-200}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hookd-worked.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
(cd "$here/.." && go build -tags sqlite_fts5 -o "$tmp/hookd" ./cmd/hookd)
bins=("$tmp/hookd")
if [[ -n ${BASE-} ]]; then
  mkdir "$tmp/base-src"
  git -C "$here/.." archive "$BASE" | tar -x -C "$tmp/base-src"
  (cd "$tmp/base-src" && go build -tags sqlite_fts5 -o "$tmp/hookd-base" ./cmd/hookd)
  bins=("$tmp/hookd-base" "$tmp/hookd")
fi
# A real repository (its HEAD and reflog are read at ingest), on main.
repo=$tmp/src/app
mkdir -p "$repo" && git -C "$repo" init -q -b main
GIT_AUTHOR_NAME=b GIT_AUTHOR_EMAIL=b@x GIT_COMMITTER_NAME=b GIT_COMMITTER_EMAIL=b@x \
  git -C "$repo" -c commit.gpgsign=false commit -q --allow-empty -m one
python3 - "$tmp/spool-template" "$ROWS" "$repo" <<'PY'
import os, random, sys
out, n, repo = sys.argv[1], int(sys.argv[2]), sys.argv[3]
os.makedirs(out, mode=0o700, exist_ok=True)
rnd = random.Random(42)
progs = ["git status", "git push", "git pull", "make", "make test", "go test", "npm run", "docker compose",
         "kubectl get", "python3 manage.py", "pytest", "cargo build", "./deploy.sh", "terraform plan", "ls", "grep -rn"]
vocab = [f"{rnd.choice(progs)} arg{rnd.randrange(400)}" for _ in range(5000)] + ["make test"] * 50
names = "PATH VIRTUAL_ENV CONDA_PREFIX NODE_ENV KUBECONFIG AWS_PROFILE DOCKER_CONTEXT GOFLAGS"
def env(seq, venv):
    vals = ["/usr/local/bin:/usr/bin:/bin" if not venv else f"{venv}/bin:/usr/local/bin:/usr/bin:/bin",
            venv, "", "", "", "dev", "", ""]
    return b"\0".join([b"\nE1", str(seq).encode(), names.encode(), "".join(v + "\x1f" for v in vals).encode()]) + b"\0"
t0 = 1_700_000_000_000_000
s = 10
per = n // s
for k in range(s):
    session = f"{t0 + k}-1-{k}"
    parts = [b"\0".join([b"\nS2", b"bash", b"5.2", b"1", b"host", b"user", b"1000", str(t0 + k).encode(), b"off"]) + b"\0"]
    venv = ""
    for i in range(1, per + 1):
        if i % 25 == 1:
            venv = "" if venv else repo + "/.venv"
            parts.append(env(i, venv))
        start = t0 + (k * per + i) * 1_000_000
        ec = 1 if rnd.random() < 0.1 else 0
        text = rnd.choice(vocab)
        cwd = repo if i % 2 else f"/home/user/src/project{k}"
        if k == 0 and i == per - 1:  # worked, in the virtualenv
            text, ec, cwd = "make test", 0, repo
            parts.append(env(i, repo + "/.venv"))
        if k == 0 and i == per:  # fails, without it: the case compared
            text, ec, cwd = "make test", 2, repo
            parts.append(env(i, ""))
        if k == 1 and i == per:  # never worked: nothing to compare
            text, ec, cwd = "./never-worked.sh --now", 1, repo
        nums = f"{i} {start} {start + rnd.randrange(100, 5_000_000)} {ec} {ec}"
        parts.append(b"\0".join([b"\nC1", nums.encode(), cwd.encode(), b"r", text.encode()]) + b"\0")
    with open(os.path.join(out, session + ".spool"), "wb") as f:
        f.write(b"".join(parts))
PY
per=$((ROWS / 10))
s0="$((1700000000000000 + 0))-1-0" s1="$((1700000000000000 + 1))-1-1"

for bin in "${bins[@]}"; do
  echo "## $(basename "$bin") ($("$bin" version))"
  H=$tmp/home-$(basename "$bin")
  mkdir -p "$H/.run" && chmod 700 "$H/.run"
  export HOME=$H XDG_CONFIG_HOME=$H/.config XDG_DATA_HOME=$H/.local/share \
    XDG_STATE_HOME=$H/.local/state XDG_CACHE_HOME=$H/.cache XDG_RUNTIME_DIR=$H/.run
  spool=$XDG_STATE_HOME/hookd/spool
  mkdir -p "$spool" && chmod 700 "$XDG_STATE_HOME/hookd" "$spool"
  cp "$tmp"/spool-template/*.spool "$spool"/
  t0=$(date +%s.%N)
  "$bin" history -n 1 >/dev/null
  t1=$(date +%s.%N)
  python3 -c "r=$ROWS; d=$t1-$t0; print(f'ingest (whole process, {r:,} records): {d:.1f} s = {r/d:,.0f} records/s')"
  echo "database: $(du -b "$XDG_DATA_HOME/hookd/history.db" | cut -f1) bytes"
  echo "the failure compared, as the hook shows it:"
  (cd "$repo" && HOOKD_SESSION=$s0 "$bin" suggest --inline --seq "$per" --width 120) | sed 's/^/    /'
  python3 - "$bin" "$RUNS" "$repo" "$s0" "$s1" "$per" <<'PY'
import os, statistics, subprocess, sys, time
bin, runs, repo, s0, s1, per = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6]
cases = [
    ("suggest --inline, worked before", s0, ["suggest", "--inline", "--seq", per, "--width", "120"]),
    ("suggest --inline, never worked", s1, ["suggest", "--inline", "--seq", per, "--width", "120"]),
    ("suggest --json, worked before", s0, ["suggest", "--json", "-1"]),
]
print("| command (whole process) | median ms | p99 ms | max ms |")
print("|---|---|---|---|")
for name, sess, args in cases:
    env = dict(os.environ, HOOKD_SESSION=sess)
    ts = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run([bin] + args, cwd=repo, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        ts.append((time.perf_counter() - t) * 1000)
    ts.sort()
    p99 = ts[min(len(ts) - 1, int(len(ts) * 0.99))]
    print(f"| {name} | {statistics.median(ts):.1f} | {p99:.1f} | {ts[-1]:.1f} |")
PY
  rm -rf "$H"
done
