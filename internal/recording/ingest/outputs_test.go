package ingest_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/capture"
	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/recording/ingest"
	"github.com/hookd/hookd/internal/recording/outbox"
	"github.com/hookd/hookd/internal/recording/spool"
)

// TestPassOutputs: captured outputs are stored with their commands,
// rendered and redacted; an output whose command was not recorded is
// dropped, never stored; the outbox is emptied either way.
func TestPassOutputs(t *testing.T) {
	e := newEnv(t)
	out := filepath.Join(filepath.Dir(e.dir), "outputs")
	s := sessionID(livePID, 1)
	hdr := spool.AppendSession(nil, spool.Session{Shell: "zsh", Version: "5.9", PID: livePID, Host: hostname(), User: "u", UID: 1000, Start: base, Capture: "pty"})
	e.write(s, hdr)
	e.write(s, spool.AppendCommand(nil, command(1, "make")))
	e.write(s, spool.AppendCommand(nil, command(2, " secret-thing"))) // leading space: not recorded
	e.write(s, spool.AppendCommand(nil, command(3, "vim x")))
	e.write(s, spool.AppendCommand(nil, command(4, "env")))
	big := strings.Repeat("y", 2000)
	items := []outbox.Item{
		{Session: s, Seq: 1, Status: 2, Size: 43, Time: base + 1, Raw: []byte("\x1b[31mbuilding\x1b[0m 10%\rbuilt   100%\nerror: x\n")},
		{Session: s, Seq: 2, Size: 7, Raw: []byte("hidden\n")},
		{Session: s, Seq: 3, Size: 30, Raw: []byte("\x1b[?1049hscreen\x1b[?1049l")},
		{Session: s, Seq: 4, Size: 5000, Raw: []byte("TOKEN=ghp_" + strings.Repeat("a", 36) + "\n" + big)},
	}
	for _, it := range items {
		if _, err := outbox.Write(out, it); err != nil {
			t.Fatal(err)
		}
	}
	// A file that is not an item is reported and removed.
	os.WriteFile(filepath.Join(out, "junk.1.term.out"), []byte("junk"), 0o600)

	st, err := ingest.Pass(t.Context(), e.store, e.dir, out, e.rules, time.Unix(1_800_000_000, 0))
	if err != nil {
		t.Fatalf("Pass: %v", err)
	}
	if st.Added != 3 || st.Outputs != 3 || st.OutputsDropped != 1 || st.Bad != 1 {
		t.Errorf("stats = %+v; want 3 added, 3 outputs, 1 dropped, 1 bad", st)
	}
	ctx := t.Context()
	o, err := e.store.Output(ctx, s, 1, "")
	if err != nil || string(o.Text) != "built   100%\nerror: x\n" || o.Bytes != 43 || o.Flags != 0 {
		t.Errorf("output 1 = %q %+v, %v", o.Text, o, err)
	}
	if _, err := e.store.Output(ctx, s, 2, ""); !errors.Is(err, history.ErrNotFound) {
		t.Errorf("output of an unrecorded command: %v; want none", err)
	}
	if o, _ := e.store.Output(ctx, s, 3, ""); o.Flags&history.OutputFullScreen == 0 {
		t.Errorf("full-screen output flags = %v", o.Flags)
	}
	o, _ = e.store.Output(ctx, s, 4, "")
	if strings.Contains(string(o.Text), "ghp_") || o.Flags&history.OutputTruncated == 0 {
		t.Errorf("output 4 = %.60q flags %v; want the token redacted, truncated", o.Text, o.Flags)
	}
	if sess, _ := e.store.Session(ctx, s); sess.Capture != "pty" {
		t.Errorf("session capture = %q", sess.Capture)
	}
	if left, _ := outbox.Scan(out); len(left.Items) != 0 {
		t.Errorf("outbox not emptied: %v", left)
	}
	es := e.entries()
	if len(es) != 3 || es[0].OutputBytes != int64(len("built   100%\nerror: x\n")) {
		t.Errorf("entries = %+v", es)
	}
}

// TestPassOutputWaitsForBusySpool: when the spools cannot be read, the
// outputs wait (their commands may be in those spools).
func TestPassOutputsMissingDirs(t *testing.T) {
	e := newEnv(t)
	if _, err := ingest.Pass(t.Context(), e.store, e.dir, filepath.Join(t.TempDir(), "none"), e.rules, time.Now()); err != nil {
		t.Errorf("Pass with no outbox: %v", err)
	}
}

