package main

import (
	"encoding/json"
	"fmt"
	"github.com/hookd/hookd/internal/required"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/ai/llm/llmtest"
	"github.com/hookd/hookd/internal/shelltest"
)

// gitEnv keeps the tests' git from the machine's configuration.
var gitEnv = []string{"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@x", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@x",
	"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1"}

func gitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), gitEnv...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

func need(t *testing.T, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		required.Tool(t, tool, "REQUIRE_SHELLS")
	}
}

// workedJSON is what hookd suggest --json says of the last success.
type workedJSON struct {
	Fixes []struct {
		Command string `json:"command"`
		Risk    string `json:"risk"`
	} `json:"fixes"`
	WorkedBefore *struct {
		ID          int64  `json:"id"`
		When        string `json:"when"`
		Command     string `json:"command"`
		Line        string `json:"line"`
		Differences []struct {
			Kind     string `json:"kind"`
			Name     string `json:"name"`
			Then     string `json:"then"`
			Now      string `json:"now"`
			Redacted bool   `json:"redacted"`
		} `json:"differences"`
	} `json:"worked_before"`
}

// suggestLast runs hookd suggest --failed --json in the shell for its last
// failed command (as the user would), and reads what it printed.
func suggestLast(t *testing.T, h *shelltest.Home, s *shelltest.Shell) workedJSON {
	t.Helper()
	out := h.Path("suggest.json")
	s.Run("hookd suggest --failed --json > " + out)
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var w workedJSON
	if err := json.Unmarshal(b, &w); err != nil {
		t.Fatalf("suggest --json printed %q: %v", b, err)
	}
	return w
}

// fixesLine waits for the fixes of the failure just typed and returns
// what was printed from the command on.
func failAndWait(t *testing.T, s *shelltest.Shell, line string, re string) string {
	t.Helper()
	mark := len(s.Plain())
	s.Type(line + "\r")
	s.WaitForPlain(regexp.MustCompile(re), 15*time.Second)
	s.Sync()
	return s.Plain()[mark:]
}

const workedRC = "PS1='$ '\nPROMPT='%# '\n"

// TestWorkedBeforeBranch: ./run.sh works on main; on feature, where it
// does not exist, it fails: the line says what changed and git switch
// main is offered (medium risk: it changes the work tree).
func TestWorkedBeforeBranch(t *testing.T) {
	need(t, "git")
	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		app := h.Path("app")
		os.MkdirAll(app, 0o755)
		gitIn(t, app, "init", "-q", "-b", "main")
		os.WriteFile(filepath.Join(app, "README"), []byte("app\n"), 0o644)
		gitIn(t, app, "add", ".")
		gitIn(t, app, "commit", "-qm", "one")
		gitIn(t, app, "branch", "feature")
		os.WriteFile(filepath.Join(app, "run.sh"), []byte("#!/bin/sh\necho 'ran it'\n"), 0o755)
		gitIn(t, app, "add", ".")
		gitIn(t, app, "commit", "-qm", "two")
		fake := llmtest.NewOpenAI(t)
		fake.SetKey("test-key")
		fake.SetReply(llmtest.Reply{Text: []string{"Switch back."}})
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: workedRC + initLine(shell), Dir: app,
			Env: append(llmEnv(fake), gitEnv...)})
		s.Run("./run.sh")
		s.WaitForPlain(regexp.MustCompile(`ran it`), 5*time.Second)
		s.Run("git switch -q feature")
		out := failAndWait(t, s, "./run.sh", `worked \d+ s ago in ~/app on branch main; now on feature, \./run\.sh is missing\n`)
		if !regexp.MustCompile(`↳ git switch main \(medium risk\)\s+fix`).MatchString(out) {
			t.Errorf("git switch main is not offered first, at medium risk:\n%s", out)
		}
		// The model sees it too, when !!ctx names the failure.
		s.Run("hookd ask 'why did it fail? !!ctx'")
		s.WaitForPlain(regexp.MustCompile(`Switch back\.`), 10*time.Second)
		if msg := userMessage(t, fake); !regexp.MustCompile("Worked before: command #\\d+ \\(`\\./run\\.sh`\\) worked \\d+ s ago in ~/app; " +
			"since then: on branch main; now on feature; now \\./run\\.sh is missing").MatchString(msg) {
			t.Errorf("the question sent:\n%s", msg)
		}
		w := suggestLast(t, h, s)
		if w.WorkedBefore == nil || w.WorkedBefore.Command != "./run.sh" || len(w.WorkedBefore.Differences) == 0 ||
			w.WorkedBefore.Differences[0].Kind != "branch" || w.WorkedBefore.Differences[0].Then != "main" ||
			w.WorkedBefore.Differences[0].Now != "feature" {
			t.Errorf("worked_before = %+v", w.WorkedBefore)
		}
		if len(w.Fixes) == 0 || w.Fixes[0].Command != "git switch main" || w.Fixes[0].Risk != "medium" {
			t.Errorf("fixes = %+v", w.Fixes)
		}
	})
}

