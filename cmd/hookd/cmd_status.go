package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/hookd/hookd/agent"
	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/llm"
	"github.com/hookd/hookd/outbox"
	"github.com/hookd/hookd/sanitize"
	"github.com/hookd/hookd/spool"
)

type statusReport struct {
	Version  string        `json:"version"`
	Agent    *agent.Status `json:"agent"`
	Database struct {
		Path      string `json:"path"`
		SizeBytes int64  `json:"size_bytes"`
		Commands  int64  `json:"commands"`
		Sessions  int64  `json:"sessions"`
		Failed    int64  `json:"failed"`
		Bad       int64  `json:"bad_records"`
		Error     string `json:"error,omitempty"`
		// MovedAside lists corrupt databases moved aside and still there.
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
}

// captureStatus describes output capture for this shell, and notes in r
// what is wrong.
func (e *env) captureStatus(r *statusReport) string {
	r.CaptureMode = e.captureMode()
	if l, err := outbox.Scan(e.paths.Outbox); err == nil {
		r.OutboxFiles = len(l.Items) + len(l.Streams)
	}
	problem := ""
	if b, err := os.ReadFile(e.paths.CaptureProblem); err == nil {
		problem = strings.TrimSpace(string(b))
	}
	if tty := os.Getenv(ptyEnv); tty != "" && sameFile(tty, "/dev/stdin") {
		r.CaptureActive = true
		return "on: this shell runs under hookd shell (" + tty + ")"
	}
	switch {
	case problem != "" && e.session != "":
		// (hookd shell, unable to start the proxy, runs the shell with
		// HOOKD_CAPTURE=off, so the mode says off too.)
		r.Problems = append(r.Problems, "output capture could not start: "+problem)
		return "off in this shell: the proxy could not start"
	case r.CaptureMode == "off":
		return "off (HOOKD_CAPTURE, init --capture or capture in the config file turned it off)"
	case e.session == "":
		return "pty (not in a shell with hookd loaded)"
	default:
		return "off in this shell: it is not under hookd shell (capture starts only when stdin and stdout are terminals, in a new shell)"
	}
}

// sameFile reports whether two paths name the same file.
func sameFile(a, b string) bool {
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

func cmdStatus(ctx context.Context, e *env, args []string) error {
	fs := flags(e, "status")
	asJSON := fs.Bool("json", false, "print one JSON object")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return usagef("no arguments expected")
	}
	r := statusReport{Version: version, Session: e.session, Config: e.paths.Config, Log: e.paths.Log, Problems: []string{}}
	for _, w := range e.configWarnings() {
		r.Problems = append(r.Problems, "config: "+w)
	}
	r.Capture = e.captureStatus(&r)
	r.LLM = e.llmStatus(ctx)

	cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	st, err := agent.Call(cctx, agent.SocketPath(e.paths.Runtime), agent.Request{Op: "status"})
	cancel()
	if err == nil {
		r.Agent = &st
		if st.Version != version {
			r.Problems = append(r.Problems, fmt.Sprintf("the agent runs version %s, this is %s: `hookd daemon --detach` restarts it", st.Version, version))
		}
		if st.LastError != "" {
			r.LastError = st.LastError
		}
	} else {
		r.Problems = append(r.Problems, "the agent is not running: commands wait in the spool (a new shell, or `hookd daemon --detach`, starts it)")
	}

	r.Database.Path = e.paths.DB
	offsets := map[string]history.SpoolState{}
	if s, err := e.openStore(ctx, 2*time.Second, false); err != nil {
		r.Database.Error = err.Error()
		r.Problems = append(r.Problems, "database: "+err.Error())
	} else {
		ds, err := s.Stats(ctx)
		if err != nil {
			r.Database.Error = err.Error()
			r.Problems = append(r.Problems, "database: "+err.Error())
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
			r.Problems = append(r.Problems, fmt.Sprintf("the history database was found corrupt and moved to %s; %s. Remove that file once you no longer need it", a.Path, what))
		}
		s.Close()
	}
	if r.Database.Bad > 0 {
		r.Problems = append(r.Problems, fmt.Sprintf("%d malformed spool records were skipped (details in %s)", r.Database.Bad, e.paths.Log))
	}

	r.Spool.Dir = e.paths.Spool
	ents, _ := os.ReadDir(e.paths.Spool)
	for _, ent := range ents {
		if _, ok := spool.SessionOf(ent.Name()); !ok {
			continue
		}
		r.Spool.Files++
		if fi, err := ent.Info(); err == nil {
			r.Spool.BacklogBytes += max(fi.Size()-offsets[ent.Name()].Offset, 0)
		}
	}
	if err := spool.Writable(e.paths.Spool); err != nil {
		r.Spool.Error = err.Error()
		r.Problems = append(r.Problems, fmt.Sprintf("the spool directory cannot be written (%v): shells cannot record commands", err))
	} else {
		r.Spool.Writable = true
	}
	if limit, size, over := spool.OverSizeLimit(e.paths.Spool, e.session); over {
		r.Problems = append(r.Problems, fmt.Sprintf("this shell's file size limit (ulimit -f: %s) is too small for its spool (%s): commands are not being recorded",
			humanBytes(limit), humanBytes(size)))
	}
	if e.session == "" {
		r.Problems = append(r.Problems, "HOOKD_SESSION is not set: this shell does not load hookd (see `hookd init --help`)")
	}

	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		return enc.Encode(r)
	}
	printStatus(e, &r)
	return nil
}

