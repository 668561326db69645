#!/usr/bin/env python3
"""Whole-process time of each coding agent's hook, against `hookd version`
and any other binaries, alternated run by run in one sitting.

    python3 bench/agent_hooks.py HOOKD [HOOKD2 …] [HELLO]
    N=100 python3 bench/agent_hooks.py /tmp/hookd-before /tmp/hookd-after /tmp/hello

Each hook is fed its fixture from internal/recording/agenthook/testdata on
stdin, in a fresh home per binary (as BenchmarkAgentHook does, with the
binaries alternated so that the machine's moments fall on all of them). A
binary that is not hookd (a hello world) is run as it is, for the floor.
Prints the load average and the median per row and binary.
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
FIX = os.path.join(HERE, "..", "internal", "recording", "agenthook", "testdata")
HOOKS = [("claude", "claude-code", "claude-code/failure.json"),
         ("claude-prompt", "claude-code", "claude-code/user_prompt.json"),
         ("codex", "codex", "codex/post_tool_use.json"),
         ("gemini", "gemini", "gemini/after_tool.json"),
         ("opencode", "opencode", "opencode/after.json"),
         ("copilot", "copilot", "copilot/post_tool_use.json")]


def home():
    h = tempfile.mkdtemp()
    os.makedirs(h + "/run", mode=0o700)
    return dict(os.environ, HOME=h, XDG_CONFIG_HOME=h + "/.config", XDG_DATA_HOME=h + "/.local/share",
                XDG_STATE_HOME=h + "/.local/state", XDG_CACHE_HOME=h + "/.cache", XDG_RUNTIME_DIR=h + "/run")


def main():
    bins = sys.argv[1:]
    if not bins:
        sys.exit(__doc__)
    n = int(os.environ.get("N", "40"))
    envs = {b: home() for b in bins}
    times = {}
    for name, agent, f in [("version", None, None)] + HOOKS:
        payload = open(os.path.join(FIX, f), "rb").read() if f else b""
        args = ["version"] if agent is None else ["agent-hook", agent]
        for _ in range(n):
            for b in bins:
                t = time.perf_counter()
                subprocess.run([b] + args, input=payload, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, env=envs[b])
                times.setdefault((name, b), []).append((time.perf_counter() - t) * 1000)
    print("load average", " ".join(open("/proc/loadavg").read().split()[:3]))
    print("%-14s" % "", *["%-22s" % os.path.basename(b) for b in bins])
    for name in ["version"] + [h[0] for h in HOOKS]:
        print("%-14s" % name, *["%-22s" % ("%.2f ms" % statistics.median(times[(name, b)])) for b in bins])


if __name__ == "__main__":
    main()
