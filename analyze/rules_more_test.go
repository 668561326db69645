package analyze_test

import (
	"testing"

	"github.com/hookd/hookd/analyze"
	"github.com/hookd/hookd/analyze/analyzetest"
)

// TestRulesMore covers the rules added after the first round of real
// failures: one positive and, where the rule could misfire, one negative.
func TestRulesMore(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "grep-regex", cmd: "grep -E 'f(' a.txt", exit: 2, out: "grep: Unmatched ( or \\(\n", want: "grep -F 'f(' a.txt"},
		{name: "grep-regex-basic", cmd: "grep 'a\\' a.txt", exit: 2, out: "grep: Trailing backslash\n", want: "grep -F 'a\\' a.txt"},
		{name: "sed-unterminated", cmd: "sed -i 's/a/b' a.txt", out: "sed: -e expression #1, char 5: unterminated `s' command\n", want: "sed -i 's/a/b/' a.txt"},
		{name: "sed-cannot-read", cmd: "sed -i s/a/b/ notes.tx", out: "sed: can't read notes.tx: No such file or directory\n", exit: 2,
			env: files("/w/notes.txt"), want: "sed -i s/a/b/ notes.txt"},
		{name: "sed-cannot-read-nothing-near", cmd: "sed -i s/a/b/ nosuch", out: "sed: can't read nosuch: No such file or directory\n", exit: 2,
			want: "", cause: "nosuch does not exist"},
		{name: "rmdir-missing", cmd: "rmdir buidl", out: "rmdir: failed to remove 'buidl': No such file or directory\n",
			env: files("/w/build/"), want: "rmdir build"},
		{name: "stat-statx", cmd: "stat notes.tx", out: "stat: cannot statx 'notes.tx': No such file or directory\n",
			env: files("/w/notes.txt"), want: "stat notes.txt"},
		{name: "sort-cannot-read", cmd: "sort notes.tx", out: "sort: cannot read: notes.tx: No such file or directory\n", exit: 2,
			env: files("/w/notes.txt"), want: "sort notes.txt"},
		{name: "tac-failed-to-open", cmd: "tac notes.tx", out: "tac: failed to open 'notes.tx' for reading: No such file or directory\n",
			env: files("/w/notes.txt"), want: "tac notes.txt"},
		{name: "xargs-input-file", cmd: "xargs -a notes.tx echo", out: "xargs: Cannot open input file ‘notes.tx’: No such file or directory\n",
			env: files("/w/notes.txt"), want: "", cause: "notes.tx does not exist"}, // (xargs's own options are not the call's)
		{name: "node-uncaught", cmd: "node app.js", out: "/w/app.js:2\nconsole.log(o.name);\n              ^\n\nTypeError: Cannot read properties of null (reading 'name')\n    at Object.<anonymous> (/w/app.js:2:15)\n    at Module._compile (node:internal/modules/cjs/loader:1521:14)\n    at Module._extensions..js (node:internal/modules/cjs/loader:1623:10)\n    at Module.load (node:internal/modules/cjs/loader:1266:32)\n    at Module._load (node:internal/modules/cjs/loader:1091:12)\n    at Function.executeUserEntryPoint [as runMain] (node:internal/modules/run_main:164:12)\n    at node:internal/main/run_main_module:28:49\n\nNode.js v20.20.2\n",
			want: "", cause: "The script threw TypeError (app.js:2): Cannot read properties of null (reading 'name')"},
		{name: "sed-other", cmd: "sed -i 'q q' a.txt", out: "sed: -e expression #1, char 3: extra characters after command\n", want: "", cause: "extra characters"},
		{name: "tar-C-missing", cmd: "tar -xzf d.tar.gz -C out", exit: 2, out: "tar: out: Cannot open: No such file or directory\ntar: Error is not recoverable: exiting now\n", want: "mkdir -p out && tar -xzf d.tar.gz -C out"},
		{name: "tar-not-in-archive", cmd: "tar -xf d.tar a", exit: 2, out: "tar: a: Not found in archive\n", want: "", cause: "tar -tf"},
		{name: "tar-zstd", cmd: "tar -xf a.tar.zst", exit: 2, out: "tar (child): zstd: Cannot exec: No such file or directory\n", want: "apt install zstd"},
		{name: "alias-spaces", cmd: "alias ll = 'ls -la'", out: "bash: alias: ll: not found\nbash: alias: =: not found\n", want: "alias ll='ls -la'"},
		{name: "sh-bashism", cmd: "sh setup.sh", exit: 127, out: "setup.sh: 1: source: not found\n", want: "bash setup.sh"},
		{name: "sh-brackets", cmd: "./t.sh", exit: 127, out: "./t.sh: 3: [[: not found\n", want: "bash ./t.sh"},
		{name: "typo-python3", cmd: "pyhton app.py", exit: 127, out: "bash: pyhton: command not found\n", env: func(f *analyzetest.Facts) { f.Exes = append(f.Exes, "python") }, want: "python app.py", also: "python3 app.py"},
		{name: "git-checkout-file", cmd: "git checkout -- confg.yml", out: "error: pathspec 'confg.yml' did not match any file(s) known to git\n", env: files("/w/config.yml"), want: "git checkout -- config.yml"},
		{name: "git-pull-remote-ref", cmd: "git pull origin mian", out: "fatal: couldn't find remote ref mian\n", env: repo(analyze.GitInfo{Branch: "main", Branches: []string{"main"}, RemoteBranches: []string{"origin/main"}, Remotes: []string{"origin"}}), want: "git pull origin main"},
		{name: "glob-no-match", cmd: "cat *.log", out: "cat: '*.log': No such file or directory\n", want: "", cause: "matches the pattern"},
		{name: "syslog", cmd: "tail /var/log/syslog", out: "tail: cannot open '/var/log/syslog' for reading: No such file or directory\n", want: "", cause: "journal"},
		{name: "cd-home", cmd: "cd ~/Dokuments", out: "bash: cd: /home/u/Dokuments: No such file or directory\n", env: files("/home/u/Documents/"), want: "cd ~/Documents"},
		{name: "file-in-subdirectory", cmd: "node index.js", out: "Error: Cannot find module '/w/index.js'\n", env: files("/w/src/index.js"), want: "node src/index.js"},
		{name: "go-install-latest", cmd: "go install golang.org/x/tools/cmd/stringer", out: "go: 'go install' requires a version when current directory is not in a module\n", want: "go install golang.org/x/tools/cmd/stringer@latest"},
		{name: "ssh-key-perms", cmd: "ssh -i key.pem host", exit: 255, out: "@         WARNING: UNPROTECTED PRIVATE KEY FILE!          @\nPermissions 0644 for 'key.pem' are too open.\n", want: "chmod 600 key.pem && ssh -i key.pem host"},
		{name: "builtin-no-sudo", cmd: "ulimit -n 99999999", out: "bash: ulimit: open files: cannot modify limit: Operation not permitted\n", env: user, want: "", cause: "builtin"},
		{name: "sudo-dmesg", cmd: "dmesg", out: "dmesg: read kernel buffer failed: Operation not permitted\n", env: user, want: "sudo dmesg"},
		{name: "mv-into-missing", cmd: "mv f.txt newdir/", out: "mv: cannot move 'f.txt' to 'newdir/': Not a directory\n", env: files("/w/f.txt"), want: "mkdir -p newdir && mv f.txt newdir/"},
		{name: "cp-missing-parent", cmd: "cp -r src backup/2024/", out: "cp: cannot create directory 'backup/2024/': No such file or directory\n", env: files("/w/src/a"), want: "mkdir -p backup && cp -r src backup/2024/"},
		{name: "yarn", cmd: "yarn install", exit: 127, out: "bash: yarn: command not found\n", want: "npm install -g yarn"},
		{name: "npx-local", cmd: "tsc -p .", exit: 127, out: "bash: tsc: command not found\n", env: files("/w/node_modules/.bin/tsc"), want: "npx tsc -p ."},
		{name: "service-typo", cmd: "service ngnix start", out: "ngnix: unrecognized service\n", env: files("/etc/init.d/nginx", "/etc/init.d/ssh"), want: "service nginx start"},
		{name: "wget-404", cmd: "wget https://example.com/x.zip", exit: 8, out: "HTTP request sent, awaiting response... 404 Not Found\n2026-01-01 12:00:00 ERROR 404: Not Found.\n", want: "", cause: "404"},
		{name: "mysql-down", cmd: "mysql -u root", exit: 1, out: "ERROR 2002 (HY000): Can't connect to local MySQL server through socket '/run/mysqld/mysqld.sock' (2)\n", want: "", cause: "not running"},
		{name: "dns-known-host", cmd: "git clone https://github.com/u/r", exit: 128, out: "fatal: unable to access 'https://github.com/u/r/': Could not resolve host: github.com\n", want: "", cause: "network or DNS"},
		{name: "script-path-typo", cmd: "./Deploy.sh prod", exit: 127, out: "bash: ./Deploy.sh: No such file or directory\n", env: files("/w/deploy.sh"), want: "./deploy.sh prod"},
		{name: "home-path-typo", cmd: "ls ~/Documnets", exit: 2, out: "ls: cannot access '/home/u/Documnets': No such file or directory\n", env: files("/home/u/Documents/"), want: "ls ~/Documents"},
		{name: "find-curly-quotes", cmd: "find sr -name x", out: "find: ‘sr’: No such file or directory\n", env: files("/w/src/"), want: "find src -name x"},
		{name: "go-mod-init", cmd: "go mod init", out: "go: cannot determine module path for source directory /w (outside GOPATH, module path must be specified)\n", want: "", cause: "go mod init example.com"},
		{name: "go-import-typo", cmd: "go build", out: "main.go:3:2: package fmtt is not in std (/usr/local/go/src/fmtt)\n", want: "", cause: "import"},
		{name: "tests-failed", cmd: "pytest -q", out: "E       assert 2 == 3\nFAILED test_x.py::test_add - assert 2 == 3\n1 failed in 0.01s\n", want: "", cause: "test_x.py::test_add"},
		{name: "ping-loss", cmd: "ping -c1 10.0.0.9", out: "1 packets transmitted, 0 received, 100% packet loss, time 0ms\n", want: "", cause: "no reply"},
		{name: "no-c-compiler", cmd: "./configure", out: "configure: error: in '/w':\nconfigure: error: no acceptable C compiler found in $PATH\n", want: "apt install build-essential"},
		{name: "jar-manifest", cmd: "java -jar app.jar", out: "no main manifest attribute, in app.jar\n", want: "", cause: "Main-Class"},
		{name: "key-line", cmd: "frob", out: "=====\nfrob: error: in '/w':\nfrob: error: the widget is missing\n", want: "", cause: "the widget is missing"},
		{name: "dpkg-go", cmd: "dpkg -i app.deb", exit: 1, out: "dpkg: dependency problems prevent configuration of app:\n app depends on libfoo; however:\n", want: "apt --fix-broken install"},
	})
	for _, q := range []analyze.Input{
		{Command: "git config user.signingkey", ExitCode: 1},
		{Command: "pkill -f nothing", ExitCode: 1},
		{Command: "dpkg -l nothing", ExitCode: 1, Output: "dpkg-query: no packages found matching nothing\n"},
		{Command: "crontab -l", ExitCode: 1, Output: "no crontab for root\n"},
	} {
		if r := analyze.Analyze(t.Context(), q); !r.Quiet {
			t.Errorf("Analyze(%q) = %+v; want a quiet Result", q.Command, r)
		}
	}
}
