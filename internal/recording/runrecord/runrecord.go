// Package runrecord runs commands outside the shell hooks with their output
// captured, and records them the way the hooks do: a spool of their own and
// the outbox, which the daemon ingests (or any hookd command that reads).
// `hookd run` uses it, and the chains' run steps will.
package runrecord

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/hookd/hookd/capture"
	"github.com/hookd/hookd/internal/recording/outbox"
	"github.com/hookd/hookd/internal/recording/spool"
	"github.com/hookd/hookd/internal/shellwords"
)

// Command is one finished command and what it printed.
type Command struct {
	// Text is the command line as it is recorded.
	Text   string
	Cwd    string
	Status int // the shell's $?: the exit status, or 128 + a signal
	Start  time.Time
	End    time.Time
	// Output is what it printed, stdout and stderr as they came; Stdout
	// and Stderr apart (nil: not kept apart). Each keeps head and tail
	// within the capture limit.
	Output, Stdout, Stderr *capture.Buffer
	// Intent is what a coding agent said the command was for (SaveAgent).
	Intent string
}

// Exec runs one command with its stdout and stderr passed through and
// captured.
type Exec struct {
	Argv           []string
	Dir            string   // "" for the current directory
	Env            []string // nil for hookd's own environment
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Limit bounds what is kept of each output (see capture.Buffer).
	Limit int
	// Signals are passed on to the command while it runs (the caller
	// subscribes them); SIGINT is not when TerminalInterrupts is set, as
	// the terminal sends it to the command too.
	Signals            <-chan os.Signal
	TerminalInterrupts bool
}

// StartError is the error of a command that could not start.
type StartError struct{ Err error }

func (e *StartError) Error() string { return e.Err.Error() }
func (e *StartError) Unwrap() error { return e.Err }

// Run runs the command and waits for it. A command that cannot start is a
// finished command too, with status 127 (not found) or 126 (not
// executable) and the reason as its output; the error is then a
// *StartError.
func (x Exec) Run() (Command, error) {
	c := Command{Text: Text(x.Argv), Cwd: x.Dir}
	if c.Cwd == "" {
		c.Cwd, _ = os.Getwd()
	}
	var mu sync.Mutex // the interleaved buffer is written from two copiers
	c.Output, c.Stdout, c.Stderr = capture.NewBuffer(x.Limit), capture.NewBuffer(x.Limit), capture.NewBuffer(x.Limit)
	tee := func(dst io.Writer, own *capture.Buffer) io.Writer {
		return writerFunc(func(p []byte) (int, error) {
			mu.Lock()
			c.Output.Write(p)
			own.Write(p)
			mu.Unlock()
			// The output reaches our stdout/stderr even when it cannot be
			// kept; a closed stdout is the reader's choice and must not
			// kill the command.
			dst.Write(p)
			return len(p), nil
		})
	}
	cmd := exec.Command(x.Argv[0], x.Argv[1:]...)
	cmd.Dir = x.Dir
	cmd.Env = x.Env
	cmd.Stdin = x.Stdin
	cmd.Stdout = tee(x.Stdout, c.Stdout)
	cmd.Stderr = tee(x.Stderr, c.Stderr)
	c.Start = time.Now()
	if err := cmd.Start(); err != nil {
		c.End = time.Now()
		c.Status = 127
		if errors.Is(err, os.ErrPermission) {
			c.Status = 126
		}
		fmt.Fprintf(c.Output, "hookd run: %v\n", err)
		c.Stdout, c.Stderr = nil, nil
		return c, &StartError{err}
	}
	done := make(chan struct{})
	go func() {
		for {
			select {
			case sig := <-x.Signals:
				if sig == syscall.SIGINT && x.TerminalInterrupts {
					continue // the terminal sent it to the command too
				}
				cmd.Process.Signal(sig)
			case <-done:
				return
			}
		}
	}()
	err := cmd.Wait()
	close(done)
	c.End = time.Now()
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			return c, err
		}
		c.Status = exitStatus(ee.ProcessState)
	}
	return c, nil
}

// exitStatus is a shell's $? for a finished process: its exit status, or
// 128 + the signal that killed it.
func exitStatus(ps *os.ProcessState) int {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ps.ExitCode()
}

// Text is a command line that reads as argv would have been typed: each
// word quoted for a shell when it needs it.
func Text(argv []string) string {
	return shellwords.Join(argv...)
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// Writer says who recorded a command, in its session's header.
type Writer struct {
	Shell   string // "run", or "agent" for a coding agent's commands
	Version string // hookd's
	PID     int
	Host    string
	User    string
	UID     int
	// Author is the coding agent whose commands these are (SaveAgent).
	Author string
}

// Save records c as the only command of a new session: its record in a
// spool of its own in spoolDir, its outputs in outboxDir. It returns the
// session id. What could not be written is the error (the command is not
// recorded, or its output not kept).
func Save(spoolDir, outboxDir string, w Writer, c Command) (string, error) {
	session := spool.NewSessionID(c.Start, w.PID)
	rec := spool.AppendSession(nil, spool.Session{Shell: w.Shell, Version: w.Version, PID: w.PID, Host: w.Host,
		User: w.User, UID: w.UID, Start: c.Start.UnixMicro(), Capture: "run"})
	rec = spool.AppendCommand(rec, spool.Command{Seq: 1, Start: c.Start.UnixMicro(), End: c.End.UnixMicro(), Exit: c.Status,
		Cwd: c.Cwd, Text: strings.ReplaceAll(c.Text, "\x00", "")})
	if err := os.MkdirAll(spoolDir, 0o700); err != nil {
		return "", fmt.Errorf("not recorded: %w", err)
	}
	if err := os.WriteFile(spool.Path(spoolDir, session), rec, 0o600); err != nil {
		return "", fmt.Errorf("not recorded: %w", err)
	}
	for _, o := range []struct {
		stream string
		buf    *capture.Buffer
	}{{outbox.Terminal, c.Output}, {outbox.Stdout, c.Stdout}, {outbox.Stderr, c.Stderr}} {
		if o.buf == nil {
			continue
		}
		it := outbox.Item{Session: session, Seq: 1, Stream: o.stream, Status: c.Status, Size: o.buf.Len(),
			Time: c.End.UnixMicro(), Raw: o.buf.Bytes()}
		if _, err := outbox.Write(outboxDir, it); err != nil {
			return session, fmt.Errorf("output not kept: %w", err)
		}
	}
	return session, nil
}
