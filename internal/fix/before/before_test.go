package before

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/analyze"
	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/recording/runctx"

	"github.com/hookd/hookd/internal/required"
)

var runctxKey = runctx.KeyHash

func gitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@x", "GIT_COMMITTER_NAME=t",
		"GIT_COMMITTER_EMAIL=t@x", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

func touch(t *testing.T, path string, mode os.FileMode) {
	t.Helper()
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, []byte("x\n"), mode); err != nil {
		t.Fatal(err)
	}
}

// TestCompare: each kind of difference, the line it makes, and the fix
// that restores it.
func TestCompare(t *testing.T) {
	home := t.TempDir()
	app := filepath.Join(home, "src", "app")
	// A repository with main and feature; ./run.sh only on main.
	required.Tool(t, "git")
	os.MkdirAll(app, 0o755)
	gitIn(t, app, "init", "-q", "-b", "main")
	touch(t, filepath.Join(app, "Makefile"), 0o644)
	gitIn(t, app, "add", ".")
	gitIn(t, app, "commit", "-qm", "one")
	gitIn(t, app, "branch", "feature")
	touch(t, filepath.Join(app, ".venv", "bin", "activate"), 0o644)
	touch(t, filepath.Join(app, "sub", "x"), 0o644)
	touch(t, filepath.Join(app, "deploy.sh"), 0o755)
	bin := filepath.Join(home, ".local", "bin")
	touch(t, filepath.Join(bin, "mytool"), 0o755)
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	then := now.Add(-20 * time.Minute)
	env := func(kv ...string) map[string]string {
		m := map[string]string{"PATH": "/usr/bin:/bin"}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	run := func(cmd, cwd, branch string, dirty int, e map[string]string) Run {
		return Run{Command: cmd, Cwd: cwd, Known: true, Context: history.Context{Repo: app, Branch: branch, Dirty: dirty, Env: e}}
	}
	tests := []struct {
		name      string
		then, now Run
		errType   string
		output    string
		line      string
		fix       string
		risk      string
		kinds     []string
	}{
		{"branch: the script is not on this one",
			run("./run.sh", app, "main", 0, env()), run("./run.sh", app, "feature", 0, env()),
			analyze.FileNotFound, "bash: ./run.sh: No such file or directory",
			"worked 20 min ago in ~/src/app on branch main; now on feature, ./run.sh is missing",
			"git switch main", "medium", []string{KindBranch, KindFile}},
		{"the virtualenv",
			run("python3 -c 'import requests'", app, "main", 0, env("VIRTUAL_ENV", filepath.Join(app, ".venv"))),
			run("python3 -c 'import requests'", app, "main", 0, env()),
			analyze.MissingDependency, "ModuleNotFoundError: No module named 'requests'",
			"worked 20 min ago in ~/src/app with the virtualenv ~/src/app/.venv active; now without it",
			"source ~/src/app/.venv/bin/activate", "low", []string{KindVenv}},
		{"a subdirectory without the Makefile",
			run("make test", app, "main", 0, env()), run("make test", filepath.Join(app, "sub"), "main", 0, env()),
			"", "make: *** No rule to make target 'test'.  Stop.",
			"worked 20 min ago in ~/src/app; now in ~/src/app/sub (no Makefile here)",
			"cd ~/src/app", "low", []string{KindDirectory}},
		{"a variable unset since",
			run("./deploy.sh", app, "main", 0, env("API_URL", "http://api.local:8080/v1")),
			run("./deploy.sh", app, "main", 0, env()),
			"", "deploy: API_URL is not set",
			"worked 20 min ago in ~/src/app with API_URL=http://api.local:8080/v1; now without API_URL",
			"export API_URL=http://api.local:8080/v1", "low", []string{KindVariable}},
		{"a secret unset since: no value offered",
			run("./deploy.sh", app, "main", 0, env("API_TOKEN", "[REDACTED]")),
			run("./deploy.sh", app, "main", 0, env()),
			"", "deploy: API_TOKEN is not set",
			"worked 20 min ago in ~/src/app with API_TOKEN set; now without API_TOKEN",
			"", "", []string{KindVariable}},
		{"a value with spaces is quoted",
			run("./deploy.sh", app, "main", 0, env("GREETING", "hello world")),
			run("./deploy.sh", app, "main", 0, env("GREETING", "bye")),
			"", "",
			"worked 20 min ago in ~/src/app with GREETING=hello world; now with GREETING=bye",
			"export GREETING='hello world'", "low", []string{KindVariable}},
		{"PATH lost the directory of the program",
			run("mytool --x", app, "main", 0, map[string]string{"PATH": bin + ":/usr/bin"}),
			run("mytool --x", app, "main", 0, map[string]string{"PATH": "/usr/bin"}),
			analyze.CommandNotFound, "bash: mytool: command not found",
			"worked 20 min ago in ~/src/app with ~/.local/bin on PATH; now without it (mytool is there)",
			"export PATH=" + bin + `:"$PATH"`, "low", []string{KindPath}},
		{"the work tree changed",
			run("make test", app, "main", 0, env()), run("make test", app, "main", 1, env()),
			"", "FAIL",
			"worked 20 min ago in ~/src/app with no changes in the work tree; now with changes",
			"", "", []string{KindChanges}},
		{"elsewhere in the repository, nothing missing: not an explanation",
			run("git push", filepath.Join(app, "sub"), "main", 0, env()), run("git push", app, "main", 0, env()),
			"", "error: failed to push some refs", "", "", "", []string{KindDirectory}},
		{"a network failure: the branch is no explanation",
			run("git push", app, "main", 0, env()), run("git push", app, "feature", 0, env()),
			analyze.NetworkError, "fatal: unable to access: Could not resolve host: github.com", "", "", "", []string{KindBranch}},
		{"nothing changed: no line",
			run("make test", app, "main", 0, env()), run("make test", app, "main", 0, env()),
			"", "FAIL", "", "", "", nil},
		{"another project: no line, no cd",
			Run{Command: "make test", Cwd: filepath.Join(home, "other"), Known: true, Context: history.Context{Env: env()}},
			Run{Command: "make test", Cwd: filepath.Join(home, "src"), Known: true, Context: history.Context{Env: env()}},
			"", "FAIL", "", "", "", []string{KindDirectory}},
		{"nothing noted (older history): only the directory",
			Run{Command: "make test", Cwd: app}, Run{Command: "make test", Cwd: filepath.Join(app, "sub")},
			"", "", "worked 20 min ago in ~/src/app; now in ~/src/app/sub (no Makefile here)", "cd ~/src/app", "low",
			[]string{KindDirectory}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.then.Started, tt.now.Started = then, now
			tt.then.ExitCode, tt.now.ExitCode = 0, 1
			c := Compare(tt.then, tt.now, Options{Home: home, ErrorType: tt.errType, Output: tt.output, Now: now})
			if c.Line != tt.line {
				t.Errorf("line = %q\n want %q", c.Line, tt.line)
			}
			var kinds []string
			for _, d := range c.Differences {
				kinds = append(kinds, d.Kind)
			}
			if strings.Join(kinds, ",") != strings.Join(tt.kinds, ",") {
				t.Errorf("differences = %+v; want kinds %v", c.Differences, tt.kinds)
			}
			switch {
			case tt.fix == "" && len(c.Fixes) > 0:
				t.Errorf("fixes = %+v; want none", c.Fixes)
			case tt.fix != "" && (len(c.Fixes) == 0 || c.Fixes[0].Command != tt.fix || c.Fixes[0].Risk != tt.risk):
				t.Errorf("fixes = %+v; want %q (%s risk) first", c.Fixes, tt.fix, tt.risk)
			}
			for _, f := range c.Fixes {
				if f.Confidence < plausible || f.Confidence > 1 || f.Explanation == "" {
					t.Errorf("fix %+v: confidence and explanation", f)
				}
			}
		})
	}
}

