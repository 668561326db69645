package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hookd/hookd/internal/paths"
	"github.com/hookd/hookd/internal/recording/proxy"
	"github.com/hookd/hookd/internal/recording/ptyshell"
	"github.com/hookd/hookd/shellinit"
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
		status, err := ptyshell.Shell{Path: path, Argv: argv, Environ: e.shellEnviron(), Stdin: os.Stdin, Stdout: os.Stdout,
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

// shellEnviron is the environment of the shell the proxy starts. A fish
// that re-executes itself under the proxy says where its own files are
// (HOOKD_FISH_DATA_DIR, its $__fish_data_dir): the new fish then finds
// hookd's start-up in a vendor_conf.d put first in XDG_DATA_DIRS
// (shellinit.FishEarly), so that its config.fish's hookd lines start no
// process; that file gives XDG_DATA_DIRS back as it was before config.fish
// runs. Where it cannot be written, the new fish runs the lines as usual.
func (e *env) shellEnviron() []string {
	env := os.Environ()
	dataDir, ok := os.LookupEnv("HOOKD_FISH_DATA_DIR")
	if !ok {
		return env
	}
	env = slices.DeleteFunc(env, func(kv string) bool { return strings.HasPrefix(kv, "HOOKD_FISH_DATA_DIR=") })
	bin, err := selfPath()
	if err != nil {
		return env
	}
	dir, err := e.writeFishEarly(bin)
	if err != nil {
		return env
	}
	return fishEarlyEnviron(env, dir, dataDir)
}

// writeFishEarly writes the new fish's start-up file (shellinit.FishEarly)
// for the binary bin, unless it is there already as it would be written,
// and returns the directory to put first in XDG_DATA_DIRS.
func (e *env) writeFishEarly(bin string) (string, error) {
	o := e.initOptions(bin, "pty")
	o.FishOnDemand = e.writeFishOnDemand()
	text, err := shellinit.FishEarly(o)
	if err != nil {
		return "", err
	}
	e.prepareShellDirs()
	dir := filepath.Join(e.paths.State, "fish-early")
	return dir, paths.WritePrivateOnce(shellinit.FishEarlyFile(dir), []byte(text))
}

// fishEarlyEnviron is env with dir, where writeFishEarly wrote, first in
// XDG_DATA_DIRS, and what the start-up file needs to give XDG_DATA_DIRS back
// as it was. dataDir is the fish's own data directory: without
// XDG_DATA_DIRS fish reads its vendor_conf.d alone, and the list made here
// names that one after hookd's, so that no other directory is read. env is
// returned as it is where dataDir is not a fish data directory.
func fishEarlyEnviron(env []string, dir, dataDir string) []string {
	orig, set := os.LookupEnv("XDG_DATA_DIRS")
	rest := orig
	if !set {
		if filepath.Base(dataDir) != "fish" || !filepath.IsAbs(dataDir) {
			return env
		}
		rest = filepath.Dir(dataDir)
	}
	was := "unset"
	if set {
		was = "set:" + orig
	}
	env = slices.DeleteFunc(env, func(kv string) bool { return strings.HasPrefix(kv, "XDG_DATA_DIRS=") })
	return append(env, "XDG_DATA_DIRS="+dir+":"+rest, "HOOKD_FISH_EARLY="+was)
}
