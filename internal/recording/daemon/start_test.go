//go:build linux

package daemon

import (
	"os"
	"os/exec"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/hookd/hookd/internal/required"
)

// TestRunningZombie: a process that has ended but is not reaped yet (a
// zombie) is not running; a live one is.
func TestRunningZombie(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		required.Cannot(t, "no /proc: not Linux, or /proc is not mounted")
	}
	if !running(os.Getpid()) {
		t.Errorf("running(self) = false")
	}
	cmd := exec.Command("true")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait until it has ended without reaping it: WNOWAIT leaves the
	// child a zombie.
	for {
		err := unix.Waitid(unix.P_PID, cmd.Process.Pid, &unix.Siginfo{}, unix.WEXITED|unix.WNOWAIT, nil)
		if err != syscall.EINTR {
			break
		}
	}
	if running(cmd.Process.Pid) {
		t.Errorf("running(zombie %d) = true", cmd.Process.Pid)
	}
	cmd.Wait()
}
