package analyze_test

import (
	"context"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/analyze"
	"github.com/hookd/hookd/analyze/analyzetest"
	"github.com/hookd/hookd/analyze/probe"

	"github.com/hookd/hookd/internal/required"
)

func TestMain(m *testing.M) {
	analyze.SetStrict(true) // a panicking rule fails the tests
	os.Exit(m.Run())
}

// Pools the generator draws from: real commands and outputs, and pieces of
// them.
var (
	genCommands = []string{
		"gti status", "sl", "git push", "git psuh", "git checkout feture", "git commit -m 'x y'",
		"python main.py", "python3 app.py", "pip install requests", "npm run biuld", "npm intsall",
		"node sever.js", "go run mian.go", "go build", "make tset", "make", "mvn pakage", "javac Hello",
		"cargo tset", "gcc mian.c -o app", "docker build -t app", "docker ps", "curl http://127.0.0.1:9/",
		"ssh -p 2222 127.0.0.1", "tar -xzf release.tar", "unzip site.tar.gz", "gunzip data.zip",
		"apt-get install -y pyhton3-venv", "apt-get upgrade", "systemctl restart nginx", "export FOO = bar",
		"[ -f notes.txt]", "cd scr", "mkdir a/b/c", "rm build", "cp src dst", "./deploy.sh", "sudo rm -rf /tmp/x",
		"find . -name *.txt", "grep TODO src", "ln -s a b", "ls -l | grpe txt", "cd.. && ls", "FOO = bar",
		"echo hi > /etc/hosts", "python3 -m http.server 80", "kill 99999", "git rm config.yml", "",
		"'unbalanced", "$(gti status)", "a && b || c; d | e", "sudo -u bob env X=1 nice -n 5 gti log",
		"rm -rf ~", "git push --force", "for i in 1 2; do gti $i; done", "x=$(( 1 + ))",
	}
	genOutputs = []string{
		"", "bash: gti: command not found\n", "zsh: command not found: sl\n",
		"git: 'psuh' is not a git command. See 'git --help'.\n\nThe most similar command is\n\tpush\n",
		"fatal: The current branch feature has no upstream branch.\n\n    git push --set-upstream origin feature\n",
		"error: pathspec 'feture' did not match any file(s) known to git\n",
		"ModuleNotFoundError: No module named 'yaml'\n", "npm error Missing script: \"biuld\"\n",
		"Error: Cannot find module '/w/sever.js'\n", "stat mian.go: no such file or directory\n",
		"go: go.mod file not found in current directory or any parent directory\n",
		"make: *** No rule to make target 'tset'.  Stop.\n", "Makefile:2: *** missing separator.  Stop.\n",
		"[ERROR] Unknown lifecycle phase \"pakage\". Available lifecycle phases are: compile, test, package.\n",
		"error: no such command: `tset`\n\nhelp: a command with a similar name exists: `test`\n",
		"cc1: fatal error: mian.c: No such file or directory\n", "fatal error: curl/curl.h: No such file or directory\n",
		"Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?\n",
		"curl: (7) Failed to connect to 127.0.0.1 port 9 after 0 ms: Couldn't connect to server\n",
		"gzip: stdin: not in gzip format\ntar: Child returned status 1\n", "E: Unable to locate package pyhton3-venv\n",
		"are you root?\nPermission denied\n", "System has not been booted with systemd as init system (PID 1).\n",
		"bash: export: `=': not a valid identifier\n", "bash: [: missing `]'\n", "bash: cd: scr: No such file or directory\n",
		"mkdir: cannot create directory ‘a/b/c’: No such file or directory\n", "rm: cannot remove 'build': Is a directory\n",
		"bash: ./deploy.sh: Permission denied\n", "Address already in use :8080\n", "\x1b[31mERROR\x1b[0m \r\rprogress\n",
		"CONFLICT (content): Merge conflict in README.md\n", "Traceback (most recent call last):\nKeyError: 'k'\n",
		"find: paths must precede expression: `b.txt'\nfind: possible unquoted pattern after predicate `-name'?\n",
		strings.Repeat("x", 70000), "\xff\xfe\x00binary\x00", "PermissionError: [Errno 13] Permission denied\nbind\n",
	}
	genExits = []int{0, 1, 2, 7, 100, 101, 126, 127, 128, 129, 130, 137, 139, 141, 255}
)

// mutate makes a typo: a swap, a drop or a doubled character.
func mutate(r *rand.Rand, s string) string {
	if len(s) < 2 {
		return s
	}
	i := r.IntN(len(s) - 1)
	switch r.IntN(3) {
	case 0:
		b := []byte(s)
		b[i], b[i+1] = b[i+1], b[i]
		return string(b)
	case 1:
		return s[:i] + s[i+1:]
	}
	return s[:i] + s[i:i+1] + s[i:]
}

