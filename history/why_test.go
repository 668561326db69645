package history

import (
	"context"
	"path/filepath"
	"testing"
)

// TestWhy: a command's intent and the prompt of its turn (the session's
// last prompt numbered before it); forgetting a command forgets its
// intent, and the prompt once no command of its turn is left.
func TestWhy(t *testing.T) {
	s := openTestStore(t, filepath.Join(t.TempDir(), "history.db"))
	ctx := t.Context()
	mustTx(t, s, func(ctx context.Context, tx *Tx) error {
		if err := tx.AddSession(ctx, Session{ID: "cc", Shell: "agent", Author: "claude-code"}); err != nil {
			return err
		}
		for _, p := range []struct {
			seq  int64
			text string
		}{{1, "fix the build"}, {4, "deploy"}, {9, "other session's"}} {
			sess := "cc"
			if p.seq == 9 {
				sess = "cc2"
			}
			if err := tx.AddPrompt(ctx, sess, p.seq, p.seq*100, p.text); err != nil {
				return err
			}
		}
		for _, seq := range []int64{2, 3, 5} {
			if _, err := tx.AddCommand(ctx, Entry{Session: "cc", Seq: seq, Command: "make", StartedAt: seq * 100, Source: "agent"}); err != nil {
				return err
			}
		}
		if err := tx.AddIntent(ctx, "cc", 2, "first"); err != nil {
			return err
		}
		return tx.AddIntent(ctx, "cc", 2, "build it") // replaces
	})
	for seq, want := range map[int64]Why{2: {Intent: "build it", Prompt: "fix the build", PromptSeq: 1, PromptAt: 100},
		3: {Prompt: "fix the build", PromptSeq: 1, PromptAt: 100}, 5: {Prompt: "deploy", PromptSeq: 4, PromptAt: 400}} {
		if got, err := s.Why(ctx, "cc", seq); err != nil || got != want {
			t.Errorf("Why(cc, %d) = %+v, %v; want %+v", seq, got, err, want)
		}
	}
	if got, err := s.Why(ctx, "nope", 1); err != nil || got != (Why{}) {
		t.Errorf("Why of an unknown command = %+v, %v", got, err)
	}
	forget := func(seq int64) {
		t.Helper()
		en, err := s.BySeq(ctx, "cc", seq)
		if err != nil {
			t.Fatal(err)
		}
		if n, err := s.Forget(ctx, []int64{en.ID}); n != 1 || err != nil {
			t.Fatalf("Forget: %d, %v", n, err)
		}
	}
	count := func(table string) (n int) {
		s.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+table).Scan(&n)
		return n
	}
	forget(2)
	if count("intents") != 0 || count("prompts") != 3 {
		t.Errorf("after forgetting one command of two: %d intents, %d prompts; want 0 and 3", count("intents"), count("prompts"))
	}
	forget(3)
	if w, _ := s.Why(ctx, "cc", 5); count("prompts") != 2 || w.Prompt != "deploy" {
		t.Errorf("after forgetting the turn's last command: %d prompts (want 2), the next turn's %+v", count("prompts"), w)
	}
}
