package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/shelltest"
	"github.com/hookd/hookd/internal/shellwords"
)

// gitRC is the start of an rc file for a shell that runs git in dir, kept
// from the machine's git configuration.
func gitRC(shell, dir string) string {
	env := "export " + strings.Join(gitEnv, " ") + "\n"
	if shell == "fish" {
		env = ""
		for _, kv := range gitEnv {
			k, v, _ := strings.Cut(kv, "=")
			env += "set -gx " + k + " " + shellwords.Quote(v) + "\n"
		}
	}
	return plainPrompt(shell) + env + "cd " + shellwords.Quote(dir) + "\n" + initLine(shell)
}

// TestHostileBranchFix (issue 30, items 1 and 2): in a repository whose
// branch is dev$(touch${IFS}pwned), `git push origin main` is offered
// `git push origin 'dev$(touch${IFS}pwned)'`; accepted with the fix key
// and with `fix`, it pushes that branch and creates no file pwned.
func TestHostileBranchFix(t *testing.T) {
	need(t, "git")
	const branch = "dev$(touch${IFS}pwned)"
	forAllShells(t, func(t *testing.T, shell string) {
		h := newHome(t)
		repo, origin := h.Path("repo"), h.Path("origin.git")
		os.MkdirAll(repo, 0o700)
		gitIn(t, h.Path(), "init", "-q", "--bare", origin)
		gitIn(t, repo, "init", "-q", "-b", "dev")
		gitIn(t, repo, "commit", "-q", "--allow-empty", "-m", "one")
		gitIn(t, repo, "branch", "-m", branch)
		gitIn(t, repo, "remote", "add", "origin", origin)
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: gitRC(shell, repo), Env: []string{"HOOKD_CAPTURE=pty"}})
		pushed := func() bool {
			out, _ := exec.Command("git", "-C", origin, "branch", "--list", branch).Output()
			return strings.Contains(string(out), branch)
		}
		for _, accept := range []string{"key", "fix"} {
			s.Run("git push origin main")
			s.WaitForPlain(regexp.MustCompile(`↳ git push origin 'dev\$\(touch\$\{IFS\}pwned\)'`), 20*time.Second)
			s.Sync()
			s.Editing()
			switch {
			case accept == "key":
				s.TypeWait("\x18f", regexp.MustCompile(`git push origin 'dev\$\(touch\$\{IFS\}pwned\)'$`), 10*time.Second)
				s.Type("\r")
			case shell != "zsh":
				s.Type("fix\r")
				s.WaitForPlain(regexp.MustCompile(`run it \(low risk\)\? \[y/N, then Enter\] $`), 10*time.Second)
				s.Type("y\r")
			default:
				s.Type("fix\r")
				s.WaitForPlain(regexp.MustCompile(`[%#] git push origin 'dev\$\(touch\$\{IFS\}pwned\)'$`), 10*time.Second)
				s.Type("\r")
			}
			s.Sync()
			if _, err := os.Stat(filepath.Join(repo, "pwned")); err == nil {
				t.Fatalf("%s: accepting the fix ran the branch's name", accept)
			}
			if !pushed() {
				t.Errorf("%s: the fix did not push the branch:\n%s", accept, s.Plain())
			}
			gitIn(t, origin, "branch", "-D", branch)
		}
	})
}

// TestHighRiskConsent (issue 30, item 3): a high-risk fix (git branch -D
// of an unmerged branch) is never the one `fix` and the fix key pick by
// themselves; `fix 1` names its risk, and in bash runs it only once the
// word yes is typed, in bash and fish (zsh puts it on the line, named,
// for Enter).
func TestHighRiskConsent(t *testing.T) {
	need(t, "git")
	forAllShells(t, func(t *testing.T, shell string) {
		h := newHome(t)
		repo := h.Path("repo")
		os.MkdirAll(repo, 0o700)
		gitIn(t, repo, "init", "-q", "-b", "main")
		gitIn(t, repo, "commit", "-q", "--allow-empty", "-m", "one")
		gitIn(t, repo, "switch", "-q", "-c", "topic")
		gitIn(t, repo, "commit", "-q", "--allow-empty", "-m", "two")
		gitIn(t, repo, "switch", "-q", "main")
		exists := func() bool {
			return exec.Command("git", "-C", repo, "rev-parse", "--verify", "-q", "refs/heads/topic").Run() == nil
		}
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: gitRC(shell, repo), Env: []string{"HOOKD_CAPTURE=pty"}})
		s.Run("git branch -d topic")
		s.WaitForPlain(regexp.MustCompile(`↳ git branch -D topic`), 20*time.Second)
		s.Sync()
		// fix with no number: not the high-risk one.
		m := s.Mark()
		s.Run("fix")
		s.WaitPlainSince(m, regexp.MustCompile(`every fix of the last command is high risk`), 10*time.Second)
		// The fix key: nothing on the line by itself.
		s.Sync()
		s.Editing()
		m = s.Mark()
		s.Type("\x18f")
		s.Type("echo line-was-empty\r")
		s.WaitPlainSince(m, regexp.MustCompile(`\nline-was-empty\n`), 10*time.Second)
		s.Sync()
		if !exists() {
			t.Fatalf("the high-risk fix ran without being chosen")
		}
		if shell != "zsh" {
			m = s.Mark()
			s.Type("fix 1\r")
			s.WaitPlainSince(m, regexp.MustCompile(`run it \(high risk: Delete the branch anyway.*\)\? type yes, then Enter: $`), 10*time.Second)
			s.Type("y\r")
			s.Sync()
			if !exists() {
				t.Fatalf("y ran a high-risk fix")
			}
			m = s.Mark()
			s.Type("fix 1\r")
			s.WaitPlainSince(m, regexp.MustCompile(`type yes, then Enter: $`), 10*time.Second)
			s.Type("yes\r")
		} else {
			m = s.Mark()
			s.Type("fix 1\r")
			s.WaitPlainSince(m, regexp.MustCompile(`(?s)hookd: high risk: Delete the branch anyway.*[%#] git branch -D topic$`), 10*time.Second)
			if !exists() {
				t.Fatalf("fix 1 ran a high-risk fix without Enter")
			}
			s.Type("\r")
		}
		s.Sync()
		if exists() {
			t.Errorf("the high-risk fix, chosen, did not run:\n%s", s.Plain())
		}
	})
}
