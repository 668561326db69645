#!/usr/bin/env python3
"""Record recorded.jsonl: run each case's failing command for real, here.

Each case below is a setup snippet, a command and the fixes an engineer
would accept. This script replays the setup in a fresh directory, runs the
command with bash (as root, or as nobody when the case says so), and writes
the case with the command's real exit status and combined output, in the
format of public.jsonl (eval.py scores it). Cases whose command does not
fail here, or whose tool is missing, are left out and reported.

    python3 record.py > recorded.jsonl
"""
import json
import os
import shutil
import subprocess
import sys
import time

GITREPO = ("git init -q -b main && git config user.email dev@example.com && "
           "git config user.name Dev && echo hi > README.md && git add . && "
           "git commit -qm init")
PKG = ("cat > package.json <<'J'\n{\n  \"name\": \"web\",\n  \"version\": \"1.0.0\",\n"
       "  \"scripts\": {\n    \"dev\": \"node server.js\",\n    \"build\": \"node build.js\",\n"
       "    \"test\": \"node --test\"\n  }\n}\nJ")
NOTES = "printf 'TODO: write docs\\nfoo bar\\n' > notes.txt"
# A bare remote with a commit the clone lacks.
REJECTED = ("git init -q --bare -b main ../remote.git && " + GITREPO +
            " && git remote add origin ../remote.git && git push -qu origin main 2>/dev/null"
            " && git clone -q ../remote.git ../other && (cd ../other && git config user.email o@example.com"
            " && git config user.name O && echo o > o.txt && git add o.txt && git commit -qm o && git push -q 2>/dev/null)"
            " && echo me > me.txt && git add me.txt && git commit -qm me")

