// Package status gathers the state of hookd's parts for `hookd status`:
// the daemon, the database, the spool, output capture, and what is wrong
// with any of them, said so that the user knows what to do. The Report is
// also the JSON contract of `hookd status --json`.
package status

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/paths"
	"github.com/hookd/hookd/internal/recording/daemon"
	"github.com/hookd/hookd/internal/recording/outbox"
	"github.com/hookd/hookd/internal/recording/ptyshell"
	"github.com/hookd/hookd/internal/recording/spool"
)

// Report is hookd's state.
type Report struct {
	Version  string         `json:"version"`
	Daemon   *daemon.Status `json:"agent"` // the daemon (the key other tools read)
	Database struct {
		Path      string `json:"path"`
		SizeBytes int64  `json:"size_bytes"`
		Commands  int64  `json:"commands"`
		Sessions  int64  `json:"sessions"`
		Failed    int64  `json:"failed"`
		Bad       int64  `json:"bad_records"`
		Error     string `json:"error,omitempty"`
		// MovedAside lists damaged databases moved aside and still there.
		MovedAside []string `json:"moved_aside,omitempty"`
	} `json:"database"`
	Spool struct {
		Dir          string `json:"dir"`
		Files        int    `json:"files"`
		BacklogBytes int64  `json:"backlog_bytes"`
		Writable     bool   `json:"writable"`
		Error        string `json:"error,omitempty"`
	} `json:"spool"`
	Capture string `json:"capture"`
	// LLM says which model hookd ask would use, and why (or how to set
	// one up).
	LLM string `json:"llm"`
	// CaptureMode is the mode asked for (pty or off); CaptureActive says
	// whether this shell's output is being captured.
	CaptureMode   string   `json:"capture_mode"`
	CaptureActive bool     `json:"capture_active"`
	OutboxFiles   int      `json:"outbox_files"`
	Session       string   `json:"session"`
	Config        string   `json:"config"`
	Log           string   `json:"log"`
	LastError     string   `json:"last_error,omitempty"`
	Problems      []string `json:"problems"`
	// Sync is the state of sync (package sync's Status; filled in by
	// the CLI, which builds it from the configuration).
	Sync any `json:"sync,omitempty"`
}

// Inputs are what Gather looks at besides the files.
type Inputs struct {
	Version string
	Paths   paths.Layout
	Session string // HOOKD_SESSION
	// CaptureMode is the mode asked for (pty or off); CapturedTTY names
	// the proxy's terminal when this process's stdin is it ("" when not
	// under the proxy).
	CaptureMode, CapturedTTY string
	// ConfigWarnings say what is wrong in the config file.
	ConfigWarnings []string
	// LLM is the model line (package llm's Resolve, said).
	LLM string
	// Open opens the history (recovering a damaged one).
	Open func(ctx context.Context) (*history.Store, error)
}

// Gather looks at every part and says what is wrong.
func Gather(ctx context.Context, in Inputs) Report {
	r := Report{Version: in.Version, Session: in.Session, Config: in.Paths.Config, Log: in.Paths.Log, LLM: in.LLM, Problems: []string{}}
	for _, w := range in.ConfigWarnings {
		r.problem("config: " + w)
	}
	r.capture(in)
	r.daemon(ctx, in)
	offsets := r.database(ctx, in)
	r.spool(in, offsets)
	if in.Session == "" {
		r.problem("HOOKD_SESSION is not set: this shell does not load hookd (see `hookd init --help`)")
	}
	return r
}

func (r *Report) problem(p string) { r.Problems = append(r.Problems, p) }

// capture describes output capture for this shell.
func (r *Report) capture(in Inputs) {
	r.CaptureMode = in.CaptureMode
	if l, err := outbox.Scan(in.Paths.Outbox); err == nil {
		r.OutboxFiles = len(l.Items) + len(l.Streams)
	}
	problem := ptyshell.Problem(in.Paths.CaptureProblem)
	// A shell that entered the proxy from its rc file's end ran the rc
	// file twice; the early line makes it once.
	if when, shell, ok := ptyshell.RCTwice(in.Paths.RCTwice); ok {
		if shell == "" {
			shell = "bash|zsh"
		}
		line := fmt.Sprintf(`eval "$(hookd init %s --early)"`, shell)
		if shell == "fish" {
			line = "hookd init fish --early | source"
		}
		r.problem(fmt.Sprintf("the rc file ran twice to start output capture in a new terminal (%s, %s): put "+
			"%s as its first line, keep the usual line at its end, and it runs once", shell, when, line))
	}
	switch {
	case in.CapturedTTY != "":
		r.CaptureActive = true
		r.Capture = "on: this shell runs under hookd shell (" + in.CapturedTTY + ")"
	case problem != "" && in.Session != "":
		// (hookd shell, unable to start the proxy, runs the shell with
		// HOOKD_CAPTURE=off, so the mode says off too.)
		r.problem("output capture could not start: " + problem)
		r.Capture = "off in this shell: the proxy could not start"
	case r.CaptureMode == "off":
		r.Capture = "off (HOOKD_CAPTURE, init --capture or capture in the config file turned it off)"
	case in.Session == "":
		r.Capture = "pty (not in a shell with hookd loaded)"
	default:
		r.Capture = "off in this shell: it is not under hookd shell (capture starts only when stdin and stdout are terminals, in a new shell)"
	}
}

