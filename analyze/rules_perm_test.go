package analyze_test

import (
	"slices"
	"testing"

	"github.com/hookd/hookd/analyze"
	"github.com/hookd/hookd/analyze/analyzetest"
)

// user is an ordinary user of a machine where sudo is installed.
func user(f *analyzetest.Facts) {
	f.Root = false
	f.Exes = append(slices.Clip(f.Exes), "sudo")
}

// userWithoutSudo is an ordinary user of a machine without sudo.
func userWithoutSudo(f *analyzetest.Facts) { f.Root = false }

func TestRulesPermissions(t *testing.T) {
	script := func(f *analyzetest.Facts) { f.Files["/w/deploy.sh"] = "#!/bin/sh\necho hi\n" }
	runCases(t, []ruleCase{
		{name: "not-executable", cmd: "./deploy.sh", exit: 126, out: "bash: ./deploy.sh: Permission denied\n", env: script, want: "chmod +x ./deploy.sh && ./deploy.sh", also: "sh ./deploy.sh", typ: analyze.PermissionDenied},
		{name: "not-executable-zsh", cmd: "./deploy.sh prod", exit: 126, out: "zsh: permission denied: ./deploy.sh\n", shell: "zsh", env: script, want: "chmod +x ./deploy.sh && ./deploy.sh prod"},
		{name: "not-executable-python", cmd: "./run.py", exit: 126, out: "bash: ./run.py: Permission denied\n", env: func(f *analyzetest.Facts) { f.Files["/w/run.py"] = "#!/usr/bin/env python3\n" }, want: "chmod +x ./run.py && ./run.py", also: "python3 ./run.py"},
		{name: "not-executable-no-output", cmd: "./deploy.sh", exit: 126, env: script, want: "chmod +x ./deploy.sh && ./deploy.sh"},
		{name: "executable-but-denied", cmd: "./deploy.sh", exit: 126, out: "bash: ./deploy.sh: Permission denied\n", env: func(f *analyzetest.Facts) {
			f.Files["/w/deploy.sh"] = "#!/bin/sh\n"
			f.ExecFiles = []string{"/w/deploy.sh"}
			f.Root = false
		}, want: "sh ./deploy.sh", cause: "noexec"},
		{name: "directory", cmd: "./src", exit: 126, out: "bash: ./src: Is a directory\n", env: files("/w/src/"), want: "cd ./src"},
		{name: "sudo-rm", cmd: "rm data/cache.db", out: "rm: cannot remove 'data/cache.db': Permission denied\n", env: user, want: "sudo rm data/cache.db"},
		{name: "sudo-system-path", cmd: "mkdir /opt/app", out: "mkdir: cannot create directory ‘/opt/app’: Permission denied\n", env: user, want: "sudo mkdir /opt/app"},
		// The cd already ran (the shell is in /etc now): only the failed part runs again.
		{name: "sudo-in-list", cmd: "cd /etc && touch x", out: "touch: cannot touch 'x': Permission denied\n", env: user, want: "sudo touch x"},
		{name: "redirect-tee", cmd: "echo 127.0.0.1 h >> /etc/hosts", out: "bash: /etc/hosts: Permission denied\n", env: user, want: "echo 127.0.0.1 h | sudo tee -a /etc/hosts > /dev/null"},
		{name: "already-sudo", cmd: "sudo cat /proc/kcore", out: "cat: /proc/kcore: Operation not permitted\n", env: user, want: "", typ: analyze.PermissionDenied},
		{name: "privileged-port", cmd: "python3 -m http.server 80 --bind 127.0.0.1", out: "Traceback (most recent call last):\n  File \"socketserver.py\", line 472, in server_bind\n    self.socket.bind(self.server_address)\nPermissionError: [Errno 13] Permission denied\n", env: user, want: "python3 -m http.server 8080 --bind 127.0.0.1", also: "sudo python3 -m http.server 80 --bind 127.0.0.1"},
		{name: "privileged-port-flag", cmd: "node server.js --port=443", out: "Error: listen EACCES: permission denied 0.0.0.0:443\n", env: user, want: "node server.js --port=8443"},
		{name: "apt-root", cmd: "apt-get upgrade", exit: 100, out: "E: Could not open lock file /var/lib/dpkg/lock-frontend - open (13: Permission denied)\nE: Unable to acquire the dpkg frontend lock (/var/lib/dpkg/lock-frontend), are you root?\n", env: user, want: "sudo apt-get upgrade"},
		// Root was denied: sudo cannot help, and a root container has none.
		{name: "root-immutable", cmd: "touch /srv/imm/x", out: "touch: cannot touch '/srv/imm/x': Operation not permitted\n", want: "", cause: "although you are root"},
		{name: "root-redirect", cmd: "echo x >> /srv/imm/f", out: "bash: /srv/imm/f: Operation not permitted\n", want: ""},
		{name: "no-sudo-installed", cmd: "rm data/cache.db", out: "rm: cannot remove 'data/cache.db': Permission denied\n", env: userWithoutSudo, want: "", typ: analyze.PermissionDenied},
		{name: "no-sudo-installed-port", cmd: "node server.js --port=443", out: "Error: listen EACCES: permission denied 0.0.0.0:443\n", env: userWithoutSudo, want: "node server.js --port=8443"},
		// ~/run.sh is reported expanded (/root/run.sh): the same script as ./run.sh.
		{name: "not-executable-tilde", cmd: "~/run.sh", exit: 126, out: "bash: /root/run.sh: Permission denied\n", env: func(f *analyzetest.Facts) { f.Files["/root/run.sh"] = "#!/bin/sh\n" }, want: "chmod +x ~/run.sh && ~/run.sh", also: "sh ~/run.sh", typ: analyze.PermissionDenied},
		{name: "not-executable-tilde-zsh", cmd: "~/bin/run.sh -v", exit: 126, out: "zsh: permission denied: /home/u/bin/run.sh\n", shell: "zsh", env: func(f *analyzetest.Facts) { f.Files["/home/u/bin/run.sh"] = "#!/bin/sh\n"; user(f) }, want: "chmod +x ~/bin/run.sh && ~/bin/run.sh -v"},
		{name: "negative-no-denial", cmd: "rm x", out: "rm: cannot remove 'x': No such file or directory\n", want: ""},
	})
	facts := baseFacts()
	user(facts)
	r := analyze.Analyze(t.Context(), analyze.Input{Command: "rm data/cache.db", ExitCode: 1, Output: "rm: cannot remove 'data/cache.db': Permission denied\n", Env: facts})
	if len(r.Fixes) != 1 || r.Fixes[0].Risk != analyze.RiskMedium {
		t.Errorf("sudo fix = %+v; want one fix of risk medium", r.Fixes)
	}
}

