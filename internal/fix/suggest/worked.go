package suggest

import (
	"context"
	"sort"
	"time"

	"github.com/hookd/hookd/analyze"
	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/fix/before"
)

// WorkedBefore compares the failure en with the last success of the same
// command (package before), and ranks the fixes that restore what changed
// with res's by the same rule as the analysis ranks its own: the more
// confident first, none far below the best, at most analyze.MaxFixes. It
// returns res as it is, and no comparison, when the command never
// succeeded before, or res is quiet (an ordinary "no" needs no
// explanation). A comparison whose differences explain nothing is
// returned too (the JSON says what was compared), with no fixes merged.
//
// environ, when set, is the failing shell's environment now (before.Options).
func WorkedBefore(ctx context.Context, s *history.Store, en history.Entry, output string, res analyze.Result, home string,
	environ func(string) (string, bool)) (analyze.Result, *before.Comparison) {
	if s == nil || res.Quiet || en.ExitCode == 0 {
		return res, nil
	}
	c, err := before.Find(ctx, s, en, before.Options{Home: home, ErrorType: res.ErrorType, Output: output, Now: time.Now(),
		Shell: en.Shell, Environ: environ})
	if err != nil || c == nil {
		return res, nil
	}
	if c.Line == "" {
		return res, c
	}
	res.Fixes = merge(res.Fixes, c.Fixes, func(a, b string) bool { return analyze.SameAction(a, b, en.Cwd, home, en.Shell) })
	if res.ErrorType == "" {
		res.ErrorType = analyze.Unknown
	}
	return res, c
}

// merge ranks the restoring fixes with the others: by confidence (a tie
// keeps the others first), the same action once (same: the same command,
// or one doing the same by other paths: one fix, the restoring one's
// command at the higher confidence), none below the best by more than
// the margin, at most analyze.MaxFixes.
func merge(fixes, restore []analyze.Fix, same func(a, b string) bool) []analyze.Fix {
	all := append([]analyze.Fix(nil), fixes...)
	for _, r := range restore {
		if r.Confidence < 0.5 {
			continue
		}
		dup := false
		for i, f := range all {
			if f.Command == r.Command || same(f.Command, r.Command) {
				dup = true
				// One fix stands for both, as confident as the more
				// confident, with the restoring one's words: they name
				// what was there when it worked (~/app/.venv/bin/activate
				// rather than .venv/bin/activate, which holds only here).
				if r.Confidence > f.Confidence {
					all[i] = r
				} else {
					all[i].Command = r.Command
				}
				all[i].Risk = analyze.MaxRisk(f.Risk, r.Risk)
			}
		}
		if !dup {
			all = append(all, r)
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].Confidence > all[j].Confidence })
	if len(all) > analyze.MaxFixes {
		all = all[:analyze.MaxFixes]
	}
	for i := 1; i < len(all); i++ {
		if all[i].Confidence < all[0].Confidence-analyze.FixMargin {
			all = all[:i]
			break
		}
	}
	return all
}

// JSONWorked is JSON(r) with the comparison (worked_before) when there is
// one.
func JSONWorked(r analyze.Result, c *before.Comparison) any {
	out := JSON(r).(resultJSON)
	if c != nil {
		out.WorkedBefore = before.JSON(c)
	}
	return out
}

// WorkedLine is the line a Printer shows under the fixes for the
// comparison c (Printer.Worked): "" when there is none or its
// differences explain nothing.
func WorkedLine(c *before.Comparison) string {
	if c == nil {
		return ""
	}
	return c.Line
}
