package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/fix/before"
	"github.com/hookd/hookd/internal/fix/suggest"
	"github.com/hookd/hookd/internal/recording/recall"
	"github.com/hookd/hookd/internal/sanitize"
	"github.com/hookd/hookd/internal/textdiff"
)

// cmdDiff shows how a run's output differs from the last successful run
// of the same command, or from another run.
func cmdDiff(ctx context.Context, e *env, args []string) error {
	args, refs := recall.SplitRefs(args)
	fs := flags(e, "diff")
	asJSON := fs.Bool("json", false, "print one JSON object: the two runs, the comparison of their contexts, the hunks")
	ctxLines := fs.Int("context", 3, "show `N` lines of unchanged output around each change (default: 3)")
	if err := parse(fs, args); err != nil {
		return err
	}
	refs = append(refs, fs.Args()...)
	if len(refs) > 2 {
		return usagef("two REFs at most")
	}
	if *ctxLines < 0 {
		return usagef("--context must not be negative")
	}
	s, err := e.openFlushed(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	rd := e.reader(s)
	ref := ""
	if len(refs) > 0 {
		ref = refs[0]
	}
	now, err := entry(ctx, rd, ref)
	if err != nil {
		return err
	}
	var then history.Entry
	auto := len(refs) < 2
	if auto {
		var ok bool
		then, ok, err = before.LastSuccess(ctx, s, now)
		if err != nil {
			return err
		}
		if !ok {
			return exitCode{1, fmt.Sprintf("%s (#%d) never succeeded before: give another run to compare it with (hookd diff %d REF)",
				sanitize.Line(recall.Short(now.Command)), now.ID, now.ID)}
		}
	} else if then, err = entry(ctx, rd, refs[1]); err != nil {
		return err
	}
	if then.ID == now.ID {
		return usagef("#%d compared with itself", now.ID)
	}
	cmp, err := before.CompareEntries(ctx, s, then, now, before.Options{Home: e.home, Now: time.Now()})
	if err != nil {
		return err
	}
	d := diffRuns(ctx, rd, then, now, *ctxLines)
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetEscapeHTML(false)
		return enc.Encode(diffJSON(then, now, cmp, d))
	}
	printDiff(e, then, now, cmp, d, auto)
	return nil
}

// outputDiff is the comparison of two runs' outputs.
type outputDiff struct {
	hunks       []textdiff.Hunk
	exact       bool   // compared line by line (not too far apart)
	oldLines    int    // lines of the old output
	missingFrom string // why the old run has no output ("" when it has)
	missingTo   string
}

func diffRuns(ctx context.Context, rd *recall.Reader, then, now history.Entry, ctxLines int) outputDiff {
	var d outputDiff
	text := func(en history.Entry) (string, string) {
		o, err := rd.Output(ctx, en, "", 0)
		var no *recall.NoOutput
		switch {
		case errors.As(err, &no):
			return "", no.Reason
		case err != nil:
			return "", err.Error()
		}
		return string(o.Text), ""
	}
	a, why := text(then)
	d.missingFrom = why
	b, why := text(now)
	d.missingTo = why
	if d.missingFrom != "" || d.missingTo != "" {
		return d
	}
	al := textdiff.Lines(a)
	d.oldLines = len(al)
	d.hunks, d.exact = textdiff.Diff(al, textdiff.Lines(b), ctxLines)
	return d
}

// runLine describes a run for the diff's header.
func runLine(en history.Entry, home string) string {
	return fmt.Sprintf("#%d %s · exit %d · %s · %s", en.ID, sanitize.Line(en.Command), en.ExitCode,
		time.UnixMicro(en.StartedAt).Format("2006-01-02 15:04:05"), sanitize.Line(tildeOf(en.Cwd, home)))
}

func tildeOf(p, home string) string {
	if home != "" && home != "/" {
		if p == home {
			return "~"
		}
		if len(p) > len(home) && p[:len(home)+1] == home+"/" {
			return "~" + p[len(home):]
		}
	}
	return p
}