# id, category, setup, command, expected, extra
CASES = [
    # --- "did you mean" dialects -------------------------------------------------
    ("dym-git-1", "dym", GITREPO, "git stauts", ["git status"], {}),
    ("dym-git-2", "dym", GITREPO, "git brnch -a", ["git branch -a"], {}),
    ("dym-git-3", "dym", GITREPO, "git remot -v", ["git remote -v"], {}),
    ("dym-git-4", "dym", GITREPO, "git stat", ["git status", "git stash"], {}),
    ("dym-npm-1", "dym", PKG, "npm instlal lodash", ["npm install lodash"], {}),
    ("dym-npm-2", "dym", PKG, "npm rnu build", ["npm run build"], {}),
    ("dym-pip-1", "dym", "", "pip3 isntall requests", ["pip3 install requests"], {}),
    ("dym-pip-2", "dym", "", "pip3 unistall requests", ["pip3 uninstall requests"], {}),
    ("dym-cargo-1", "dym", "", "cargo tset", ["cargo test"], {}),
    ("dym-cargo-2", "dym", "", "cargo biuld --release", ["cargo build --release"], {}),
    ("dym-terraform-1", "dym", "", "terraform plna", ["terraform plan"], {}),
    ("dym-terraform-2", "dym", "", "terraform aply -auto-approve", ["terraform apply -auto-approve"], {}),
    ("dym-kubectl-1", "dym", "", "kubectl gte pods", ["kubectl get pods"], {}),
    ("dym-kubectl-2", "dym", "", "kubectl descirbe pod web", ["kubectl describe pod web"], {}),
    ("dym-gcloud-1", "dym", "", "gcloud comptue instances list", ["gcloud compute instances list"], {}),
    ("dym-gcloud-2", "dym", "", "gcloud config lsit", ["gcloud config list"], {}),
    ("dym-aws-1", "dym", "", "aws s3 lss", ["aws s3 ls"], {}),
    ("dym-aws-2", "dym", "", "aws ec22 describe-instances", ["aws ec2 describe-instances"], {}),
    ("dym-rustup-1", "dym", "", "rustup toolchain lsit", ["rustup toolchain list"], {}),
    ("dym-go-1", "dym", "", "go biuld ./...", ["go build ./..."], {}),
    ("dym-go-2", "dym", "", "go mod tidi", ["go mod tidy"], {}),
    ("dym-docker-1", "dym", "", "docker imgaes", ["docker images"], {}),
    ("dym-docker-2", "dym", "", "docker psuh registry.example.com/app:1", ["docker push registry.example.com/app:1"], {}),
    ("dym-systemctl-1", "dym", "", "systemctl stauts ssh", ["systemctl status ssh"], {}),
    ("dym-pyenv-1", "dym", "", "pyenv isntall 3.12.1", ["pyenv install 3.12.1"], {}),
    ("dym-apt-1", "dym", "", "apt-get isntall curl", ["apt-get install curl"], {}),
    ("dym-hg-1", "dym", "hg init -q .", "hg stauts", ["hg status"], {}),
    ("dym-hg-2", "dym", "hg init -q .", "hg comit -m wip", ["hg commit -m wip"], {}),
    ("dym-rake-1", "dym", "printf 'task :test do\\n  puts 1\\nend\\ntask :build do\\nend\\n' > Rakefile",
     "rake tset", ["rake test"], {}),
    ("dym-mvn-1", "dym", "cat > pom.xml <<'P'\n<project><modelVersion>4.0.0</modelVersion><groupId>x</groupId>"
     "<artifactId>y</artifactId><version>1</version></project>\nP", "mvn -o cmpile", ["mvn -o compile"], {}),
    ("dym-argparse-1", "dym",
     "cat > manage.py <<'P'\nimport argparse\np = argparse.ArgumentParser()\ns = p.add_subparsers(dest='cmd')\n"
     "for c in ('migrate', 'serve', 'shell'):\n    s.add_parser(c)\np.parse_args()\nP",
     "python3 manage.py migarte", ["python3 manage.py migrate"], {}),
    # --- git long tail ---------------------------------------------------------------
    ("git-rejected-1", "git", REJECTED, "git push", ["git pull --rebase && git push", "git pull --rebase", "git pull && git push"], {"context": "remote"}),
    ("git-rejected-2", "git", REJECTED, "git push origin main", ["git pull --rebase origin main && git push origin main", "git pull --rebase && git push origin main", "git pull --rebase origin main"], {"context": "remote"}),
    ("git-no-upstream-1", "git", "git init -q --bare -b main ../remote.git && " + GITREPO +
     " && git remote add origin ../remote.git && git switch -qc feature", "git push",
     ["git push --set-upstream origin feature", "git push -u origin feature"], {"context": "branch"}),
    ("git-not-merged-1", "git", GITREPO + " && git switch -qc feature && echo f > f.txt && git add f.txt && git commit -qm f && git switch -q main",
     "git branch -d feature", ["git branch -D feature"], {"context": "branch"}),
    ("git-master-main-1", "git", GITREPO, "git checkout master", ["git checkout main"], {"context": "branch"}),
    ("git-master-main-2", "git", GITREPO, "git push origin master", ["git push origin main"], {"context": "branch"}),
    ("git-dashdash-1", "git", GITREPO + " && echo x > gone.txt && git add gone.txt && git commit -qm g && git rm -q gone.txt && git commit -qm rm",
     "git log gone.txt", ["git log -- gone.txt"], {}),
    ("git-merge-abort-1", "git", GITREPO, "git merge --abort", [], {"explain_contains": ["no merge"]}),
    ("git-rebase-continue-1", "git", GITREPO, "git rebase --continue", [], {"explain_contains": ["rebase"]}),
    ("git-amend-dash-1", "git", GITREPO, "git commit -amend", ["git commit --amend"], {}),
    ("git-stash-empty-1", "git", GITREPO, "git stash pop", [], {"explain_contains": ["stash"]}),
    ("git-bisect-typo-1", "git", GITREPO, "git bisect strat", ["git bisect start"], {}),
    ("git-branch-typo-1", "git", GITREPO + " && git branch feature/login", "git switch feature/lgoin", ["git switch feature/login"], {"context": "branch"}),
    # --- package managers ------------------------------------------------------------
    ("apt-nonroot-1", "apt", "", "apt-get install curl", ["sudo apt-get install curl"], {"user": "nobody"}),
    ("apt-nonroot-2", "apt", "", "apt update", ["sudo apt update"], {"user": "nobody"}),
    ("npm-script-1", "node", PKG, "npm run biuld", ["npm run build"], {"context": "package.json"}),
    ("npm-script-2", "node", PKG, "npm start", ["npm run dev"], {"context": "package.json"}),
    ("npm-script-3", "node", PKG, "npm run tets", ["npm run test", "npm test"], {"context": "package.json"}),
    ("pyenv-version-1", "version-manager", "", "pyenv local 3.99.1", ["pyenv install 3.99.1"], {}),
    ("pyenv-version-2", "version-manager", "echo 3.98.0 > .python-version", "python3 --version",
     ["pyenv install 3.98.0", "pyenv install"], {"context": ".python-version"}),
    ("cargo-no-project-1", "rust", "", "cargo build", [], {"explain_contains": ["Cargo.toml"]}),
    # --- system -------------------------------------------------------------------------
    ("systemctl-order-1", "system", "", "systemctl ssh restart", ["systemctl restart ssh"], {}),
    ("systemctl-order-2", "system", "", "systemctl nginx status", ["systemctl status nginx"], {}),
    ("ip-device-1", "network", "", "ip link show eht0", ["ip link show eth0"], {"context": "interfaces"}),
    ("port-in-use-1", "network", "", "python3 -m http.server 18777 --bind 127.0.0.1",
     ["python3 -m http.server 18778 --bind 127.0.0.1"],
     {"hold_port": 18777, "note": "the port is held while recording only: hookd cannot name the holder on replay"}),
    # --- files --------------------------------------------------------------------------
    ("sed-unterminated-1", "fs", NOTES, "sed 's/foo/bar' notes.txt", ["sed 's/foo/bar/' notes.txt"], {}),
    ("ln-order-1", "fs", NOTES, "ln -s current.txt notes.txt", ["ln -s notes.txt current.txt"], {}),
    ("cp-missing-dir-1", "fs", NOTES, "cp notes.txt backup/notes.txt", ["mkdir -p backup && cp notes.txt backup/notes.txt"], {}),
    ("mv-missing-dir-1", "fs", NOTES, "mv notes.txt archive/2024/notes.txt", ["mkdir -p archive/2024 && mv notes.txt archive/2024/notes.txt"], {}),
    ("mkdir-parents-1", "fs", "", "mkdir build/out/logs", ["mkdir -p build/out/logs"], {}),
    ("cd-missing-1", "fs", "", "cd build/out", ["mkdir -p build/out && cd build/out"], {}),
    ("rm-dir-1", "fs", "mkdir build && touch build/a.o", "rm build", ["rm -r build", "rm -rf build"], {}),
    ("cp-dir-1", "fs", "mkdir src && touch src/a.c", "cp src src.bak", ["cp -r src src.bak", "cp -a src src.bak", "cp -R src src.bak"], {}),
    ("chmod-x-1", "permissions", "printf '#!/bin/sh\\necho ok\\n' > run.sh", "./run.sh", ["chmod +x run.sh && ./run.sh", "chmod +x ./run.sh && ./run.sh", "bash run.sh", "sh run.sh", "bash ./run.sh", "sh ./run.sh"], {}),
    ("chmod-x-2", "permissions", "mkdir -p bin && printf '#!/bin/sh\\necho ok\\n' > bin/deploy", "bin/deploy --dry-run", ["chmod +x bin/deploy && bin/deploy --dry-run", "sh bin/deploy --dry-run"], {}),
    ("prompt-pasted-1", "shell", NOTES, "$ cat notes.txt", ["cat notes.txt"], {}),
    ("prompt-pasted-2", "shell", "", "$ git status", ["git status"], {}),
    ("python-module-1", "python", "printf 'import numpy\\nprint(numpy.ones(2))\\n' > calc.py", "python3 calc.py",
     ["pip install numpy", "pip3 install numpy", "python3 -m pip install numpy"], {}),
    ("python-module-2", "python", "", "python3 -c 'import toml'", ["pip install toml", "pip3 install toml", "python3 -m pip install toml"], {}),
    ("touch-etc-1", "permissions", "", "touch /etc/hookd-test.conf", ["sudo touch /etc/hookd-test.conf"], {"user": "nobody"}),
]


