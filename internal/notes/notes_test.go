package notes

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/history"
)

func TestAdd(t *testing.T) {
	ctx := context.Background()
	st, err := history.Open(ctx, filepath.Join(t.TempDir(), "history.db"), 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	tx, _ := st.Begin(ctx)
	tx.AddSession(ctx, history.Session{ID: "s1", Shell: "bash"})
	tx.AddCommand(ctx, history.Entry{Session: "s1", Seq: 1, Command: "make deploy", StartedAt: 1})
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	token := "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
	for _, c := range []struct {
		text, want string
		err        error
	}{
		{"  needs the VPN  ", "needs the VPN", nil},
		{"token " + token, "token [REDACTED]", nil},
		{" \n ", "", ErrEmpty},
		{strings.Repeat("é", MaxBytes), strings.Repeat("é", MaxBytes/2), nil},
	} {
		n, err := Add(ctx, st, nil, 1, c.text)
		if !errors.Is(err, c.err) || err == nil && n.Text != c.want {
			t.Errorf("Add(%.20q) = %.30q, %v; want %.30q, %v", c.text, n.Text, err, c.want, c.err)
		}
	}
	ns, err := List(ctx, st, 1)
	if err != nil || len(ns) != 3 {
		t.Errorf("List = %d notes, %v; want 3", len(ns), err)
	}
	if _, err := Add(ctx, st, nil, 2, "no such command"); !errors.Is(err, history.ErrNotFound) {
		t.Errorf("a note on no command: %v", err)
	}
}