// TestWorkedBeforeVenv: an import works inside a virtualenv; after
// deactivate the same line fails: the line names the virtualenv, and its
// activate script is offered.
func TestWorkedBeforeVenv(t *testing.T) {
	need(t, "python3")
	forAllShells(t, func(t *testing.T, shell string) {
		h := newHome(t)
		app := h.Path("app")
		os.MkdirAll(app, 0o755)
		venv := filepath.Join(app, ".venv")
		if out, err := exec.Command("python3", "-m", "venv", "--without-pip", venv).CombinedOutput(); err != nil {
			required.Skip(t, fmt.Sprintf("python3 -m venv: %v\n%s", err, out), "REQUIRE_SHELLS")
		}
		site, _ := filepath.Glob(filepath.Join(venv, "lib", "python3*", "site-packages"))
		if len(site) != 1 {
			t.Fatalf("site-packages: %v", site)
		}
		os.WriteFile(filepath.Join(site[0], "hookdtestmod.py"), []byte("print('imported it')\n"), 0o644)
		// fish's virtualenv is activate.fish's (VIRTUAL_ENV, PATH as a list).
		activate := "activate"
		if shell == "fish" {
			activate = "activate.fish"
		}
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: plainPrompt(shell) + initLine(shell), Dir: app})
		s.Run("source .venv/bin/" + activate)
		s.Run("python3 -c 'import hookdtestmod'")
		s.WaitForPlain(regexp.MustCompile(`imported it`), 10*time.Second)
		s.Run("deactivate")
		out := failAndWait(t, s, "python3 -c 'import hookdtestmod'",
			`worked \d+ s ago in ~/app with the virtualenv ~/app/\.venv active; now without it\n`)
		if !regexp.MustCompile(`↳ source ~/app/\.venv/bin/` + regexp.QuoteMeta(activate) + `\s+fix`).MatchString(out) {
			t.Errorf("the activate script is not offered first:\n%s", out)
		}
		w := suggestLast(t, h, s)
		if w.WorkedBefore == nil || len(w.WorkedBefore.Differences) == 0 || w.WorkedBefore.Differences[0].Kind != "virtualenv" ||
			w.WorkedBefore.Differences[0].Then != venv {
			t.Errorf("worked_before = %+v", w.WorkedBefore)
		}
	})
}

// TestWorkedBeforeDirectory: make test works in the project's root and
// fails in a subdirectory: cd back is offered.
func TestWorkedBeforeDirectory(t *testing.T) {
	need(t, "make")
	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		proj := h.Path("proj")
		os.MkdirAll(filepath.Join(proj, "src"), 0o755)
		os.WriteFile(filepath.Join(proj, "Makefile"), []byte("test:\n\t@echo tests pass\n"), 0o644)
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: workedRC + initLine(shell), Dir: proj})
		s.Run("make test")
		s.WaitForPlain(regexp.MustCompile(`tests pass`), 5*time.Second)
		s.Run("cd src")
		out := failAndWait(t, s, "make test", `worked \d+ s ago in ~/proj; now in ~/proj/src \(no Makefile here\)\n`)
		if !regexp.MustCompile(`↳ cd ~/proj\s+fix`).MatchString(out) {
			t.Errorf("cd ~/proj is not offered first:\n%s", out)
		}
		if shell == "zsh" {
			// fix puts it on the command line, to run with Enter.
			s.Type("fix\r")
			s.WaitForPlain(regexp.MustCompile(`[%#] cd ~/proj$`), 5*time.Second)
			s.Type("\r")
			s.Sync()
			s.Run("make test")
			s.WaitForPlain(regexp.MustCompile(`(?s)cd ~/proj.*tests pass`), 5*time.Second)
		}
	})
}

