package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/spf13/pflag"
	"os"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/cloudsync"
	"github.com/hookd/hookd/internal/cloudsync/s3"
	"github.com/hookd/hookd/internal/hostid"
	"github.com/hookd/hookd/internal/recording/ptyshell"
	"github.com/hookd/hookd/internal/sanitize"
	"github.com/hookd/hookd/internal/search"
)

func cmdSync(fs *pflag.FlagSet) runFunc {
	showStatus := fs.Bool("status", false, "say what sync is doing (as hookd status does), without syncing")
	asJSON := fs.Bool("json", false, "with --status: print one JSON object")
	return func(ctx context.Context, e *env, args []string) error {
		if *showStatus {
			if len(args) != 0 {
				return usagef("--status takes no arguments")
			}
			st := e.syncStatus(ctx)
			if *asJSON {
				return json.NewEncoder(e.stdout).Encode(st)
			}
			printSyncStatus(e, st)
			return nil
		}
		if *asJSON {
			return usagef("--json goes with --status")
		}
		verb := ""
		if len(args) > 0 {
			verb = args[0]
		}
		if len(args) > 1 || verb != "" && verb != "init" && verb != "join" {
			return usagef("want init, join, or nothing (one pass now)")
		}
		s, err := e.syncer()
		if err != nil {
			return err
		}
		switch verb {
		case "init":
			key, err := s.Init(ctx)
			if err != nil {
				return err
			}
			// The phrase is a secret: the capturing proxy keeps none of
			// this command's output (the redaction rules know the phrase
			// too, wherever else it turns up).
			ptyshell.Withhold(os.Getenv)
			fmt.Fprintf(e.stdout, "sync: a new history at %s (this host: %s, id %s)\n", s.Settings.URL, s.Label, s.HostID)
			fmt.Fprintln(e.stdout, "The daemon uploads this machine's history in the background; `hookd sync` does it now.")
			fmt.Fprintln(e.stdout, "Keep the recovery phrase below somewhere safe: `hookd sync join` on your other machines")
			fmt.Fprintln(e.stdout, "needs it, and nothing else can decrypt the history. It is not shown again.")
			fmt.Fprintln(e.stdout, key.Phrase())
			return nil
		case "join":
			phrase, err := readPhrase(e)
			if err != nil {
				return err
			}
			key, err := cloudsync.ParsePhrase(phrase)
			if err != nil {
				return exitCode{1, err.Error() + ": nothing was changed"}
			}
			if err := s.Join(ctx, key); err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "sync: joined the history at %s (this host: %s, id %s); the daemon syncs in the background, `hookd sync` does it now\n",
				s.Settings.URL, s.Label, s.HostID)
			return nil
		}
		// One pass now: what the shells wrote is ingested first, so that it
		// goes up in this pass.
		if st, err := e.openFlushed(ctx); err == nil {
			st.Close()
		}
		m, err := s.Pass(ctx, 5*time.Minute)
		if errors.Is(err, cloudsync.ErrBusy) {
			return exitCode{1, "another sync pass is still running (the daemon's?): try again in a moment"}
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "synced with %s: %s\n", s.Settings.URL, m)
		for _, w := range m.Warnings {
			fmt.Fprintf(e.stderr, "hookd sync: %s\n", sanitize.Line(w))
		}
		if m.Compacted > 0 {
			fmt.Fprintf(e.stdout, "compacted %d of this host's old segments\n", m.Compacted)
		}
		return nil
	}
}

// readPhrase reads the recovery phrase: from standard input when it is not
// a terminal, else asked for on the terminal without echo.
func readPhrase(e *env) (string, error) {
	f, isFile := e.stdin.(*os.File)
	if isFile && isTerminal(f) {
		fmt.Fprint(e.stderr, "recovery phrase (from `hookd sync init`): ")
		fd := int(f.Fd())
		if old, err := unix.IoctlGetTermios(fd, ioctlGetTermios); err == nil {
			quiet := *old
			quiet.Lflag &^= unix.ECHO
			unix.IoctlSetTermios(fd, ioctlSetTermios, &quiet)
			defer func() { unix.IoctlSetTermios(fd, ioctlSetTermios, old); fmt.Fprintln(e.stderr) }()
		}
	}
	line, err := bufio.NewReader(e.stdin).ReadString('\n')
	if err != nil && line == "" {
		return "", exitCode{1, "no recovery phrase given (on standard input, or typed when asked)"}
	}
	return strings.TrimSpace(line), nil
}

