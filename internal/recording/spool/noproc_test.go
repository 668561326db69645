package spool

import (
	"fmt"
	"os"
	"os/exec"
	"testing"

	"github.com/hookd/hookd/internal/required"
)

// Without /proc no shell's limit can be read: OverSizeLimit warns of none
// (and does not fail), where with /proc it finds the limit.
func TestOverSizeLimitNoProc(t *testing.T) {
	if _, err := os.Stat("/proc/self/limits"); err != nil {
		required.Cannot(t, "no /proc: not Linux, or /proc is not mounted")
	}
	cmd := exec.Command("sh", "-c", "ulimit -f 8; exec sleep 30")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	dir := t.TempDir()
	session := fmt.Sprintf("1-%d-1", cmd.Process.Pid)
	if SessionPID(session) != cmd.Process.Pid {
		t.Fatalf("SessionPID(%q) = %d; want %d", session, SessionPID(session), cmd.Process.Pid)
	}
	if err := os.WriteFile(Path(dir, session), make([]byte, 8192), 0o600); err != nil {
		t.Fatal(err)
	}
	waitLimit := func() bool {
		for range 100 {
			if _, _, over := OverSizeLimit(dir, session); over {
				return true
			}
			exec.Command("sleep", "0.02").Run()
		}
		return false
	}
	if !waitLimit() {
		t.Fatal("OverSizeLimit with /proc: no limit found")
	}
	old := procRoot
	procRoot = t.TempDir()
	defer func() { procRoot = old }()
	if limit, size, over := OverSizeLimit(dir, session); over {
		t.Errorf("OverSizeLimit without /proc = %d, %d, true", limit, size)
	}
}
