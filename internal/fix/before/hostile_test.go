package before

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/analyze"
	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/shellwords/shellwordstest"

	"github.com/hookd/hookd/internal/required"
)

// TestHostileDifferences: each difference "it worked before" restores
// (the branch, the directory, the virtualenv, a variable's value, a
// directory on PATH) with hostile names in a real repository and real
// directories: every fix parses (shellwordstest.Calls) to exactly the
// words meant, with the name whole in its place, and a branch that starts
// with "-" follows --end-of-options.
func TestHostileDifferences(t *testing.T) {
	required.Tool(t, "git")
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	checked := map[string]int{}
	for _, name := range shellwordstest.Hostile {
		home := t.TempDir()
		app := filepath.Join(home, "src", "app")
		os.MkdirAll(app, 0o755)
		gitIn(t, app, "init", "-q", "-b", "main")
		touch(t, filepath.Join(app, "Makefile"), 0o644)
		gitIn(t, app, "add", ".")
		gitIn(t, app, "commit", "-qm", "one")
		// git update-ref takes names git branch refuses (a leading -),
		// as a cloned repository can hold them.
		branch := exec.Command("git", "update-ref", "refs/heads/"+name, "HEAD")
		branch.Dir = app
		branchOK := branch.Run() == nil
		dir := filepath.Join(app, name)
		touch(t, filepath.Join(dir, "Makefile"), 0o644)
		touch(t, filepath.Join(dir, ".venv", "bin", "activate"), 0o644)
		bin := filepath.Join(home, name, "bin")
		touch(t, filepath.Join(bin, "mytool"), 0o755)
		sub := filepath.Join(app, "sub")
		os.MkdirAll(sub, 0o755)
		env := func(kv ...string) map[string]string {
			m := map[string]string{"PATH": "/usr/bin:/bin"}
			for i := 0; i < len(kv); i += 2 {
				m[kv[i]] = kv[i+1]
			}
			return m
		}
		run := func(cmd, cwd, branch string, e map[string]string) Run {
			return Run{Command: cmd, Cwd: cwd, Known: true, Started: now.Add(-time.Hour), Context: history.Context{Repo: app, Branch: branch, Env: e}}
		}
		cases := []struct {
			what      string
			then, now Run
			errType   string
			output    string
			word      string // the word the fix must hold, whole
			skip      bool
		}{
			{"branch", run("./run.sh", app, name, env()), run("./run.sh", app, "main", env()),
				analyze.FileNotFound, "bash: ./run.sh: No such file or directory", name, !branchOK},
			{"directory", run("make test", dir, "main", env()), run("make test", sub, "main", env()),
				"", "make: *** No rule to make target 'test'.  Stop.", "~/src/app/" + name, false},
			{"virtualenv", run("python3 app.py", app, "main", env("VIRTUAL_ENV", filepath.Join(dir, ".venv"))), run("python3 app.py", app, "main", env()),
				analyze.MissingDependency, "ModuleNotFoundError: No module named 'requests'", "~/src/app/" + name + "/.venv/bin/activate", false},
			{"variable", run("./deploy.sh", app, "main", env("API_URL", name)), run("./deploy.sh", app, "main", env()),
				"", "deploy: API_URL is not set", "API_URL=" + name, false},
			{"PATH", run("mytool --x", app, "main", map[string]string{"PATH": bin + ":/usr/bin"}), run("mytool --x", app, "main", map[string]string{"PATH": "/usr/bin"}),
				analyze.CommandNotFound, "bash: mytool: command not found", "PATH=" + bin + ":", false},
		}
		for _, tc := range cases {
			if tc.skip {
				continue
			}
			tc.then.ExitCode, tc.now.ExitCode = 0, 1
			tc.now.Started = now
			c := Compare(tc.then, tc.now, Options{Home: home, ErrorType: tc.errType, Output: tc.output, Now: now})
			for _, fx := range c.Fixes {
				line := fx.Command
				if tc.what == "PATH" {
					// The one expansion meant: the PATH of the moment.
					var ok bool
					if line, ok = strings.CutSuffix(line, `:"$PATH"`); !ok {
						t.Errorf("%s %q: the fix %q does not keep $PATH", tc.what, name, fx.Command)
						continue
					}
					line += ":"
				}
				calls, err := shellwordstest.Calls(line)
				if err != nil {
					t.Errorf("%s %q: the fix %q is not only words: %v", tc.what, name, fx.Command, err)
					continue
				}
				if len(calls) != 1 {
					t.Errorf("%s %q: the fix %q is %d commands", tc.what, name, fx.Command, len(calls))
					continue
				}
				if !slices.Contains(calls[0], tc.word) {
					t.Errorf("%s %q: the fix %q does not hold %q as one word: %q", tc.what, name, fx.Command, tc.word, calls[0])
					continue
				}
				if i := slices.Index(calls[0], tc.word); strings.HasPrefix(tc.word, "-") && !slices.Contains(calls[0][:i], "--end-of-options") {
					t.Errorf("%s %q: the fix %q gives the name as an option", tc.what, name, fx.Command)
				}
				checked[tc.what]++
			}
		}
	}
	for _, what := range []string{"branch", "directory", "virtualenv", "variable", "PATH"} {
		if checked[what] == 0 {
			t.Errorf("%s: no fix was offered for any name: the case tests nothing", what)
		}
	}
}
