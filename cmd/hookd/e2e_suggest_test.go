package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/hookd/hookd/internal/shelltest"
)

// TestSuggestFromHistory asks for fixes of the last command of a real
// session (REF form): nothing is run, the fix is the corrected command.
func TestSuggestFromHistory(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: initLine(shell)})
		s.Run("gti status")
		s.Run("hookd suggest --json > suggest.json")
		b, err := os.ReadFile(h.Path("suggest.json"))
		if err != nil {
			t.Fatal(err)
		}
		var r struct {
			ErrorType string `json:"error_type"`
			RootCause string `json:"root_cause"`
			Method    string `json:"method"`
			Fixes     []struct {
				Command    string  `json:"command"`
				Risk       string  `json:"risk"`
				Confidence float64 `json:"confidence"`
			} `json:"fixes"`
		}
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatalf("suggest --json printed %q: %v", b, err)
		}
		if r.ErrorType != "command_not_found" || r.Method != "heuristic" || len(r.Fixes) == 0 || len(r.Fixes) > 3 ||
			r.Fixes[0].Command != "git status" || r.Fixes[0].Risk != "low" {
			t.Errorf("suggest for `gti status` = %+v", r)
		}
	})
}

func TestSuggestCommandForm(t *testing.T) {
	h := newHome(t)
	out := h.Path("out.txt")
	os.WriteFile(out, []byte("bash: gti: command not found\n"), 0o600)
	got := hookd(t, h, "suggest", "--command", "gti status", "--exit", "127", "--output-file", out, "--cwd", h.Dir, "--json")
	if !strings.Contains(got, `"command":"git status"`) {
		t.Errorf("suggest --command: %s", got)
	}
	// Asking must not create a history.
	if _, err := os.Stat(h.Path(".local", "share", "hookd", "history.db")); err == nil {
		t.Errorf("suggest --command created a database")
	}
	// An ordinary "no" (grep found nothing) gets no comment.
	if got := hookd(t, h, "suggest", "--command", "grep foo file", "--exit", "1"); got != "" {
		t.Errorf("suggest for grep's exit 1 printed %q; want nothing", got)
	}
}

// TestSuggestUserPatterns: a pattern of the user's gives the fix; a broken
// one is named on stderr and skipped, the rest still works.
func TestSuggestUserPatterns(t *testing.T) {
	h := newHome(t)
	os.MkdirAll(h.Path(".config", "hookd"), 0o700)
	patterns := `- name: deploy-login
  command: '^deploy (\S+)'
  output: 'not logged in to (?P<env>\w+)'
  error_type: configuration_error
  explanation: You are not logged in.
  fixes:
    - command: 'deploy login {env} && {command}'
- name: broken
  output: 'a('
`
	os.WriteFile(h.Path(".config", "hookd", "patterns.yaml"), []byte(patterns), 0o600)
	out := h.Path("out.txt")
	os.WriteFile(out, []byte("error: not logged in to staging\n"), 0o600)
	got, errOut, err := hookdRun(h, nil, "suggest", "--command", "deploy app1", "--exit", "1", "--output-file", out, "--json")
	if err != nil || !strings.Contains(got, `"command":"deploy login staging && deploy app1"`) || !strings.Contains(got, `"error_type":"configuration_error"`) {
		t.Errorf("suggest with a user pattern: %v %s", err, got)
	}
	if !strings.Contains(errOut, "broken") || !strings.Contains(errOut, "patterns.yaml:8: ") {
		t.Errorf("the broken pattern is not named: %q", errOut)
	}
}