func (r *Report) daemon(ctx context.Context, in Inputs) {
	cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	st, err := daemon.Call(cctx, daemon.SocketPath(in.Paths.Runtime), daemon.Request{Op: "status"})
	cancel()
	if err != nil {
		if why := paths.Taken(in.Paths.Runtime); why != "" {
			r.problem("the daemon cannot run: its runtime directory " + why + "; commands wait in the spool. Remove that directory (ask its owner, or root), or set XDG_RUNTIME_DIR to a directory of yours")
			return
		}
		r.problem("the daemon is not running: commands wait in the spool (a new shell, or `hookd daemon --detach`, starts it)")
		return
	}
	r.Daemon = &st
	if st.Version != in.Version {
		r.problem(fmt.Sprintf("the daemon runs version %s, this is %s: `hookd daemon --detach` restarts it", st.Version, in.Version))
	}
	r.LastError = st.LastError
}

// database reads the history's figures, and returns the spools' offsets.
func (r *Report) database(ctx context.Context, in Inputs) map[string]history.SpoolState {
	r.Database.Path = in.Paths.DB
	offsets := map[string]history.SpoolState{}
	s, err := in.Open(ctx)
	if err != nil {
		r.Database.Error = err.Error()
		r.problem("database: " + err.Error())
		return offsets
	}
	defer s.Close()
	if ro := s.ReadOnly(); ro != nil {
		r.Database.Error = ro.Error()
		r.problem(ro.Error())
	}
	ds, err := s.Stats(ctx)
	if err != nil {
		r.Database.Error = err.Error()
		r.problem("database: " + err.Error())
	}
	r.Database.SizeBytes, r.Database.Commands, r.Database.Sessions = ds.SizeBytes, ds.Commands, ds.Sessions
	r.Database.Failed, r.Database.Bad = ds.Failed, ds.Bad
	if r.LastError == "" {
		r.LastError = ds.LastError
	}
	if o, err := s.SpoolOffsets(ctx); err == nil {
		offsets = o
	}
	for _, a := range s.Asides(ctx) {
		what := "what could be read of it was copied into the history"
		if a.Salvaged >= 0 {
			what = fmt.Sprintf("%d of its commands were copied into the history", a.Salvaged)
		}
		r.Database.MovedAside = append(r.Database.MovedAside, a.Path)
		r.problem(fmt.Sprintf("the history database was found corrupt and moved to %s; %s. Remove that file once you no longer need it", a.Path, what))
	}
	if r.Database.Bad > 0 {
		r.problem(fmt.Sprintf("%d malformed spool records were skipped (details in %s)", r.Database.Bad, in.Paths.Log))
	}
	return offsets
}

func (r *Report) spool(in Inputs, offsets map[string]history.SpoolState) {
	r.Spool.Dir = in.Paths.Spool
	ents, _ := os.ReadDir(in.Paths.Spool)
	for _, ent := range ents {
		if _, ok := spool.SessionOf(ent.Name()); !ok {
			continue
		}
		r.Spool.Files++
		if fi, err := ent.Info(); err == nil {
			r.Spool.BacklogBytes += max(fi.Size()-offsets[ent.Name()].Offset, 0)
		}
	}
	if err := spool.Writable(in.Paths.Spool); err != nil {
		r.Spool.Error = err.Error()
		r.problem(fmt.Sprintf("the spool directory cannot be written (%v): shells cannot record commands", err))
	} else {
		r.Spool.Writable = true
	}
	if limit, size, over := spool.OverSizeLimit(in.Paths.Spool, in.Session); over {
		r.problem(fmt.Sprintf("this shell's file size limit (ulimit -f: %s) is too small for its spool (%s): commands are not being recorded",
			Bytes(limit), Bytes(size)))
	}
}

// Bytes is a byte count for people: 512 B, 3.4 KiB, 1.2 GiB.
func Bytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
