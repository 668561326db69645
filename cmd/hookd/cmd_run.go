package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/hookd/hookd/analyze"
	"github.com/hookd/hookd/capture"
	"github.com/hookd/hookd/internal/config"
	"github.com/hookd/hookd/internal/fix/aifix"
	"github.com/hookd/hookd/internal/fix/suggest"
	"github.com/hookd/hookd/internal/recording/daemon"
	"github.com/hookd/hookd/internal/recording/recall"
	"github.com/hookd/hookd/internal/recording/runrecord"
	"github.com/spf13/pflag"
)

// cmdRun runs one command with its output captured: for scripts, CI and
// terminals without the proxy. The command is recorded in a session of its
// own (shell "run"), through a spool and the outbox like everything else,
// so the daemon stores it even when it is not running yet.
func cmdRun(fs *pflag.FlagSet) runFunc {
	script := fs.StringP("command", "c", "", "run this command line through $SHELL -c (pipes, redirections, &&)")
	quiet := fs.Bool("no-suggest", false, "do not analyse a failure")
	fs.SetInterspersed(false) // everything after the command's name is its own
	return func(ctx context.Context, e *env, args []string) error {
		x := runrecord.Exec{Stdin: e.stdin, Stdout: e.stdout, Stderr: e.stderr, Limit: int(e.config().Output.Limit),
			TerminalInterrupts: isTerminal(os.Stdin)}
		text := ""
		switch {
		case *script != "" && len(args) > 0:
			return usagef("give -c 'COMMAND LINE' or CMD [ARG…], not both")
		case *script != "":
			sh := os.Getenv("SHELL")
			if sh == "" {
				sh = "/bin/sh"
			}
			x.Argv, text = []string{sh, "-c", *script}, *script
		case len(args) > 0:
			x.Argv = args
		default:
			return usagef("name a command to run")
		}
		// Ctrl-C at the terminal reaches the command (same process group);
		// hookd waits for it to end rather than dying first. Signals sent to
		// hookd alone are passed on.
		sigs := make(chan os.Signal, 4)
		signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
		defer signal.Stop(sigs)
		x.Signals = sigs
		c, err := x.Run()
		var start *runrecord.StartError
		if err != nil && !errors.As(err, &start) {
			return fmt.Errorf("run: %w", err)
		}
		if text != "" {
			c.Text = text
		}
		e.save(runWriter(), c, "run")
		e.flushDaemon()
		if start != nil {
			return exitCode{c.Status, fmt.Sprintf("run: %v", start)}
		}
		if c.Status != 0 && c.Status != 130 && !*quiet {
			e.runSuggest(ctx, c.Text, c.Status, c.Cwd, c.Output)
		}
		if c.Status != 0 {
			return exitCode{c.Status, ""}
		}
		return nil
	}
}

// runWriter is the recorder of the commands hookd runs itself (hookd run,
// a chain's steps): a session of its own, shell "run".
func runWriter() runrecord.Writer {
	host, _ := os.Hostname()
	return runrecord.Writer{Shell: "run", Version: version, PID: os.Getpid(), Host: host, User: os.Getenv("USER"), UID: os.Getuid()}
}

// save records c with w through a spool and the outbox, saying on stderr
// (as hookd WHO) when it cannot.
func (e *env) save(w runrecord.Writer, c runrecord.Command, who string) {
	if _, err := runrecord.Save(e.paths.Spool, e.paths.Outbox, w, c); err != nil {
		fmt.Fprintf(e.stderr, "hookd %s: %v\n", who, err)
	}
}

// flushDaemon asks the daemon to store what was just recorded; it would
// within a second anyway, or when it next starts.
func (e *env) flushDaemon() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	daemon.Call(ctx, daemon.SocketPath(e.paths.Runtime), daemon.Request{Op: "flush"})
}

// runSuggest prints the analysis of a failed run on stderr.
func (e *env) runSuggest(ctx context.Context, text string, status int, cwd string, all *capture.Buffer) {
	out, _ := capture.Render(all.Bytes())
	in := analyze.Input{Command: text, ExitCode: status, Cwd: cwd, Output: out, Shell: filepath.Base(os.Getenv("SHELL"))}
	f := suggest.Failure{Input: in, Timeout: 2 * time.Second}
	if e.config().AI == config.AIOnFailure {
		f.AI = func(ctx context.Context, in analyze.Input, r analyze.Result) analyze.Result {
			if r.Quiet {
				return r
			}
			return e.aiAnalysis(ctx, in, r, aifix.DefaultTimeout, true)
		}
	}
	r, _ := e.engine(false, nil).Suggest(ctx, f)
	// On stderr, plain (the palette is stdout's).
	lead := fmt.Sprintf("hookd: %s exited with status %d", recall.Short(text), status)
	suggest.Printer{Lead: lead}.Print(e.stderr, r)
}
