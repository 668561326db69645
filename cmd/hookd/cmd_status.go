package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/hookd/hookd/internal/ui/units"
	"os"
	"strings"
	"time"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/ai/llm"
	"github.com/hookd/hookd/internal/recording/ptyshell"
	"github.com/hookd/hookd/internal/sanitize"
	"github.com/hookd/hookd/internal/status"
	"github.com/hookd/hookd/internal/ui/style"
	"github.com/spf13/pflag"
)

// sameFile reports whether two paths name the same file.
func sameFile(a, b string) bool {
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

func cmdStatus(fs *pflag.FlagSet) runFunc {
	asJSON := fs.Bool("json", false, "print one JSON object")
	return func(ctx context.Context, e *env, args []string) error {
		if len(args) != 0 {
			return usagef("no arguments expected")
		}
		tty := os.Getenv(ptyshell.PTYEnv)
		if tty != "" && !sameFile(tty, "/dev/stdin") {
			tty = ""
		}
		var warns []string
		for _, w := range e.configWarnings() {
			warns = append(warns, w.String())
		}
		r := status.Gather(ctx, status.Inputs{Version: version, Paths: e.paths, Session: e.session, CaptureMode: e.captureMode(),
			CapturedTTY: tty, ConfigWarnings: warns, LLM: e.llmStatus(ctx),
			Open: func(ctx context.Context) (*history.Store, error) { return e.openStore(ctx, 2*time.Second, false) }})
		syncSt := e.syncStatus(ctx)
		r.Sync = syncSt
		syncText, syncProblem := syncSt.Summary(time.Now())
		if syncProblem != "" {
			r.Problems = append(r.Problems, syncProblem)
		}
		if *asJSON {
			enc := json.NewEncoder(e.stdout)
			return enc.Encode(r)
		}
		printStatus(e, &r, syncText)
		return nil
	}
}

func printStatus(e *env, r *status.Report, syncText string) {
	w := e.stdout
	label := func(s string) string { return e.palette.Render(style.Label, fmt.Sprintf("%-9s", s)) }
	fmt.Fprintf(w, "%s hookd %s\n", label("version"), r.Version)
	if a := r.Daemon; a != nil {
		extra := ""
		if t, err := time.Parse(time.RFC3339Nano, a.LastIngest); err == nil {
			extra = fmt.Sprintf(", last ingest %s ago", time.Since(t).Round(time.Millisecond))
		}
		// No count of its own here: hookd's other commands store what waits
		// in the spools too (before they read the history), so what this
		// process stored is not the history's count, which the database
		// line gives.
		fmt.Fprintf(w, "%s running, pid %d, version %s, since %s%s\n",
			label("daemon"), a.PID, a.Version, a.StartedAt, extra)
	} else {
		fmt.Fprintf(w, "%s %s\n", label("daemon"), e.palette.Render(style.Alert, "not running"))
	}
	d := r.Database
	if d.Error != "" {
		fmt.Fprintf(w, "%s %s: %s\n", label("database"), d.Path, d.Error)
	} else {
		fmt.Fprintf(w, "%s %s (%s, %s, %d failed, %s)\n", label("database"), d.Path,
			status.Bytes(d.SizeBytes), units.Count(int(d.Commands), "command"), d.Failed, units.Count(int(d.Sessions), "session"))
	}
	fmt.Fprintf(w, "%s %s (%s, %s waiting)\n", label("spool"), r.Spool.Dir, units.Count(r.Spool.Files, "file"), status.Bytes(r.Spool.BacklogBytes))
	fmt.Fprintf(w, "%s %s\n", label("capture"), r.Capture)
	fmt.Fprintf(w, "%s %s\n", label("llm"), r.LLM)
	fmt.Fprintf(w, "%s %s\n", label("sync"), sanitize.Line(syncText))
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
		fmt.Fprintf(w, "%s %s\n", e.palette.Render(style.Caution, "!")+strings.Repeat(" ", 8), p)
	}
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
