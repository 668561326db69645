package suggest

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/analyze"
	"github.com/hookd/hookd/analyze/probe"
	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/fix/offer"
	"github.com/hookd/hookd/internal/recording/recall"
)

func TestNewAnalyzerWarnsAndKeepsGoodPatterns(t *testing.T) {
	f := filepath.Join(t.TempDir(), "patterns.yaml")
	os.WriteFile(f, []byte("- name: good\n  command: '^foo'\n  fixes: [{command: 'bar'}]\n- name: bad\n  command: '('\n"), 0o600)
	a, warns := NewAnalyzer(f)
	if len(warns) != 1 || !strings.Contains(warns[0].String(), ":4:") {
		t.Errorf("warnings = %v; want one, on line 4", warns)
	}
	res := a.Analyze(t.Context(), analyze.Input{Command: "foo", ExitCode: 1})
	if len(res.Fixes) == 0 || res.Fixes[0].Command != "bar" {
		t.Errorf("the good pattern was not kept: %+v", res)
	}
}

func TestInlineRun(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	s, err := history.Open(ctx, filepath.Join(dir, "history.db"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tx, _ := s.Begin(ctx)
	tx.AddSession(ctx, history.Session{ID: "s", Shell: "bash"})
	tx.AddCommand(ctx, history.Entry{Session: "s", Seq: 1, Command: "gti status", ExitCode: 127, StartedAt: 1})
	tx.AddCommand(ctx, history.Entry{Session: "s", Seq: 2, Command: "fix", ExitCode: 1, StartedAt: 2})
	tx.AddCommand(ctx, history.Entry{Session: "s", Seq: 3, Command: "true", ExitCode: 0, StartedAt: 3})
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	a, _ := NewAnalyzer("")
	e := &Engine{Analyzer: a, Facts: func(shell string) analyze.Facts {
		return probe.New(probe.Options{Shell: shell, Path: os.Getenv("PATH"), UID: os.Getuid()})
	}}
	rd := &recall.Reader{Store: s, Session: "s", Outbox: filepath.Join(dir, "outbox")}
	offers := filepath.Join(dir, "offers")
	res, ok, err := e.Run(ctx, rd, Inline{Seq: 1, FixCommand: "fix", Offers: offers})
	if err != nil || !ok || len(res.Fixes) == 0 || res.Fixes[0].Command != "git status" {
		t.Fatalf("Run(gti status) = %+v, %v, %v", res, ok, err)
	}
	if got, _ := offer.Read(offers, "s"); len(got) == 0 || got[0] != "git status" {
		t.Errorf("offer = %q; want git status first", got)
	}
	// The fix command itself keeps the offer; a success clears it.
	if _, ok, _ := e.Run(ctx, rd, Inline{Seq: 2, FixCommand: "fix", Offers: offers}); ok {
		t.Errorf("the fix command was analysed")
	}
	if got, _ := offer.Read(offers, "s"); len(got) == 0 {
		t.Errorf("the fix command cleared the offer it declined")
	}
	if _, ok, _ := e.Run(ctx, rd, Inline{Seq: 3, FixCommand: "fix", Offers: offers}); ok {
		t.Errorf("a success was analysed")
	}
	if got, _ := offer.Read(offers, "s"); got != nil {
		t.Errorf("a later command kept the earlier offer: %q", got)
	}

	// The last failure: not the success after it, not the fix call, not
	// an interrupted command, not another session's.
	tx, _ = s.Begin(ctx)
	tx.AddCommand(ctx, history.Entry{Session: "s", Seq: 4, Command: "sleep 9", ExitCode: 130, StartedAt: 4})
	tx.AddSession(ctx, history.Session{ID: "t", Shell: "bash"})
	tx.AddCommand(ctx, history.Entry{Session: "t", Seq: 1, Command: "false", ExitCode: 1, StartedAt: 5})
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if en, err := LastFailed(ctx, rd, "fix"); err != nil || en.Command != "gti status" {
		t.Errorf("LastFailed = %q, %v; want gti status", en.Command, err)
	}
	if _, err := LastFailed(ctx, &recall.Reader{Store: s, Session: "u"}, "fix"); !errors.Is(err, history.ErrNotFound) {
		t.Errorf("LastFailed in a session without failures: %v", err)
	}
}