func printDiff(e *env, then, now history.Entry, cmp *before.Comparison, d outputDiff, auto bool) {
	faint := func(s string) string { return e.out.String(s).Faint().String() }
	if auto {
		fmt.Fprintf(e.stdout, "%s\n", e.out.String(fmt.Sprintf("#%d against the last time it worked, #%d", now.ID, then.ID)).Bold())
	}
	if cmp != nil && cmp.Line != "" {
		fmt.Fprintf(e.stdout, "%s\n", faint(sanitize.Line(cmp.Line)))
	}
	fmt.Fprintf(e.stdout, "%s\n", e.out.String("--- "+runLine(then, e.home)).Bold())
	fmt.Fprintf(e.stdout, "%s\n", e.out.String("+++ "+runLine(now, e.home)).Bold())
	switch {
	case d.missingFrom != "" || d.missingTo != "":
		if d.missingFrom != "" {
			fmt.Fprintf(e.stdout, "#%d: no output: %s\n", then.ID, sanitize.Line(d.missingFrom))
		}
		if d.missingTo != "" {
			fmt.Fprintf(e.stdout, "#%d: no output: %s\n", now.ID, sanitize.Line(d.missingTo))
		}
		return
	case len(d.hunks) == 0:
		fmt.Fprintf(e.stdout, "%s\n", faint(fmt.Sprintf("the same output (%d lines)", d.oldLines)))
		return
	}
	if !d.exact {
		fmt.Fprintf(e.stdout, "%s\n", faint("(too far apart to compare line by line: the middle is shown whole)"))
	}
	for _, h := range d.hunks {
		fmt.Fprintf(e.stdout, "%s\n", e.out.String(h.Header()).Foreground(e.out.Color("6")))
		for _, l := range h.Lines {
			text := string(l.Op) + sanitize.Line(l.Text)
			switch l.Op {
			case textdiff.Remove:
				fmt.Fprintf(e.stdout, "%s\n", e.out.String(text).Foreground(e.out.Color("1")))
			case textdiff.Add:
				fmt.Fprintf(e.stdout, "%s\n", e.out.String(text).Foreground(e.out.Color("2")))
			default:
				fmt.Fprintf(e.stdout, "%s\n", text)
			}
		}
	}
}

type diffRunJSON struct {
	ID        int64  `json:"id"`
	Command   string `json:"command"`
	ExitCode  int    `json:"exit_code"`
	Cwd       string `json:"cwd"`
	StartedAt string `json:"started_at"`
	// Missing says why there is no output to compare ("" when there is).
	Missing string `json:"missing,omitempty"`
}

type diffLineJSON struct {
	Op   string `json:"op"`
	Text string `json:"text"`
}

type diffHunkJSON struct {
	OldStart int            `json:"old_start"`
	OldCount int            `json:"old_count"`
	NewStart int            `json:"new_start"`
	NewCount int            `json:"new_count"`
	Lines    []diffLineJSON `json:"lines"`
}

type diffOutJSON struct {
	From         diffRunJSON    `json:"from"`
	To           diffRunJSON    `json:"to"`
	WorkedBefore any            `json:"worked_before,omitempty"`
	Same         bool           `json:"same"`
	Exact        bool           `json:"exact"`
	Hunks        []diffHunkJSON `json:"hunks"`
}

func diffJSON(then, now history.Entry, cmp *before.Comparison, d outputDiff) diffOutJSON {
	run := func(en history.Entry, missing string) diffRunJSON {
		return diffRunJSON{ID: en.ID, Command: en.Command, ExitCode: en.ExitCode, Cwd: en.Cwd,
			StartedAt: time.UnixMicro(en.StartedAt).UTC().Format(time.RFC3339Nano), Missing: missing}
	}
	out := diffOutJSON{From: run(then, d.missingFrom), To: run(now, d.missingTo), Hunks: []diffHunkJSON{},
		Same: d.missingFrom == "" && d.missingTo == "" && len(d.hunks) == 0, Exact: d.exact}
	if cmp != nil {
		out.WorkedBefore = suggest.WorkedJSON(cmp)
	}
	for _, h := range d.hunks {
		hj := diffHunkJSON{OldStart: h.OldStart, OldCount: h.OldCount, NewStart: h.NewStart, NewCount: h.NewCount}
		for _, l := range h.Lines {
			hj.Lines = append(hj.Lines, diffLineJSON{Op: string(l.Op), Text: l.Text})
		}
		out.Hunks = append(out.Hunks, hj)
	}
	return out
}
