#!/usr/bin/env python3
"""Write N synthetic command records as hookd spool files (the format the shell
hooks write: see spool/spool.go), spread over S sessions, about 10% failed.

    gen_spools.py DIR N [S]
"""
import os
import random
import sys

WORDS = ["git status", "git commit -m 'wip'", "ls -la", "cd ~/src/project", "make test",
         "go test ./...", "docker ps", "kubectl get pods -n prod", "vim README.md",
         "grep -rn TODO .", "python3 manage.py runserver", "npm run build", "cat /etc/hosts",
         "ssh deploy@example.com", "curl -s https://example.com/api/v1/items | jq .",
         "find . -name '*.go' | xargs wc -l", "tail -f /var/log/syslog", "htop", "echo $PATH"]


def main():
    out, n = sys.argv[1], int(sys.argv[2])
    s = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    os.makedirs(out, mode=0o700, exist_ok=True)
    rnd = random.Random(42)
    t0 = 1_700_000_000_000_000
    per = n // s
    for k in range(s):
        # pid 1 never ends: these spools are not removed after ingestion
        session = f"{t0 + k}-1-{k}"
        parts = [b"\nS1\0bash\0" + b"5.2\0" + b"1\0host\0user\0" + b"1000\0" + str(t0 + k).encode() + b"\0"]
        for i in range(1, per + 1):
            start = t0 + (k * per + i) * 1_000_000
            ec = 1 if rnd.random() < 0.1 else 0
            text = f"{rnd.choice(WORDS)} {rnd.randrange(1_000_000)}"
            nums = f"{i} {start} {start + rnd.randrange(100, 5_000_000)} {ec} {ec}"
            parts.append(b"\0".join([b"\nC1", nums.encode(), b"/home/user/src/project", b"r", text.encode()]) + b"\0")
        with open(os.path.join(out, session + ".spool"), "wb") as f:
            f.write(b"".join(parts))


if __name__ == "__main__":
    main()
