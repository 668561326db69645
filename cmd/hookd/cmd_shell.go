package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hookd/hookd/capture"
	"github.com/hookd/hookd/internal/recording/outbox"
	"github.com/hookd/hookd/internal/recording/proxy"
)

// Environment variables between the proxy and the shell hooks.
const (
	// ptyEnv names the proxy's terminal (the inner pty's slave): a shell
	// on that terminal is under the proxy already.
	ptyEnv = "HOOKD_PTY"
	// captureEnv turns capture off for the shells started below; the
	// proxy sets it when it cannot start and runs the shell directly.
	captureEnv = "HOOKD_CAPTURE"
)

func cmdShell(ctx context.Context, e *env, args []string) error {
	fs := flags(e, "shell")
	shell := fs.String("shell", "", "the shell to run interactively (default: $SHELL); with -- ARGV…: the program that runs ARGV (argv[0] included)")
	login := fs.Bool("login", false, "run it as a login shell")
	check := fs.Bool("check", false, "only check that the proxy can start here; exit 1, saying why, if not")
	rcAgain := fs.Bool("rc-again", false, "the shell code's re-execution from the rc file's end (the rc file runs again):\nnoted for hookd status, which suggests the early line")
	if err := parse(fs, args); err != nil {
		return err
	}
	// `hookd shell -- CMD ARG…` runs a command rather than a shell.
	// With both, --shell is the program and the arguments its whole
	// command line, argv[0] included: the shell code re-executes the
	// shell with the command line it was started with (/proc/PID/cmdline),
	// so that `bash --rcfile F` or a login shell's "-zsh" stay what they
	// were.
	var argv []string
	path := ""
	switch {
	case fs.NArg() > 0 && *shell != "":
		if *login {
			return usagef("--login goes with --shell PATH alone (a login shell's argv[0] starts with '-')")
		}
		path, argv = *shell, fs.Args()
	case fs.NArg() > 0:
		argv = fs.Args()
	default:
		argv = proxy.ShellArgv(cmp.Or(*shell, os.Getenv("SHELL")), *login)
	}
	if *check {
		checkArgv := argv
		if path != "" {
			checkArgv = []string{path}
		}
		if err := proxy.Check(checkArgv); err != nil {
			e.noteCaptureProblem(err.Error())
			return exitCode{1, "capture is not possible here: " + err.Error()}
		}
		e.clearCaptureProblem()
		return nil
	}

	if *rcAgain {
		e.noteRCTwice(argv)
	}
	nonce, err := capture.NewNonce()
	if err != nil {
		return e.shellWithoutProxy(path, argv, err)
	}
	cfg := e.config()
	store := outbox.NewWriter(e.paths.Outbox)
	collector := capture.NewCollector(int(cfg.Output.Limit), store.Add)
	var scanner *capture.Scanner
	status, err := proxy.Run(ctx, proxy.Options{
		Path:   path,
		Argv:   argv,
		Stdin:  os.Stdin,
		Stdout: os.Stdout,
		Env: func(tty string) []string {
			env := proxy.WithoutEnv(os.Environ(), capture.NonceEnv, ptyEnv)
			return append(env, capture.NonceEnv+"="+nonce, ptyEnv+"="+tty)
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
		return e.shellWithoutProxy(path, argv, err)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "hookd shell: %v\n", err)
	}
	if status != 0 {
		return exitCode{status, ""}
	}
	return nil
}

// shellWithoutProxy replaces hookd with the shell itself when the proxy
// cannot run it: the user keeps a working shell, with capture off below it
// (so that its rc file does not try again), and `hookd status` says why.
func (e *env) shellWithoutProxy(path string, argv []string, why error) error {
	e.noteCaptureProblem(why.Error())
	env := append(proxy.WithoutEnv(os.Environ(), captureEnv, capture.NonceEnv, ptyEnv), captureEnv+"=off")
	err := proxy.Exec(path, argv, env)
	// Still here: not even the shell could start. /bin/sh is the last
	// resort, rather than a terminal without any shell.
	fmt.Fprintf(e.stderr, "hookd shell: %v; and %v; starting /bin/sh\n", why, err)
	err = proxy.Exec("/bin/sh", []string{"/bin/sh", "-i"}, env)
	return fmt.Errorf("cannot start a shell: %w", err)
}

// noteCaptureProblem records why capture could not start, for hookd
// status; clearCaptureProblem forgets it once capture works again.
func (e *env) noteCaptureProblem(msg string) {
	if os.MkdirAll(e.paths.State, 0o700) != nil {
		return
	}
	line := time.Now().Format(time.RFC3339) + " " + strings.ReplaceAll(msg, "\n", " ") + "\n"
	os.WriteFile(e.paths.CaptureProblem, []byte(line), 0o600)
}

func (e *env) clearCaptureProblem() { os.Remove(e.paths.CaptureProblem) }

// noteRCTwice records that a shell entered the proxy from its rc file's
// end, so that its rc file runs twice (hookd status suggests the early
// line); hookd init --early removes the note when it enters the proxy.
func (e *env) noteRCTwice(argv []string) {
	if os.MkdirAll(e.paths.State, 0o700) != nil {
		return
	}
	shell := ""
	if len(argv) > 0 {
		shell = strings.TrimPrefix(filepath.Base(argv[0]), "-")
	}
	os.WriteFile(e.paths.RCTwice, []byte(time.Now().Format(time.RFC3339)+" "+shell+"\n"), 0o600)
}