// TestWorkedBeforeVariable: a script that needs API_URL works; in a new
// shell without it, it fails: the variable is named and its value
// offered; a secret's value (redacted) is named, never offered.
func TestWorkedBeforeVariable(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		os.MkdirAll(h.Path(".config", "hookd"), 0o700)
		os.WriteFile(h.Path(".config", "hookd", "config.yaml"), []byte("fix:\n  watch_env: [API_URL, API_TOKEN]\n"), 0o600)
		os.WriteFile(h.Path("call.sh"), []byte("#!/bin/sh\n[ -n \"$API_URL\" ] || { echo 'API_URL is not set' >&2; exit 1; }\necho \"called $API_URL\"\n"), 0o755)
		os.WriteFile(h.Path("auth.sh"), []byte("#!/bin/sh\n[ -n \"$API_TOKEN\" ] || { echo 'API_TOKEN is not set' >&2; exit 1; }\necho authed\n"), 0o755)
		const token = "tok_9f8e7d6c5b4a39281706f5e4d3c2b1a0"
		first := shelltest.Start(t, h, shell, shelltest.Options{RC: workedRC + initLine(shell),
			Env: []string{"API_URL=http://api.local:8080/v1", "API_TOKEN=" + token}})
		first.Run("./call.sh")
		first.WaitForPlain(regexp.MustCompile(`called http://api.local:8080/v1`), 5*time.Second)
		first.Run("./auth.sh")
		first.WaitForPlain(regexp.MustCompile(`authed`), 5*time.Second)
		first.Exit()

		s := shelltest.Start(t, h, shell, shelltest.Options{RC: workedRC + initLine(shell)})
		// Both variables were set then: both are named (the one the
		// output names first, when the output was captured).
		for _, script := range []string{"./call.sh", "./auth.sh"} {
			out := failAndWait(t, s, script, `worked \d+ s ago in ~ with .*; now without .*\n`)
			line := regexp.MustCompile(`worked .*`).FindString(out)
			if !strings.Contains(line, "API_URL=http://api.local:8080/v1") || !strings.Contains(line, "API_TOKEN set") ||
				!regexp.MustCompile(`now without (API_TOKEN, API_URL|API_URL, API_TOKEN)$`).MatchString(line) {
				t.Errorf("%s: the line is %q", script, line)
			}
			if !regexp.MustCompile(`↳ export API_URL=http://api\.local:8080/v1\s+fix`).MatchString(out) {
				t.Errorf("%s: the old value is not offered first:\n%s", script, out)
			}
			if strings.Contains(out, "export API_TOKEN") || strings.Contains(out, token) {
				t.Errorf("%s: a secret's value was offered:\n%s", script, out)
			}
		}
		w := suggestLast(t, h, s)
		if w.WorkedBefore == nil {
			t.Fatalf("no worked_before")
		}
		var secret, plain bool
		for _, d := range w.WorkedBefore.Differences {
			secret = secret || d.Name == "API_TOKEN" && d.Redacted && d.Then == "[REDACTED]"
			plain = plain || d.Name == "API_URL" && !d.Redacted && d.Then == "http://api.local:8080/v1"
		}
		if !secret || !plain {
			t.Errorf("worked_before = %+v", w.WorkedBefore)
		}
		for _, f := range w.Fixes {
			if strings.Contains(f.Command, "API_TOKEN") {
				t.Errorf("fixes = %+v: the secret's is offered", w.Fixes)
			}
		}
		if b, _ := os.ReadFile(h.Path(".local", "share", "hookd", "history.db")); strings.Contains(string(b), token) {
			t.Errorf("the secret was stored")
		}
	})
}

// TestWorkedBeforeNone: a command that never worked gets no line.
func TestWorkedBeforeNone(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		os.WriteFile(h.Path("fail.sh"), []byte("#!/bin/sh\necho 'it broke' >&2\nexit 3\n"), 0o755)
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: workedRC + initLine(shell)})
		s.Run("./fail.sh one")
		s.WaitForPlain(regexp.MustCompile(`it broke`), 5*time.Second)
		s.Run("./fail.sh one")
		if strings.Contains(s.Plain(), "worked ") {
			t.Errorf("a line for a command that never worked:\n%s", s.Plain())
		}
		if w := suggestLast(t, h, s); w.WorkedBefore != nil {
			t.Errorf("worked_before = %+v", w.WorkedBefore)
		}
	})
}

