#!/usr/bin/env python3
"""Record longtail.jsonl: 300+ real failures of tools not in public.jsonl/recorded.jsonl.

Same machinery as record.py (each case's setup replayed in /tmp/hookd-rec/<id>, the command
run for real with bash, its real status and output kept). The expected fixes were written
from what each tool printed, before looking at what hookd offers. Every case carries a
`tool` field (the program the failure is about) and a `split` field: "heldout" for a third
of the cases chosen by a hash of the id (sha256(id)[0] % 3 == 0), "fit" for the rest. Rules
are written against "fit" only.

    python3 record_long.py > longtail.jsonl
"""
import hashlib
import json
import sys

import record

S = ("printf 'alpha\\nbeta\\ngamma\\n' > notes.txt && printf 'a,b\\n1,2\\n' > data.csv && "
     "printf '{\"name\":\"x\",\"items\":[1,2]}\\n' > data.json && mkdir -p src && "
     "printf '#include <stdio.h>\\nint main(void){puts(\"hi\");return 0;}\\n' > src/main.c && "
     "printf 'alpha\\nbeta\\n' > old.txt && printf 'alpha\\nBETA\\n' > new.txt && "
     "printf '#!/bin/sh\\necho ok\\n' > script.sh && printf 'export APP_ENV=dev\\n' > env.sh && "
     "printf 'print(\"hi\")\\n' > app.py && printf 'console.log(1)\\n' > server.js && "
     "tar czf archive.tar.gz notes.txt && gzip -kf old.txt")
ZIP = S + " && python3 -c \"import zipfile;z=zipfile.ZipFile('archive.zip','w');z.write('notes.txt');z.close()\""
GIT = ("git init -q -b main && git config user.email dev@example.com && git config user.name Dev && "
       "echo hi > README.md && git add . && git commit -qm init")
DB = S + " && sqlite3 app.db 'create table users(id integer, name text); insert into users values(1,\"a\");'"
JAVA = ("printf 'public class Hello { public static void main(String[] a){ System.out.println(\"hi\"); } }\\n' > Hello.java")
MK = "printf 'build:\\n\\t@echo build\\ntest:\\n\\t@echo test\\nclean:\\n\\t@echo clean\\n' > Makefile"
PKG = ("printf '{\"name\":\"web\",\"version\":\"1.0.0\",\"scripts\":{\"dev\":\"node server.js\",\"build\":\"node server.js\",\"lint\":\"node server.js\"}}\\n' > package.json && " + S)
GO = "printf 'module example.com/app\\n\\ngo 1.22\\n' > go.mod && printf 'package main\\n\\nfunc main() {}\\n' > main.go"
RS = "printf 'fn main() { println!(\"hi\"); }\\n' > main.rs"
PL = S + " && printf 'print \"hi\\\\n\";\\n' > script.pl && printf 'puts hi\\n' > script.tcl"
PATCH = S + " && (diff -u old.txt new.txt > fix.patch; true)"

C = []  # (id, tool, category, setup, command, expected, extra)


def add(tool, cat, setup, command, expected, **extra):
    n = sum(1 for c in C if c[1] == tool) + 1
    C.append(("lt-%s-%d" % (tool.replace("/", "-"), n), tool, cat, setup, command, expected, extra))


