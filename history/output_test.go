package history_test

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/hookd/hookd/history"
)

func addOutputs(t *testing.T, s *history.Store, outs ...history.Output) {
	t.Helper()
	ctx := context.Background()
	tx, err := s.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	for _, o := range outs {
		if err := tx.AddOutput(ctx, o); err != nil {
			t.Fatalf("AddOutput: %v", err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

func TestOutputs(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	se := history.Session{ID: "s1", Shell: "zsh", Capture: "pty"}
	// The output may come before its command.
	addOutputs(t, s, history.Output{Session: "s1", Seq: 1, Text: []byte("hello\n"), Bytes: 6, CreatedAt: t0})
	add(t, s, []history.Session{se},
		history.Entry{Session: "s1", Seq: 1, Command: "echo hello", StartedAt: t0},
		history.Entry{Session: "s1", Seq: 2, Command: "true", StartedAt: t0 + 1})
	addOutputs(t, s,
		history.Output{Session: "s1", Seq: 2, Text: []byte{}, CreatedAt: t0 + 1},
		history.Output{Session: "s1", Seq: 1, Stream: "stderr", Text: []byte("e\x00\xff"), Bytes: 3, CreatedAt: t0})

	got, err := s.Output(ctx, "s1", 1, "")
	if err != nil || string(got.Text) != "hello\n" || got.Bytes != 6 {
		t.Errorf("Output(s1, 1) = %+v, %v", got, err)
	}
	got, err = s.Output(ctx, "s1", 1, "stderr")
	if err != nil || !bytes.Equal(got.Text, []byte("e\x00\xff")) {
		t.Errorf("binary stderr = %q, %v", got.Text, err)
	}
	got, err = s.Output(ctx, "s1", 2, "")
	if err != nil || got.Text == nil || len(got.Text) != 0 {
		t.Errorf("empty output = %#v, %v; want an empty, non-nil text", got.Text, err)
	}
	if _, err := s.Output(ctx, "s1", 3, ""); !errors.Is(err, history.ErrNotFound) {
		t.Errorf("missing output: %v; want ErrNotFound", err)
	}
	es, err := s.List(ctx, history.Query{})
	if err != nil || len(es) != 2 || es[1].OutputBytes != 6 || es[0].OutputBytes != 0 {
		t.Errorf("List OutputBytes: %+v, %v", es, err)
	}
	if sess, err := s.Session(ctx, "s1"); err != nil || sess.Capture != "pty" {
		t.Errorf("Session capture = %q, %v", sess.Capture, err)
	}
	// Stored again: replaced.
	addOutputs(t, s, history.Output{Session: "s1", Seq: 1, Text: []byte("again\n"), Bytes: 6, CreatedAt: t0})
	if got, _ := s.Output(ctx, "s1", 1, ""); string(got.Text) != "again\n" {
		t.Errorf("after replace: %q", got.Text)
	}
	// Forgetting the command forgets its outputs.
	if n, err := s.Forget(ctx, []int64{es[1].ID}); n != 1 || err != nil {
		t.Fatalf("Forget = %d, %v", n, err)
	}
	for _, stream := range []string{"", "stderr"} {
		if _, err := s.Output(ctx, "s1", 1, stream); !errors.Is(err, history.ErrNotFound) {
			t.Errorf("output %q after forget: %v", stream, err)
		}
	}
}

func TestPruneOutputs(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	text := bytes.Repeat([]byte("x"), 100)
	for i := int64(1); i <= 10; i++ {
		addOutputs(t, s, history.Output{Session: "s", Seq: i, Text: text, Bytes: 100, CreatedAt: t0 + i})
	}
	// Age: the three oldest.
	st, err := s.PruneOutputs(ctx, t0+4, 0)
	if err != nil || st.Outputs != 3 || st.Bytes != 300 {
		t.Fatalf("prune by age = %+v, %v; want 3 outputs, 300 bytes", st, err)
	}
	o, err := s.Output(ctx, "s", 2, "")
	if err != nil || o.Text != nil || o.Flags&history.OutputPruned == 0 || o.Bytes != 100 {
		t.Errorf("pruned output = %+v, %v; want no text, pruned flag, size kept", o, err)
	}
	// Size: 7 outputs of 100 bytes left; keep at most 450 → the 4 newest.
	st, err = s.PruneOutputs(ctx, 0, 450)
	if err != nil || st.Outputs != 3 {
		t.Fatalf("prune by size = %+v, %v; want 3 outputs", st, err)
	}
	for i := int64(1); i <= 10; i++ {
		o, _ := s.Output(ctx, "s", i, "")
		if kept := o.Text != nil; kept != (i > 6) {
			t.Errorf("output %d kept = %v; want %v", i, kept, i > 6)
		}
	}
	// Nothing more to do.
	if st, err := s.PruneOutputs(ctx, t0+4, 450); err != nil || st.Outputs != 0 {
		t.Errorf("second prune = %+v, %v", st, err)
	}
}

// TestOutputBytesNothingKept: an entry's OutputBytes is the size of the
// output kept, and 0 when nothing of it was: a full-screen program's text
// is only a note saying so, a pruned one has none.
func TestOutputBytesNothingKept(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	add(t, s, []history.Session{{ID: "s1", Shell: "bash", Capture: "pty"}},
		history.Entry{Session: "s1", Seq: 1, Command: "vim", StartedAt: t0},
		history.Entry{Session: "s1", Seq: 2, Command: "make", StartedAt: t0 + 1},
		history.Entry{Session: "s1", Seq: 3, Command: "cat big", StartedAt: t0 + 2})
	addOutputs(t, s,
		history.Output{Session: "s1", Seq: 1, Text: []byte("[full-screen program: output not kept]\n"), Bytes: 5000, Flags: history.OutputFullScreen, CreatedAt: t0},
		history.Output{Session: "s1", Seq: 2, Text: []byte("built\n"), Bytes: 6, CreatedAt: t0 + 1},
		history.Output{Session: "s1", Seq: 3, Bytes: 9000, Flags: history.OutputPruned, CreatedAt: t0 + 2})
	es, err := s.List(ctx, history.Query{})
	if err != nil || len(es) != 3 {
		t.Fatalf("List = %+v, %v", es, err)
	}
	for _, want := range []struct {
		cmd   string
		bytes int64
	}{{"cat big", 0}, {"make", 6}, {"vim", 0}} {
		e := es[0]
		es = es[1:]
		if e.Command != want.cmd || e.OutputBytes != want.bytes {
			t.Errorf("%s: OutputBytes %d; want %d", e.Command, e.OutputBytes, want.bytes)
		}
		if got, err := s.Get(ctx, e.ID); err != nil || got.OutputBytes != want.bytes {
			t.Errorf("Get(%s): OutputBytes %d, %v; want %d", e.Command, got.OutputBytes, err, want.bytes)
		}
	}
}