func printStatus(e *env, r *statusReport) {
	w := e.stdout
	label := func(s string) string { return e.out.String(fmt.Sprintf("%-9s", s)).Bold().String() }
	fmt.Fprintf(w, "%s hookd %s\n", label("version"), r.Version)
	if a := r.Agent; a != nil {
		extra := ""
		if t, err := time.Parse(time.RFC3339Nano, a.LastIngest); err == nil {
			extra = fmt.Sprintf(", last ingest %s ago", time.Since(t).Round(time.Millisecond))
		}
		fmt.Fprintf(w, "%s running, pid %d, version %s, %d commands ingested since %s%s\n",
			label("agent"), a.PID, a.Version, a.Ingested, a.StartedAt, extra)
	} else {
		fmt.Fprintf(w, "%s %s\n", label("agent"), e.out.String("not running").Foreground(e.out.Color("1")))
	}
	d := r.Database
	if d.Error != "" {
		fmt.Fprintf(w, "%s %s: %s\n", label("database"), d.Path, d.Error)
	} else {
		fmt.Fprintf(w, "%s %s (%s, %d commands, %d failed, %d sessions)\n", label("database"), d.Path,
			humanBytes(d.SizeBytes), d.Commands, d.Failed, d.Sessions)
	}
	fmt.Fprintf(w, "%s %s (%d files, %s waiting)\n", label("spool"), r.Spool.Dir, r.Spool.Files, humanBytes(r.Spool.BacklogBytes))
	fmt.Fprintf(w, "%s %s\n", label("capture"), r.Capture)
	fmt.Fprintf(w, "%s %s\n", label("llm"), r.LLM)
	session := r.Session
	if session == "" {
		session = "none (this shell does not load hookd)"
	}
	fmt.Fprintf(w, "%s %s\n", label("session"), session)
	fmt.Fprintf(w, "%s %s\n", label("config"), r.Config)
	fmt.Fprintf(w, "%s %s\n", label("log"), r.Log)
	if r.LastError != "" {
		fmt.Fprintf(w, "%s %s\n", label("error"), sanitize.Line(r.LastError))
	}
	for _, p := range r.Problems {
		fmt.Fprintf(w, "%s %s\n", e.out.String("!").Foreground(e.out.Color("3")).String()+strings.Repeat(" ", 8), p)
	}
}

func humanBytes(n int64) string {
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

// llmStatus says which model hookd ask would use, and why.
func (e *env) llmStatus(ctx context.Context) string {
	lc, why, err := e.llmConfig(ctx)
	switch {
	case errors.Is(err, llm.ErrNotConfigured):
		return "none set up (hookd ask explains how)"
	case err != nil:
		return "not usable: " + err.Error()
	}
	name := lc.Provider
	if lc.Model != "" {
		name += " " + lc.Model
	}
	return name + ": " + why
}
