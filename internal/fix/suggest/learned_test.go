package suggest

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/analyze"
	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/fix/offer"
	"github.com/hookd/hookd/internal/recording/recall"
)

// TestLearnedFirst: a fix learned from the history is offered first,
// labelled, with hookd's own risk; it is not offered for another program,
// nor when the result is quiet.
func TestLearnedFirst(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	s, err := history.Open(ctx, filepath.Join(dir, "history.db"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tx, _ := s.Begin(ctx)
	tx.AddSession(ctx, history.Session{ID: "s", Shell: "bash"})
	for i, c := range []struct {
		cmd  string
		exit int
	}{{"deploy --prod x", 2}, {"deploy --production x", 0}, {"rm build", 1}, {"rm -r build", 0}, {"deploy --prod y", 2}, {"rm dist", 1}, {"grep -r foo --prod", 1}} {
		tx.AddCommand(ctx, history.Entry{Session: "s", Seq: int64(i + 1), Command: c.cmd, ExitCode: c.exit, StartedAt: int64(i + 1)})
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	pair := func(prog, kind, from, to string, failed, fixed int64) history.LearnedPair {
		return history.LearnedPair{Edit: history.Learned{Program: prog, Kind: kind, From: from, To: to, After: "", AtEnd: false},
			FailedID: failed, FixedID: fixed, FailedStarted: failed, FixedStarted: fixed}
	}
	es, _ := s.CommandsAfter(ctx, 0, 10)
	p1 := pair("deploy", "replace", "--prod", "--production", es[0].ID, es[1].ID)
	p1.FailedCommand, p1.FixedCommand = es[0].Command, es[1].Command
	p2 := pair("rm", "add", "", "-r", es[2].ID, es[3].ID)
	p2.FailedCommand, p2.FixedCommand = es[2].Command, es[3].Command
	if _, err := s.AddLearned(ctx, []history.LearnedPair{p1, p2}, nil, es[3].ID); err != nil {
		t.Fatal(err)
	}

	a, _ := NewAnalyzer("")
	e := &Engine{Analyzer: a}
	rd := &recall.Reader{Store: s, Session: "s", Outbox: filepath.Join(dir, "outbox")}
	offers := filepath.Join(dir, "offers")
	res, ok, err := e.Run(ctx, rd, Inline{Seq: 5, Offers: offers})
	if err != nil || !ok || len(res.Fixes) == 0 {
		t.Fatalf("Run(deploy --prod y) = %+v, %v, %v", res, ok, err)
	}
	f := res.Fixes[0]
	if f.Command != "deploy --production y" || f.Learned != 1 || f.Risk != analyze.RiskLow ||
		!strings.HasPrefix(f.Explanation, "learned: you ran `deploy --production x` after `deploy --prod x` failed (once)") {
		t.Errorf("first fix = %+v; want the learned one", f)
	}
	if got, _ := offer.Read(offers, "s"); len(got) == 0 || got[0] != "deploy --production y" {
		t.Errorf("offer = %q; want the learned fix first", got)
	}
	if j := JSON(res).(resultJSON); j.Fixes[0].Learned != 1 {
		t.Errorf("JSON: %+v; want learned 1", j.Fixes[0])
	}
	// hookd's own risk: rm -r is medium, learned or not.
	res, _, _ = e.Run(ctx, rd, Inline{Seq: 6, Offers: offers})
	if len(res.Fixes) == 0 || res.Fixes[0].Command != "rm -r dist" || res.Fixes[0].Risk != analyze.RiskMedium {
		t.Errorf("Run(rm dist) = %+v; want rm -r dist first, medium risk", res.Fixes)
	}
	// A quiet result stays quiet (grep's "no"); another program gets
	// nothing learned.
	in := analyze.Input{Command: "grep -r foo --prod", ExitCode: 1}
	if r := Learned(ctx, s, in, analyze.Result{Quiet: true}); len(r.Fixes) != 0 {
		t.Errorf("learned fixes on a quiet result: %+v", r.Fixes)
	}
	in = analyze.Input{Command: "other --prod y", ExitCode: 2}
	if r := Learned(ctx, s, in, analyze.Result{}); len(r.Fixes) != 0 {
		t.Errorf("learned fixes for another program: %+v", r.Fixes)
	}
	// Never lower than a rule rated the same command.
	in = analyze.Input{Command: "deploy --prod z", ExitCode: 2}
	r := Learned(ctx, s, in, analyze.Result{Fixes: []analyze.Fix{{Command: "deploy --production z", Risk: analyze.RiskHigh}, {Command: "b"}, {Command: "c"}}})
	if len(r.Fixes) != 3 || r.Fixes[0].Command != "deploy --production z" || r.Fixes[0].Risk != analyze.RiskHigh || r.Fixes[0].Learned != 1 || r.Fixes[1].Command != "b" {
		t.Errorf("Learned with the same fix from a rule = %+v", r.Fixes)
	}
}

// BenchmarkLearned is the cost learned fixes add to the failure path: one
// lookup by program among 200 learned fixes of 100 programs, and Apply.
func BenchmarkLearned(b *testing.B) {
	ctx := b.Context()
	s, err := history.Open(ctx, filepath.Join(b.TempDir(), "history.db"), time.Second)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	var pairs []history.LearnedPair
	for i := range 200 {
		prog := fmt.Sprintf("p%d", i%100)
		if i == 0 {
			prog = "deploy"
		}
		pairs = append(pairs, history.LearnedPair{Edit: history.Learned{Program: prog, Kind: "replace", From: "--prod", To: fmt.Sprintf("--production%d", i)},
			FailedID: int64(2 * i), FixedID: int64(2*i + 1), FailedCommand: "x", FixedCommand: "y"})
	}
	if _, err := s.AddLearned(ctx, pairs, nil, 0); err != nil {
		b.Fatal(err)
	}
	in := analyze.Input{Command: "deploy --prod y", ExitCode: 2}
	for b.Loop() {
		if r := Learned(ctx, s, in, analyze.Result{}); len(r.Fixes) != 1 {
			b.Fatalf("fixes = %+v", r.Fixes)
		}
	}
}

// TestSuggestPipeline: Engine.Suggest, the one failure pipeline, runs the
// analysis, puts the learned fixes first, and gives the model (Failure.AI)
// the result last; without a history, the rules' and the model's only.
func TestSuggestPipeline(t *testing.T) {
	ctx := t.Context()
	s, err := history.Open(ctx, filepath.Join(t.TempDir(), "history.db"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tx, _ := s.Begin(ctx)
	tx.AddSession(ctx, history.Session{ID: "s", Shell: "bash"})
	tx.AddCommand(ctx, history.Entry{Session: "s", Seq: 1, Command: "deploy --prod x", ExitCode: 2, StartedAt: 1})
	tx.AddCommand(ctx, history.Entry{Session: "s", Seq: 2, Command: "deploy --production x", ExitCode: 0, StartedAt: 2})
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	es, _ := s.CommandsAfter(ctx, 0, 10)
	p := history.LearnedPair{Edit: history.Learned{Program: "deploy", Kind: "replace", From: "--prod", To: "--production"},
		FailedID: es[0].ID, FixedID: es[1].ID, FailedStarted: 1, FixedStarted: 2, FailedCommand: es[0].Command, FixedCommand: es[1].Command}
	if _, err := s.AddLearned(ctx, []history.LearnedPair{p}, nil, es[1].ID); err != nil {
		t.Fatal(err)
	}
	a, _ := NewAnalyzer("")
	e := &Engine{Analyzer: a}
	in := analyze.Input{Command: "deploy --prod y", ExitCode: 2, Cwd: t.TempDir()}
	var seen []analyze.Fix
	ai := func(_ context.Context, got analyze.Input, res analyze.Result) analyze.Result {
		seen = res.Fixes
		res.Fixes = append(res.Fixes, analyze.Fix{Command: "model-fix"})
		return res
	}
	res, _ := e.Suggest(ctx, Failure{Input: in, Store: s, Timeout: 2 * time.Second, AI: ai})
	if len(seen) == 0 || seen[0].Command != "deploy --production y" || seen[0].Learned != 1 {
		t.Errorf("the model was given %+v; want the learned fix first", seen)
	}
	if len(res.Fixes) == 0 || res.Fixes[len(res.Fixes)-1].Command != "model-fix" {
		t.Errorf("Suggest = %+v; want the model's result", res.Fixes)
	}
	res, cmp := e.Suggest(ctx, Failure{Input: in, Timeout: 2 * time.Second, AI: ai})
	if cmp != nil || len(seen) != 0 || len(res.Fixes) != 1 || res.Fixes[0].Command != "model-fix" {
		t.Errorf("without a history: %+v %+v (model given %+v); want nothing learned or compared", res.Fixes, cmp, seen)
	}
}