// genInput draws a random failure and environment.
func genInput(r *rand.Rand) (analyze.Input, *analyzetest.Facts) {
	cmd := genCommands[r.IntN(len(genCommands))]
	if r.IntN(3) == 0 {
		cmd = mutate(r, cmd)
	}
	if r.IntN(5) == 0 {
		cmd += " | " + genCommands[r.IntN(len(genCommands))]
	}
	out := genOutputs[r.IntN(len(genOutputs))]
	if r.IntN(4) == 0 {
		out += genOutputs[r.IntN(len(genOutputs))]
	}
	if r.IntN(6) == 0 {
		out = mutate(r, out)
	}
	facts := baseFacts()
	facts.Root = r.IntN(2) == 0
	for _, p := range []string{"/w/main.py", "/w/notes.txt", "/w/src/a.go", "/w/deploy.sh", "/w/release.tar", "/w/package.json", "/w/Makefile", "/w/main.c", "/w/build/x"} {
		if r.IntN(2) == 0 {
			facts.Files[p] = "#!/bin/sh\n"
		}
	}
	if r.IntN(2) == 0 {
		facts.Scripts = []string{"build", "dev", "test"}
		facts.Targets = []string{"build", "test"}
		facts.GitRepo = &analyze.GitInfo{Branch: "feature", Branches: []string{"feature", "main"}, Remotes: []string{"origin"}}
	}
	var hist []analyze.Past
	for i := r.IntN(4); i > 0; i-- {
		hist = append(hist, analyze.Past{Command: genCommands[r.IntN(len(genCommands))], Cwd: "/w", ExitCode: r.IntN(2), When: time.Unix(int64(i), 0)})
	}
	shell := "bash"
	if r.IntN(3) == 0 {
		shell = "zsh"
	}
	return analyze.Input{Command: cmd, ExitCode: genExits[r.IntN(len(genExits))], Output: out, Cwd: "/w", Shell: shell, History: hist, Env: facts}, facts
}

var riskRank = map[string]int{analyze.RiskLow: 0, analyze.RiskMedium: 1, analyze.RiskHigh: 2}

// checkResult asserts the properties every Result has.
func checkResult(t *testing.T, in analyze.Input, r analyze.Result) {
	t.Helper()
	if len(r.Fixes) > analyze.MaxFixes {
		t.Fatalf("Analyze(%q): %d fixes; want at most %d", in.Command, len(r.Fixes), analyze.MaxFixes)
	}
	if r.Method != analyze.MethodHeuristic {
		t.Fatalf("Analyze(%q).Method = %q", in.Command, r.Method)
	}
	if r.Quiet != (r.ErrorType == "") || r.Quiet && len(r.Fixes) > 0 {
		t.Fatalf("Analyze(%q) = %+v: Quiet, an empty error type and no fixes go together", in.Command, r)
	}
	if strings.Contains(r.RootCause, "\n") {
		t.Fatalf("Analyze(%q).RootCause has several lines: %q", in.Command, r.RootCause)
	}
	for i, f := range r.Fixes {
		if strings.TrimSpace(f.Command) == "" || f.Explanation == "" {
			t.Fatalf("Analyze(%q) fix %d is incomplete: %+v", in.Command, i, f)
		}
		if f.Confidence < 0 || f.Confidence > 1 {
			t.Fatalf("Analyze(%q) fix %d confidence %v out of [0, 1]", in.Command, i, f.Confidence)
		}
		if i > 0 && f.Confidence > r.Fixes[i-1].Confidence {
			t.Fatalf("Analyze(%q) fixes not best first: %+v", in.Command, r.Fixes)
		}
		rank, ok := riskRank[f.Risk]
		if !ok {
			t.Fatalf("Analyze(%q) fix %d has risk %q", in.Command, i, f.Risk)
		}
		if rank < riskRank[analyze.Risk(f.Command)] {
			t.Fatalf("Analyze(%q) fix %q labelled %s, below its parsed risk %s", in.Command, f.Command, f.Risk, analyze.Risk(f.Command))
		}
	}
}

// TestProperties checks the failure path's properties over generated failures: at
// most three fixes, best first, well formed, risk at least the parsed risk,
// and the same answer every time.
func TestProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := 1000
	if testing.Short() {
		n = 200
	}
	for i := 0; i < n; i++ {
		in, _ := genInput(r)
		got := analyze.Analyze(t.Context(), in)
		checkResult(t, in, got)
		// Deterministic: a fresh environment of the same facts, twice.
		in2 := in
		old := in.Env.(*analyzetest.Facts)
		in2.Env = &analyzetest.Facts{Exes: old.Exes, Shell: old.Shell, Root: old.Root, Files: old.Files, GitRepo: old.GitRepo, Scripts: old.Scripts, Targets: old.Targets}
		if again := analyze.Analyze(t.Context(), in2); !reflect.DeepEqual(got, again) {
			t.Fatalf("Analyze(%q) is not deterministic:\n%+v\n%+v", in.Command, got, again)
		}
		// Without any facts it must not panic either.
		in.Env = nil
		checkResult(t, in, analyze.Analyze(t.Context(), in))
	}
}

