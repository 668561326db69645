package agent

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"
)

// Start starts a detached agent (exe daemon, in a session of its own)
// unless one of version answers on sock. An agent of another version
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
	// The agent outlives the shell: it must not keep open whatever the shell
	// inherited (a pipe of the program that started the shell would then
	// never see its end).
	closeOnExecAll()
	cmd := exec.Command(exe, "daemon")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	cmd.Dir = "/"
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start the agent: %w", err)
	}
	return cmd.Process.Release()
}

// stop asks the agent to stop and waits (briefly) until its process is
// gone: only then is its lock free for the next one.
func stop(ctx context.Context, sock string, pid int) {
	cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	Call(cctx, sock, Request{Op: "stop"})
	for cctx.Err() == nil {
		if pid <= 0 || syscall.Kill(pid, 0) != nil {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// closeOnExecAll marks every inherited file descriptor above 2 close-on-exec.
func closeOnExecAll() {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return
	}
	for _, ent := range ents {
		if fd, err := strconv.Atoi(ent.Name()); err == nil && fd > 2 {
			syscall.CloseOnExec(fd)
		}
	}
}
