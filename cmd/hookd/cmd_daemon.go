package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"

	"github.com/hookd/hookd/agent"
)

func cmdDaemon(ctx context.Context, e *env, args []string) error {
	fs := flags(e, "daemon")
	detach := fs.Bool("detach", false, "start the agent in the background (restarting one of another version) and return")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return usagef("no arguments expected")
	}
	if err := e.privateRuntimeDir(); err != nil {
		return err
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	if *detach {
		return startAgent(ctx, e, exe)
	}
	log, closer, err := e.logger()
	if err != nil {
		return err
	}
	defer closer.Close()
	cfg := e.config()
	err = agent.Run(ctx, agent.Options{
		Version: version, SpoolDir: e.spoolDir, OutboxDir: e.outboxDir, PIDFile: e.pidFile, RuntimeDir: e.runtimeDir,
		DBPath: e.dbPath, Interval: time.Second, Rules: e.rules(cfg), Log: log, Exe: exe,
		MaxAge: cfg.Output.KeepDays.Duration(), MaxOutputBytes: int64(cfg.Output.KeepSize),
	})
	if errors.Is(err, agent.ErrRunning) {
		fmt.Fprintln(e.stderr, "hookd: an agent is already running (hookd status shows it)")
		return nil
	}
	if err != nil {
		log.Error("agent failed", "error", err)
	}
	return err
}

// startAgent starts a detached agent unless one of this version answers. An
// agent of another version (hookd was upgraded) is asked to stop first.
func startAgent(ctx context.Context, e *env, exe string) error {
	sock := agent.SocketPath(e.runtimeDir)
	cctx, cancel := context.WithTimeout(ctx, time.Second)
	st, err := agent.Call(cctx, sock, agent.Request{Op: "status"})
	cancel()
	if err == nil {
		if st.Version == version {
			return nil
		}
		stopAgent(ctx, sock, st.PID)
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

// stopAgent asks the agent to stop and waits (briefly) until its process is
// gone: only then is its lock free for the next one.
func stopAgent(ctx context.Context, sock string, pid int) {
	cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	agent.Call(cctx, sock, agent.Request{Op: "stop"})
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
