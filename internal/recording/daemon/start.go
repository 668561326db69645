package daemon

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"
)

// Start starts a detached daemon (exe daemon, in a session of its own)
// unless one of version answers on sock. A daemon of another version
// (hookd was upgraded) is asked to stop first, and waited for.
func Start(ctx context.Context, sock, exe, version string) error {
	cctx, cancel := context.WithTimeout(ctx, time.Second)
	st, err := Call(cctx, sock, Request{Op: "status"})
	cancel()
	if err == nil {
		if st.Version == version {
			return nil
		}
		stop(ctx, sock, st.PID)
	}
	// The daemon outlives the shell: it must not keep open whatever the shell
	// inherited (a pipe of the program that started the shell would then
	// never see its end).
	closeOnExecAll()
	cmd := exec.Command(exe, "daemon")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	cmd.Dir = "/"
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start the daemon: %w", err)
	}
	return cmd.Process.Release()
}

// stop asks the daemon to stop and waits (briefly) until its process is
// gone: only then is its lock free for the next one.
func stop(ctx context.Context, sock string, pid int) {
	cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	Call(cctx, sock, Request{Op: "stop"})
	for cctx.Err() == nil {
		if pid <= 0 || !running(pid) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// running reports whether pid is a process that has not ended. A zombie
// has ended, though it stays until its parent reaps it (in a container
// whose PID 1 never reaps, for ever): its lock is free already.
func running(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	b, err := os.ReadFile(procRoot + "/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true // no /proc: kill(pid, 0) is all there is
	}
	// pid (comm) STATE …: the command name may hold anything but the
	// last ')'.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 || i+2 >= len(b) {
		return true
	}
	return b[i+2] != 'Z' && b[i+2] != 'X'
}

// procRoot is where /proc is: tests point it at an empty directory to run
// as a sandbox without /proc would.
var procRoot = "/proc"

// closeOnExecAll marks every inherited file descriptor above 2 close-on-exec:
// those /proc/self/fd lists or, without /proc, every number below the
// descriptor limit (marking one that is not open does nothing).
func closeOnExecAll() {
	ents, err := os.ReadDir(procRoot + "/self/fd")
	if err != nil {
		var lim syscall.Rlimit
		n := 1024
		// (Cur is a uint64 on Linux and macOS, an int64 on FreeBSD.)
		if syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim) == nil && uint64(lim.Cur) < 1<<16 {
			n = int(lim.Cur)
		}
		for fd := 3; fd < n; fd++ {
			syscall.CloseOnExec(fd)
		}
		return
	}
	for _, ent := range ents {
		if fd, err := strconv.Atoi(ent.Name()); err == nil && fd > 2 {
			syscall.CloseOnExec(fd)
		}
	}
}
