package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/hookd/hookd/internal/config"
	"github.com/hookd/hookd/internal/paths"
	"github.com/hookd/hookd/internal/recording/ptyshell"
	"github.com/hookd/hookd/shellinit"
	"github.com/spf13/pflag"
)

func cmdInit(fs *pflag.FlagSet) runFunc {
	capture := fs.String("capture", "", "pty: keep each command's output (the shell re-executes itself once under hookd shell);\noff: do not. Default: $HOOKD_CAPTURE, else capture in the config file, else pty")
	early := fs.Bool("early", false, "for the rc file's first line: enter the capturing proxy there, so that the rest of the rc\nfile runs once (the usual line at its end then starts no process)")
	return func(ctx context.Context, e *env, args []string) error {
		if len(args) != 1 {
			return usagef("name one shell: %s", strings.Join(shellinit.Shells(), " or "))
		}
		bin, err := selfPath()
		if err != nil {
			return err
		}
		mode := *capture
		if mode == "" {
			mode = e.captureMode()
		}
		if mode != "pty" && mode != "off" {
			return usagef("--capture must be pty or off, not %q", mode)
		}
		shell := args[0]
		captured := false
		if tty := os.Getenv(ptyshell.PTYEnv); tty != "" && sameFile(tty, "/dev/stdin") {
			captured = true
		}
		// The early line, in a terminal not captured yet, enters the proxy
		// there: the shell re-executes itself before the rest of the rc file
		// runs. The proxy is checked here, in this process: where it cannot
		// start, the shell goes on without capture and hookd status says why.
		if *early && mode == "pty" && !captured && isTTY(os.Stdin) && slices.Contains(shellinit.Shells(), shell) {
			// fish's line runs the code while this process goes on: it
			// becomes the proxy itself, where fish hands its terminal over.
			if shell == "fish" {
				if h := e.startHandover(); h != nil {
					ptyshell.ClearRCTwice(e.paths.RCTwice)
					return e.runHandover(ctx, h, bin)
				}
			}
			if ptyshell.Check([]string{shell}, e.paths.CaptureProblem) == nil {
				ptyshell.ClearRCTwice(e.paths.RCTwice)
				script, err := shellinit.Enter(shell, bin)
				if err != nil {
					return usageError{err.Error()}
				}
				_, err = fmt.Fprint(e.stdout, script)
				return err
			}
		}
		// What is wrong in the config file is said here, once per shell start;
		// not again by the shell that re-executes itself under the capturing
		// proxy (it runs its rc file a second time), nor by a shell nested in
		// one that said it.
		if !captured {
			for _, w := range e.configWarnings() {
				fmt.Fprintf(e.stderr, "hookd: warning: %s\n", w)
			}
		}
		e.prepareShellDirs()
		script := shellinit.Script
		if *early {
			script = shellinit.Early
		}
		o := e.initOptions(bin, mode)
		if shell == "fish" {
			o.FishOnDemand = e.writeFishOnDemand()
		}
		text, err := script(shell, o)
		if err != nil {
			return usageError{err.Error()}
		}
		_, err = fmt.Fprint(e.stdout, text)
		return err
	}
}

// prepareShellDirs tightens the directories an older version or a loose
// umask left open to others, and makes the ones the shell writes to, so
// that the shell starts no process for them.
func (e *env) prepareShellDirs() {
	paths.Tighten(filepath.Dir(e.paths.Config), filepath.Dir(e.paths.DB), e.paths.State, e.paths.Spool, e.paths.Outbox, e.paths.Offers)
	for _, dir := range []string{e.paths.Spool, e.paths.Offers} {
		paths.Private(dir)
	}
}

// initOptions are the values hookd init fills into the shell code, for
// the binary bin and capture mode.
func (e *env) initOptions(bin, mode string) shellinit.Options {
	cfg := e.config()
	return shellinit.Options{Bin: bin, StateDir: e.paths.State, SpoolDir: e.paths.Spool,
		OfferDir: e.paths.Offers, PIDFile: e.paths.PIDFile, Capture: mode, AskPrefix: cfg.Ask.Prefix, FixCommand: string(cfg.Fix.Command), FixKey: cfg.Fix.Key.Bytes(), AIKey: cfg.Fix.AIKey.Bytes(),
		SearchKey: cfg.Search.Key.Bytes(), SearchUpKey: cfg.Search.UpKey.Bytes(), SearchReplace: cfg.Search.Replace,
		Watch: watchNames(cfg.Fix.WatchEnv), BootTime: bootTime(), UID: os.Getuid(), Quoted: os.Getenv("HOOKD_INIT_QUOTED") != ""}
}

// writeFishOnDemand writes fish's on-demand functions
// (shellinit.FishOnDemand) into the state directory, unless they are there
// already, and returns the file's path; "" where it cannot (the script then
// defines them itself).
func (e *env) writeFishOnDemand() string {
	name, text, err := shellinit.FishOnDemand()
	if err != nil {
		return ""
	}
	file := filepath.Join(e.paths.State, "fish", name)
	if paths.WritePrivateOnce(file, []byte(text)) != nil {
		return ""
	}
	return file
}

// isTTY reports whether f is a terminal (not merely a character device
// such as /dev/null).
func isTTY(f *os.File) bool {
	_, err := unix.IoctlGetTermios(int(f.Fd()), ioctlGetTermios)
	return err == nil
}

// selfPath is the path under which the shell should run hookd: the one it
// was started as (through PATH or a symlink, so that an upgrade that moves
// the link is followed) when that is the same file as this executable.
func selfPath() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("find the hookd binary: %w", err)
	}
	cand := os.Args[0]
	if !strings.Contains(cand, "/") {
		cand, _ = exec.LookPath(cand)
	}
	if cand != "" {
		if abs, err := filepath.Abs(cand); err == nil {
			a, errA := os.Stat(abs)
			b, errB := os.Stat(exe)
			if errA == nil && errB == nil && os.SameFile(a, b) {
				return abs, nil
			}
		}
	}
	return exe, nil
}

// watchNames are fix.watch_env's names as strings.
func watchNames(ns []config.EnvName) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = string(n)
	}
	return out
}
