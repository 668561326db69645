package history_test

import (
	"context"
	"errors"
	"testing"

	"github.com/hookd/hookd/history"
)

// TestNotes: a note attaches to its command, is found by its words, and
// goes when its command is forgotten.
func TestNotes(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	add(t, s, []history.Session{{ID: "s1", Shell: "bash"}},
		history.Entry{Session: "s1", Seq: 1, Command: "make deploy", Cwd: "/p", StartedAt: t0},
		history.Entry{Session: "s1", Seq: 2, Command: "make test", Cwd: "/p", StartedAt: t0 + 1})
	if _, err := s.AddNote(ctx, 1, "needs the VPN up", t0+5); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddNote(ctx, 1, "and 100% disk free", t0+6); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddNote(ctx, 99, "nothing", t0); !errors.Is(err, history.ErrNotFound) {
		t.Errorf("a note on no command: %v, want ErrNotFound", err)
	}
	m, err := s.Notes(ctx, []int64{1, 2})
	if err != nil || len(m[1]) != 2 || m[1][0].Text != "needs the VPN up" || len(m[2]) != 0 {
		t.Fatalf("Notes = %+v, %v", m, err)
	}
	for _, c := range []struct {
		words []string
		want  int
	}{{[]string{"vpn"}, 1}, {[]string{"VPN", "needs"}, 1}, {[]string{"100%"}, 1}, {[]string{"0%"}, 1}, {[]string{"vpn", "nope"}, 0}, {[]string{"_"}, 0}} {
		ids, err := s.NotesMatching(ctx, c.words, 0)
		if err != nil || len(ids) != c.want || c.want == 1 && ids[0] != 1 {
			t.Errorf("NotesMatching(%q) = %v, %v; want %d", c.words, ids, err, c.want)
		}
	}
	if _, err := s.Forget(ctx, []int64{1}); err != nil {
		t.Fatal(err)
	}
	if ids, _ := s.NotesMatching(ctx, []string{"vpn"}, 0); len(ids) != 0 {
		t.Errorf("the note outlived its command: %v", ids)
	}
	db := rawDB(t, s.Path())
	var n int
	if err := db.QueryRow("SELECT COUNT(*) FROM notes").Scan(&n); err != nil || n != 0 {
		t.Errorf("%d notes left after forget (%v)", n, err)
	}
}
