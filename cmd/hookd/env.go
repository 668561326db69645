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

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/ai/llm"
	"github.com/hookd/hookd/internal/config"
	"github.com/hookd/hookd/internal/paths"
	"github.com/hookd/hookd/internal/recording/daemon"
	"github.com/hookd/hookd/internal/recording/ingest"
	"github.com/hookd/hookd/internal/recording/recall"
	"github.com/hookd/hookd/internal/ui/style"
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
	out     *termenv.Output // stdout's terminal (plain when piped or NO_COLOR)
	palette style.Palette   // the named styles, for stdout
	// stdoutTTY: stdout is a terminal.
	stdoutTTY bool

	// The configuration, read once (loadConfig): the file, what is wrong
	// in it, and the ingestion rules it makes.
	cfg         *config.Config
	cfgWarnings []config.Warning
	ingestRules *ingest.Rules
	// scrubbedEnv is set by loadConfig: read it through commandEnv.
	scrubbedEnv []string
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
	e.palette = style.New(e.out)
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

// configWarnings says what is wrong in the configuration file.
func (e *env) configWarnings() []config.Warning {
	e.loadConfig()
	return e.cfgWarnings
}

func (e *env) loadConfig() {
	if e.cfg != nil {
		return
	}
	c, warns := config.Load(e.paths.Config, e.home)
	e.cfg = &c
	rules, more := ingest.RulesFrom(c, e.paths.Config)
	// The commands hookd starts for a question or a chain get this
	// process's environment without the provider keys, whose values the
	// redactor replaces wherever they show.
	var keys []string
	e.scrubbedEnv, keys = llm.Scrub(os.Environ(), string(c.LLM.APIKeyEnv))
	rules.Redactor = rules.Redactor.WithLiterals(keys...)
	e.cfgWarnings, e.ingestRules = append(warns, more...), rules
}

// commandEnv is the environment of the commands hookd starts for a
// question, a prompt file or a chain: this process's without the provider
// keys (llm.Scrub), which the configuration names. It loads the
// configuration first: the environment is never read before it is made
// (a nil one would be this process's, keys included), whatever order a
// caller's expression is evaluated in.
func (e *env) commandEnv() []string {
	e.loadConfig()
	if e.scrubbedEnv == nil {
		return []string{}
	}
	return e.scrubbedEnv
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
		e.sayAside(aside)
	}
	return s, err
}

func (e *env) sayAside(path string) {
	fmt.Fprintf(e.stderr, "hookd: the history database was corrupt: it was moved to %s, and what could be read of it copied into a new one (hookd status says how much)\n", path)
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
// spools into it, so that the last command typed is there (ingest.Flush,
// which recovers a database found damaged meanwhile).
func (e *env) openFlushed(ctx context.Context) (*history.Store, error) {
	s, res, err := ingest.Flush{DB: e.paths.DB, SpoolDir: e.paths.Spool, OutboxDir: e.paths.Outbox, Rules: e.rules(),
		Busy: 3 * time.Second, Aside: e.sayAside}.Open(ctx)
	e.logProblems(res.Problems)
	if err != nil {
		return nil, err
	}
	var full *history.DiskFullError
	switch {
	case res.ReadOnly != nil:
		fmt.Fprintf(e.stderr, "hookd: %s\n", res.ReadOnly)
	case errors.As(res.Err, &full):
		fmt.Fprintf(e.stderr, "hookd: %s\n", full)
	case res.Err != nil && e.debug:
		fmt.Fprintf(e.stderr, "hookd: ingest: %v\n", res.Err)
	}
	return s, nil
}

// logProblems writes what an ingestion pass run by the CLI found wrong
// (malformed records, say) to the daemon's log, where hookd status sends the
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

// logger returns the daemon's logger, writing to the log file.
func (e *env) logger() (*slog.Logger, io.Closer, error) { return daemon.OpenLog(e.paths.Log, e.debug) }

// reader reads commands and outputs from s for this session.
func (e *env) reader(s *history.Store) *recall.Reader {
	return &recall.Reader{Store: s, Session: e.session, Outbox: e.paths.Outbox, Rules: e.rules(),
		CaptureProblem: e.paths.CaptureProblem}
}
