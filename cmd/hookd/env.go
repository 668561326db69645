package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/adrg/xdg"
	"github.com/muesli/termenv"

	"github.com/hookd/hookd/agent"
	"github.com/hookd/hookd/config"
	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/redact"
)

// env is everything a command takes from the process: streams, paths and
// settings. Only this package reads the environment.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer

	home       string
	configFile string
	// patternsFile holds the user's own failure patterns (analyze.Pattern).
	patternsFile string
	dbPath       string
	stateDir     string
	spoolDir     string
	outboxDir    string // captured outputs waiting for the agent
	pidFile      string
	logFile      string
	runtimeDir   string
	session      string // HOOKD_SESSION: the shell session hookd runs in
	debug        bool
	out          *termenv.Output // styling for stdout (plain when piped or NO_COLOR)
	stdoutTTY    bool

	cfgOnce sync.Once
	cfg     config.Config // the config file, read once by config()
}

func newEnv(stdin io.Reader, stdout, stderr io.Writer) (*env, error) {
	xdg.Reload()
	home, _ := os.UserHomeDir()
	e := &env{
		stdin: stdin, stdout: stdout, stderr: stderr,
		home:         home,
		configFile:   filepath.Join(xdg.ConfigHome, "hookd", "config.yaml"),
		patternsFile: filepath.Join(xdg.ConfigHome, "hookd", "patterns.yaml"),
		dbPath:       filepath.Join(xdg.DataHome, "hookd", "history.db"),
		stateDir:     filepath.Join(xdg.StateHome, "hookd"),
		session:      os.Getenv("HOOKD_SESSION"),
		debug:        os.Getenv("HOOKD_DEBUG") != "",
	}
	e.spoolDir = filepath.Join(e.stateDir, "spool")
	e.outboxDir = filepath.Join(e.stateDir, "outputs")
	e.pidFile = filepath.Join(e.stateDir, "agent.pid")
	e.logFile = filepath.Join(e.stateDir, "hookd.log")
	if rt := os.Getenv("XDG_RUNTIME_DIR"); rt != "" && filepath.IsAbs(rt) {
		e.runtimeDir = filepath.Join(rt, "hookd")
	} else {
		e.runtimeDir = filepath.Join(os.TempDir(), "hookd-"+strconv.Itoa(os.Getuid()))
	}
	if f, ok := stdout.(*os.File); ok {
		e.stdoutTTY = isTerminal(f)
	}
	// No colour cache: filling it queries the terminal and waits for its
	// answer on stdin, which a terminal may never send (and which would eat
	// the user's typing).
	var opts []termenv.OutputOption
	if !e.stdoutTTY || os.Getenv("NO_COLOR") != "" {
		opts = append(opts, termenv.WithProfile(termenv.Ascii))
	}
	e.out = termenv.NewOutput(stdout, opts...)
	return e, nil
}

func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// privateRuntimeDir makes sure the runtime directory exists, is ours and
// is not open to others.
func (e *env) privateRuntimeDir() error {
	if err := os.MkdirAll(e.runtimeDir, 0o700); err != nil {
		return err
	}
	fi, err := os.Lstat(e.runtimeDir)
	if err != nil {
		return err
	}
	st := fi.Sys().(*syscall.Stat_t)
	if !fi.IsDir() || int(st.Uid) != os.Getuid() {
		return fmt.Errorf("%s is not a directory of yours: refusing to use it", e.runtimeDir)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		if err := os.Chmod(e.runtimeDir, 0o700); err != nil {
			return err
		}
	}
	return nil
}

// config returns the configuration: the file is read, and its warnings
// printed, once per process.
func (e *env) config() config.Config {
	e.cfgOnce.Do(func() {
		var warns []config.Warning
		e.cfg, warns = config.Load(e.configFile, e.home)
		for _, w := range warns {
			fmt.Fprintf(e.stderr, "hookd: warning: %s\n", w)
		}
	})
	return e.cfg
}

// rules builds the ingestion rules from the configuration.
func (e *env) rules(c config.Config) *agent.Rules {
	r := &agent.Rules{IgnoreDirs: c.History.IgnoreDirs}
	r.Ignore = c.History.Ignore.Compiled()
	red, err := redact.New(c.Redact.Patterns.Sources())
	if err != nil {
		fmt.Fprintf(e.stderr, "hookd: warning: %s: %v; using the built-in redaction only\n", e.configFile, err)
		red, _ = redact.New(nil)
	}
	r.Redactor = red
	return r
}

// captureMode is the capture mode asked for outside the command line:
// HOOKD_CAPTURE (pty or off; anything else is ignored), then the config
// file, then the default, pty.
func (e *env) captureMode() string {
	switch v := os.Getenv("HOOKD_CAPTURE"); v {
	case "pty", "off":
		return v
	}
	return string(e.config().Capture)
}

// openStore opens the history, moving a corrupt database aside.
func (e *env) openStore(ctx context.Context, busy time.Duration) (*history.Store, error) {
	s, aside, err := history.OpenRecover(ctx, e.dbPath, busy, false)
	if aside != "" {
		fmt.Fprintf(e.stderr, "hookd: the history database was corrupt; it was moved to %s and a new one started\n", aside)
	}
	return s, err
}

// openFlushed opens the history after moving every finished command from the
// spools into it, so that the last command typed is there. A busy database
// is no error: what is stored is read.
func (e *env) openFlushed(ctx context.Context) (*history.Store, error) {
	s, err := e.openStore(ctx, 3*time.Second)
	if err != nil {
		return nil, err
	}
	if _, err := agent.Pass(ctx, s, e.spoolDir, e.outboxDir, e.rules(e.config()), time.Now()); err != nil && e.debug {
		fmt.Fprintf(e.stderr, "hookd: ingest: %v\n", err)
	}
	return s, nil
}

// logger returns the agent's logger, writing to the log file.
func (e *env) logger() (*slog.Logger, io.Closer, error) {
	if err := os.MkdirAll(e.stateDir, 0o700); err != nil {
		return nil, nil, err
	}
	if fi, err := os.Stat(e.logFile); err == nil && fi.Size() > 10<<20 {
		os.Rename(e.logFile, e.logFile+".1")
	}
	f, err := os.OpenFile(e.logFile, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, nil, err
	}
	level := slog.LevelInfo
	if e.debug {
		level = slog.LevelDebug
	}
	return slog.New(slog.NewTextHandler(f, &slog.HandlerOptions{Level: level})), f, nil
}
