// Package ptyshell is `hookd shell`: the user's shell run under the proxy
// with each command's output captured. The proxy relays the terminal; the
// scanner cuts what the shell writes at the hooks' private marks (the
// nonce that makes them unforgeable goes to the shell in its
// environment); the collector keeps the head and tail of each output; the
// outbox takes each one to the daemon.
//
// When the proxy cannot start (no pseudo-terminal, say), the shell runs
// without it, capture off below it, and the reason is noted in the
// capture-problem file, which this package alone writes and reads: hookd
// status says why there is no capture, and a command's missing output
// points there.
package ptyshell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/hookd/hookd/capture"
	"github.com/hookd/hookd/internal/recording/outbox"
	"github.com/hookd/hookd/internal/recording/proxy"
)

// Environment variables between the proxy and the shell hooks.
const (
	// PTYEnv names the proxy's terminal (the inner pty's slave): a shell
	// on that terminal is under the proxy already.
	PTYEnv = "HOOKD_PTY"
	// CaptureEnv turns capture off for the shells started below; the
	// fallback sets it, so that the shell's rc file does not try again.
	CaptureEnv = "HOOKD_CAPTURE"
)

// ErrNoShell is wrapped by the error of Run when no shell could start.
var ErrNoShell = errors.New("cannot start a shell")

// Shell is a shell (or a command) to run with its output captured.
type Shell struct {
	// Argv is the command line, argv[0] included; Path, when set, is the
	// program that runs it (argv[0] is then passed as is: a login shell's
	// "-zsh").
	Path string
	Argv []string
	// Environ is the environment it starts from (os.Environ()).
	Environ []string
	// Stdin and Stdout are the user's terminal; Stderr takes what hookd
	// says when the shell cannot start.
	Stdin, Stdout *os.File
	Stderr        io.Writer
	// Limit is how many bytes of each output are kept (head and tail).
	Limit int
	// Outbox is the outbox directory; Problem the capture-problem file.
	Outbox, Problem string
	// Handback is set where the shell that started hookd waits for it
	// (fish's early line, Handover): when the proxy cannot start, Run notes
	// why and returns an error wrapping ErrHandback, and that shell goes
	// on, capture off, rather than this process becoming the shell.
	Handback bool
}

// ErrHandback is wrapped by the error of Run when the proxy could not
// start and Shell.Handback was set.
var ErrHandback = errors.New("capture could not start")

// Run runs the shell under the proxy and returns its exit status; err is
// what went wrong in the proxy once the shell had started.
//
// When the proxy cannot start the shell, Run replaces this process with
// the shell itself, with capture off, and notes why; with /bin/sh -i when
// even that fails, rather than leave a terminal without any shell. It
// returns then only when no shell could start, with an error wrapping
// ErrNoShell.
func (sh Shell) Run(ctx context.Context) (status int, err error) {
	nonce, err := capture.NewNonce()
	if err != nil {
		return 1, sh.withoutProxy(err)
	}
	store := outbox.NewWriter(sh.Outbox)
	collector := capture.NewCollector(sh.Limit, store.Add)
	var scanner *capture.Scanner
	status, err = proxy.Run(ctx, proxy.Options{
		Path:   sh.Path,
		Argv:   sh.Argv,
		Stdin:  sh.Stdin,
		Stdout: sh.Stdout,
		Env: func(tty string) []string {
			env := proxy.WithoutEnv(sh.Environ, capture.NonceEnv, PTYEnv)
			return append(env, capture.NonceEnv+"="+nonce, PTYEnv+"="+tty)
		},
		Output: func(stdout io.Writer) io.Writer {
			scanner = capture.NewScanner(stdout, collector, nonce)
			return scanner
		},
	})
	if scanner != nil {
		// What the shell wrote last is on the terminal; an output left
		// open (the shell ended mid-command) was cut short: not stored.
		scanner.Close()
	}
	store.Close()
	if errors.Is(err, proxy.ErrStart) {
		return 1, sh.withoutProxy(err)
	}
	return status, err
}

// withoutProxy replaces this process with the shell itself; with
// Handback, it leaves the shell to the one that waits.
func (sh Shell) withoutProxy(why error) error {
	NoteProblem(sh.Problem, why.Error())
	if sh.Handback {
		return fmt.Errorf("%w: %w", ErrHandback, why)
	}
	env := append(proxy.WithoutEnv(sh.Environ, CaptureEnv, capture.NonceEnv, PTYEnv), CaptureEnv+"=off")
	err := proxy.Exec(sh.Path, sh.Argv, env)
	// Still here: not even the shell could start.
	fmt.Fprintf(sh.Stderr, "hookd shell: %v; and %v; starting /bin/sh\n", why, err)
	err = proxy.Exec("/bin/sh", []string{"/bin/sh", "-i"}, env)
	return fmt.Errorf("%w: %w", ErrNoShell, err)
}

// Check reports whether the proxy can start argv here (hookd shell
// --check, which the shell code runs before it re-executes itself under
// the proxy), noting why not, or forgetting an earlier problem.
func Check(argv []string, problem string) error {
	if err := proxy.Check(argv); err != nil {
		NoteProblem(problem, err.Error())
		return err
	}
	ClearProblem(problem)
	return nil
}

// Withhold keeps the output of the command running now out of the
// history: hookd calls it before it prints a secret (hookd sync init's
// recovery phrase). When the proxy's terminal (HOOKD_PTY) is this
// process's controlling terminal, it writes the private withhold mark
// there, which the proxy strips and which makes it keep none of that
// command's output, however hookd was started (an alias, `command hookd`,
// a path, a script) and wherever its standard output goes. Elsewhere (no
// proxy, a terminal of another program such as tmux) it does nothing:
// there is no capture to keep the output from. getenv reads the
// environment. (A mark that cannot be written leaves the redaction rules,
// which know the phrase, as the only guard.)
func Withhold(getenv func(string) string) {
	nonce, pty := getenv(capture.NonceEnv), getenv(PTYEnv)
	if nonce == "" || pty == "" {
		return
	}
	f, err := os.OpenFile(pty, os.O_WRONLY|syscall.O_NOCTTY, 0)
	if err != nil {
		return
	}
	defer f.Close()
	// tcgetpgrp succeeds only on the caller's controlling terminal.
	if _, err := unix.IoctlGetInt(int(f.Fd()), unix.TIOCGPGRP); err != nil {
		return
	}
	f.WriteString(capture.WithholdMark(nonce))
}
