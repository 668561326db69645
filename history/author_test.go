package history

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"testing"
)

// authorStore holds two shells of the user's (the newer one's last
// command older than the agent's), a `hookd run` session, an import, and
// two sessions of Claude Code.
func authorStore(t *testing.T) *Store {
	t.Helper()
	s := openTestStore(t, filepath.Join(t.TempDir(), "history.db"))
	mustTx(t, s, func(ctx context.Context, tx *Tx) error {
		for _, se := range []Session{
			{ID: "zsh-old", Shell: "zsh"}, {ID: "bash-new", Shell: "bash"}, {ID: "run-1", Shell: "run"},
			{ID: "imp", Shell: "zsh"}, {ID: "cc-a", Shell: "agent", Author: "claude-code"},
			{ID: "cc-b", Shell: "agent", Author: "claude-code"}, {ID: "other", Shell: "agent", Author: "aider"},
		} {
			if err := tx.AddSession(ctx, se); err != nil {
				return err
			}
		}
		for _, e := range []Entry{
			{Session: "zsh-old", Seq: 1, Command: "make", StartedAt: 10},
			{Session: "bash-new", Seq: 1, Command: "make test", StartedAt: 20, ExitCode: 2},
			{Session: "cc-a", Seq: 1, Command: "make lint", StartedAt: 25, Source: "agent"},
			{Session: "run-1", Seq: 1, Command: "make run", StartedAt: 30, Source: "run"},
			{Session: "imp", Seq: 1, Command: "make imported", StartedAt: 40, Source: "import"},
			{Session: "cc-b", Seq: 7, Command: "go test ./...", StartedAt: 50, Source: "agent", ExitCode: 1},
			{Session: "other", Seq: 1, Command: "make docs", StartedAt: 60, Source: "agent"},
		} {
			if _, err := tx.AddCommand(ctx, e); err != nil {
				return err
			}
		}
		return nil
	})
	return s
}

func TestAuthors(t *testing.T) {
	s := authorStore(t)
	ctx := t.Context()
	cmds := func(q Query) []string {
		t.Helper()
		es, err := s.List(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range es {
			out = append(out, e.Command)
		}
		return out
	}
	if got := cmds(Query{Text: "make"}); len(got) != 6 {
		t.Errorf("everyone's make = %q; want all six", got)
	}
	if got, want := cmds(Query{Text: "make", Authors: []string{""}}), []string{"make imported", "make run", "make test", "make"}; !slices.Equal(got, want) {
		t.Errorf("the user's own make = %q; want %q", got, want)
	}
	if got, want := cmds(Query{Authors: []string{"claude-code"}}), []string{"go test ./...", "make lint"}; !slices.Equal(got, want) {
		t.Errorf("claude-code's = %q; want %q", got, want)
	}
	if got := cmds(Query{Authors: []string{"claude-code", "aider"}, Failed: true}); !slices.Equal(got, []string{"go test ./..."}) {
		t.Errorf("agents' failures = %q", got)
	}
	if got := cmds(Query{Authors: []string{}}); got != nil {
		t.Errorf("no author at all = %q; want nothing", got)
	}
	e, err := s.Get(ctx, 6)
	if err != nil || e.Author != "claude-code" || e.JSON()["author"] != "claude-code" {
		t.Errorf("Get(6) = %+v, %v; want author claude-code, in its JSON too", e, err)
	}
	e, _ = s.Get(ctx, 1)
	if a, ok := e.JSON()["author"]; !ok || a != "" {
		t.Errorf("the user's command's JSON author = %v, %v; want \"\"", a, ok)
	}
	se, err := s.Session(ctx, "cc-a")
	if err != nil || se.Author != "claude-code" {
		t.Errorf("Session(cc-a) = %+v, %v", se, err)
	}
}

func TestLatestSession(t *testing.T) {
	s := authorStore(t)
	ctx := t.Context()
	for author, want := range map[string]string{"": "bash-new", "claude-code": "cc-b", "aider": "other"} {
		if got, err := s.LatestSession(ctx, author); err != nil || got != want {
			t.Errorf("LatestSession(%q) = %q, %v; want %q", author, got, err, want)
		}
	}
	if _, err := s.LatestSession(ctx, "codex"); !errors.Is(err, ErrNotFound) {
		t.Errorf("LatestSession(codex) = %v; want ErrNotFound", err)
	}
	empty := openTestStore(t, filepath.Join(t.TempDir(), "empty.db"))
	if _, err := empty.LatestSession(ctx, ""); !errors.Is(err, ErrNotFound) {
		t.Errorf("LatestSession of an empty history = %v; want ErrNotFound", err)
	}
}
