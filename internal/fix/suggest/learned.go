package suggest

import (
	"context"
	"fmt"
	"strings"

	"github.com/hookd/hookd/analyze"
	"github.com/hookd/hookd/analyze/learn"
	"github.com/hookd/hookd/history"
)

// maxLearned is how many learned fixes go before the rules' fixes, so that
// the rules' best one is still shown.
const maxLearned = 2

// Learned puts first among res's fixes those learned from the user's own
// history (the daemon learns them, package ingest) that apply to the failed
// command: one lookup of the command's program on the learned table's
// index, then learn.Apply. A learned fix is labelled (Fix.Learned, and an
// explanation saying when the user ran it), and rated by hookd's own risk
// scoring, never lower than a rule rated the same command. A learned fix
// takes the place of a rule's that does the same (analyze.SameAction: the
// same venv's activate, by a relative or an absolute path); it runs the
// program the user typed, so it needs no check that the program exists. A
// quiet result
// (an interruption, an ordinary "no") stays as it is.
func Learned(ctx context.Context, s *history.Store, in analyze.Input, res analyze.Result) analyze.Result {
	if s == nil || res.Quiet || in.ExitCode == 0 {
		return res
	}
	prog := learn.Program(in.Command)
	if prog == "" {
		return res
	}
	ls, err := s.LearnedFor(ctx, prog, 10)
	if err != nil || len(ls) == 0 {
		return res
	}
	rules := map[string]analyze.Fix{}
	for _, f := range res.Fixes {
		rules[f.Command] = f
	}
	var fixes []analyze.Fix
	seen := map[string]bool{}
	for _, l := range ls {
		cmd, ok := learn.Apply(Edit(l), in.Command)
		if !ok || seen[cmd] {
			continue
		}
		seen[cmd] = true
		fx := analyze.Fix{Command: cmd, Explanation: explainLearned(l), Risk: analyze.Risk(cmd),
			Confidence: min(0.9+0.02*float64(l.Count), 0.98), Learned: l.Count}
		for _, r := range rules {
			if analyze.SameAction(r.Command, cmd, in.Cwd, "", in.Shell) {
				fx.Risk = analyze.MaxRisk(fx.Risk, r.Risk)
				seen[r.Command] = true // one fix per action: the learned one
			}
		}
		if strings.Contains(cmd, analyze.RedactionMarker) {
			fx.Incomplete = true
			fx.Missing = "The command holds a secret that was redacted before it was stored: replace " +
				analyze.RedactionMarker + " with it before running the command."
		}
		fixes = append(fixes, fx)
		if len(fixes) == maxLearned {
			break
		}
	}
	if len(fixes) == 0 {
		return res
	}
	for _, f := range res.Fixes {
		if !seen[f.Command] {
			fixes = append(fixes, f)
		}
	}
	res.Fixes = fixes[:min(len(fixes), analyze.MaxFixes)]
	if res.ErrorType == "" {
		res.ErrorType = analyze.Unknown
	}
	return res
}

// explainLearned says where a learned fix comes from and how often it
// worked.
func explainLearned(l history.Learned) string {
	times := "once"
	if l.Count > 1 {
		times = fmt.Sprintf("%d times", l.Count)
	}
	s := fmt.Sprintf("learned: you ran `%s` after `%s` failed (%s", short(l.Fixed), short(l.Failed), times)
	if l.Worked > 0 {
		s += fmt.Sprintf("; %d of them when hookd offered it", l.Worked)
	}
	return s + ")."
}

func short(s string) string {
	if r := []rune(s); len(r) > 60 {
		return string(r[:59]) + "…"
	}
	return s
}
