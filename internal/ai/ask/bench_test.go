package ask

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/recording/recall"
)

// BenchmarkTemplateScreen expands a template holding $_SCREEN over a
// session of 50 commands, each with about 2 KB of captured output, and
// $_LLM_PREPEND with ten skills (three of which match): the whole of
// Prepare, database reads included. The target: ≤ 10 ms.
func BenchmarkTemplateScreen(b *testing.B) {
	ctx := b.Context()
	s, err := history.Open(ctx, filepath.Join(b.TempDir(), "history.db"), time.Second)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	tx, _ := s.Begin(ctx)
	tx.AddSession(ctx, history.Session{ID: "sess", Shell: "zsh", Capture: "pty"})
	for i := range 50 {
		tx.AddCommand(ctx, history.Entry{Session: "sess", Seq: int64(i + 1), Command: fmt.Sprintf("make test PKG=./pkg%d", i), ExitCode: i % 3,
			Cwd: "/src", StartedAt: time.Date(2026, 1, 1, 0, 0, i, 0, time.UTC).UnixMicro(), DurationUS: 1500})
		out := strings.Repeat(fmt.Sprintf("--- FAIL: TestThing%d (0.01s)\n    thing_test.go:42: got 1, want 2\n", i), 30)
		tx.AddOutput(ctx, history.Output{Session: "sess", Seq: int64(i + 1), Text: []byte(out), CreatedAt: 1})
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	src := Sources{Reader: &recall.Reader{Store: s, Session: "sess", Outbox: b.TempDir()}}
	var pairs []string
	for i := range 10 {
		pat := fmt.Sprintf("topic%d", i)
		if i < 3 {
			pat = fmt.Sprintf("fail|test|why|x%d", i)
		}
		pairs = append(pairs, pat, strings.Repeat(fmt.Sprintf("Instruction %d. ", i), 20))
	}
	in := Input{Question: "why do the tests fail?", Budget: 8000, Env: Env{Shell: "zsh", OS: "Linux", Cwd: "/src"},
		Template:  "$LLM_CONTEXT\n## Project\n$PROJECT\n## Screen\n$_SCREEN\n",
		Variables: map[string]string{"LLM_CONTEXT": "# Context\n$_LLM_PREPEND", "PROJECT": "hookd in $_CWD on $_OS"},
		Skills:    skillsB(pairs...)}
	b.ResetTimer()
	for b.Loop() {
		p, err := Prepare(ctx, src, in)
		if err != nil || len(p.Skills) != 3 || !strings.Contains(p.System, "TestThing49") {
			b.Fatalf("err %v, %d skills", err, len(p.Skills))
		}
	}
}