# --- long option typos (GNU getopt: "unrecognized option") -------------------------------
for tool, cmd, fix in [
    ("sort", "sort --reverze notes.txt", "sort --reverse notes.txt"),
    ("sort", "sort --numric-sort data.csv", "sort --numeric-sort data.csv"),
    ("uniq", "uniq --cuont notes.txt", "uniq --count notes.txt"),
    ("uniq", "uniq --ignore-cse notes.txt", "uniq --ignore-case notes.txt"),
    ("head", "head --lnes=2 notes.txt", "head --lines=2 notes.txt"),
    ("head", "head --byts=4 notes.txt", "head --bytes=4 notes.txt"),
    ("tail", "tail --lnies=1 notes.txt", "tail --lines=1 notes.txt"),
    ("tail", "tail --folow notes.txt", "tail --follow notes.txt"),
    ("cut", "cut --delimter=, -f1 data.csv", "cut --delimiter=, -f1 data.csv"),
    ("cut", "cut -d, --feilds=2 data.csv", "cut -d, --fields=2 data.csv"),
    ("tr", "tr --delte a", "tr --delete a"),
    ("diff", "diff --unifed old.txt new.txt", "diff --unified old.txt new.txt"),
    ("diff", "diff --ignroe-case old.txt new.txt", "diff --ignore-case old.txt new.txt"),
    ("stat", "stat --formt=%s notes.txt", "stat --format=%s notes.txt"),
    ("readlink", "readlink --canonicalise notes.txt", "readlink --canonicalize notes.txt"),
    ("realpath", "realpath --relativ-to=src notes.txt", "realpath --relative-to=src notes.txt"),
    ("df", "df --humna-readable", "df --human-readable"),
    ("xargs", "xargs --nulll echo", "xargs --null echo"),
    ("tee", "tee --apend out.txt", "tee --append out.txt"),
    ("env", "env --unste=HOME true", "env --unset=HOME true"),
    ("timeout", "timeout --singal=KILL 1 true", "timeout --signal=KILL 1 true"),
    ("date", "date --daet=yesterday", "date --date=yesterday"),
    ("date", "date --utcc", "date --utc"),
    ("base64", "base64 --deocde notes.txt", "base64 --decode notes.txt"),
    ("sha256sum", "sha256sum --chek sums.txt", "sha256sum --check sums.txt"),
    ("md5sum", "md5sum --chekc sums.txt", "md5sum --check sums.txt"),
    ("seq", "seq --separtor=, 1 3", "seq --separator=, 1 3"),
    ("nl", "nl --body-numberng=a notes.txt", "nl --body-numbering=a notes.txt"),
    ("od", "od --formt=x1 notes.txt", "od --format=x1 notes.txt"),
    ("split", "split --lnes=1 notes.txt", "split --lines=1 notes.txt"),
    ("truncate", "truncate --sze=0 notes.txt", "truncate --size=0 notes.txt"),
    ("mktemp", "mktemp --directroy", "mktemp --directory"),
    ("basename", "basename --suffx=.txt notes.txt", "basename --suffix=.txt notes.txt"),
    ("install", "install --mdoe=755 script.sh bin.sh", "install --mode=755 script.sh bin.sh"),
    ("cat", "cat --numbr notes.txt", "cat --number notes.txt"),
    ("cat", "cat --show-al notes.txt", "cat --show-all notes.txt"),
    ("rmdir", "rmdir --parnts src", "rmdir --parents src"),
    ("chown", "chown --referense=notes.txt old.txt", "chown --reference=notes.txt old.txt"),
    ("chgrp", "chgrp --recusive root src", "chgrp --recursive root src"),
    ("comm", "comm --check-ordr old.txt new.txt", "comm --check-order old.txt new.txt"),
    ("join", "join --ignor-case old.txt new.txt", "join --ignore-case old.txt new.txt"),
    ("paste", "paste --delimters=, old.txt new.txt", "paste --delimiters=, old.txt new.txt"),
    ("iconv", "iconv --from-cod=latin1 notes.txt", "iconv --from-code=latin1 notes.txt"),
    ("file", "file --mime-typ notes.txt", "file --mime-type notes.txt"),
    ("gzip", "gzip --decomprss old.txt.gz", "gzip --decompress old.txt.gz"),
    ("gzip", "gzip --keeep notes.txt", "gzip --keep notes.txt"),
    ("bzip2", "bzip2 --decomprss notes.txt.bz2", "bzip2 --decompress notes.txt.bz2"),
    ("xz", "xz --decomprss notes.txt.xz", "xz --decompress notes.txt.xz"),
    ("xz", "xz --keeep notes.txt", "xz --keep notes.txt"),
    ("zstd", "zstd --decomprss notes.txt.zst", "zstd --decompress notes.txt.zst"),
    ("nm", "nm --defind-only a.out", "nm --defined-only a.out"),
    ("objdump", "objdump --dissasemble a.out", "objdump --disassemble a.out"),
    ("wget", "wget --no-check-certficate http://127.0.0.1:9/x", "wget --no-check-certificate http://127.0.0.1:9/x"),
    ("wget", "wget --quite http://127.0.0.1:9/x", "wget --quiet http://127.0.0.1:9/x"),
    ("hostname", "hostname --fdqn", "hostname --fqdn"),
    ("journalctl", "journalctl --sinc today", "journalctl --since today"),
    ("journalctl", "journalctl --unti=ssh", "journalctl --unit=ssh"),
    ("gpg", "gpg --lst-keys", "gpg --list-keys"),
    ("gpg", "gpg --verfiy notes.txt.sig", "gpg --verify notes.txt.sig"),
    ("shellcheck", "shellcheck --shel=bash script.sh", "shellcheck --shell=bash script.sh"),
    ("shellcheck", "shellcheck --severty=error script.sh", "shellcheck --severity=error script.sh"),
    ("valgrind", "valgrind --leak-chek=full ./a.out", "valgrind --leak-check=full ./a.out"),
    ("rustc", "rustc --edtion 2021 main.rs", "rustc --edition 2021 main.rs"),
    ("gdb", "gdb --bacth ./a.out", "gdb --batch ./a.out"),
    ("jq", "jq --raw-ouput .name data.json", "jq --raw-output .name data.json"),
    ("jq", "jq --slrup . data.json", "jq --slurp . data.json"),
    ("psql", "psql --hots localhost", "psql --host localhost"),
    ("vim", "vim --versoin", "vim --version"),
    ("perl", "perl --versoin", "perl --version"),
    ("java", "java --verison", "java --version"),
    ("javac", "javac --verison", "javac --version"),
    ("node", "node --verison", "node --version"),
    ("tar", "tar --extarct -f archive.tar.gz", "tar --extract -f archive.tar.gz"),
    ("ls", "ls --all --humna-readable", "ls --all --human-readable"),
    ("grep", "grep --ignroe-case alpha notes.txt", "grep --ignore-case alpha notes.txt"),
    ("grep", "grep --recusive alpha .", "grep --recursive alpha ."),
    ("sed", "sed --in-plcae s/a/b/ notes.txt", "sed --in-place s/a/b/ notes.txt"),
    ("cp", "cp --recusive src src2", "cp --recursive src src2"),
    ("mv", "mv --no-clober notes.txt n2.txt", "mv --no-clobber notes.txt n2.txt"),
    ("rm", "rm --recusive src", "rm --recursive src"),
    ("mkdir", "mkdir --parnts a/b", "mkdir --parents a/b"),
    ("ln", "ln --symbolc notes.txt link.txt", "ln --symbolic notes.txt link.txt"),
    ("touch", "touch --no-creat x.txt", "touch --no-create x.txt"),
    ("du", "du --summarise src", "du --summarize src"),
    ("wc", "wc --lnes notes.txt", "wc --lines notes.txt"),
    ("curl", "curl --insecrue http://127.0.0.1:9/", "curl --insecure http://127.0.0.1:9/"),
    ("ssh", "ssh -o StrictHostKeyCheckng=no 127.0.0.1", "ssh -o StrictHostKeyChecking=no 127.0.0.1"),
]:
    extra = {}
    setup = S
    if tool in ("nm", "objdump", "valgrind", "gdb"):
        setup = S + " && gcc -o a.out src/main.c"
    if tool in ("sha256sum", "md5sum"):
        setup = S + " && %s notes.txt > sums.txt" % tool
    if tool in ("bzip2", "xz", "zstd") and "decomprss" in cmd:
        setup = S + " && %s -k notes.txt" % tool
    if tool == "rustc":
        setup = RS
    add(tool, "option-typo", setup, cmd, [fix], **extra)

