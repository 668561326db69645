package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/adrg/xdg"
	"github.com/muesli/termenv"
	"github.com/spf13/pflag"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/ai/llm"
	"github.com/hookd/hookd/internal/config"
	"github.com/hookd/hookd/internal/paths"
	"github.com/hookd/hookd/internal/recording/agent"
	"github.com/hookd/hookd/internal/recording/ingest"
	"github.com/hookd/hookd/internal/recording/recall"
	"github.com/hookd/hookd/internal/redact"
)

// env is everything a command takes from the process: streams, paths and
// settings. Only this package reads the environment.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer

	home    string
	paths   paths.Layout
	session string // HOOKD_SESSION: the shell session hookd runs in
	debug   bool
	out     *termenv.Output // styling for stdout (plain when piped or NO_COLOR)
	// stdoutTTY: stdout is a terminal.
	stdoutTTY bool

	// The configuration, read once (loadConfig): the file, what is wrong
	// in it, and the ingestion rules it makes.
	cfg         *config.Config
	cfgWarnings []string
	ingestRules *ingest.Rules
	// commandEnv is the environment of the commands hookd starts for a
	// question or a chain: this process's without the API keys
	// (llm.Scrub), whose values the redactor replaces wherever they show.
	commandEnv []string

	// flagSet is the last flag set flags made (for completion).
	flagSet *pflag.FlagSet
}

func newEnv(stdin io.Reader, stdout, stderr io.Writer) (*env, error) {
	xdg.Reload()
	home, _ := os.UserHomeDir()
	e := &env{
		stdin: stdin, stdout: stdout, stderr: stderr,
		home: home,
		paths: paths.New(paths.Dirs{Home: home, ConfigHome: xdg.ConfigHome, DataHome: xdg.DataHome, StateHome: xdg.StateHome,
			RuntimeDir: os.Getenv("XDG_RUNTIME_DIR"), TempDir: os.TempDir(), UID: os.Getuid()}),
		session: os.Getenv("HOOKD_SESSION"),
		debug:   os.Getenv("HOOKD_DEBUG") != "",
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

// config returns the configuration, read once per process. What is wrong
// in the file is not printed here: `hookd init` says it once per shell
// start and `hookd status` lists it (configWarnings), rather than every
// command and every hook repeating it.
func (e *env) config() config.Config {
	e.loadConfig()
	return *e.cfg
}

// configWarnings says what is wrong in the configuration file, one line each.
func (e *env) configWarnings() []string {
	e.loadConfig()
	return e.cfgWarnings
}

func (e *env) loadConfig() {
	if e.cfg != nil {
		return
	}
	c, warns := config.Load(e.paths.Config, e.home)
	e.cfg = &c
	for _, w := range warns {
		e.cfgWarnings = append(e.cfgWarnings, w.String())
	}
	red, err := redact.New(c.Redact.Patterns.Sources())
	if err != nil {
		e.cfgWarnings = append(e.cfgWarnings, fmt.Sprintf("%s: redact.patterns: %v; using the built-in redaction only", e.paths.Config, err))
		red, _ = redact.New(nil)
	}
	var keys []string
	e.commandEnv, keys = llm.Scrub(os.Environ(), string(c.LLM.APIKeyEnv))
	red = red.WithLiterals(keys...)
	e.ingestRules = &ingest.Rules{IgnoreDirs: c.History.IgnoreDirs, Ignore: c.History.Ignore.Compiled(), Redactor: red}
}

// rules are the ingestion rules from the configuration.
func (e *env) rules() *ingest.Rules {
	e.loadConfig()
	return e.ingestRules
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

// openStore opens the history. A corrupt database is moved aside and what
// can be read of it salvaged into a new one; check runs SQLite's quick
// check first (a damage that opening alone does not show).
func (e *env) openStore(ctx context.Context, busy time.Duration, check bool) (*history.Store, error) {
	s, aside, err := history.OpenRecover(ctx, e.paths.DB, busy, check)
	if aside != "" {
		fmt.Fprintf(e.stderr, "hookd: the history database was corrupt: it was moved to %s, and what could be read of it copied into a new one (hookd status says how much)\n", aside)
	}
	return s, err
}

// recoverStore recovers a database found damaged while it was read: quick
// check, moved aside, what can be read salvaged into a new one.
func (e *env) recoverStore(ctx context.Context) error {
	s, err := e.openStore(ctx, 10*time.Second, true)
	if err != nil {
		return err
	}
	return s.Close()
}

// openFlushed opens the history after moving every finished command from the
// spools into it, so that the last command typed is there. A busy database
// is no error: what is stored is read. A database found corrupt (or moved
// aside by another process) meanwhile is opened again, recovered.
func (e *env) openFlushed(ctx context.Context) (*history.Store, error) {
	s, err := e.openStore(ctx, 3*time.Second, false)
	if err != nil {
		return nil, err
	}
	if ro := s.ReadOnly(); ro != nil {
		// Read what is stored; what waits stays in the spool.
		fmt.Fprintf(e.stderr, "hookd: %s\n", ro)
		return s, nil
	}
	st, err := ingest.Pass(ctx, s, e.paths.Spool, e.paths.Outbox, e.rules(), time.Now())
	if errors.Is(err, history.ErrCorrupt) || errors.Is(err, ingest.ErrReplaced) {
		s.Close()
		e.logProblems(st.Problems)
		if s, err = e.openStore(ctx, 3*time.Second, true); err != nil {
			return nil, err
		}
		st, err = ingest.Pass(ctx, s, e.paths.Spool, e.paths.Outbox, e.rules(), time.Now())
	}
	if history.IsDiskFull(err) {
		fmt.Fprintf(e.stderr, "hookd: %s\n", &history.DiskFullError{Path: e.paths.DB, Err: err})
	} else if err != nil && e.debug {
		fmt.Fprintf(e.stderr, "hookd: ingest: %v\n", err)
	}
	e.logProblems(st.Problems)
	return s, nil
}

// logProblems writes what an ingestion pass run by the CLI found wrong
// (malformed records, say) to the agent's log, where hookd status sends the
// user for details.
func (e *env) logProblems(problems []string) {
	if len(problems) == 0 {
		return
	}
	log, closer, err := e.logger()
	if err != nil {
		return
	}
	defer closer.Close()
	for _, p := range problems {
		log.Warn("ingest (by the CLI)", "problem", p)
	}
}

// logger returns the agent's logger, writing to the log file.
func (e *env) logger() (*slog.Logger, io.Closer, error) { return agent.OpenLog(e.paths.Log, e.debug) }

// reader reads commands and outputs from s for this session.
func (e *env) reader(s *history.Store) *recall.Reader {
	return &recall.Reader{Store: s, Session: e.session, Outbox: e.paths.Outbox, Rules: e.rules(),
		CaptureProblem: e.paths.CaptureProblem}
}
