#!/usr/bin/env python3
"""Score an engine on longtail.jsonl, the held-out third and the fitted rest apart.

    python3 split_score.py --engine 'hookd suggest --command {command} --exit {exit_code} --output-file {output_file} --json'

Writes each part to a temporary file, runs eval.py on it, prints hit@1/hit@3 of
the fix cases and the false fixes of the explanation cases, per part.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", required=True)
    ap.add_argument("--jobs", default="2")
    ap.add_argument("corpus", nargs="?", default=os.path.join(HERE, "longtail.jsonl"))
    a = ap.parse_args()
    cases = [json.loads(l) for l in open(a.corpus, encoding="utf-8") if l.strip()]
    with tempfile.TemporaryDirectory() as tmp:
        for part in ("heldout", "fit"):
            src = os.path.join(tmp, part + ".jsonl")
            res = os.path.join(tmp, part + ".results.jsonl")
            with open(src, "w", encoding="utf-8") as f:
                for c in cases:
                    if c["split"] == part:
                        f.write(json.dumps(c, ensure_ascii=False) + "\n")
            subprocess.run([sys.executable, os.path.join(HERE, "eval.py"), "--jobs", a.jobs, "--engine", a.engine,
                            "--results", res, src], stdout=subprocess.DEVNULL, check=True)
            rs = [json.loads(l) for l in open(res)]
            fx = [r for r in rs if r["kind"] == "fix"]
            ex = [r for r in rs if r["kind"] == "explain"]
            h1, h3 = sum(r["hit1"] for r in fx), sum(r["hit3"] for r in fx)
            print("%-8s fix cases %d: hit@1 %d (%.1f%%), hit@3 %d (%.1f%%); explanation cases %d: false fix %d"
                  % (part, len(fx), h1, 100 * h1 / len(fx), h3, 100 * h3 / len(fx), len(ex), sum(r["false_fix"] for r in ex)))


if __name__ == "__main__":
    main()
