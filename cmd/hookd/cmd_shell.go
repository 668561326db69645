package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/hookd/hookd/internal/recording/proxy"
	"github.com/hookd/hookd/internal/recording/ptyshell"
	"github.com/spf13/pflag"
)

func cmdShell(fs *pflag.FlagSet) runFunc {
	shell := fs.String("shell", "", "the shell to run interactively (default: $SHELL); with -- ARGV…: the program that runs ARGV (argv[0] included)")
	login := fs.Bool("login", false, "run it as a login shell")
	check := fs.Bool("check", false, "only check that the proxy can start here; exit 1, saying why, if not")
	rcAgain := fs.Bool("rc-again", false, "the shell code's re-execution from the rc file's end (the rc file runs again):\nnoted for hookd status, which suggests the early line")
	return func(ctx context.Context, e *env, args []string) error {
		// `hookd shell -- CMD ARG…` runs a command rather than a shell.
		// With both, --shell is the program and the arguments its whole
		// command line, argv[0] included: the shell code re-executes the
		// shell with the command line it was started with (/proc/PID/cmdline),
		// so that `bash --rcfile F` or a login shell's "-zsh" stay what they
		// were.
		var argv []string
		path := ""
		switch {
		case len(args) > 0 && *shell != "":
			if *login {
				return usagef("--login goes with --shell PATH alone (a login shell's argv[0] starts with '-')")
			}
			path, argv = *shell, args
		case len(args) > 0:
			argv = args
		default:
			argv = proxy.ShellArgv(cmp.Or(*shell, os.Getenv("SHELL")), *login)
		}
		if *check {
			checkArgv := argv
			if path != "" {
				checkArgv = []string{path}
			}
			if err := ptyshell.Check(checkArgv, e.paths.CaptureProblem); err != nil {
				return exitCode{1, "capture is not possible here: " + err.Error()}
			}
			return nil
		}
		if *rcAgain {
			ptyshell.NoteRCTwice(e.paths.RCTwice, argv)
		}
		status, err := ptyshell.Shell{Path: path, Argv: argv, Environ: os.Environ(), Stdin: os.Stdin, Stdout: os.Stdout,
			Stderr: e.stderr, Limit: int(e.config().Output.Limit), Outbox: e.paths.Outbox, Problem: e.paths.CaptureProblem}.Run(ctx)
		if errors.Is(err, ptyshell.ErrNoShell) {
			return err
		}
		if err != nil {
			fmt.Fprintf(e.stderr, "hookd shell: %v\n", err)
		}
		if status != 0 {
			return exitCode{status, ""}
		}
		return nil
	}
}
