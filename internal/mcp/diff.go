package mcp

import (
	"context"
	"fmt"
	"os"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/fix/before"
	"github.com/hookd/hookd/internal/recording/recall"
)

// DiffOutputIn are diff_output's arguments.
type DiffOutputIn struct {
	ID           int64  `json:"id,omitempty" jsonschema:"the run to compare (default -1: the last command of the user's most recent shell)"`
	Against      int64  `json:"against,omitempty" jsonschema:"the run to compare it with (default: the last time the same command worked, before it)"`
	ContextLines *int   `json:"context_lines,omitempty" jsonschema:"lines of unchanged output around each change (default 3, at most 20)"`
	Author       string `json:"author,omitempty" jsonschema:"negative ids count in this coding agent's most recent session instead of the user's shell"`
}

// DiffOutputOut is diff_output's result.
type DiffOutputOut struct {
	From Info `json:"from" jsonschema:"the earlier run (- lines)"`
	To   Info `json:"to" jsonschema:"the run compared (+ lines)"`
	// WorkedBefore says when the command last worked and what changed in
	// its context since (directory, git branch, environment), as hookd
	// diff and command_context say it.
	WorkedBefore string `json:"worked_before,omitempty"`
	Same         bool   `json:"same" jsonschema:"both outputs are there and equal"`
	// Diff is the unified diff of the outputs' lines (@@ headers, -, +
	// and space lines).
	Diff string `json:"diff"`
	// Missing says why a run has no output to compare.
	Missing string `json:"missing,omitempty"`
	Note    string `json:"note,omitempty"`
}

func (t *tools) diffOutput(ctx context.Context, _ *sdk.CallToolRequest, in DiffOutputIn) (*sdk.CallToolResult, DiffOutputOut, error) {
	var out DiffOutputOut
	ctxLines := 3
	if in.ContextLines != nil {
		ctxLines = *in.ContextLines
	}
	if ctxLines < 0 || ctxLines > 20 {
		return nil, out, badArg("context_lines must be from 0 to 20, not %d", ctxLines)
	}
	id := in.ID
	if id == 0 {
		id = -1
	}
	var d before.OutputDiff
	auto := in.Against == 0
	err := t.call(ctx, func(s *history.Store) error {
		rd, now, err := t.entry(ctx, s, id, in.Author)
		if err != nil {
			return err
		}
		var then history.Entry
		if auto {
			var ok bool
			then, ok, err = before.LastSuccess(ctx, s, now)
			if err != nil {
				return err
			}
			if !ok {
				return badArg("#%d (%s) never succeeded before on this machine: give against, another run's id, to compare it with", now.ID, t.line(recall.Short(now.Command)))
			}
		} else if _, then, err = t.entry(ctx, s, in.Against, in.Author); err != nil {
			return err
		}
		if then.ID == now.ID {
			return badArg("#%d compared with itself", now.ID)
		}
		home, _ := os.UserHomeDir()
		if cmp, err := before.CompareEntries(ctx, s, then, now, before.Options{Home: home, Now: t.o.Now()}); err == nil && cmp != nil && auto {
			out.WorkedBefore = t.line(cmp.Summary())
		}
		out.From, out.To = t.command(then), t.command(now)
		d = before.DiffCleaned(ctx, rd, then, now, ctxLines, t.clean)
		return nil
	})
	if err != nil {
		return nil, out, err
	}
	var lines []string
	for _, h := range d.Hunks {
		lines = append(lines, h.Header())
		for _, l := range h.Lines {
			lines = append(lines, string(l.Op)+l.Text)
		}
	}
	var notes []string
	switch {
	case d.MissingFrom != "":
		out.Missing = fmt.Sprintf("#%d has no output: %s", out.From.ID, t.line(d.MissingFrom))
	case d.MissingTo != "":
		out.Missing = fmt.Sprintf("#%d has no output: %s", out.To.ID, t.line(d.MissingTo))
	default:
		out.Same = len(d.Hunks) == 0
	}
	if !d.Exact && len(d.Hunks) > 0 {
		notes = append(notes, "the outputs are too far apart to compare line by line: the middle is shown whole")
	}
	var left int
	out.Diff, left = capLines(lines)
	if left > 0 {
		notes = append(notes, fmt.Sprintf("%d more lines of the diff left out (the size limit of one call): lower context_lines, or read the outputs with command_output", left))
	}
	out.Note = strings.Join(notes, "; ")
	var b strings.Builder
	if auto {
		fmt.Fprintf(&b, "#%d against the last time it worked, #%d\n", out.To.ID, out.From.ID)
	}
	if out.WorkedBefore != "" {
		b.WriteString("Worked before: " + out.WorkedBefore + "\n")
	}
	fmt.Fprintf(&b, "--- %s\n+++ %s\n", summary(out.From), summary(out.To))
	switch {
	case out.Missing != "":
		b.WriteString(out.Missing + "\n")
	case out.Same:
		fmt.Fprintf(&b, "The same output (%d lines).\n", d.OldLines)
	default:
		b.WriteString(out.Diff)
	}
	if out.Note != "" {
		fmt.Fprintf(&b, "[%s]\n", out.Note)
	}
	return text(b.String()), out, nil
}
