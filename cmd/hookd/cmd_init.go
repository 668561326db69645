package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/hookd/hookd/internal/config"
	"github.com/hookd/hookd/internal/paths"
	"github.com/hookd/hookd/shellinit"
)

func cmdInit(ctx context.Context, e *env, args []string) error {
	fs := flags(e, "init")
	capture := fs.String("capture", "", "pty: keep each command's output (the shell re-executes itself once under hookd shell);\noff: do not. Default: $HOOKD_CAPTURE, else capture in the config file, else pty")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
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
	cfg := e.config()
	// What is wrong in the config file is said here, once per shell start;
	// not again by the shell that re-executes itself under the capturing
	// proxy (it runs its rc file a second time), nor by a shell nested in
	// one that said it.
	if tty := os.Getenv(ptyEnv); tty == "" || !sameFile(tty, "/dev/stdin") {
		for _, w := range e.configWarnings() {
			fmt.Fprintf(e.stderr, "hookd: warning: %s\n", w)
		}
	}
	// Directories an older version or a loose umask left open to others.
	paths.Tighten(filepath.Dir(e.paths.Config), filepath.Dir(e.paths.DB), e.paths.State, e.paths.Spool, e.paths.Outbox, e.paths.Offers)
	script, err := shellinit.Script(fs.Arg(0), shellinit.Options{Bin: bin, StateDir: e.paths.State, SpoolDir: e.paths.Spool,
		OfferDir: e.paths.Offers, PIDFile: e.paths.PIDFile, Capture: mode, AskPrefix: cfg.Ask.Prefix, FixCommand: string(cfg.Fix.Command), FixKey: cfg.Fix.Key.Bytes(), AIKey: cfg.Fix.AIKey.Bytes(),
		Watch: watchNames(cfg.Fix.WatchEnv)})
	if err != nil {
		return usageError{err.Error()}
	}
	_, err = fmt.Fprint(e.stdout, script)
	return err
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