# --- files named wrong (a similar name exists) --------------------------------------------
for tool, cmd, fix in [
    ("cat", "cat note.txt", "cat notes.txt"),
    ("head", "head -n 2 notse.txt", "head -n 2 notes.txt"),
    ("tail", "tail -n 1 notes.tx", "tail -n 1 notes.txt"),
    ("sort", "sort -t, -k2 data.cvs", "sort -t, -k2 data.csv"),
    ("uniq", "uniq -c nots.txt", "uniq -c notes.txt"),
    ("cut", "cut -d, -f1 dat.csv", "cut -d, -f1 data.csv"),
    ("diff", "diff old.txt nwe.txt", "diff old.txt new.txt"),
    ("diff", "diff -u odl.txt new.txt", "diff -u old.txt new.txt"),
    ("wc", "wc -l data.cvs", "wc -l data.csv"),
    ("stat", "stat notes.tx", "stat notes.txt"),
    ("file", "file scirpt.sh", "file script.sh"),
    ("less", "less notess.txt", "less notes.txt"),
    ("jq", "jq .name dta.json", "jq .name data.json"),
    ("jq", "jq '.items[]' data.jsn", "jq '.items[]' data.json"),
    ("python3", "python3 ap.py", "python3 app.py"),
    ("python3", "python3 -m json.tool dat.json", "python3 -m json.tool data.json"),
    ("node", "node srever.js", "node server.js"),
    ("node", "node sever.js", "node server.js"),
    ("perl", "perl scirpt.pl", "perl script.pl"),
    ("tclsh", "tclsh scrpt.tcl", "tclsh script.tcl"),
    ("bash", "bash scirpt.sh", "bash script.sh"),
    ("sh", "sh scrip.sh", "sh script.sh"),
    ("zsh", "zsh scipt.sh", "zsh script.sh"),
    ("shellcheck", "shellcheck scirpt.sh", "shellcheck script.sh"),
    ("gcc", "gcc -o app src/mian.c", "gcc -o app src/main.c"),
    ("gcc", "gcc main.c", "gcc src/main.c"),
    ("g++", "g++ -o app src/mian.c", "g++ -o app src/main.c"),
    ("tar", "tar xzf archve.tar.gz", "tar xzf archive.tar.gz"),
    ("tar", "tar tf archive.tgz", "tar tf archive.tar.gz"),
    ("gunzip", "gunzip ol.txt.gz", "gunzip old.txt.gz"),
    ("gzip", "gzip -d old.tx.gz", "gzip -d old.txt.gz"),
    ("unzip", "unzip arhcive.zip", "unzip archive.zip"),
    ("unzip", "unzip -l archive.zp", "unzip -l archive.zip"),
    ("zip", "zip out.zip note.txt", "zip out.zip notes.txt"),
    ("base64", "base64 nots.txt", "base64 notes.txt"),
    ("sha256sum", "sha256sum notes.tx", "sha256sum notes.txt"),
    ("md5sum", "md5sum dat.csv", "md5sum data.csv"),
    ("grep", "grep alpha note.txt", "grep alpha notes.txt"),
    ("awk", "awk '{print $1}' nots.txt", "awk '{print $1}' notes.txt"),
    ("sed", "sed -n 1p notse.txt", "sed -n 1p notes.txt"),
    ("cp", "cp note.txt backup.txt", "cp notes.txt backup.txt"),
    ("mv", "mv nots.txt done.txt", "mv notes.txt done.txt"),
    ("chmod", "chmod +x scrip.sh", "chmod +x script.sh"),
    ("ls", "ls -l notes.tx", "ls -l notes.txt"),
    ("od", "od -c nots.txt", "od -c notes.txt"),
    ("xxd", "xxd notes.tx", "xxd notes.txt"),
    ("nl", "nl note.txt", "nl notes.txt"),
    ("tac", "tac notse.txt", "tac notes.txt"),
    ("rev", "rev nots.txt", "rev notes.txt"),
    ("strings", "strings note.txt", "strings notes.txt"),
    ("iconv", "iconv -f latin1 -t utf-8 nots.txt", "iconv -f latin1 -t utf-8 notes.txt"),
    ("sqlite3", "sqlite3 -readonly ap.db .tables", "sqlite3 -readonly app.db .tables"),
    ("patch", "patch -p0 -i fix.pach", "patch -p0 -i fix.patch"),
    ("source", "source evn.sh", "source env.sh"),
    (".", ". ./evn.sh", ". ./env.sh"),
    ("redirect", "sort < nots.txt", "sort < notes.txt"),
    ("redirect", "wc -l < dat.csv", "wc -l < data.csv"),
    ("redirect", "python3 app.py < input.txt", None),
    ("cd", "cd src/main.c", "cd src"),
    ("cd", "cd notes.txt", None),
    ("cd", "cd scr", "cd src"),
    ("rsync", "rsync -a note.txt backup/", "rsync -a notes.txt backup/"),
    ("7z", "7z x arhcive.zip", "7z x archive.zip"),
    ("rg", "rg alpha note.txt", "rg alpha notes.txt"),
    ("java", "java -jar ap.jar", None),
    ("javac", "javac hello.java", "javac Hello.java"),
    ("javac", "javac Helo.java", "javac Hello.java"),
    ("go", "go run mian.go", "go run main.go"),
    ("go", "go vet ./mian.go", "go vet ./main.go"),
    ("rustc", "rustc mian.rs", "rustc main.rs"),
    ("gdb", "gdb ./a.ot", "gdb ./a.out"),
    ("objdump", "objdump -d a.ot", "objdump -d a.out"),
    ("ldd", "ldd a.ot", "ldd a.out"),
    ("nm", "nm a.ot", "nm a.out"),
    ("valgrind", "valgrind ./a.ot", "valgrind ./a.out"),
    ("strace", "strace ./a.ot", "strace ./a.out"),
    ("tmux", "tmux source-file tmux.cnf", None),
]:
    setup = S
    if tool in ("unzip", "7z"):
        setup = ZIP
    if tool == "sqlite3":
        setup = DB
    if tool in ("perl", "tclsh"):
        setup = PL
    if tool == "patch":
        setup = PATCH
    if tool in ("javac", "java"):
        setup = JAVA
    if tool == "go":
        setup = GO
    if tool == "rustc":
        setup = RS
    if tool in ("gdb", "objdump", "ldd", "nm", "valgrind", "strace"):
        setup = S + " && gcc -o a.out src/main.c"
    if tool == "zsh":
        cmd2 = cmd
    if fix is None:
        exp, ex = [], {"explain_contains": [{"redirect": "input.txt", "cd": "directory", "java": "ap.jar",
                                               "vim": "", "tmux": "tmux.cnf"}[tool] or "old.txt"]}
        add(tool, "file", setup, cmd, exp, **ex)
    else:
        add(tool, "file", setup, cmd, [fix])