// syncSettings resolves the sync section of the configuration (nil when
// sync.url is not set, or syncConfigError finds it wrong).
func (e *env) syncSettings() *cloudsync.Settings {
	c := e.config().Sync
	if c.URL == "" || e.syncConfigError() != nil {
		return nil
	}
	bucket, prefix, _ := c.URL.Split()
	pathStyle := c.Endpoint != ""
	if c.PathStyle != nil {
		pathStyle = *c.PathStyle
	}
	return &cloudsync.Settings{URL: string(c.URL), Bucket: bucket, Prefix: prefix, Endpoint: string(c.Endpoint), Region: c.Region,
		PathStyle: pathStyle, Outputs: cloudsync.Outputs(c.Outputs), OutputLimit: int64(c.OutputLimit), Interval: time.Duration(c.Interval),
		KeepOutput: int64(e.config().Output.Limit)}
}

// syncConfigError says what is wrong in the sync section: a url that is
// not s3://BUCKET[/PREFIX] (which is not "not set"), an endpoint that is
// not an http or https address (left out, the bucket would be looked up
// at AWS). The configuration refuses both values; sync refuses to run
// without them.
func (e *env) syncConfigError() error {
	for _, w := range e.configWarnings() {
		if w.Key == "sync.url" || w.Key == "sync.endpoint" {
			return errors.New(w.File + ": " + w.Key + ": " + w.Msg)
		}
	}
	return nil
}

// syncer builds the Syncer from the configuration, the AWS environment
// and this installation's id.
func (e *env) syncer() (*cloudsync.Syncer, error) {
	if err := e.syncConfigError(); err != nil {
		return nil, exitCode{1, err.Error()}
	}
	set := e.syncSettings()
	if set == nil {
		return nil, exitCode{1, fmt.Sprintf("sync.url is not set in %s: add\n  sync:\n    url: s3://BUCKET/PREFIX\n    endpoint: http://HOST:PORT   # a self-hosted store; omit for AWS S3\n(docs/sync.md)", e.paths.Config)}
	}
	creds, region, err := s3.Resolve(s3.Env{Getenv: os.Getenv, Home: e.home})
	if err != nil {
		return nil, exitCode{1, err.Error()}
	}
	if set.Region == "" {
		set.Region = region
	}
	id, err := hostid.Get(e.paths.HostID)
	if err != nil {
		return nil, err
	}
	label, _ := os.Hostname()
	return &cloudsync.Syncer{Settings: *set, HostID: id, Label: label, Creds: creds,
		Paths: cloudsync.Paths{DB: e.paths.DB, Key: e.paths.SyncKey, Lock: e.paths.SyncLock, HostID: e.paths.HostID},
		Open:  func(ctx context.Context) (*history.Store, error) { return e.openStore(ctx, 10*time.Second, false) },
		// The search's copy of the history is made again from what is
		// left, as after hookd forget.
		Forgotten: func() { search.RemoveCache(e.paths.SearchCache) }}, nil
}

// syncStatus gathers what hookd status says about sync.
func (e *env) syncStatus(ctx context.Context) cloudsync.Status {
	id, _ := hostid.Read(e.paths.HostID)
	label, _ := os.Hostname()
	var store *history.Store
	if s, err := e.openStore(ctx, 2*time.Second, false); err == nil {
		store = s
		defer s.Close()
	}
	return cloudsync.Gather(ctx, e.syncSettings(), cloudsync.Paths{DB: e.paths.DB, Key: e.paths.SyncKey, Lock: e.paths.SyncLock, HostID: e.paths.HostID}, id, label, store)
}

// count says n things: "1 command", "2 commands".
func count[N int | int64](n N, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

func printSyncStatus(e *env, st cloudsync.Status) {
	w := e.stdout
	line, problem := st.Summary(time.Now())
	fmt.Fprintf(w, "sync      %s\n", line)
	id := st.HostID
	if id == "" {
		id = "none yet: the first sync makes it"
	}
	fmt.Fprintf(w, "this host %s (id %s)\n", sanitize.Line(st.Host), id)
	if st.Configured && st.Key {
		if st.LastMoved != "" {
			fmt.Fprintf(w, "last pass %s\n", st.LastMoved)
		}
		for _, h := range st.Hosts {
			this := ""
			if h.This {
				this = " (this one)"
			}
			fmt.Fprintf(w, "  host %s %s%s: %s merged from %s\n", h.ID, sanitize.Line(h.Label), this, count(h.Commands, "command"), count(h.Merged, "segment"))
		}
	}
	if problem != "" {
		fmt.Fprintf(w, "!         %s\n", sanitize.Line(problem))
	}
	if len(st.Warnings) > 0 {
		fmt.Fprintf(w, "warnings  of the pass at %s:\n", st.WarningsAt)
		for _, x := range st.Warnings {
			fmt.Fprintf(w, "  ! %s\n", sanitize.Line(x))
		}
	}
}