def run(case):
    cid, cat, setup, command, expected, extra = case
    d = os.path.join("/tmp/hookd-rec", cid)
    shutil.rmtree(os.path.dirname(d) + "/remote.git", ignore_errors=True)
    shutil.rmtree(os.path.dirname(d) + "/other", ignore_errors=True)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    user = extra.get("user", "root")
    pre = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] if user == "nobody" else []
    if user == "nobody":
        os.chmod(d, 0o777)
    # The setup runs as root; the command as the case's user.
    r = subprocess.run(["bash", "-c", setup], cwd=d,
                       capture_output=True, text=True, timeout=60)
    if r.returncode != 0:
        return None, "setup failed: " + r.stderr.strip()[:200]
    holder = None
    if "hold_port" in extra:  # something else listens on the port, as when the user ran it
        holder = subprocess.Popen([sys.executable, "-c", "import socket,time;s=socket.socket();"
                                   "s.bind(('127.0.0.1',%d));s.listen();time.sleep(30)" % extra["hold_port"]])
        time.sleep(0.3)
    p = subprocess.run(pre + ["bash", "-c", command], cwd=d, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, text=True, timeout=60,
                       env=dict(os.environ, LANG="C.UTF-8"))
    if holder:
        holder.kill()
        holder.wait()
    if p.returncode == 0:
        return None, "did not fail"
    out = {"id": cid, "command": command, "exit_code": p.returncode, "output": p.stdout,
           "setup": setup, "expected": expected, "category": cat, "source": "real-run",
           "shell": "bash", "user": user, "recorded_cwd": d}
    for k in ("explain_contains", "context", "cwd", "note"):
        if k in extra:
            out[k] = extra[k]
    return out, ""


def main():
    ids = set(sys.argv[1:])
    for case in CASES:
        if ids and case[0] not in ids:
            continue
        rec, why = run(case)
        if rec is None:
            print("skip %s: %s" % (case[0], why), file=sys.stderr)
            continue
        print(json.dumps(rec, ensure_ascii=False))


if __name__ == "__main__":
    main()