# --- subcommand typos ----------------------------------------------------------------------
for tool, cmd, fix, setup in [
    ("openssl", "openssl x590 -in cert.pem -noout", "openssl x509 -in cert.pem -noout", ""),
    ("openssl", "openssl s_clinet -connect 127.0.0.1:9", "openssl s_client -connect 127.0.0.1:9", ""),
    ("openssl", "openssl genrsaa -out k.pem 2048", "openssl genrsa -out k.pem 2048", ""),
    ("openssl", "openssl rnad -hex 8", "openssl rand -hex 8", ""),
    ("openssl", "openssl dgest -sha256 notes.txt", "openssl dgst -sha256 notes.txt", S),
    ("tmux", "tmux new-sesion -d -s work", "tmux new-session -d -s work", ""),
    ("tmux", "tmux lsit-sessions", "tmux list-sessions", ""),
    ("tmux", "tmux attahc -t work", "tmux attach -t work", ""),
    ("tmux", "tmux kill-sesion -t work", "tmux kill-session -t work", ""),
    ("tmux", "tmux splt-window", "tmux split-window", ""),
    ("apt-cache", "apt-cache shw curl", "apt-cache show curl", ""),
    ("apt-cache", "apt-cache serach ripgrep", "apt-cache search ripgrep", ""),
    ("apt-cache", "apt-cache polcy curl", "apt-cache policy curl", ""),
    ("apt-cache", "apt-cache depnds curl", "apt-cache depends curl", ""),
    ("apt", "apt serach ripgrep", "apt search ripgrep", ""),
    ("apt", "apt isntall jq", "apt install jq", ""),
    ("apt", "apt shwo curl", "apt show curl", ""),
    ("apt", "apt upgarde", "apt upgrade", ""),
    ("apt-get", "apt-get udpate", "apt-get update", ""),
    ("apt-get", "apt-get remvoe jq", "apt-get remove jq", ""),
    ("loginctl", "loginctl lsit-sessions", "loginctl list-sessions", ""),
    ("loginctl", "loginctl show-sesion 1", "loginctl show-session 1", ""),
    ("timedatectl", "timedatectl stauts", "timedatectl status", ""),
    ("timedatectl", "timedatectl lsit-timezones", "timedatectl list-timezones", ""),
    ("hostnamectl", "hostnamectl stauts", "hostnamectl status", ""),
    ("localectl", "localectl stauts", "localectl status", ""),
    ("localectl", "localectl list-locals", "localectl list-locales", ""),
    ("systemctl", "systemctl list-unit", "systemctl list-units", ""),
    ("systemctl", "systemctl daemon-relaod", "systemctl daemon-reload", ""),
    ("journalctl", "journalctl --list-boot", "journalctl --list-boots", ""),
    ("git", "git bisect goood", "git bisect good", GIT),
    ("git", "git stash lsit", "git stash list", GIT),
    ("git", "git remote ad origin https://example.com/r.git", "git remote add origin https://example.com/r.git", GIT),
    ("git", "git worktree lsit", "git worktree list", GIT),
    ("git", "git submodule updte", "git submodule update", GIT),
    ("git", "git config --globl user.name Dev", "git config --global user.name Dev", GIT),
    ("git", "git log --onelin", "git log --oneline", GIT),
    ("git", "git commit --ammend", "git commit --amend", GIT),
    ("go", "go mod tidyy", "go mod tidy", GO),
    ("go", "go tset ./...", "go test ./...", GO),
    ("go", "go env GOPAHT", None, GO),
    ("cargo", "cargo chekc", "cargo check", ""),
    ("cargo", "cargo fmtt", "cargo fmt", ""),
    ("npm", "npm run lnit", "npm run lint", PKG),
    ("npm", "npm run dve", "npm run dev", PKG),
    ("npm", "npm uninstal lodash", "npm uninstall lodash", PKG),
    ("npm", "npm outdate", "npm outdated", PKG),
    ("npm", "npm confg list", "npm config list", PKG),
    ("pip3", "pip3 lsit", "pip3 list", ""),
    ("pip3", "pip3 shwo requests", "pip3 show requests", ""),
    ("pip3", "pip3 freez", "pip3 freeze", ""),
    ("docker", "docker biuld .", "docker build .", ""),
    ("docker", "docker comose up", "docker compose up", ""),
    ("docker", "docker contianer ls", "docker container ls", ""),
    ("docker", "docker netwrok ls", "docker network ls", ""),
    ("docker", "docker volme ls", "docker volume ls", ""),
    ("docker", "docker exce -it web sh", "docker exec -it web sh", ""),
    ("docker", "docker rn -it alpine", "docker run -it alpine", ""),
    ("docker", "docker lgos web", "docker logs web", ""),
    ("hg", "hg base", None, ""),
    ("hg", "hg stauts", "hg status", "hg init -q ."),
    ("hg", "hg lgo", "hg log", "hg init -q ."),
    ("hg", "hg dif", "hg diff", "hg init -q ."),
    ("mvn", "mvn clean isntall", "mvn clean install", "printf '<project><modelVersion>4.0.0</modelVersion><groupId>x</groupId><artifactId>y</artifactId><version>1</version></project>\\n' > pom.xml"),
    ("mvn", "mvn -o pakage", "mvn -o package", "printf '<project><modelVersion>4.0.0</modelVersion><groupId>x</groupId><artifactId>y</artifactId><version>1</version></project>\\n' > pom.xml"),
    ("make", "make tset", "make test", MK),
    ("make", "make biuld", "make build", MK),
    ("make", "make claen", "make clean", MK),
    ("sqlite3", "sqlite3 app.db .tabels", "sqlite3 app.db .tables", DB),
    ("sqlite3", "sqlite3 app.db .schmea", "sqlite3 app.db .schema", DB),
    ("sqlite3", "sqlite3 app.db 'select * from user'", "sqlite3 app.db 'select * from users'", DB),
    ("sqlite3", "sqlite3 app.db 'SELEC * FROM users'", "sqlite3 app.db 'SELECT * FROM users'", DB),
    ("gpg", "gpg --gen-kye", "gpg --gen-key", ""),
    ("dpkg", "dpkg --lsit", "dpkg --list", ""),
    ("dpkg", "dpkg --listfils coreutils", "dpkg --listfiles coreutils", ""),
    ("dpkg", "dpkg -L nosuchpackage-xyz", None, ""),
    ("rustup", "rustup updte", "rustup update", ""),
    ("strace", "strace -e trace=opn ls", "strace -e trace=open ls", ""),
    ("strace", "strace -e trace=opneat ls", "strace -e trace=openat ls", ""),
    ("rg", "rg --tpye py alpha", "rg --type py alpha", S),
    ("rg", "rg -t pyhton alpha", "rg -t py alpha", S),
    ("rg", "rg --hiden alpha", "rg --hidden alpha", S),
    ("fdfind", "fdfind --extention txt", "fdfind --extension txt", S),
    ("fdfind", "fdfind --tpye f notes", "fdfind --type f notes", S),
    ("rsync", "rsync -a --exlude=src ./ ../bk/", "rsync -a --exclude=src ./ ../bk/", S),
    ("rsync", "rsync --archve src/ ../bk/", "rsync --archive src/ ../bk/", S),
    ("7z", "7z lsit archive.zip", "7z l archive.zip", ZIP),
    ("hg", "hg comit -m wip", "hg commit -m wip", "hg init -q ."),
    ("find", "find . -nmae '*.txt'", "find . -name '*.txt'", S),
    ("find", "find . -tpye f", "find . -type f", S),
    ("find", "find . -iname '*.TXT' -mtim -1", "find . -iname '*.TXT' -mtime -1", S),
    ("find", "find . -maxdepht 1", "find . -maxdepth 1", S),
    ("awk", "awk --field-seperator=, '{print $1}' data.csv", "awk -F, '{print $1}' data.csv", S),
]:
    if fix is None:
        add(tool, "subcommand", setup, cmd, [], explain_contains=[{"go": "GOPAHT", "hg": "base", "dpkg": "not installed"}[tool]])
    else:
        add(tool, "subcommand", setup, cmd, [fix])