// pick feeds a picker the successes, newest first, as the walk does: it
// stops when the picker says nothing after can change its choice.
func pick(line string, es []history.Entry) (history.Entry, bool, bool) {
	p := newPicker(line)
	for _, e := range es {
		if !p.add(e) {
			break
		}
	}
	return p.got, p.exact, p.ok
}

// openStore opens a new history in a test's directory.
func openStore(t *testing.T) *history.Store {
	t.Helper()
	s, err := history.Open(t.Context(), filepath.Join(t.TempDir(), "h.db"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestPickAndAgo(t *testing.T) {
	es := []history.Entry{{ID: 3, Command: "pytest tests/a.py -k two"}, {ID: 2, Command: "pytest"}, {ID: 1, Command: "pytest tests/a.py -k one"}}
	if e, exact, ok := pick("pytest tests/a.py -k one", es); !ok || !exact || e.ID != 1 {
		t.Errorf("the same line, though older, comes first: %+v %v %v", e, exact, ok)
	}
	if e, exact, ok := pick("pytest tests/a.py -k three", es); !ok || exact || e.ID != 3 {
		t.Errorf("else the last with close arguments: %+v %v %v", e, exact, ok)
	}
	if _, _, ok := pick("pytest x y z w v", es[1:2]); ok {
		t.Errorf("arguments too far apart were taken")
	}
	for d, want := range map[time.Duration]string{5 * time.Second: "5 s ago", 20 * time.Minute: "20 min ago",
		3 * time.Hour: "3 h ago", 72 * time.Hour: "3 days ago"} {
		if got := ago(d); got != want {
			t.Errorf("ago(%v) = %q; want %q", d, got, want)
		}
	}
}

// TestFind: the last success of the same line, else of the same program
// and subcommand with close arguments, from a real history; none for a
// command that never worked, or one that did not fail.
func TestFind(t *testing.T) {
	ctx := t.Context()
	s := openStore(t)
	dir := t.TempDir()
	touch(t, filepath.Join(dir, "deploy.sh"), 0o755)
	tx, err := s.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	base := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC).UnixMicro()
	add := func(seq int64, cmd string, exit int, env map[string]string) {
		if _, err := tx.AddCommand(ctx, history.Entry{Session: "s", Seq: seq, Command: cmd, ExitCode: exit, Cwd: dir,
			StartedAt: base + seq*60e6}); err != nil {
			t.Fatal(err)
		}
		if err := tx.AddContext(ctx, "s", seq, exit == 0, base+seq*60e6, history.Context{Key: runctxKey(cmd), Dirty: -1}); err != nil {
			t.Fatal(err)
		}
		if env != nil {
			if err := tx.AddEnv(ctx, "s", seq, env); err != nil {
				t.Fatal(err)
			}
		}
	}
	add(1, "./deploy.sh prod", 0, map[string]string{"PATH": "/bin", "DEPLOY_TARGET": "eu"})
	add(2, "./deploy.sh prod --verbose", 0, nil)
	add(3, "./deploy.sh prod", 1, map[string]string{"PATH": "/bin"})
	add(4, "./deploy.sh prod --quiet", 1, nil)
	add(5, "./other.sh", 1, nil)
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	es, _ := s.List(ctx, history.Query{})
	bySeq := map[int64]history.Entry{}
	for _, e := range es {
		bySeq[e.Seq] = e
	}
	c, err := Find(ctx, s, bySeq[3], Options{Now: time.UnixMicro(base)})
	if err != nil || c == nil || c.Then.ID != bySeq[1].ID || !c.Exact {
		t.Fatalf("Find(#3) = %+v, %v; want the same line, #1", c, err)
	}
	if len(c.Differences) != 1 || c.Differences[0].Name != "DEPLOY_TARGET" || c.Differences[0].Then != "eu" {
		t.Errorf("differences = %+v", c.Differences)
	}
	if !strings.Contains(c.Line, "worked 2 min ago in "+dir+" with DEPLOY_TARGET=eu; now without DEPLOY_TARGET") {
		t.Errorf("line = %q", c.Line)
	}
	c, _ = Find(ctx, s, bySeq[4], Options{})
	if c == nil || c.Then.ID != bySeq[2].ID || c.Exact {
		t.Errorf("Find(#4) = %+v; want the close one, #2", c)
	}
	for _, seq := range []int64{5, 1} {
		if c, err := Find(ctx, s, bySeq[seq], Options{}); c != nil || err != nil {
			t.Errorf("Find(#%d) = %+v, %v; want nothing", seq, c, err)
		}
	}
}

// TestLocalOnly: "it worked before" compares a failure only with a success
// recorded on this installation: a failure synced from another one has
// none, whatever that machine's successes (and their environment, whose
// names and values anyone holding the sync key could have written), and a
// local failure never takes a synced success for its own (issue 30 item 5).
func TestLocalOnly(t *testing.T) {
	ctx := t.Context()
	s := openStore(t)
	const other = "0123456789abcdef"
	wire := "remote-1@" + other
	base := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC).UnixMicro()
	cmd := "./deploy.sh prod"
	key := runctxKey(cmd)
	b := &history.SyncBatch{Sessions: []history.Session{{ID: wire, Host: "rogue"}},
		Commands: []history.Entry{
			{Session: wire, Seq: 1, Command: cmd, Pipestatus: []int{0}, Cwd: "/srv", StartedAt: base + 60e6, Source: "hook"},
			{Session: wire, Seq: 2, Command: cmd, ExitCode: 1, Pipestatus: []int{1}, Cwd: "/srv", StartedAt: base + 120e6, Source: "hook"},
		},
		Contexts: map[history.Key]history.Context{
			{Session: wire, Seq: 1}: {Key: key, Dirty: -1, Env: map[string]string{"PATH": "/tmp/evil:/bin", "DEPLOY_TARGET": "eu"}},
			{Session: wire, Seq: 2}: {Key: key, Dirty: -1, Env: map[string]string{"PATH": "/bin"}},
		}}
	if _, err := s.Merge(ctx, other, "rogue", 1, b, func(s string) string { return s }); err != nil {
		t.Fatal(err)
	}
	tx, err := s.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.AddCommand(ctx, history.Entry{Session: "s", Seq: 1, Command: cmd, ExitCode: 1, Cwd: "/srv", StartedAt: base + 180e6}); err != nil {
		t.Fatal(err)
	}
	if err := tx.AddContext(ctx, "s", 1, false, base+180e6, history.Context{Key: key, Dirty: -1}); err != nil {
		t.Fatal(err)
	}
	if err := tx.AddEnv(ctx, "s", 1, map[string]string{"PATH": "/bin"}); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	es, _ := s.List(ctx, history.Query{})
	if len(es) != 3 {
		t.Fatalf("%d commands", len(es))
	}
	for _, e := range es {
		if e.ExitCode == 0 {
			continue
		}
		if c, err := Find(ctx, s, e, Options{}); c != nil || err != nil {
			t.Errorf("Find(%s #%d, host %q) = %+v, %v; want nothing: the only success is another machine's", e.Session, e.Seq, e.HostID, c, err)
		}
	}
}

// TestFindThroughWrappers: a command run through a wrapper whose option
// takes a value (sudo -u, nice -n, env -u, timeout -s) finds its earlier
// runs with another value, and not the runs of another subcommand: the
// key is the program's (issue 31).
func TestFindThroughWrappers(t *testing.T) {
	ctx := t.Context()
	s := openStore(t)
	dir := t.TempDir()
	base := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC).UnixMicro()
	pairs := []struct{ then, now string }{
		{"sudo -u alice make test", "sudo -u bob make test"},
		{"nice -n 5 make test", "nice -n 10 make test"},
		{"env -u HOME make test", "env -u PATH make test"},
		{"timeout -s KILL 30s make test", "timeout -s TERM 30s make test"},
	}
	others := []string{"sudo -u alice make check", "nice -n 5 make check", "env -u HOME make check", "timeout -s KILL 30s make check"}
	tx, err := s.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	seq := int64(0)
	add := func(cmd string, exit int) {
		seq++
		if _, err := tx.AddCommand(ctx, history.Entry{Session: "s", Seq: seq, Command: cmd, ExitCode: exit, Cwd: dir,
			StartedAt: base + seq*60e6}); err != nil {
			t.Fatal(err)
		}
		if err := tx.AddContext(ctx, "s", seq, exit == 0, base+seq*60e6, history.Context{Key: runctxKey(cmd), Dirty: -1}); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range pairs {
		add(p.then, 0)
	}
	for _, p := range pairs {
		add(p.now, 2)
	}
	for _, o := range others {
		add(o, 2)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	es, _ := s.List(ctx, history.Query{})
	byCmd := map[string]history.Entry{}
	for _, e := range es {
		byCmd[e.Command] = e
	}
	for _, p := range pairs {
		c, err := Find(ctx, s, byCmd[p.now], Options{})
		if err != nil || c == nil || c.Then.ID != byCmd[p.then].ID {
			t.Errorf("Find(%q) = %+v, %v; want its earlier run %q", p.now, c, err, p.then)
		}
	}
	for _, o := range others {
		if c, err := Find(ctx, s, byCmd[o], Options{}); c != nil || err != nil {
			t.Errorf("Find(%q) = %+v, %v; want nothing (only make test worked)", o, c, err)
		}
	}
}
