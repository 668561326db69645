package main

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/shelltest"
)

// TestInstalledSmoke is the smoke test .ci/release.sh runs with the hookd a
// package installed (HOOKD_TEST_INSTALLED): in real bash and zsh, a command
// is recorded with its output, a failure gets its fix offered, and `hookd
// status` in that shell is clean (the daemon running, no problem listed).
// The rc file is the one docs/guide.md gives: the early line first, the
// usual line last (with the usual line alone, status rightly advises the
// early one).
func TestInstalledSmoke(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		os.MkdirAll(h.Path("src"), 0o700)
		os.WriteFile(h.Path("src", "a.txt"), []byte("TODO\n"), 0o600)
		s := startCaptured(t, h, shell, earlyLine(shell))
		runPrompt(t, s, "echo smoke-$((6*7))")
		s.Type("grep TODO src\r")
		s.WaitForPlain(regexp.MustCompile(`↳ grep -r TODO src`), 10*time.Second)
		s.Sync()
		// The daemon starts in the background with the shell: on a busy
		// machine it may not answer yet, which status rightly reports.
		// Once it answers, status in the shell must be clean.
		shelltest.Eventually(t, 30*time.Second, func() bool {
			return strings.Contains(hookd(t, h, "status", "--json"), `"pid"`)
		}, func() string { return "the daemon never answered: " + hookd(t, h, "status") })
		s.Run("hookd status --json > " + h.Path("status.json") + "; echo status-exit-$?")
		s.WaitFor(regexp.MustCompile(`status-exit-0`), 10*time.Second)

		var st struct {
			Agent *struct {
				PID int `json:"pid"`
			} `json:"agent"`
			CaptureActive bool     `json:"capture_active"`
			Session       string   `json:"session"`
			Problems      []string `json:"problems"`
		}
		b, _ := os.ReadFile(h.Path("status.json"))
		if err := json.Unmarshal(b, &st); err != nil {
			t.Fatalf("hookd status --json: %v\n%s", err, b)
		}
		if st.Agent == nil || st.Agent.PID == 0 || !st.CaptureActive || st.Session == "" || len(st.Problems) > 0 {
			t.Errorf("hookd status in the shell is not clean (agent, capture, session, no problems):\n%s", b)
		}
		found := false
		for _, o := range outputs(t, h) {
			if o.Command == "echo smoke-$((6*7))" {
				found = true
				if o.Output != "smoke-42\n" {
					t.Errorf("echo smoke-$((6*7)) recorded with output %q; want %q", o.Output, "smoke-42\n")
				}
			}
		}
		if !found {
			t.Errorf("echo smoke-$((6*7)) is not in the history")
		}
	})
}