# --- habits from other systems and invalid short options ---------------------------------
for tool, cmd, exp, setup in [
    ("tail", "tail -r notes.txt", ["tac notes.txt"], S),
    ("sed", "sed -i '' 's/alpha/omega/' notes.txt", ["sed -i 's/alpha/omega/' notes.txt"], S),
    ("date", "date -v-1d", ["date -d yesterday", "date -d '-1 day'", "date -d '1 day ago'"], ""),
    ("stat", "stat -f %z notes.txt", ["stat -c %s notes.txt"], S),
    ("base64", "base64 -D notes.txt", ["base64 -d notes.txt"], S),
    ("md5", "md5 notes.txt", ["md5sum notes.txt"], S),
    ("shasum", "sha256 notes.txt", ["sha256sum notes.txt"], S),
    ("ls", "ls -G -l", ["ls --color -l", "ls -l --color", "ls -l"], S),
    ("xargs", "xargs -a nolist.txt echo", [], S),
    ("kill", "kill -9 nginx", ["pkill -9 nginx", "killall -9 nginx"], ""),
    ("kill", "kill 4999999", [], ""),
    ("head", "head -z5 notes.txt", ["head -n 5 notes.txt", "head -5 notes.txt"], S),
    ("cut", "cut -f1 -d notes.txt", [], S),
    ("grep", "grep -P -E alpha notes.txt", ["grep -P alpha notes.txt", "grep -E alpha notes.txt"], S),
    ("sort", "sort -j notes.txt", [], S),
    ("uniq", "uniq -q notes.txt", [], S),
    ("wc", "wc -x notes.txt", [], S),
    ("cp", "cp -y notes.txt n.txt", [], S),
    ("mkdir", "mkdir /proc/hookd-x", [], ""),
    ("mkdir", "mkdir /sys/hookd-x", [], ""),
    ("mkdir", "mkdir build/out", ["mkdir -p build/out"], ""),
    ("touch", "touch logs/today.log", ["mkdir -p logs && touch logs/today.log"], ""),
    ("tee", "echo x | tee logs/a.log", ["mkdir -p logs && echo x | tee logs/a.log"], ""),
    ("redirect", "echo x > logs/a.log", ["mkdir -p logs && echo x > logs/a.log"], ""),
    ("ln", "ln -s notes.txt", [], S),
    ("rmdir", "rmdir src", ["rm -r src", "rm -rf src"], S),
    ("rm", "rm -d src", ["rm -r src", "rm -rf src"], S),
    ("tar", "tar czf out.tar.gz", [], S),
    ("tar", "tar -cvf", [], S),
    ("tar", "tar xf notes.txt", [], S),
    ("gunzip", "gunzip notes.txt", [], S),
    ("unzip", "unzip archive.tar.gz", ["tar xzf archive.tar.gz", "tar -xzf archive.tar.gz", "tar xf archive.tar.gz"], S),
    ("tar", "tar xzf archive.zip", ["unzip archive.zip"], ZIP),
    ("zip", "zip -r out.zip scr", ["zip -r out.zip src"], S),
    ("7z", "7z x", [], S),
    ("url", "https://github.com/hookd-example/app.git", ["git clone https://github.com/hookd-example/app.git"], ""),
    ("url", "git@github.com:hookd-example/app.git", ["git clone git@github.com:hookd-example/app.git"], ""),
    ("url", "https://example.com/install.sh", ["curl -fsSL https://example.com/install.sh", "curl -O https://example.com/install.sh", "wget https://example.com/install.sh", "curl -fsSLO https://example.com/install.sh"], ""),
    ("url", "http://127.0.0.1:9/file.tar.gz", ["curl -O http://127.0.0.1:9/file.tar.gz", "wget http://127.0.0.1:9/file.tar.gz", "curl -fsSLO http://127.0.0.1:9/file.tar.gz"], ""),
    ("source", "source missing.sh", [], ""),
    ("source", "source", [], ""),
    ("redirect", "cat < missing.txt", [], ""),
    ("cd", "cd -P notes.txt", [], S),
    ("export", "export APP ENV=dev", ["export APP_ENV=dev"], ""),
    ("export", "export 1APP=dev", [], ""),
    ("alias", "alias ll = 'ls -l'", ["alias ll='ls -l'"], ""),
    ("unset", "unset -z X", [], ""),
    ("history", "histroy", ["history"], ""),
    ("clear", "claer", ["clear"], ""),
    ("make", "mkae", ["make"], MK),
    ("tail", "tial -n 1 notes.txt", ["tail -n 1 notes.txt"], S),
    ("wget", "wegt http://127.0.0.1:9/x", ["wget http://127.0.0.1:9/x"], ""),
    ("docker", "dokcer ps", ["docker ps"], ""),
    ("tmux", "tmxu ls", ["tmux ls"], ""),
    ("jq", "jqq .name data.json", ["jq .name data.json"], S),
    ("sqlite3", "sqlite data.db", ["sqlite3 data.db"], ""),
    ("grep", "grpe alpha notes.txt", ["grep alpha notes.txt"], S),
    ("shellcheck", "shelcheck script.sh", ["shellcheck script.sh"], S),
    ("python3", "pyhton app.py", ["python3 app.py", "python app.py"], S),
    ("perl", "pelr -e 1", ["perl -e 1"], ""),
    ("less", "les notes.txt", ["less notes.txt"], S),
    ("vim", "vmi notes.txt", ["vim notes.txt"], S),
    ("vim", "ivm notes.txt", ["vim notes.txt"], S),
    ("nano", "nano notes.txt", ["vim notes.txt", "vi notes.txt"], S),
    ("code", "code .", [], ""),
    ("emacs", "emacs notes.txt", ["vim notes.txt", "vi notes.txt"], S),
    ("man", "man gti", ["man git"], ""),
    ("man", "man 3 prinf", ["man 3 printf"], ""),
    ("man", "man tmx", ["man tmux"], ""),
    ("awk", "awk '{print $1' notes.txt", ["awk '{print $1}' notes.txt"], S),
    ("awk", "awk -F, '{print $3}' nodata.csv", ["awk -F, '{print $3}' data.csv"], S),
    ("expr", "expr 1 +", [], ""),
    ("bc", "bc -z", [], ""),
    ("dd", "dd iff=notes.txt of=out.txt", ["dd if=notes.txt of=out.txt"], S),
    ("dd", "dd if=notes.txt of=out.txt bs=1X", ["dd if=notes.txt of=out.txt bs=1K", "dd if=notes.txt of=out.txt bs=1k"], S),
    ("chown", "chown root notes.txt", ["sudo chown root notes.txt"], "printf x > notes.txt && chmod 666 notes.txt && chown 65534 notes.txt"),
    ("useradd", "useradd bob", ["sudo useradd bob"], ""),
    ("groupadd", "groupadd devs", ["sudo groupadd devs"], ""),
    ("cat", "cat /etc/shadow", ["sudo cat /etc/shadow"], ""),
    ("tee", "echo 1 | tee /etc/hookd-x.conf", ["echo 1 | sudo tee /etc/hookd-x.conf"], ""),
    ("mkdir", "mkdir /opt/hookd-app", ["sudo mkdir /opt/hookd-app"], ""),
    ("cp", "cp notes.txt /etc/", ["sudo cp notes.txt /etc/"], "printf x > notes.txt && chmod 644 notes.txt"),
    ("systemctl", "systemctl restart ssh", ["sudo systemctl restart ssh"], ""),
    ("apt-get", "apt-get remove jq", ["sudo apt-get remove jq"], ""),
    ("dpkg", "dpkg -i pkg.deb", ["sudo dpkg -i pkg.deb"], "printf x > pkg.deb"),
]:
    extra = {}
    if cmd.startswith(("chown root", "useradd", "groupadd", "cat /etc/shadow", "echo 1 | tee /etc",
                       "mkdir /opt", "cp notes.txt /etc", "systemctl restart", "apt-get remove",
                       "dpkg -i")):
        extra["user"] = "nobody"
    if not exp:
        extra["explain_contains"] = []
    add(tool, "habit", setup, cmd, exp, **extra)