// TestDescribedFailureKeepsSudo: a failure given by its text (hookd suggest
// --command, Input.Described) was not recorded here, so who ran it is not
// known: this root user without sudo does not take the sudo fix away from
// the non-root user whose tool asked for root. A recorded one loses it.
func TestDescribedFailureKeepsSudo(t *testing.T) {
	for _, c := range []struct {
		cmd, out, want string
	}{
		{"rm data/cache.db", "rm: cannot remove 'data/cache.db': Permission denied\n", "sudo rm data/cache.db"},
		{"apt-get upgrade", "E: Could not open lock file /var/lib/dpkg/lock-frontend - open (13: Permission denied)\nE: Unable to acquire the dpkg frontend lock (/var/lib/dpkg/lock-frontend), are you root?\n", "sudo apt-get upgrade"},
	} {
		for _, described := range []bool{true, false} {
			facts := baseFacts() // root, no sudo on the PATH
			r := analyze.Analyze(t.Context(), analyze.Input{Command: c.cmd, ExitCode: 1, Output: c.out, Cwd: "/w", Env: facts, Described: described})
			var got []string
			for _, fx := range r.Fixes {
				got = append(got, fx.Command)
			}
			if has := slices.Contains(got, c.want); has != described {
				t.Errorf("%s, described %v: fixes %q; want %q offered: %v", c.cmd, described, got, c.want, described)
			}
		}
	}
}