// fakeConda is rc code defining a `conda` that activates and deactivates an
// environment the way conda's own shell hooks do, without conda: activate
// exports CONDA_PREFIX, CONDA_DEFAULT_ENV and CONDA_SHLVL and puts the
// environment's bin first on PATH; deactivate takes them away. fish's is
// what `conda shell.fish activate` prints (set -gx, PATH as a list).
func fakeConda(shell string) string {
	if shell == "fish" {
		return `function conda
    switch $argv[1]
        case activate
            set -gx PATH $argv[2]/bin $PATH
            set -gx CONDA_PREFIX $argv[2]
            set -gx CONDA_DEFAULT_ENV (path basename $argv[2])
            set -gx CONDA_SHLVL 1
        case deactivate
            set -gx PATH (string match -v -- $CONDA_PREFIX/bin $PATH)
            set -e CONDA_PREFIX
            set -e CONDA_DEFAULT_ENV
            set -gx CONDA_SHLVL 0
    end
end
`
	}
	return `conda() {
  case $1 in
  activate) export PATH="$2/bin:$PATH" CONDA_PREFIX="$2" CONDA_DEFAULT_ENV="${2##*/}" CONDA_SHLVL=1 ;;
  deactivate) PATH=${PATH#"$CONDA_PREFIX/bin:"}; unset CONDA_PREFIX CONDA_DEFAULT_ENV; export CONDA_SHLVL=0 ;;
  esac
}
`
}

// TestWorkedBeforeConda: a program of a conda environment works while it is
// active; after conda deactivate the same line fails: the line names the
// environment and conda activate is offered, in bash, zsh and fish (conda
// itself is faked by fakeConda, which sets what conda's hooks set).
func TestWorkedBeforeConda(t *testing.T) {
	forAllShells(t, func(t *testing.T, shell string) {
		h := newHome(t)
		env := h.Path("miniconda3", "envs", "ml")
		os.MkdirAll(filepath.Join(env, "bin"), 0o755)
		os.WriteFile(filepath.Join(env, "bin", "mltool"), []byte("#!/bin/sh\necho 'trained it'\n"), 0o755)
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: plainPrompt(shell) + fakeConda(shell) + initLine(shell)})
		s.Run("conda activate " + env)
		s.Run("mltool")
		s.WaitForPlain(regexp.MustCompile(`trained it`), 10*time.Second)
		s.Run("conda deactivate")
		out := failAndWait(t, s, "mltool",
			`worked \d+ s ago in ~ with the conda environment ~/miniconda3/envs/ml active; now without it\n`)
		if !regexp.MustCompile(`↳ conda activate ~/miniconda3/envs/ml\s+fix`).MatchString(out) {
			t.Errorf("conda activate is not offered first:\n%s", out)
		}
		w := suggestLast(t, h, s)
		if w.WorkedBefore == nil || len(w.WorkedBefore.Differences) == 0 || w.WorkedBefore.Differences[0].Kind != "conda" ||
			w.WorkedBefore.Differences[0].Name != "CONDA_PREFIX" || w.WorkedBefore.Differences[0].Then != env {
			t.Errorf("worked_before = %+v", w.WorkedBefore)
		}
	})
}

// TestWorkedBeforeUnwatchedVariable: a variable nobody listed in
// fix.watch_env, exported by hand in the shell where ./region.sh last
// worked, is missing in a new shell: the failure says "DEPLOY_REGION is
// not set", and the fix line says it was set then (from that session's
// own export) and offers to export it again; nothing was noted for it at
// any prompt (issue 37 item 4).
func TestWorkedBeforeUnwatchedVariable(t *testing.T) {
	forAllShells(t, func(t *testing.T, shell string) {
		h := newHome(t)
		os.WriteFile(h.Path("region.sh"), []byte("#!/bin/sh\n[ -n \"$DEPLOY_REGION\" ] || { echo 'DEPLOY_REGION is not set' >&2; exit 1; }\necho \"deployed to $DEPLOY_REGION\"\n"), 0o755)
		rc := workedRC + initLine(shell)
		if shell == "fish" {
			rc = "function fish_prompt; printf '$ '; end\n" + initLine(shell)
		}
		first := shelltest.Start(t, h, shell, shelltest.Options{RC: rc, Env: captureOn})
		if shell == "fish" {
			first.Run("set -gx DEPLOY_REGION eu-west-3")
		} else {
			first.Run("export DEPLOY_REGION=eu-west-3")
		}
		first.Run("./region.sh")
		first.WaitForPlain(regexp.MustCompile(`deployed to eu-west-3`), 5*time.Second)
		first.Exit()

		s := shelltest.Start(t, h, shell, shelltest.Options{RC: rc, Env: captureOn})
		out := failAndWait(t, s, "./region.sh", `worked \d+ s ago in ~ with .*; now without .*\n`)
		if line := regexp.MustCompile(`worked .*`).FindString(out); !strings.Contains(line, "with DEPLOY_REGION=eu-west-3; now without DEPLOY_REGION") {
			t.Errorf("the line is %q", line)
		}
		if !regexp.MustCompile(`↳ export DEPLOY_REGION=eu-west-3\s+fix`).MatchString(out) {
			t.Errorf("the old value is not offered:\n%s", out)
		}
	})
}