# --- missing modules, packages, headers, libraries ------------------------------------------
for tool, cmd, exp, setup in [
    ("python3", "python3 -c 'import yaml'", ["pip install pyyaml", "pip3 install pyyaml", "python3 -m pip install pyyaml", "apt-get install python3-yaml", "apt install python3-yaml"], ""),
    ("python3", "python3 -c 'import PIL'", ["pip install pillow", "pip3 install pillow", "python3 -m pip install pillow", "apt-get install python3-pil", "apt install python3-pil"], ""),
    ("python3", "python3 -c 'import bs4'", ["pip install beautifulsoup4", "pip3 install beautifulsoup4", "python3 -m pip install beautifulsoup4", "apt-get install python3-bs4", "apt install python3-bs4"], ""),
    ("python3", "python3 -c 'import sklearn'", ["pip install scikit-learn", "pip3 install scikit-learn", "python3 -m pip install scikit-learn"], ""),
    ("python3", "python3 -c 'import cv2'", ["pip install opencv-python", "pip3 install opencv-python", "python3 -m pip install opencv-python"], ""),
    ("python3", "python3 -c 'import dateutil'", ["pip install python-dateutil", "pip3 install python-dateutil", "python3 -m pip install python-dateutil", "apt-get install python3-dateutil", "apt install python3-dateutil"], ""),
    ("python3", "python3 -c 'import flask'", ["pip install flask", "pip3 install flask", "python3 -m pip install flask", "apt-get install python3-flask", "apt install python3-flask"], ""),
    ("python3", "python3 -c 'from dotenv import load_dotenv'", ["pip install python-dotenv", "pip3 install python-dotenv", "python3 -m pip install python-dotenv"], ""),
    ("python3", "python3 -m pytest", ["pip install pytest", "pip3 install pytest", "python3 -m pip install pytest", "apt-get install python3-pytest", "apt install python3-pytest"], ""),
    ("python3", "python3 -m venv", [], ""),
    ("python3", "python3 app.py --port", [], "printf 'import argparse\\np=argparse.ArgumentParser()\\np.add_argument(\"--port\", type=int)\\np.parse_args()\\n' > app.py"),
    ("python3", "python3 app.py --prot 80", ["python3 app.py --port 80"], "printf 'import argparse\\np=argparse.ArgumentParser()\\np.add_argument(\"--port\", type=int)\\np.parse_args()\\n' > app.py"),
    ("python3", "python3 -c 'import requets'", ["python3 -c 'import requests'"], ""),
    ("pip3", "pip3 install requests", ["pip3 install --break-system-packages requests", "apt-get install python3-requests", "apt install python3-requests", "pipx install requests"], ""),
    ("pip3", "pip3 install -r requirement.txt", ["pip3 install -r requirements.txt"], "printf 'requests\\n' > requirements.txt"),
    ("node", "node -e \"require('express')\"", ["npm install express", "npm i express"], ""),
    ("node", "node -e \"require('lodsh')\"", ["node -e \"require('lodash')\""], ""),
    ("node", "node -e \"require('./lib/util')\"", [], ""),
    ("node", "node server.mjs", ["node server.js"], S),
    ("node", "node -e 'import(\"chalk\")'", ["npm install chalk", "npm i chalk"], ""),
    ("npm", "npm run", [], PKG),
    ("npm", "npm run start", ["npm run dev"], PKG),
    ("npm", "npm tset", ["npm test"], PKG),
    ("npx", "npx --no-install cowsay hi", ["npm install cowsay", "npx cowsay hi", "npm i cowsay"], ""),
    ("perl", "perl -MJSON::XS -e 1", ["cpan JSON::XS", "apt-get install libjson-xs-perl", "apt install libjson-xs-perl", "cpanm JSON::XS"], ""),
    ("perl", "perl -MYAML -e 1", ["cpan YAML", "apt-get install libyaml-perl", "apt install libyaml-perl", "cpanm YAML"], ""),
    ("perl", "perl -MText::CSV -e 1", ["cpan Text::CSV", "apt-get install libtext-csv-perl", "apt install libtext-csv-perl", "cpanm Text::CSV"], ""),
    ("perl", "perl -e 'print \"hi\\n\"", [], ""),
    ("tclsh", "tclsh nosuch.tcl", [], ""),
    ("gcc", "gcc -o z z.c", ["apt-get install zlib1g-dev", "apt install zlib1g-dev"], "printf '#include <zlib.h>\\nint main(void){return 0;}\\n' > z.c"),
    ("gcc", "gcc -o ssl s.c", ["apt-get install libssl-dev", "apt install libssl-dev"], "printf '#include <openssl/ssl.h>\\nint main(void){return 0;}\\n' > s.c"),
    ("gcc", "gcc -o curl c.c", ["apt-get install libcurl4-openssl-dev", "apt install libcurl4-openssl-dev", "apt-get install libcurl4-gnutls-dev"], "printf '#include <curl/curl.h>\\nint main(void){return 0;}\\n' > c.c"),
    ("gcc", "gcc -o m m.c", ["gcc -o m m.c -lm"], "printf '#include <math.h>\\n#include <stdio.h>\\nint main(int c,char**v){printf(\"%%f\",sqrt((double)c));return 0;}\\n' > m.c"),
    ("gcc", "gcc -o app app.c", ["gcc -o app app.c -lsqlite3"], "printf '#include <stdio.h>\\nint sqlite3_libversion_number(void);\\nint main(void){return sqlite3_libversion_number();}\\n' > app.c"),
    ("gcc", "gcc -o app app.c", [], "printf 'int main(void){ return 0 }\\n' > app.c"),
    ("gcc", "gcc -std=c99 -o app app.c", ["gcc -std=c11 -o app app.c", "gcc -std=gnu11 -o app app.c"], "printf 'int main(void){ _Static_assert(1, \"x\"); for (int i=0;i<1;i++); return 0; }\\n' > app.c && printf ''"),
    ("g++", "g++ -o app app.cpp", ["apt-get install libboost-dev", "apt install libboost-dev"], "printf '#include <boost/optional.hpp>\\nint main(){return 0;}\\n' > app.cpp"),
    ("g++", "g++ -o app app.cpp", ["g++ -std=c++20 -o app app.cpp", "g++ -std=c++2a -o app app.cpp"], "printf '#include <span>\\nint main(){ int a[2]; std::span<int> s(a); constexpr auto f = [](auto x) consteval { return x; }; return f(0);}\\n' > app.cpp"),
    ("gcc", "gcc app.c -o", [], "printf 'int main(void){return 0;}\\n' > app.c"),
    ("gcc", "gcc -Wal -o app app.c", ["gcc -Wall -o app app.c"], "printf 'int main(void){return 0;}\\n' > app.c"),
    ("make", "make", [], ""),
    ("make", "make", [], "printf 'all:\\n    echo hi\\n' > Makefile"),
    ("make", "make instal", ["make install"], "printf 'install:\\n\\t@echo install\\nall:\\n\\t@echo all\\n' > Makefile"),
    ("make", "make -C sr", ["make -C src"], "mkdir -p src && printf 'all:\\n\\t@echo all\\n' > src/Makefile"),
    ("java", "java Hello", ["javac Hello.java && java Hello", "java Hello.java"], JAVA),
    ("java", "java Hello.class", ["java Hello"], JAVA + " && javac Hello.java"),
    ("java", "java -jar app.jar", [], ""),
    ("java", "java -cp . Helo", ["java -cp . Hello"], JAVA + " && javac Hello.java"),
    ("javac", "javac Main.java", [], JAVA + " && cp Hello.java Main.java"),
    ("javac", "javac -d out", [], JAVA),
    ("mvn", "mvn compile", [], ""),
    ("mvn", "mvn -Dskiptests package", [], ""),
    ("go", "go build", ["go mod init"], "printf 'package main\\nfunc main(){}\\n' > main.go"),
    ("go", "go test ./pkgs/...", ["go test ./pkg/..."], GO + " && mkdir -p pkg && printf 'package pkg\\n' > pkg/p.go"),
    ("go", "go run .", [], GO + " && printf 'package main\\nimport \"fmt\"\\nfunc main(){}\\n' > main.go"),
    ("go", "go get", [], ""),
    ("cargo", "cargo run", [], ""),
    ("cargo", "cargo add", [], ""),
    ("rustc", "rustc main.rs", [], "printf 'fn main() { let x: i32 = \"a\"; }\\n' > main.rs"),
    ("docker", "docker compose up", [], ""),
    ("docker", "docker run --rmm alpine", ["docker run --rm alpine"], ""),
    ("docker", "docker ps --al", ["docker ps --all", "docker ps -a"], ""),
    ("docker", "docker build -t app:1 .", [], ""),
    ("docker", "docker images --fromat json", ["docker images --format json"], ""),
    ("docker-compose", "docker-compose up -d", ["docker compose up -d"], ""),
    ("kubectl", "kubectl get pods", [], ""),
    ("aws", "aws s3 ls", [], ""),
    ("gcloud", "gcloud auth login", [], ""),
    ("az", "az login", [], ""),
    ("terraform", "terraform init", [], ""),
    ("psql", "psql -c 'select 1'", [], ""),
    ("psql", "psql -U postgres -d app -h 127.0.0.1 -p 9", [], ""),
    ("mysql", "mysql -u root", [], ""),
    ("redis-cli", "redis-cli ping", [], ""),
    ("ssh", "ssh -p 9 127.0.0.1", [], ""),
    ("scp", "scp notes.txt", [], S),
    ("scp", "scp -p 2222 notes.txt 127.0.0.1:/tmp/", ["scp -P 2222 notes.txt 127.0.0.1:/tmp/"], S),
    ("curl", "curl http://127.0.0.1:9/", [], ""),
    ("wget", "wget http://127.0.0.1:9/x", [], ""),
    ("gpg", "gpg --verify notes.txt.sig", [], S),
    ("openssl", "openssl x509 -in cert.pem -noout", [], ""),
    ("jq", "jq '.items[' data.json", ["jq '.items[]' data.json"], S),
    ("jq", "jq .name", [], ""),
    ("jq", "jq '.[0]' data.json", [], S),
    ("sqlite3", "sqlite3 app.db 'insert into users values(1)'", [], DB),
    ("tmux", "tmux attach -t nosuch", [], ""),
    ("tmux", "tmux kill-server", [], ""),
    ("fish", "fish -c 'export A=1; set -x A 2; if [ $A = 2 ]; echo; end; fi'", [], ""),
    ("fish", "fish -c 'export A=$(echo 1) && echo $A'", [], ""),
    ("zsh", "zsh -c 'setopt nosuchoption'", [], ""),
    ("zsh", "zsh -c 'echo *.nosuchext'", [], ""),
    ("bash", "bash -n script.sh", [], "printf 'if true; then\\necho\\n' > script.sh"),
    ("bash", "bash -c 'declare -A m; m[a]=1; echo ${m[a}'", [], ""),
    ("ps", "ps --sotr=-%mem", ["ps --sort=-%mem"], ""),
    ("ps", "ps aux --sotr=-%mem", ["ps aux --sort=-%mem"], ""),
    ("diff", "diff old.txt", [], S),
    ("patch", "patch -p1 < fix.patch", ["patch -p0 < fix.patch"], PATCH),
    ("patch", "patch < fix.dif", ["patch < fix.patch"], PATCH),
    ("sort", "sort -k3 -t, -n data.csv -o", [], S),
    ("grep", "grep -r alpha --include=*.txt", ["grep -r alpha --include=*.txt ."], S),
    ("grep", "grep 'alpha(' notes.txt", ["grep 'alpha\\(' notes.txt", "grep -F 'alpha(' notes.txt"], S),
    ("grep", "grep -E 'a{1' notes.txt", [], S),
    ("find", "find -name '*.txt' src", ["find src -name '*.txt'"], S),
    ("find", "find . -name *.txt", ["find . -name '*.txt'"], S + " && cp notes.txt n2.txt"),
    ("find", "find . -exec ls {}", ["find . -exec ls {} \\;", "find . -exec ls {} +"], S),
    ("find", "find nosuchdir -name x", [], ""),
    ("rg", "rg '(' notes.txt", ["rg -F '(' notes.txt", "rg '\\(' notes.txt"], S),
    ("rg", "rg --type=js alpha", [], S),
    ("fdfind", "fd notes", ["fdfind notes"], S),
    ("fdfind", "fdfind '*.txt'", ["fdfind -g '*.txt'", "fdfind --glob '*.txt'"], S),
    ("xargs", "echo src | xargs -I{} ls", ["echo src | xargs -I{} ls {}"], S),
    ("sed", "sed 's/a/b/g notes.txt", ["sed 's/a/b/g' notes.txt"], S),
    ("sed", "sed -e 's/a/b/x' notes.txt", [], S),
    ("chmod", "chmod 844 notes.txt", [], S),
    ("chmod", "chmod +X", [], ""),
    ("ln", "ln src/ link", ["ln -s src/ link", "ln -s src link"], S),
    ("cp", "cp src", [], S),
    ("mv", "mv notes.txt", [], S),
    ("rsync", "rsync -a src/ 127.0.0.1:/tmp/x -e 'ssh -p 9'", [], S),
    ("7z", "7z a", [], ""),
    ("zstd", "zstd -d notes.txt", [], S),
    ("xz", "xz -d notes.txt", [], S),
    ("bzip2", "bzip2 -d notes.txt", [], S),
    ("hg", "hg status", [], ""),
    ("hg", "hg push", [], "hg init -q ."),
    ("git", "git pull", [], GIT),
    ("git", "git clone https://127.0.0.1:9/x.git", [], ""),
    ("git", "git checkout nosuchbranch", [], GIT),
    ("git", "git rebase --abort", [], GIT),
    ("git", "git cherry-pick --continue", [], GIT),
    ("git", "git tag -d v9", [], GIT),
    ("git", "git branch -d main", [], GIT),
    ("git", "git add nosuch.txt", [], GIT),
    ("git", "git add READM.md", ["git add README.md"], GIT + " && echo x >> README.md"),
    ("git", "git diff --stagde", ["git diff --staged"], GIT),
    ("git", "git switch -c main", ["git switch main"], GIT),
    ("git", "git restore --stagged README.md", ["git restore --staged README.md"], GIT),
    ("systemctl", "systemctl status nosuch-unit", [], ""),
    ("systemctl", "systemctl start nosuch.service", [], ""),
    ("journalctl", "journalctl -u", [], ""),
    ("crontab", "crontab -l", [], ""),
    ("apt-get", "apt-get install python-pip", ["apt-get install python3-pip"], ""),
    ("apt-get", "apt-get install nodejs-npm", ["apt-get install npm"], ""),
    ("apt-get", "apt-get install ripgrap", ["apt-get install ripgrep"], ""),
    ("apt-get", "apt-get install fd", ["apt-get install fd-find"], ""),
    ("apt-get", "apt-get install python3-yml", ["apt-get install python3-yaml"], ""),
    ("apt", "apt install libssl", ["apt install libssl-dev"], ""),
    ("apt", "apt install build-essentials", ["apt install build-essential"], ""),
    ("apt", "apt install netcat", ["apt install netcat-openbsd", "apt install netcat-traditional"], ""),
    ("apt-get", "apt-get install -y golang-go1.22", [], ""),
    ("dpkg", "dpkg -i nosuch.deb", [], ""),
    ("dpkg", "dpkg -S /usr/bin/nosuchtool", [], ""),
    ("dnf", "dnf install jq", ["apt install jq", "apt-get install jq"], ""),
    ("yum", "yum install jq", ["apt install jq", "apt-get install jq"], ""),
    ("pacman", "pacman -S jq", ["apt install jq", "apt-get install jq"], ""),
    ("brew", "brew install jq", ["apt install jq", "apt-get install jq"], ""),
    ("composer", "composer install", [], ""),
    ("choco", "choco install jq", ["apt install jq", "apt-get install jq"], ""),
    ("snap", "snap install jq", ["apt install jq", "apt-get install jq"], ""),
    ("gradle", "gradle build", [], ""),
    ("yarn", "yarn install", ["npm install"], PKG),
    ("pnpm", "pnpm install", ["npm install"], PKG),
    ("ifconfig", "ifconfig", ["ip addr", "ip a"], ""),
    ("netstat", "netstat -tlnp", ["ss -tlnp"], ""),
    ("service", "service ssh status", ["systemctl status ssh"], ""),
    ("vi", "vim +999 notes.txt -c q --not-an-option", [], S),
    ("tar", "tar -xzf archive.tar.gz -C out", ["mkdir -p out && tar -xzf archive.tar.gz -C out"], S),
    ("tar", "tar -xjf archive.tar.gz", ["tar -xzf archive.tar.gz", "tar -xf archive.tar.gz"], S),
    ("unzip", "unzip archive.zip -d", [], ZIP),
    ("zip", "zip", [], ""),
    ("gzip", "gzip src", ["gzip -r src", "tar czf src.tar.gz src"], S),
    ("gunzip", "gunzip archive.tar.gz -c | tar x", [], S),
]:
    extra = {}
    if not exp:
        extra["explain_contains"] = []
    add(tool, "family", setup, cmd, exp, **extra)


def split_of(cid):
    return "heldout" if hashlib.sha256(cid.encode()).digest()[0] % 3 == 0 else "fit"


def main():
    ids = set(sys.argv[1:])
    kept = 0
    for cid, tool, cat, setup, command, expected, extra in C:
        if ids and cid not in ids:
            continue
        try:
            rec, why = record.run((cid, cat, setup, command, expected, extra))
        except Exception as e:  # a command that waits for a terminal, e.g.
            rec, why = None, "error: %s" % e
        if rec is None:
            print("skip %s: %s" % (cid, why), file=sys.stderr)
            continue
        rec["tool"] = tool
        rec["split"] = split_of(cid)
        rec.pop("explain_contains", None)
        if not expected:
            rec["explain_contains"] = extra.get("explain_contains") or []
        print(json.dumps(rec, ensure_ascii=False))
        kept += 1
    print("kept %d of %d" % (kept, len(C)), file=sys.stderr)


if __name__ == "__main__":
    main()
