package main

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/fix/before"
	"github.com/hookd/hookd/internal/recording/recall"
	"github.com/hookd/hookd/internal/sanitize"
	"github.com/hookd/hookd/internal/shellwords"
	"github.com/hookd/hookd/internal/textdiff"
	"github.com/hookd/hookd/internal/ui/style"
	"github.com/spf13/pflag"
)

// cmdDiff shows how a run's output differs from the last successful run
// of the same command, or from another run.
func cmdDiff(fs *pflag.FlagSet) runFunc {
	asJSON := fs.Bool("json", false, "print one JSON object: the two runs, the comparison of their contexts, the hunks")
	ctxLines := fs.Int("context", 3, "show `N` lines of unchanged output around each change (default: 3)")
	author := authorFlag(fs)
	return func(ctx context.Context, e *env, refs []string) error {
		if len(refs) > 2 {
			return usagef("two REFs at most")
		}
		if *ctxLines < 0 {
			return usagef("--context must not be negative")
		}
		ref := ""
		if len(refs) > 0 {
			ref = refs[0]
		}
		s, rd, now, err := e.lookup(ctx, ref, *author)
		if err != nil {
			return err
		}
		defer s.Close()
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
		d := before.DiffOutputs(ctx, rd, then, now, *ctxLines)
		if *asJSON {
			enc := json.NewEncoder(e.stdout)
			enc.SetEscapeHTML(false)
			return enc.Encode(before.DiffJSON(then, now, cmp, d))
		}
		printDiff(e, then, now, cmp, d, auto)
		return nil
	}
}

// runLine describes a run for the diff's header.
func runLine(en history.Entry, home string) string {
	return fmt.Sprintf("#%d %s · exit %d · %s · %s", en.ID, sanitize.Line(en.Command), en.ExitCode,
		time.UnixMicro(en.StartedAt).Format("2006-01-02 15:04:05"), sanitize.Line(shellwords.Tilde(en.Cwd, home)))
}

func printDiff(e *env, then, now history.Entry, cmp *before.Comparison, d before.OutputDiff, auto bool) {
	line := func(st style.Style, text string) { fmt.Fprintln(e.stdout, e.palette.Render(st, text)) }
	if auto {
		line(style.Label, fmt.Sprintf("#%d against the last time it worked, #%d", now.ID, then.ID))
	}
	if cmp != nil && cmp.Line != "" {
		line(style.Dim, sanitize.Line(cmp.Line))
	}
	line(style.Label, "--- "+runLine(then, e.home))
	line(style.Label, "+++ "+runLine(now, e.home))
	switch {
	case d.MissingFrom != "" || d.MissingTo != "":
		if d.MissingFrom != "" {
			fmt.Fprintf(e.stdout, "#%d: no output: %s\n", then.ID, sanitize.Line(d.MissingFrom))
		}
		if d.MissingTo != "" {
			fmt.Fprintf(e.stdout, "#%d: no output: %s\n", now.ID, sanitize.Line(d.MissingTo))
		}
		return
	case len(d.Hunks) == 0:
		line(style.Dim, fmt.Sprintf("the same output (%d lines)", d.OldLines))
		return
	}
	if !d.Exact {
		line(style.Dim, "(too far apart to compare line by line: the middle is shown whole)")
	}
	for _, h := range d.Hunks {
		line(style.Hunk, h.Header())
		for _, l := range h.Lines {
			text := string(l.Op) + sanitize.Line(l.Text)
			switch l.Op {
			case textdiff.Remove:
				line(style.Removed, text)
			case textdiff.Add:
				line(style.Added, text)
			default:
				line(style.Style{}, text)
			}
		}
	}
}
