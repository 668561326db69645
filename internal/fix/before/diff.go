package before

import (
	"context"
	"errors"
	"time"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/recording/recall"
	"github.com/hookd/hookd/internal/textdiff"
)

// OutputDiff is how two runs' outputs differ (hookd diff).
type OutputDiff struct {
	Hunks []textdiff.Hunk
	// Exact says the outputs were compared line by line (they were not
	// too far apart).
	Exact bool
	// OldLines is the number of lines of the old output.
	OldLines int
	// MissingFrom and MissingTo say why a run has no output to compare
	// ("" when it has one).
	MissingFrom, MissingTo string
}

// Same says both outputs are there and equal.
func (d OutputDiff) Same() bool {
	return d.MissingFrom == "" && d.MissingTo == "" && len(d.Hunks) == 0
}

// DiffOutputs compares the outputs of then and now, as rd reads them
// back, with context lines of unchanged output around each change.
func DiffOutputs(ctx context.Context, rd *recall.Reader, then, now history.Entry, context int) OutputDiff {
	return DiffCleaned(ctx, rd, then, now, context, nil)
}

// DiffCleaned is DiffOutputs on the outputs as clean makes them (each
// whole, before it is cut into lines: redacted and sanitized for an
// agent); nil clean keeps them as they are.
func DiffCleaned(ctx context.Context, rd *recall.Reader, then, now history.Entry, context int, clean func(string) string) OutputDiff {
	var d OutputDiff
	text := func(en history.Entry) (string, string) {
		o, err := rd.Output(ctx, en, "", 0)
		var no *recall.NoOutput
		switch {
		case errors.As(err, &no):
			return "", no.Reason
		case err != nil:
			return "", err.Error()
		}
		if clean != nil {
			return clean(string(o.Text)), ""
		}
		return string(o.Text), ""
	}
	a, why := text(then)
	d.MissingFrom = why
	b, why := text(now)
	d.MissingTo = why
	if d.MissingFrom != "" || d.MissingTo != "" {
		return d
	}
	al := textdiff.Lines(a)
	d.OldLines = len(al)
	d.Hunks, d.Exact = textdiff.Diff(al, textdiff.Lines(b), context)
	return d
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

type diffJSON struct {
	From         diffRunJSON    `json:"from"`
	To           diffRunJSON    `json:"to"`
	WorkedBefore any            `json:"worked_before,omitempty"`
	Same         bool           `json:"same"`
	Exact        bool           `json:"exact"`
	Hunks        []diffHunkJSON `json:"hunks"`
}

// DiffJSON is the JSON shape of hookd diff --json: the two runs, the
// comparison of their contexts (JSON(c)), and the hunks.
func DiffJSON(then, now history.Entry, c *Comparison, d OutputDiff) any {
	run := func(en history.Entry, missing string) diffRunJSON {
		return diffRunJSON{ID: en.ID, Command: en.Command, ExitCode: en.ExitCode, Cwd: en.Cwd,
			StartedAt: time.UnixMicro(en.StartedAt).UTC().Format(time.RFC3339Nano), Missing: missing}
	}
	out := diffJSON{From: run(then, d.MissingFrom), To: run(now, d.MissingTo), Hunks: []diffHunkJSON{},
		Same: d.Same(), Exact: d.Exact}
	if c != nil {
		out.WorkedBefore = JSON(c)
	}
	for _, h := range d.Hunks {
		hj := diffHunkJSON{OldStart: h.OldStart, OldCount: h.OldCount, NewStart: h.NewStart, NewCount: h.NewCount}
		for _, l := range h.Lines {
			hj.Lines = append(hj.Lines, diffLineJSON{Op: string(l.Op), Text: l.Text})
		}
		out.Hunks = append(out.Hunks, hj)
	}
	return out
}
