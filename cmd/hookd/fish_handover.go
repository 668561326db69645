package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/hookd/hookd/internal/paths"
	"github.com/hookd/hookd/internal/recording/proxy"
	"github.com/hookd/hookd/internal/recording/ptyshell"
	"github.com/hookd/hookd/shellinit"
)

// startHandover starts fish's handover where the fish that runs the early
// line (this process's parent) reads this process's output itself (`|
// source`): it prints fish's side of it. nil where it cannot: the early line then re-executes fish
// under `hookd shell` as bash's and zsh's do.
func (e *env) startHandover() *ptyshell.Handover {
	ppid := os.Getppid()
	if !ptyshell.IsFish(ppid) || !ptyshell.ReadsOurOutput(ppid) || !ptyshell.InForeground() || paths.Private(e.paths.Runtime) != nil {
		return nil
	}
	h, err := ptyshell.NewHandover(e.paths.Runtime)
	if err != nil {
		return nil
	}
	text, err := shellinit.Handover(h.Dir)
	if err == nil {
		_, err = fmt.Fprint(e.stdout, text)
	}
	if err != nil {
		h.Close()
		return nil
	}
	return h
}

// runHandover waits for fish's answer and, where it hands its terminal
// over, runs the new fish under the proxy, in this process.
func (e *env) runHandover(ctx context.Context, h *ptyshell.Handover, bin string) error {
	// The end of this output is the end of what fish sources: it runs the
	// code while this process goes on. Standard output stays open, on
	// /dev/null.
	if null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0); err == nil {
		unix.Dup2(int(null.Fd()), 1)
		null.Close()
	} else {
		os.Stdout.Close()
	}
	// The new fish's start-up file is written while fish reads the code.
	var early string
	var earlyErr error
	wrote := make(chan struct{})
	go func() {
		defer close(wrote)
		early, earlyErr = e.writeFishEarly(bin)
	}()
	ans, err := h.Wait(ctx, ptyshell.HandoverTimeout)
	<-wrote
	if err != nil || !ans.Go {
		if err != nil && ctx.Err() == nil {
			ptyshell.NoteProblem(e.paths.CaptureProblem, "fish's early line: "+err.Error())
		}
		h.Close()
		return nil
	}
	ppid := os.Getppid()
	if ans.PID != ppid || !sameFile(ans.Path, "/proc/"+strconv.Itoa(ppid)+"/exe") {
		ptyshell.NoteProblem(e.paths.CaptureProblem, fmt.Sprintf("fish's early line: the shell that answered (pid %d, %s) is not hookd's parent (%d)", ans.PID, ans.Path, ppid))
		h.Finish(-1)
		return nil
	}
	argv, err := ptyshell.ParentArgv(ppid)
	if err != nil {
		argv = proxy.ShellArgv(ans.Path, ans.Login)
	}
	// The terminal fish writes to: its standard output, checked a
	// terminal by fish.
	out, err := os.OpenFile("/proc/"+strconv.Itoa(ppid)+"/fd/1", os.O_WRONLY|syscall.O_NOCTTY, 0)
	if err != nil || !isTTY(out) {
		ptyshell.NoteProblem(e.paths.CaptureProblem, "fish's early line: cannot open the shell's terminal")
		if out != nil {
			out.Close()
		}
		h.Finish(-1)
		return nil
	}
	defer out.Close()
	// From here on this process is the proxy: a wrapper, long-running,
	// which ps shows as it always has, `hookd shell`. (The flags' values
	// are not read after this.)
	becomeWrapper()
	ptyshell.Retitle("shell")
	// Where the proxy cannot start after all, Run notes why again.
	ptyshell.ClearProblem(e.paths.CaptureProblem)
	env := os.Environ()
	if earlyErr == nil {
		env = fishEarlyEnviron(env, early, ans.DataDir)
	}
	status, err := ptyshell.Shell{Path: ans.Path, Argv: argv, Environ: env, Stdin: os.Stdin, Stdout: out,
		Stderr: e.stderr, Limit: int(e.config().Output.Limit), Outbox: e.paths.Outbox, Problem: e.paths.CaptureProblem,
		Handback: true}.Run(ctx)
	if errors.Is(err, ptyshell.ErrHandback) {
		h.Finish(-1)
		return nil
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "hookd shell: %v\n", err)
	}
	h.Finish(status)
	return nil
}