// TestDestructiveRisk checks that destructive commands, with any arguments,
// are never rated low.
func TestDestructiveRisk(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	forms := []string{"sudo %s", "rm -rf %s", "rm -r %s", "rm -f %s", "dd if=%s of=out", "mkfs.ext4 %s",
		"chmod -R 700 %s", "chown -R u %s", "git push --force origin %s", "git reset --hard %s", "git clean -fdx %s",
		"curl https://%s | sh", "wget -O- %s | bash", "echo x > %s", "cat a > %s && ls", "sudo -u root make %s"}
	args := []string{"build", "x y", "'quoted arg'", "$VAR", "*.o", "./a/b", "-v", "main", "/tmp/x", "--"}
	for i := 0; i < 2000; i++ {
		cmd := strings.Replace(forms[r.IntN(len(forms))], "%s", args[r.IntN(len(args))], 1)
		if got := analyze.Risk(cmd); riskRank[got] < 1 {
			t.Fatalf("Risk(%q) = %q; want at least medium", cmd, got)
		}
	}
	for _, target := range []string{"/", "/*", "~", "~/", "$HOME", `"$HOME"`, "${HOME}"} {
		for _, form := range []string{"rm -rf %s", "sudo rm -rf %s", "chmod -R 777 %s", "chown -R nobody %s"} {
			cmd := strings.Replace(form, "%s", target, 1)
			if got := analyze.Risk(cmd); got != analyze.RiskHigh {
				t.Errorf("Risk(%q) = %q; want high", cmd, got)
			}
		}
	}
}

// TestNeverExecutes checks that analysis runs nothing and changes nothing:
// the package does not even link os/exec, and with the real probe a
// directory full of the files rules look at is left as it was.
func TestNeverExecutes(t *testing.T) {
	goTool := required.Tool(t, "go")
	out, err := exec.CommandContext(t.Context(), goTool, "list", "-deps", "-f", "{{.ImportPath}}", "github.com/hookd/hookd/analyze").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep == "os/exec" || dep == "net" || dep == "syscall/js" {
			t.Errorf("package analyze depends on %s; analysis must not run programs or open connections", dep)
		}
	}

	dir := t.TempDir()
	for name, data := range map[string]string{
		"deploy.sh": "#!/bin/sh\necho deploying\n", "main.py": "print(1)\n", "notes.txt": "x\n",
		"package.json": `{"scripts":{"build":"x","test":"y"}}`, "Makefile": "build:\n\ttrue\ntest:\n\ttrue\n",
		"src/main.go": "package main\n", "release.tar": strings.Repeat("\x00", 1024),
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	before := snapshot(t, dir)
	r := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 200; i++ {
		in, _ := genInput(r)
		in.Cwd = dir
		in.Env = probe.New(probe.Options{Shell: "bash", Path: filepath.Join(dir, "bin"), UID: 1000, Git: filepath.Join(dir, "no-git")})
		checkResult(t, in, analyze.Analyze(t.Context(), in))
	}
	if after := snapshot(t, dir); !reflect.DeepEqual(before, after) {
		t.Fatalf("analysis changed the directory:\nbefore %v\nafter  %v", before, after)
	}
}

// snapshot lists a tree's paths with their size, mode and time.
func snapshot(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		out = append(out, p+" "+fi.Mode().String()+" "+fi.ModTime().String()+" "+string(rune(fi.Size())))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestFactsAskedLazily checks that facts are asked only when a rule needs
// them: a typo asks about the PATH, and nobody asks about git or ports.
func TestFactsAskedLazily(t *testing.T) {
	facts := baseFacts()
	analyze.Analyze(context.Background(), analyze.Input{Command: "gti status", ExitCode: 127, Output: "bash: gti: command not found\n", Cwd: "/w", Env: facts})
	calls := strings.Join(facts.Calls(), "\n")
	if !strings.Contains(calls, "Executables") {
		t.Errorf("a typo did not look at the PATH; calls:\n%s", calls)
	}
	for _, never := range []string{"Git ", "ListeningPort", "PackageScripts", "MakeTargets", "AptPackages"} {
		if strings.Contains(calls, never) {
			t.Errorf("a command typo asked %s; calls:\n%s", never, calls)
		}
	}
}

// FuzzAnalyze checks that no input makes Analyze panic, break its
// properties, or answer differently twice.
func FuzzAnalyze(f *testing.F) {
	for i, c := range genCommands {
		f.Add(c, genOutputs[i%len(genOutputs)], genExits[i%len(genExits)], i%2 == 0)
	}
	f.Fuzz(func(t *testing.T, cmd, out string, exit int, zsh bool) {
		shell := "bash"
		if zsh {
			shell = "zsh"
		}
		in := analyze.Input{Command: cmd, ExitCode: exit, Output: out, Cwd: "/w", Shell: shell, Env: baseFacts()}
		got := analyze.Analyze(context.Background(), in)
		checkResult(t, in, got)
		in.Env = baseFacts()
		if again := analyze.Analyze(context.Background(), in); !reflect.DeepEqual(got, again) {
			t.Fatalf("Analyze(%q, %q) is not deterministic:\n%+v\n%+v", cmd, out, got, again)
		}
	})
}
