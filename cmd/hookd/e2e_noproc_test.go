package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/shelltest"
)

// noProcLine is the rc line that loads hookd with every /proc path of its
// shell code pointed into an empty directory, as in a sandbox or on macOS
// where there is no /proc: the hooks' fallbacks run.
func noProcLine(shell, empty string) string {
	if shell == "fish" {
		return fmt.Sprintf("hookd init fish | string replace -a /proc/ %s/ | source\n", empty)
	}
	return fmt.Sprintf("eval \"$(hookd init %s | sed 's|/proc/|%s/|g')\"\n", shell, empty)
}

// TestRecordsWithoutProc: with /proc hidden from the shell code, bash, zsh
// and fish still record each command with its status and a start time of
// about now (fish, which reads its clock from /proc/uptime, writes "now"
// for the daemon to fill in), and the daemon is started.
func TestRecordsWithoutProc(t *testing.T) {
	t.Parallel()
	for _, sh := range []string{"bash", "zsh", "fish"} {
		t.Run(sh, func(t *testing.T) {
			t.Parallel()
			shelltest.Need(t, sh)
			h := newHome(t)
			empty := t.TempDir()
			s := shelltest.Start(t, h, sh, shelltest.Options{RC: noProcLine(sh, empty)})
			s.Run("echo one")
			s.Run("false")
			s.Run("sleep 0.2")
			es := entries(t, h)
			if got, want := commandsOf(es), []string{"echo one", "false", "sleep 0.2"}; !equal(got, want) {
				t.Fatalf("recorded %q; want %q", got, want)
			}
			if es[1].ExitCode != 1 {
				t.Errorf("false: exit %d", es[1].ExitCode)
			}
			for _, e := range es {
				st, err := time.Parse(time.RFC3339Nano, e.StartedAt)
				if err != nil || time.Since(st) > time.Minute || time.Until(st) > 5*time.Second {
					t.Errorf("%s started at %q (%v); want about now", e.Command, e.StartedAt, err)
				}
			}
			if out, errOut, err := hookdRun(h, nil, "status"); err != nil || strings.Contains(out+errOut, "problem") {
				t.Errorf("hookd status: %v\n%s%s", err, out, errOut)
			}
			if d := es[2].DurationMS; d < 200 || d > 5000 {
				t.Errorf("sleep 0.2: duration %.1f ms", d)
			}
		})
	}
}
