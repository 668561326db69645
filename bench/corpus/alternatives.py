#!/usr/bin/env python3
"""How much the second and third suggestions add: over eval.py's --results
files, per file, the cases with more than one fix, how many of their second
and third fixes are spellings of an earlier one (the same action: program
aliases folded, options dropped but for the few that change the action; or
one's commands all among the other's: the rule of analyze/diverse.go), and
the families of cause shown (distinct actions among the first three).

    alternatives.py RESULTS.jsonl [MORE.jsonl ...]
"""
import json
import os
import re
import sys


def fold(p):
    p = os.path.basename(p)
    if p.startswith("python"):
        return "python"
    if p == "pip3" or p.startswith("pip3."):
        return "pip"
    if p == "apt-get":
        return "apt"
    if p in ("bash", "dash", "zsh"):
        return "sh"
    return p


# Options that change what a command does (the rest are dropped), as in
# analyze/diverse.go.
MEANINGFUL = {"-f": "--force", "--force": "--force", "--force-with-lease": "--force",
              "--force-if-includes": "--force", "--hard": "--hard", "--cached": "--cached",
              "--global": "--global", "--system": "--system", "-D": "-D"}


def action(cmd):
    out = []
    for part in re.split(r"&&|\|\||[;|&]", cmd):
        words = [w.strip("'\"") for w in part.split()]
        while words and (words[0] in ("sudo", "env", "command") or re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", words[0])):
            words = words[1:]
        if not words:
            continue
        prog, rest = fold(words[0]), words[1:]
        if prog == "python" and len(rest) >= 2 and rest[0] == "-m":
            prog, rest = fold(rest[1]), rest[2:]
        out.append(tuple([prog] + [w if not w.startswith("-") else MEANINGFUL[w]
                                   for w in rest if not w.startswith("-") or w in MEANINGFUL]))
    return out


def spelling(a, b):
    if len(a) > len(b):
        a, b = b, a
    if not a:
        return not b
    j = 0
    for c in b:
        if j < len(a) and a[j] == c:
            j += 1
    return j == len(a)


def main():
    for path in sys.argv[1:]:
        multi = spell = alts = 0
        families = []
        for line in open(path):
            r = json.loads(line)
            s = [x if isinstance(x, str) else x.get("command", "") for x in r.get("suggestions") or []][:3]
            if len(s) < 2:
                continue
            multi += 1
            acts = [action(c) for c in s]
            fam = 1
            for k in range(1, len(s)):
                alts += 1
                if any(spelling(acts[k], acts[j]) for j in range(k)):
                    spell += 1
                else:
                    fam += 1
            families.append(fam)
        mean = sum(families) / len(families) if families else 0
        print(f"{os.path.basename(path)}: {multi} cases with 2+ fixes; {spell} of their {alts} second and third "
              f"fixes are spellings of an earlier one; {mean:.2f} families of cause in the first three")


if __name__ == "__main__":
    main()
