package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/hookd/hookd/agent"
	"github.com/hookd/hookd/analyze"
	"github.com/hookd/hookd/capture"
	"github.com/hookd/hookd/outbox"
	"github.com/hookd/hookd/shellinit"
	"github.com/hookd/hookd/spool"
)

// cmdRun runs one command with its output captured: for scripts, CI and
// terminals without the proxy. The command is recorded in a session of its
// own (shell "run"), through a spool and the outbox like everything else,
// so the agent stores it even when it is not running yet.
func cmdRun(ctx context.Context, e *env, args []string) error {
	fs := flags(e, "run")
	script := fs.StringP("command", "c", "", "run this command line through $SHELL -c (pipes, redirections, &&)")
	quiet := fs.Bool("no-suggest", false, "do not analyse a failure")
	fs.SetInterspersed(false) // everything after the command's name is its own
	if err := parse(fs, args); err != nil {
		return err
	}
	var argv []string
	var text string
	switch {
	case *script != "" && fs.NArg() > 0:
		return usagef("give -c 'COMMAND LINE' or CMD [ARG…], not both")
	case *script != "":
		sh := os.Getenv("SHELL")
		if sh == "" {
			sh = "/bin/sh"
		}
		argv, text = []string{sh, "-c", *script}, *script
	case fs.NArg() > 0:
		argv = fs.Args()
		words := make([]string, len(argv))
		for i, a := range argv {
			words[i] = shellWord(a)
		}
		text = strings.Join(words, " ")
	default:
		return usagef("name a command to run")
	}

	cfg := e.config()
	limit := int(cfg.Output.Limit)
	var mu sync.Mutex // the interleaved buffer is written from two copiers
	all, outBuf, errBuf := capture.NewBuffer(limit), capture.NewBuffer(limit), capture.NewBuffer(limit)
	tee := func(dst io.Writer, own *capture.Buffer) io.Writer {
		return writerFunc(func(p []byte) (int, error) {
			mu.Lock()
			all.Write(p)
			own.Write(p)
			mu.Unlock()
			// The command's output reaches our stdout/stderr even when it
			// cannot be kept; a closed stdout is the reader's choice and
			// must not kill the command.
			dst.Write(p)
			return len(p), nil
		})
	}

	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin = e.stdin
	cmd.Stdout = tee(e.stdout, outBuf)
	cmd.Stderr = tee(e.stderr, errBuf)
	cwd, _ := os.Getwd()
	// Ctrl-C at the terminal reaches the command (same process group);
	// hookd waits for it to end rather than dying first. Signals sent to
	// hookd alone are passed on.
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	defer signal.Stop(sigs)
	start := time.Now()
	if err := cmd.Start(); err != nil {
		status := 127
		if errors.Is(err, os.ErrPermission) {
			status = 126
		}
		fmt.Fprintf(all, "hookd run: %v\n", err)
		e.recordRun(text, cwd, status, start, time.Now(), all, nil, nil)
		return exitCode{status, fmt.Sprintf("run: %v", err)}
	}
	done := make(chan struct{})
	go func() {
		for {
			select {
			case sig := <-sigs:
				if sig == syscall.SIGINT && isTerminal(os.Stdin) {
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
	end := time.Now()
	status := 0
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			return fmt.Errorf("run: %w", err)
		}
		status = exitStatus(ee.ProcessState)
	}
	e.recordRun(text, cwd, status, start, end, all, outBuf, errBuf)
	if status != 0 && status != 130 && !*quiet {
		e.runSuggest(ctx, text, status, cwd, all)
	}
	if status != 0 {
		return exitCode{status, ""}
	}
	return nil
}

// exitStatus is a shell's $? for a finished process: its exit status, or
// 128 + the signal that killed it.
func exitStatus(ps *os.ProcessState) int {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ps.ExitCode()
}

// recordRun writes the command to a spool of its own and its outputs to
// the outbox, then asks the agent to store them (it will anyway within a
// second, or when it next starts).
func (e *env) recordRun(text, cwd string, status int, start, end time.Time, all, stdout, stderr *capture.Buffer) {
	session := spool.NewSessionID(start, os.Getpid())
	host, _ := os.Hostname()
	rec := spool.AppendSession(nil, spool.Session{Shell: "run", Version: version, PID: os.Getpid(), Host: host,
		User: os.Getenv("USER"), UID: os.Getuid(), Start: start.UnixMicro(), Capture: "run"})
	rec = spool.AppendCommand(rec, spool.Command{Seq: 1, Start: start.UnixMicro(), End: end.UnixMicro(), Exit: status,
		Cwd: cwd, Text: strings.ReplaceAll(text, "\x00", "")})
	if err := os.MkdirAll(e.spoolDir, 0o700); err != nil {
		fmt.Fprintf(e.stderr, "hookd run: not recorded: %v\n", err)
		return
	}
	path := filepath.Join(e.spoolDir, session+agent.SpoolSuffix)
	if err := os.WriteFile(path, rec, 0o600); err != nil {
		fmt.Fprintf(e.stderr, "hookd run: not recorded: %v\n", err)
		return
	}
	for _, o := range []struct {
		stream string
		buf    *capture.Buffer
	}{{outbox.Terminal, all}, {outbox.Stdout, stdout}, {outbox.Stderr, stderr}} {
		if o.buf == nil {
			continue
		}
		it := outbox.Item{Session: session, Seq: 1, Stream: o.stream, Status: status, Size: o.buf.Len(),
			Time: end.UnixMicro(), Raw: o.buf.Bytes()}
		if _, err := outbox.Write(e.outboxDir, it); err != nil {
			fmt.Fprintf(e.stderr, "hookd run: output not kept: %v\n", err)
			break
		}
	}
	cctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	agent.Call(cctx, agent.SocketPath(e.runtimeDir), agent.Request{Op: "flush"})
}

// runSuggest prints the analysis of a failed run on stderr.
func (e *env) runSuggest(ctx context.Context, text string, status int, cwd string, all *capture.Buffer) {
	out, _ := capture.Render(all.Bytes())
	sh := filepath.Base(os.Getenv("SHELL"))
	in := analyze.Input{Command: text, ExitCode: status, Cwd: cwd, Output: out, Shell: sh}
	in.Env = newProbe(sh)
	actx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	r := e.analyzer(false).Analyze(actx, in)
	if r.Quiet || (len(r.Fixes) == 0 && (r.RootCause == "" || r.ErrorType == analyze.Unknown)) {
		return
	}
	w := e.stderr
	fmt.Fprintf(w, "hookd: %s exited with status %d", quoteShort(text), status)
	if r.RootCause != "" {
		fmt.Fprintf(w, ": %s", sanitizeLine(r.RootCause))
	}
	fmt.Fprintln(w)
	for i, f := range r.Fixes {
		fmt.Fprintf(w, "  %d. %s   (%s risk) %s\n", i+1, sanitizeLine(f.Command), f.Risk, sanitizeLine(f.Explanation))
	}
}

// shellWord quotes s for a shell when it needs it, so that the recorded
// command line reads as it would have been typed.
func shellWord(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,+@%^", r))
	}) < 0 {
		return s
	}
	return shellinit.Quote(s)
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
