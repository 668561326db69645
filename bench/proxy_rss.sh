#!/usr/bin/env bash
# Memory of hookd's output-capture proxy while a large output passes through
# it, and the wall time that output takes, next to baselines run in the same
# outer terminal in the same run.
#   bench/proxy_rss.sh [-s MB] [-r REPS] [-f FILE] [-i MS]
#   -s MB    size of the test file (default 200; base64 text, 76-column lines)
#   -r REPS  repetitions per variant, interleaved (default 5)
#   -f FILE  reuse this file instead of generating one (its size is used)
#   -i MS    /proc sampling interval (default 20)
#
# Every variant runs on a fresh outer pty (python3's pty.fork, 24x80) whose
# master is read into the void as fast as possible (a terminal that renders
# nothing). Two cases:
#
#   command      cat FILE                    (baseline: cat on the outer pty)
#                hookd shell -- cat FILE      (the proxy, one command)
#   interactive  bash -i, plain ~/.bashrc (PS1 only)          (baseline)
#                hookd shell --shell /bin/bash, ~/.bashrc with
#                eval "$(hookd init bash)", HOOKD_CAPTURE=pty  (captured shell)
#                In both: wait for the prompt, type `cat FILE`, time until
#                the next prompt arrives, then `exit`.
#
# For the process started on the outer pty (hookd, or the baseline's cat or
# bash) VmRSS and VmHWM are read from /proc/PID/status every MS ms from its
# exec on; VmHWM (the kernel's high-water mark of that process's RSS) is the
# figure to quote. (wait4's ru_maxrss is not used: it also counts the
# forked Python child before the exec, ~11 MiB.)
# Afterwards `hookd history --json` must show each captured `cat` with
# output_bytes of about 1 MiB (the default output.limit): checked and printed.
#
# hookd is built into a scratch dir and run with a scratch HOME and XDG_*
# dirs; the agent the hooks start there is stopped at the end.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
MB=200 REPS=5 FILE="" INTERVAL=20
while getopts "s:r:f:i:" o; do
  case $o in s) MB=$OPTARG ;; r) REPS=$OPTARG ;; f) FILE=$OPTARG ;; i) INTERVAL=$OPTARG ;;
    *) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2 ;; esac
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hookd-rss.XXXXXX")
(cd "$here/.." && go build -tags sqlite_fts5 -o "$tmp/hookd" ./cmd/hookd)
if [[ -z $FILE ]]; then
  FILE=$tmp/data.txt
  set +o pipefail # base64 dies of SIGPIPE when head has enough
  base64 -w 76 /dev/urandom | head -c $((MB * 1000000)) >"$FILE"
  set -o pipefail
fi
FILE=$(realpath "$FILE")
cat "$FILE" >/dev/null # page cache

mkhome() { # DIR RC-LINE...
  local h=$1; shift
  mkdir -p "$h/.run" "$h/.config" "$h/.local/share" "$h/.local/state" "$h/.cache" && chmod 700 "$h/.run"
  printf '%s\n' "$@" >"$h/.bashrc"
}
PS1_LINE="PS1='__rssbench__\\$ '"
mkhome "$tmp/home-plain" "$PS1_LINE"
mkhome "$tmp/home-hookd" "$PS1_LINE" "eval \"\$('$tmp/hookd' init bash)\""
H=$tmp/home-hookd
henv=(HOME="$H" XDG_CONFIG_HOME="$H/.config" XDG_DATA_HOME="$H/.local/share"
  XDG_STATE_HOME="$H/.local/state" XDG_CACHE_HOME="$H/.cache" XDG_RUNTIME_DIR="$H/.run")
stop_agent() {
  local pf=$H/.local/state/hookd/agent.pid
  [[ -s $pf ]] && kill "$(cut -d' ' -f1 "$pf")" 2>/dev/null
  true
}
trap stop_agent EXIT

echo "# proxy_rss: file=$FILE ($(stat -c %s "$FILE") bytes) reps=$REPS interval=${INTERVAL}ms cpus=$(nproc) kernel=$(uname -r) out=$tmp"
python3 - "$tmp" "$FILE" "$REPS" "$INTERVAL" <<'PY'
import fcntl, json, os, pty, re, select, statistics, struct, sys, termios, threading, time

tmp, data, reps, interval = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4]) / 1000
hookd = f"{tmp}/hookd"
MARK = b"__rssbench__"

def env_for(home, **extra):
    e = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "TERM": "xterm-256color",
         "LANG": os.environ.get("LANG", "C.UTF-8"), "SHELL": "/bin/bash", "HOME": home,
         "XDG_CONFIG_HOME": f"{home}/.config", "XDG_DATA_HOME": f"{home}/.local/share",
         "XDG_STATE_HOME": f"{home}/.local/state", "XDG_CACHE_HOME": f"{home}/.cache",
         "XDG_RUNTIME_DIR": f"{home}/.run"}
    e.update(extra)
    return e

VARIANTS = {
    # name: (argv, env, interactive)
    "cat":         (["cat", data], env_for(f"{tmp}/home-plain"), False),
    "hookd-cmd":   ([hookd, "shell", "--", "cat", data], env_for(f"{tmp}/home-hookd"), False),
    "bash":        (["/bin/bash", "-i"], env_for(f"{tmp}/home-plain"), True),
    "hookd-shell": ([hookd, "shell", "--shell", "/bin/bash"], env_for(f"{tmp}/home-hookd", HOOKD_CAPTURE="pty"), True),
}

SELF_EXE = os.readlink("/proc/self/exe")

