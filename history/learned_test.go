package history_test

import (
	"regexp"
	"testing"

	"github.com/hookd/hookd/history"
)

func deployPair(failed, fixed int64, failedCmd, fixedCmd string, at int64) history.LearnedPair {
	return history.LearnedPair{
		Edit:     history.Learned{Program: "deploy", Kind: "replace", From: "--prod", To: "--production"},
		FailedID: failed, FixedID: fixed, FailedCommand: failedCmd, FixedCommand: fixedCmd,
		FailedStarted: at, FixedStarted: at + 1,
	}
}

func TestLearnedStore(t *testing.T) {
	ctx := t.Context()
	s := newStore(t)
	add(t, s, nil,
		history.Entry{Session: "s", Seq: 1, Command: "deploy --prod x", ExitCode: 2, StartedAt: t0},
		history.Entry{Session: "s", Seq: 2, Command: "deploy --production x", StartedAt: t0 + 1},
		history.Entry{Session: "s", Seq: 3, Command: "deploy --prod y", ExitCode: 2, StartedAt: t0 + 10},
		history.Entry{Session: "s", Seq: 4, Command: "deploy --production y", StartedAt: t0 + 11},
		history.Entry{Session: "s", Seq: 5, Command: "make", ExitCode: 2, StartedAt: t0 + 20},
		history.Entry{Session: "s", Seq: 6, Command: "make -k", StartedAt: t0 + 21},
	)
	// The commands learning reads: after a mark, and before a seq.
	es, err := s.CommandsAfter(ctx, 2, 10)
	if err != nil || len(es) != 4 || es[0].ID != 3 || es[0].Command != "deploy --prod y" || es[0].ExitCode != 2 {
		t.Fatalf("CommandsAfter(2) = %+v, %v", es, err)
	}
	es, err = s.SessionBefore(ctx, "s", 4, 2)
	if err != nil || len(es) != 2 || es[0].Seq != 2 || es[1].Seq != 3 {
		t.Fatalf("SessionBefore(4, 2) = %+v, %v; want seqs 2, 3", es, err)
	}

	n, err := s.AddLearned(ctx, []history.LearnedPair{deployPair(1, 2, "deploy --prod x", "deploy --production x", t0)}, nil, 2)
	if err != nil || n != 1 {
		t.Fatalf("AddLearned = %d, %v", n, err)
	}
	// The same pair again counts nothing; a new one counts, and worked:
	// the fix was known when the failure happened.
	n, err = s.AddLearned(ctx, []history.LearnedPair{
		deployPair(1, 2, "deploy --prod x", "deploy --production x", t0),
		deployPair(3, 4, "deploy --prod y", "deploy --production y", t0+10),
		{Edit: history.Learned{Program: "make", Kind: "add", To: "-k", AtEnd: true}, FailedID: 5, FixedID: 6,
			FailedCommand: "make", FixedCommand: "make -k", FailedStarted: t0 + 20, FixedStarted: t0 + 21},
	}, nil, 6)
	if err != nil || n != 2 {
		t.Fatalf("AddLearned again = %d, %v; want 2 new pairs", n, err)
	}
	got, err := s.LearnedFor(ctx, "deploy", 5)
	if err != nil || len(got) != 1 {
		t.Fatalf("LearnedFor(deploy) = %+v, %v", got, err)
	}
	l := got[0]
	if l.Count != 2 || l.Worked != 1 || l.Failed != "deploy --prod y" || l.Fixed != "deploy --production y" ||
		l.FirstSeen != t0+1 || l.LastSeen != t0+11 || l.From != "--prod" || l.To != "--production" {
		t.Errorf("learned = %+v", l)
	}
	if mark, set, last, _ := s.LearnMark(ctx); mark != 6 || !set || last != 6 {
		t.Errorf("LearnMark = %d, %v, %d; want 6, set, 6", mark, set, last)
	}
	all, _ := s.AllLearned(ctx)
	if len(all) != 2 || all[0].Program != "deploy" || all[1].Program != "make" || !all[1].AtEnd {
		t.Errorf("AllLearned = %+v", all)
	}

	// Forgetting the fix of the latest pair: one pair left, and its
	// example shown.
	if _, err := s.Forget(ctx, []int64{4}); err != nil {
		t.Fatal(err)
	}
	got, _ = s.LearnedFor(ctx, "deploy", 5)
	if len(got) != 1 || got[0].Count != 1 || got[0].Worked != 1 || got[0].Fixed != "deploy --production x" {
		t.Errorf("after forgetting one pair: %+v", got)
	}
	// Forgetting the other: nothing learned is left of deploy. The mark
	// comes down with the ids SQLite may give again.
	if _, err := s.ForgetMatch(ctx, regexp.MustCompile(`^deploy --prod x$`)); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.LearnedFor(ctx, "deploy", 5); len(got) != 0 {
		t.Errorf("after forgetting every pair: %+v", got)
	}
	if _, err := s.Forget(ctx, []int64{6}); err != nil {
		t.Fatal(err)
	}
	if mark, _, last, _ := s.LearnMark(ctx); mark != 5 || last != 5 {
		t.Errorf("LearnMark after forgetting the last command = %d (last %d); want 5", mark, last)
	}
	// A veto takes a pair back.
	add(t, s, nil, history.Entry{Session: "t", Seq: 1, Command: "deploy --prod z", ExitCode: 2, StartedAt: t0 + 30},
		history.Entry{Session: "t", Seq: 2, Command: "deploy --production z", StartedAt: t0 + 31})
	es, _ = s.CommandsAfter(ctx, 5, 10)
	s.AddLearned(ctx, []history.LearnedPair{deployPair(es[0].ID, es[1].ID, "deploy --prod z", "deploy --production z", t0+30)}, nil, es[1].ID)
	if got, _ := s.LearnedFor(ctx, "deploy", 5); len(got) != 1 {
		t.Fatalf("learned again: %+v", got)
	}
	if _, err := s.AddLearned(ctx, nil, []int64{es[0].ID}, es[1].ID); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.LearnedFor(ctx, "deploy", 5); len(got) != 0 {
		t.Errorf("after a veto: %+v", got)
	}

	// Forgetting make -k took make's fix with it. Delete by id, clear.
	s.AddLearned(ctx, []history.LearnedPair{deployPair(es[0].ID, es[1].ID, "deploy --prod z", "deploy --production z", t0+30)}, nil, es[1].ID)
	all, _ = s.AllLearned(ctx)
	if len(all) != 1 {
		t.Fatalf("AllLearned = %+v; want deploy's alone", all)
	}
	if n, err := s.DeleteLearned(ctx, []int64{all[0].ID, 12345}); err != nil || n != 1 {
		t.Errorf("DeleteLearned = %d, %v; want 1", n, err)
	}
	s.AddLearned(ctx, []history.LearnedPair{deployPair(es[0].ID, es[1].ID, "deploy --prod z", "deploy --production z", t0+30)}, nil, es[1].ID)
	if n, err := s.ClearLearned(ctx); err != nil || n != 1 {
		t.Errorf("ClearLearned = %d, %v; want 1", n, err)
	}
	if err := s.DeleteLearnedFrom(ctx, []int64{es[0].ID}); err != nil {
		t.Errorf("DeleteLearnedFrom with nothing learned: %v", err)
	}
}
