package daemon

import (
	"os"
	"os/exec"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

func hideProc(t *testing.T) {
	old := procRoot
	procRoot = t.TempDir()
	t.Cleanup(func() { procRoot = old })
}

// Without /proc the daemon still marks inherited descriptors close-on-exec
// (every number below the limit), so that no shell's terminal or file is
// held open by the programs it starts.
func TestCloseOnExecAllNoProc(t *testing.T) {
	hideProc(t)
	f, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fd, err := unix.FcntlInt(f.Fd(), unix.F_DUPFD, 3) // a duplicate without FD_CLOEXEC
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fd)
	if flags, _ := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); flags&unix.FD_CLOEXEC != 0 {
		t.Fatal("F_DUPFD set FD_CLOEXEC")
	}
	closeOnExecAll()
	if flags, _ := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); flags&unix.FD_CLOEXEC == 0 {
		t.Errorf("fd %d not close-on-exec after closeOnExecAll without /proc", fd)
	}
}

// Without /proc, running is kill(pid, 0): a live process runs, a reaped
// one does not.
func TestRunningNoProc(t *testing.T) {
	hideProc(t)
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if !running(cmd.Process.Pid) {
		t.Error("running(live sleep) = false without /proc")
	}
	cmd.Process.Kill()
	cmd.Wait()
	if running(cmd.Process.Pid) {
		t.Error("running(reaped sleep) = true without /proc")
	}
}