def sampler(pid, stop, res):
    path = f"/proc/{pid}/status"
    while not stop.is_set():
        try:
            # Until the exec, the child is a fork of this Python process:
            # not sampled (VmHWM is per address space: it restarts at exec).
            if os.readlink(f"/proc/{pid}/exe") == SELF_EXE:
                time.sleep(0.0005)
                continue
            with open(path) as f:
                s = f.read()
        except OSError:
            break
        m, h = re.search(r"VmRSS:\s+(\d+)", s), re.search(r"VmHWM:\s+(\d+)", s)
        if m:
            res["rss"] = max(res["rss"], int(m.group(1)))
        if h:
            res["hwm"] = max(res["hwm"], int(h.group(1)))
        res["samples"] += 1
        stop.wait(interval)

def read_until(fd, mark, timeout=600):
    """Read the master into the void until mark is seen (or EOF if mark is None)."""
    tail, total, end = b"", 0, time.monotonic() + timeout
    while True:
        r, _, _ = select.select([fd], [], [], max(0, end - time.monotonic()))
        if not r:
            raise TimeoutError(f"no {mark!r} after {timeout}s ({total} bytes read)")
        try:
            b = os.read(fd, 1 << 16)
        except OSError:  # EIO: every slave descriptor is closed
            b = b""
        if not b:
            if mark is None:
                return total
            raise EOFError(f"EOF before {mark!r} ({total} bytes read)")
        total += len(b)
        if mark is not None:
            buf = tail + b
            if mark in buf:
                return total
            tail = buf[-(len(mark) - 1):]

def run(name):
    argv, env, interactive = VARIANTS[name]
    pid, fd = pty.fork()
    if pid == 0:
        try:
            os.execvpe(argv[0], argv, env)
        finally:
            os._exit(127)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    res, stop = {"rss": 0, "hwm": 0, "samples": 0}, threading.Event()
    th = threading.Thread(target=sampler, args=(pid, stop, res), daemon=True)
    th.start()
    try:
        if interactive:
            read_until(fd, MARK, 30)            # first prompt
            t0 = time.monotonic()
            os.write(fd, f"cat {data}\r".encode())
            nbytes = read_until(fd, MARK)       # the next prompt
            secs = time.monotonic() - t0
            os.write(fd, b"exit\r")
            read_until(fd, None, 30)
        else:
            t0 = time.monotonic()
            nbytes = read_until(fd, None)
            secs = time.monotonic() - t0
    finally:
        _, status, ru = os.wait4(pid, 0)
        stop.set()
        th.join()
        os.close(fd)
    return {"variant": name, "seconds": secs, "bytes_read": nbytes, "status": status,
            "vmrss_kb": res["rss"], "vmhwm_kb": res["hwm"], "samples": res["samples"],
            "ru_maxrss_kb_incl_prefork": ru.ru_maxrss}

order = ["cat", "hookd-cmd", "bash", "hookd-shell"]
results = []
for r in range(reps):
    for name in (order if r % 2 == 0 else order[::-1]):
        x = run(name)
        x["rep"] = r
        results.append(x)
        print(f"# rep {r} {name:<12} {x['seconds']:7.3f} s  read={x['bytes_read']}  VmHWM={x['vmhwm_kb']} kB  "
              f"VmRSS(max sampled)={x['vmrss_kb']} kB  "
              f"samples={x['samples']} status={x['status']}", flush=True)
json.dump(results, open(f"{tmp}/results.json", "w"), indent=1)

mb = os.path.getsize(data) / 1e6
med = lambda name, k: statistics.median(x[k] for x in results if x["variant"] == name)
rng = lambda name, k: (min(x[k] for x in results if x["variant"] == name), max(x[k] for x in results if x["variant"] == name))
print(f"{'variant':<12} {'median_s':>8} {'[min..max]':>16} {'MB/s':>6} {'time_ratio':>10} "
      f"{'VmHWM_MiB':>9} {'[min..max]':>14} {'VmRSS_MiB':>9}")
base = {"cat": "cat", "hookd-cmd": "cat", "bash": "bash", "hookd-shell": "bash"}
for name in order:
    s, (lo, hi) = med(name, "seconds"), rng(name, "seconds")
    h, (hlo, hhi) = med(name, "vmhwm_kb") / 1024, rng(name, "vmhwm_kb")
    print(f"{name:<12} {s:8.3f} {'[%.3f..%.3f]' % (lo, hi):>16} {mb / s:6.1f} {s / med(base[name], 'seconds'):10.2f} "
          f"{h:9.1f} {'[%.1f..%.1f]' % (hlo / 1024, hhi / 1024):>14} {med(name, 'vmrss_kb') / 1024:9.1f}")
for name in ("hookd-cmd", "hookd-shell"):
    print(f"peak_vmhwm_MiB[{name}]={max(x['vmhwm_kb'] for x in results if x['variant'] == name) / 1024:.1f} "
          f"time_ratio_vs_{base[name]}={med(name, 'seconds') / med(base[name], 'seconds'):.3f}")
PY
echo "# stored outputs (hookd history --json, captured shell):"
env "${henv[@]}" "$tmp/hookd" history --json >"$tmp/history.json"
python3 - "$tmp/history.json" "$REPS" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
cats = [r for r in rows if r["command"].startswith("cat ")]
for r in cats:
    print(f"#   {r['command'][:60]:<60} exit={r['exit_code']} duration_ms={r['duration_ms']:.0f} output_bytes={r['output_bytes']}")
ok = len(cats) == int(sys.argv[2]) and all(0.9 * 2**20 <= r["output_bytes"] <= 1.1 * 2**20 for r in cats)
print(f"stored_outputs={len(cats)} all_about_1MiB={'yes' if ok else 'NO'}")
PY
