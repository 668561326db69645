package analyze_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/analyze"
	"github.com/hookd/hookd/analyze/analyzetest"
)

func TestRulesCommand(t *testing.T) {
	runCases(t, []ruleCase{
		// Mistyped commands, matched against the PATH.
		{name: "swap", cmd: "gti status", exit: 127, out: "bash: gti: command not found\n", want: "git status", typ: analyze.CommandNotFound},
		{name: "swap-zsh", cmd: "gti status", exit: 127, out: "zsh: command not found: gti\n", shell: "zsh", want: "git status"},
		{name: "swap-fish", cmd: "gti status", exit: 127, out: "fish: Unknown command: gti\nfish: \ngti status\n^~^\n", shell: "fish", want: "git status"},
		{name: "swap-fish4", cmd: "gti status", exit: 127, out: "fish: Unknown command: 'gti'\n", shell: "fish", want: "git status"},
		{name: "two-letters", cmd: "sl", exit: 127, out: "bash: sl: command not found\n", want: "ls"},
		{name: "in-pipeline", cmd: "ls -l | grpe txt", exit: 127, out: "bash: grpe: command not found\n", want: "ls -l | grep txt"},
		{name: "keeps-quoting", cmd: `gerp -rn "a b" .`, exit: 127, out: "bash: gerp: command not found\n", want: `grep -rn "a b" .`},
		{name: "no-output", cmd: "gti status", exit: 127, want: "git status"},
		// A system administrator's tool is no typo of a user's command.
		{name: "system-tool", cmd: "deactivate", exit: 127, out: "bash: deactivate: command not found\n", env: func(f *analyzetest.Facts) {
			f.Exes = append(f.Exes, "blkdeactivate")
			f.Files["/usr/sbin/blkdeactivate"] = ""
		}, want: ""},
		{name: "system-tool-one-letter", cmd: "ipconfig /all", exit: 127, out: "bash: ipconfig: command not found\n", env: func(f *analyzetest.Facts) {
			f.Exes = append(f.Exes, "ifconfig")
			f.Files["/usr/sbin/ifconfig"] = ""
		}, want: "ip addr", also: "ifconfig /all"},
		{name: "user-tool", cmd: "deactivate", exit: 127, out: "bash: deactivate: command not found\n", env: func(f *analyzetest.Facts) {
			f.Exes = append(f.Exes, "blkdeactivate")
			f.Files["/usr/bin/blkdeactivate"] = ""
		}, want: "blkdeactivate"},
		{name: "nothing-close", cmd: "qqqqzz", exit: 127, out: "bash: qqqqzz: command not found\n", want: "", cause: "command not found"},
		// The user's aliases, functions and history count as commands.
		{name: "alias", cmd: "gts", exit: 127, out: "bash: gts: command not found\n", env: func(f *analyzetest.Facts) { f.AliasList = []string{"gst"} }, want: "gst"},
		// Another name, a package, a foreign command.
		{name: "python", cmd: "python main.py", exit: 127, out: "bash: python: command not found\n", want: "python3 main.py"},
		{name: "python-absent", cmd: "python main.py", exit: 127, out: "bash: python: command not found\n", env: func(f *analyzetest.Facts) { f.Exes = []string{"ls"} }, want: ""},
		{name: "pip", cmd: "pip install x", exit: 127, out: "bash: pip: command not found\n", env: func(f *analyzetest.Facts) { f.Exes = []string{"pip3", "python3", "apt-get"} }, want: "pip3 install x"},
		{name: "windows", cmd: "ipconfig /all", exit: 127, out: "bash: ipconfig: command not found\n", env: func(f *analyzetest.Facts) { f.Exes = append(f.Exes, "ifconfig") }, want: "ip addr"},
		{name: "package", cmd: "jq .name package.json", exit: 127, out: "bash: jq: command not found\n", want: "apt install jq", typ: analyze.MissingDependency},
		{name: "package-sudo", cmd: "jq .", exit: 127, out: "bash: jq: command not found\n", env: user, want: "sudo apt install jq"},
		{name: "package-debian-name", cmd: "rg TODO", exit: 127, out: "bash: rg: command not found\n", want: "apt install ripgrep"},
		{name: "package-system-tool", cmd: "crontab -l", exit: 127, out: "bash: crontab: command not found\n", want: "apt install cron"},
		{name: "package-procps", cmd: "watch -n1 date", exit: 127, out: "bash: watch: command not found\n", want: "apt install procps"},
		{name: "python-tool", cmd: "pytest -q", exit: 127, out: "bash: pytest: command not found\n", want: "pip install pytest", also: "apt install python3-pytest"},
		{name: "ubuntu-handler", cmd: "htop", exit: 127, out: "Command 'htop' not found, but can be installed with:\n\nsudo apt install htop\n", env: user, want: "sudo apt install htop"},
		// Files in the directory are not on the PATH.
		{name: "script-here", cmd: "deploy.sh", exit: 127, out: "zsh: command not found: deploy.sh\n", env: func(f *analyzetest.Facts) {
			f.Files["/w/deploy.sh"] = "#!/bin/sh\n"
			f.ExecFiles = []string{"/w/deploy.sh"}
		}, want: "./deploy.sh"},
		{name: "script-not-exec", cmd: "deploy.sh", exit: 127, out: "bash: deploy.sh: command not found\n", env: files("/w/deploy.sh"), want: "bash deploy.sh"},
		{name: "directory", cmd: "src", exit: 127, out: "zsh: command not found: src\n", env: files("/w/src/"), want: "cd src"},
		// Glued words and spaced assignments.
		{name: "cd-dotdot", cmd: "cd..", exit: 127, out: "bash: cd..: command not found\n", want: "cd .."},
		{name: "ls-la", cmd: "ls-la", exit: 127, out: "bash: ls-la: command not found\n", want: "ls -la"},
		{name: "hyphenated-name", cmd: "docker-compose up", exit: 127, out: "bash: docker-compose: command not found\n", want: "apt install docker-compose"},
		{name: "bracket", cmd: "[-f x ]", exit: 127, out: "bash: [-f: command not found\n", want: "[ -f x ]"},
		{name: "assignment", cmd: "FOO = bar", exit: 127, out: "bash: FOO: command not found\n", want: "FOO=bar"},
		// sudo in a container where the user is root already.
		{name: "sudo-missing-root", cmd: "sudo apt-get update", exit: 127, out: "bash: sudo: command not found\n", want: "apt-get update"},
		{name: "sudo-missing-user", cmd: "sudo apt-get update", exit: 127, out: "bash: sudo: command not found\n", env: func(f *analyzetest.Facts) { f.Root = false }, want: "su -c 'apt-get update'"},
		// Not a command failure at all.
		{name: "negative-other-error", cmd: "cat x", exit: 1, out: "cat: x: Is a directory\n", want: "ls x"},
	})
}