// TestPassStreams: outputs appended to a stream are stored exactly once, a
// partial item waits, read bytes are punched out, and the stream of an
// ended proxy is removed once read.
func TestPassStreams(t *testing.T) {
	e := newEnv(t)
	out := filepath.Join(filepath.Dir(e.dir), "outputs")
	s := sessionID(livePID, 1)
	e.write(s, header(livePID))
	e.write(s, records(1, 3, "cmd %d"))
	st, err := outbox.OpenStream(out)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	st.Append(outbox.Item{Session: s, Seq: 1, Size: 4, Raw: []byte("one\n")})
	st.Append(outbox.Item{Session: s, Seq: 2, Size: 4, Raw: []byte("two\n")})
	pass := func() ingest.Stats {
		t.Helper()
		stats, err := ingest.Pass(t.Context(), e.store, e.dir, out, e.rules, time.Unix(1_800_000_000, 0))
		if err != nil {
			t.Fatalf("Pass: %v", err)
		}
		return stats
	}
	if got := pass(); got.Outputs != 2 {
		t.Errorf("first pass stored %d outputs; want 2", got.Outputs)
	}
	if got := pass(); got.Outputs != 0 {
		t.Errorf("second pass stored %d outputs again", got.Outputs)
	}
	// A partial item waits for its end.
	l, _ := outbox.Scan(out)
	var path string
	for p := range l.Streams {
		path = p
	}
	item := []byte(`{"session":"` + s + `","seq":3,"status":0,"size":6,"time":0,"len":6}` + "\nthree\n")
	appendFile(t, path, item[:20])
	if got := pass(); got.Outputs != 0 || got.Bad != 0 {
		t.Errorf("partial item: %+v", got)
	}
	appendFile(t, path, item[20:])
	if got := pass(); got.Outputs != 1 {
		t.Errorf("completed item: stored %d", got.Outputs)
	}
	for seq, want := range map[int64]string{1: "one\n", 2: "two\n", 3: "three\n"} {
		if o, err := e.store.Output(t.Context(), s, seq, ""); err != nil || string(o.Text) != want {
			t.Errorf("output %d = %q, %v", seq, o.Text, err)
		}
	}
	// Read bytes are gone from the disk (hole punched), where supported.
	if raw, _ := os.ReadFile(path); strings.Contains(string(raw), "one\n") {
		t.Logf("the file system kept the read bytes (no hole punching)")
	}
	// A stream whose writer has ended is removed once read.
	dead := filepath.Join(out, fmt.Sprintf("1700000000000000-%d-00000000%s", deadPID(t), outbox.StreamSuffix))
	os.WriteFile(dead, append([]byte(`{"session":"`+s+`","seq":3,"size":1,"time":0,"len":1}`+"\n"), 'x'), 0o600)
	pass()
	if _, err := os.Stat(dead); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the ended proxy's stream is still there: %v", err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Errorf("the live proxy's stream was removed: %v", err)
	}
	if o, _ := e.store.Output(t.Context(), s, 3, ""); string(o.Text) != "x" {
		t.Errorf("the ended stream's output was not stored first: %q", o.Text)
	}
}

// TestPassOutputColours: an output's SGR colours are stored beside its
// plain text (stream capture.ColourStream), over the redacted text: a
// secret split by colour sequences is still redacted, and the colours hold
// no part of it; other control sequences are neither in the text nor the
// colours.
func TestPassOutputColours(t *testing.T) {
	e := newEnv(t)
	out := filepath.Join(filepath.Dir(e.dir), "outputs")
	s := sessionID(livePID, 1)
	hdr := spool.AppendSession(nil, spool.Session{Shell: "bash", Version: "5.2", PID: livePID, Host: hostname(), User: "u", UID: 1000, Start: base, Capture: "pty"})
	e.write(s, hdr)
	e.write(s, spool.AppendCommand(nil, command(1, "ls --color=always")))
	e.write(s, spool.AppendCommand(nil, command(2, "cat token")))
	e.write(s, spool.AppendCommand(nil, command(3, "echo plain")))
	token := "ghp_" + strings.Repeat("b", 36)
	items := []outbox.Item{
		{Session: s, Seq: 1, Size: 40, Time: base + 1, Raw: []byte("\x1b]0;title\x07\x1b[0m\x1b[01;34mdir\x1b[0m  file\x1b[5n\n")},
		{Session: s, Seq: 2, Size: 80, Time: base + 2, Raw: []byte("\x1b[32mok\x1b[0m " + token[:10] + "\x1b[1m" + token[10:] + "\x1b[0m \x1b[31mend\x1b[0m\n")},
		{Session: s, Seq: 3, Size: 6, Time: base + 3, Raw: []byte("plain\n")},
	}
	for _, it := range items {
		if _, err := outbox.Write(out, it); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := ingest.Pass(t.Context(), e.store, e.dir, out, e.rules, time.Unix(1_800_000_000, 0)); err != nil {
		t.Fatalf("Pass: %v", err)
	}
	ctx := t.Context()
	coloured := func(seq int64) (string, string) {
		t.Helper()
		o, err := e.store.Output(ctx, s, seq, "")
		if err != nil {
			t.Fatal(err)
		}
		c, err := e.store.Output(ctx, s, seq, capture.ColourStream)
		if err != nil {
			return string(o.Text), ""
		}
		if strings.Trim(string(c.Text), "0123456789; \n") != "" {
			t.Errorf("colours of %d hold more than runs: %q", seq, c.Text)
		}
		return string(o.Text), capture.Colours(c.Text).Apply(string(o.Text))
	}
	if text, col := coloured(1); text != "dir  file\n" || col != "\x1b[0;1;34mdir\x1b[0m  file\n" {
		t.Errorf("ls: text %q, coloured %q", text, col)
	}
	text, col := coloured(2)
	if strings.Contains(text, "bbbb") || strings.Contains(col, "bbbb") || !strings.Contains(text, "[REDACTED]") {
		t.Errorf("a secret split by SGR kept: text %q, coloured %q", text, col)
	}
	if !strings.Contains(col, "\x1b[0;32mok\x1b[0m") || !strings.HasSuffix(col, "\x1b[0;31mend\x1b[0m\n") {
		t.Errorf("colours around the redacted secret lost: %q", col)
	}
	if _, err := e.store.Output(ctx, s, 3, capture.ColourStream); !errors.Is(err, history.ErrNotFound) {
		t.Errorf("colours stored for a plain output: %v", err)
	}
}
