package recall

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/recording/outbox"
	"github.com/hookd/hookd/internal/shelltest"
)

func TestParseRef(t *testing.T) {
	tests := []struct {
		in   string
		want Ref
		bad  bool
	}{
		{"", Ref{Back: 1}, false},
		{"-1", Ref{Back: 1}, false},
		{"-12", Ref{Back: 12}, false},
		{"42", Ref{ID: 42}, false},
		{"-0", Ref{}, true},
		{"0", Ref{}, true},
		{"-", Ref{}, true},
		{"-+1", Ref{}, true},
		{"+3", Ref{}, true},
		{"x", Ref{}, true},
		{"1.5", Ref{}, true},
	}
	for _, tt := range tests {
		got, err := ParseRef(tt.in)
		var re *RefError
		if tt.bad != errors.As(err, &re) || got != tt.want {
			t.Errorf("ParseRef(%q) = %+v, %v; want %+v (bad %v)", tt.in, got, err, tt.want, tt.bad)
		}
	}
}

// newReader returns a reader over a new history with one session of three
// commands, the second with a stored output.
func newReader(t *testing.T) (*Reader, []history.Entry) {
	t.Helper()
	ctx := t.Context()
	dir := t.TempDir()
	s, err := history.Open(ctx, filepath.Join(dir, "history.db"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	tx, err := s.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	tx.AddSession(ctx, history.Session{ID: "sess", Shell: "zsh", Capture: "pty"})
	for i, c := range []string{"make", "make test", "ls"} {
		if _, err := tx.AddCommand(ctx, history.Entry{Session: "sess", Seq: int64(i + 1), Command: c, StartedAt: int64(i + 1)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.AddOutput(ctx, history.Output{Session: "sess", Seq: 2, Text: []byte("FAIL x\n"), Bytes: 7, CreatedAt: 1}); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	rd := &Reader{Store: s, Session: "sess", Outbox: filepath.Join(dir, "outbox")}
	es, err := rd.Recent(ctx, 10)
	if err != nil || len(es) != 3 {
		t.Fatalf("Recent = %d entries, %v", len(es), err)
	}
	return rd, es
}

func TestEntryAndRecent(t *testing.T) {
	rd, es := newReader(t)
	ctx := t.Context()
	if es[0].Command != "make" || es[2].Command != "ls" {
		t.Errorf("Recent = %q…%q; want oldest first", es[0].Command, es[2].Command)
	}
	for ref, want := range map[string]string{"": "ls", "-1": "ls", "-3": "make", "2": "make test"} {
		en, err := rd.Entry(ctx, ref)
		if err != nil || en.Command != want {
			t.Errorf("Entry(%q) = %q, %v; want %q", ref, en.Command, err, want)
		}
	}
	if _, err := rd.Entry(ctx, "-4"); !errors.Is(err, history.ErrNotFound) {
		t.Errorf("Entry(-4) = %v; want ErrNotFound", err)
	}
	rd.Session = ""
	if _, err := rd.Entry(ctx, "-1"); !errors.Is(err, ErrNoSession) {
		t.Errorf("Entry(-1) outside a session = %v; want ErrNoSession", err)
	}
}

// TestLast: the last command is the session's most recent one, however
// it was named; another session's is not, nor one outside a session.
func TestLast(t *testing.T) {
	rd, es := newReader(t)
	ctx := t.Context()
	for i, want := range []bool{false, false, true} {
		if got := rd.Last(ctx, es[i]); got != want {
			t.Errorf("Last(%q) = %v; want %v", es[i].Command, got, want)
		}
	}
	other := *rd
	other.Session = "another"
	if other.Last(ctx, es[2]) {
		t.Errorf("Last of another session's last command = true; want false")
	}
	other.Session = ""
	if other.Last(ctx, es[2]) {
		t.Errorf("Last outside a session = true; want false")
	}
}

func TestOutput(t *testing.T) {
	rd, es := newReader(t)
	ctx := t.Context()
	o, err := rd.Output(ctx, es[1], "", 0)
	if err != nil || string(o.Text) != "FAIL x\n" {
		t.Errorf("Output(stored) = %q, %v", o.Text, err)
	}
	// Not stored, not in the outbox: why.
	_, err = rd.Output(ctx, es[0], "", 0)
	var no *NoOutput
	if !errors.As(err, &no) || !strings.Contains(no.Reason, "no output was captured") {
		t.Errorf("Output(none) = %v; want a NoOutput saying none was captured", err)
	}
	if _, err := rd.Output(ctx, es[1], "stderr", 0); !errors.As(err, &no) || !strings.Contains(no.Reason, "no separate stderr") {
		t.Errorf("Output(stderr) = %v; want no separate stderr", err)
	}
	// Still in the outbox, as the failure path finds it: rendered.
	go func() {
		outbox.Write(rd.Outbox, outbox.Item{Session: "sess", Seq: 3, Status: 1, Size: 12, Raw: []byte("50%\r100%\x1b[0m\n")})
	}()
	o, err = rd.Output(ctx, es[2], "", shelltest.Scale(30*time.Second))
	if err != nil || string(o.Text) != "100%\n" {
		t.Errorf("Output(outbox, waited) = %q, %v; want the rendered text", o.Text, err)
	}
	ctx2, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := rd.Output(ctx2, es[0], "", time.Second); !errors.Is(err, context.Canceled) {
		t.Errorf("Output with a canceled context = %v", err)
	}
}

// TestAgentRefs: -N counts in the user's session, never an agent's; with
// Author set it counts in that agent's most recent session; an agent's
// command without output says why.
func TestAgentRefs(t *testing.T) {
	rd, _ := newReader(t)
	ctx := t.Context()
	tx, err := rd.Store.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	tx.AddSession(ctx, history.Session{ID: "cc", Shell: "agent", Capture: "agent", Author: "claude-code"})
	for i, c := range []string{"go vet ./...", "go test ./..."} {
		tx.AddCommand(ctx, history.Entry{Session: "cc", Seq: int64(5 + i), Command: c, StartedAt: int64(10 + i), Source: "agent"})
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if en, err := rd.Entry(ctx, "-1"); err != nil || en.Command != "ls" {
		t.Errorf("-1 = %q, %v; want the user's ls", en.Command, err)
	}
	rd.Author = "claude-code"
	for ref, want := range map[string]string{"-1": "go test ./...", "-2": "go vet ./..."} {
		if en, err := rd.Entry(ctx, ref); err != nil || en.Command != want {
			t.Errorf("claude-code's %s = %q, %v; want %q", ref, en.Command, err, want)
		}
	}
	en, _ := rd.Entry(ctx, "-1")
	var no *NoOutput
	if _, err := rd.Output(ctx, en, "", 0); !errors.As(err, &no) || !strings.Contains(no.Reason, "agent gave no output") {
		t.Errorf("Output of an agent's command without one = %v", err)
	}
	rd.Author = "codex"
	if _, err := rd.Entry(ctx, "-1"); !errors.Is(err, history.ErrNotFound) {
		t.Errorf("-1 of an agent with no session = %v; want ErrNotFound", err)
	}
}