func TestRulesCommandHistory(t *testing.T) {
	when := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	// Two candidates at the same distance: what the user ran here wins.
	facts := baseFacts()
	facts.Exes = append(facts.Exes, "kubectl", "kubectx")
	in := analyze.Input{Command: "kubectz get pods", ExitCode: 127, Output: "bash: kubectz: command not found\n", Cwd: "/w", Shell: "bash", Env: facts,
		History: []analyze.Past{{Command: "kubectx prod", Cwd: "/w", When: when}, {Command: "kubectx prod", Cwd: "/w", When: when}}}
	r := analyze.Analyze(t.Context(), in)
	if len(r.Fixes) == 0 || r.Fixes[0].Command != "kubectx get pods" {
		t.Fatalf("Analyze(%q) = %+v; want kubectx first", in.Command, r.Fixes)
	}
	// A whole command the user ran successfully, one typo away.
	in = analyze.Input{Command: "terraform plna -out tf.plan", ExitCode: 1, Cwd: "/w", Env: baseFacts(),
		History: []analyze.Past{{Command: "terraform plan -out tf.plan", Cwd: "/w", ExitCode: 0, When: when}, {Command: "terraform plna -out tf.plan", Cwd: "/w", ExitCode: 1, When: when}}}
	r = analyze.Analyze(t.Context(), in)
	if len(r.Fixes) == 0 || r.Fixes[0].Command != "terraform plan -out tf.plan" {
		t.Fatalf("Analyze(%q) = %+v; want the command from history", in.Command, r.Fixes)
	}
	// Failed commands in history are no model.
	in.History = []analyze.Past{{Command: "terraform plan -out tf.plam", Cwd: "/w", ExitCode: 1, When: when}}
	r = analyze.Analyze(t.Context(), in)
	for _, f := range r.Fixes {
		if f.Command == "terraform plan -out tf.plam" {
			t.Fatalf("Analyze(%q) proposed a command that failed before: %+v", in.Command, r.Fixes)
		}
	}
}

// TestShortToolNoTypos: a missing two-letter tool that apt knows gets its
// package, not the other two-letter commands one letter away (rm for rg,
// wc for nc).
func TestShortToolNoTypos(t *testing.T) {
	for cmd, pkg := range map[string]string{"rg foo": "ripgrep", "nc -z localhost 1": "netcat-openbsd"} {
		name := strings.Fields(cmd)[0]
		facts := baseFacts()
		in := analyze.Input{Command: cmd, ExitCode: 127, Output: "bash: " + name + ": command not found\n", Cwd: "/w", Shell: "bash", Env: facts}
		r := analyze.Analyze(context.Background(), in)
		if len(r.Fixes) != 1 || r.Fixes[0].Command != "apt install "+pkg {
			t.Errorf("%s: fixes %+v; want only apt install %s", cmd, r.Fixes, pkg)
		}
	}
}
