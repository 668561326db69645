package ui

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/search"
)

var cmds = []struct{ cmd, out string }{
	{"echo 日本語のコマンド", "全角の出力\n"},
	{"printf 'cafe\u0301 e\u0301te\u0301'", "café été — combining marks\n"},
	{"make build", strings.Repeat("a long output line ", 20) + "\nmatchword here\n"},
	{"false", "failed\n"},
}

func testModel(t *testing.T, width, height int) *model {
	t.Helper()
	return modelOf(t, width, height, cmds)
}

// modelOf is a search over cmds, run a minute apart, the last most
// recently, in /tmp.
func modelOf(t *testing.T, width, height int, cmds []struct{ cmd, out string }) *model {
	t.Helper()
	ctx := context.Background()
	s, err := history.Open(ctx, filepath.Join(t.TempDir(), "h.db"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	tx, _ := s.Begin(ctx)
	tx.AddSession(ctx, history.Session{ID: "s", Shell: "bash"})
	for i, c := range cmds {
		exit := 0
		if c.cmd == "false" {
			exit = 1
		}
		tx.AddCommand(ctx, history.Entry{Session: "s", Seq: int64(i + 1), Command: c.cmd, ExitCode: exit, Cwd: "/tmp", StartedAt: time.Now().Add(time.Duration(i-10) * time.Minute).UnixMicro()})
		tx.AddOutput(ctx, history.Output{Session: "s", Seq: int64(i + 1), Text: []byte(c.out), Bytes: int64(len(c.out))})
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	e := search.New(s, search.Here{Cwd: "/tmp"}, "")
	if err := e.Load(ctx); err != nil {
		t.Fatal(err)
	}
	m := newModel(ctx, Options{Engine: e, Store: s, Height: height})
	m.Update(tea.WindowSizeMsg{Width: width, Height: 50})
	m.Update(loadedMsg{})
	return m
}

func typeText(m *model, s string) {
	for _, r := range s {
		m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// TestViewFits: wide and combining characters, long lines: no line of the
// view is wider than the terminal, and the view has its height.
func TestViewFits(t *testing.T) {
	for _, w := range []int{40, 80, 120, 200} {
		m := testModel(t, w, 12)
		for sel := range len(m.res) {
			m.sel = sel
			m.loadDetail()
			lines := strings.Split(m.render(), "\n")
			if len(lines) != 12 {
				t.Errorf("width %d: %d lines; want 12", w, len(lines))
			}
			for _, l := range lines {
				if lw := ansi.StringWidth(l); lw > w {
					t.Errorf("width %d: a line of %d columns: %q", w, lw, ansi.Strip(l))
				}
			}
		}
	}
}

// TestResize: the preview moves beside the list on a wide terminal, below
// it on a narrow one.
func TestResize(t *testing.T) {
	m := testModel(t, 200, 12)
	row := func() int {
		for i, l := range strings.Split(ansi.Strip(m.render()), "\n") {
			if strings.Contains(l, "✓ 0") || strings.Contains(l, "✗ 1") {
				return i
			}
		}
		return -1
	}
	if r := row(); r != 1 {
		t.Errorf("200 columns: the preview's first line is line %d; want 1 (beside the list)", r)
	}
	m.Update(tea.WindowSizeMsg{Width: 40, Height: 50})
	if r := row(); r <= 1+m.listRows()-1 {
		t.Errorf("40 columns: the preview's first line is line %d; want below the %d rows of the list", r, m.listRows())
	}
}

func TestAltPicks(t *testing.T) {
	m := testModel(t, 120, 12)
	want := m.res[1].Command
	m.Update(tea.KeyPressMsg{Code: '2', Mod: tea.ModAlt})
	if !m.quitting || m.outcome.Action != Accept || m.outcome.Command != want {
		t.Errorf("Alt-2: %+v; want accept %q", m.outcome, want)
	}
}

func TestLineEditing(t *testing.T) {
	m := testModel(t, 120, 12)
	typeText(m, "abc")
	m.Update(tea.KeyPressMsg{Code: tea.KeyLeft})
	typeText(m, "X")
	if got := m.input.String(); got != "abXc" {
		t.Errorf("after abc, Left, X: %q; want abXc", got)
	}
	typeText(m, " word")
	m.Update(tea.KeyPressMsg{Code: 'w', Mod: tea.ModCtrl})
	if got := m.input.String(); got != "abX c" {
		t.Errorf("after Ctrl-W: %q; want %q", got, "abX c")
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyEnd})
	m.Update(tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl})
	if got := m.input.String(); got != "" {
		t.Errorf("after Ctrl-U at the end: %q; want empty", got)
	}
}

// TestEnterWaitsForOutputs: Enter typed before the output matches came
// chooses the first of them when they come.
func TestEnterWaitsForOutputs(t *testing.T) {
	m := testModel(t, 120, 12)
	typeText(m, "matchword")
	cmd := m.outputsCmd() // the search the last key started
	if len(m.res) != 0 || !m.pending {
		t.Fatalf("before the outputs: %d results, pending %v; want none, pending", len(m.res), m.pending)
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if m.quitting {
		t.Fatal("Enter with nothing to choose left the search")
	}
	m.Update(cmd())
	if !m.quitting || m.outcome.Action != Accept || m.outcome.Command != "make build" {
		t.Errorf("after the outputs came: %+v; want accept make build", m.outcome)
	}
}

// TestEnterWaitsForHistory: Enter typed after a query, before the history
// is read (the first ~20 ms after Ctrl-R) and after the outputs found
// nothing, is not lost: it chooses the first match once the history is
// read.
func TestEnterWaitsForHistory(t *testing.T) {
	m := testModel(t, 120, 12)
	m.loaded = false // as just after Ctrl-R
	typeText(m, "make")
	if cmd := m.outputsCmd(); cmd != nil {
		m.Update(cmd()) // no output holds "make"
	}
	if len(m.res) != 0 || m.pending {
		t.Fatalf("before the history is read: %d results, pending %v; want none, done", len(m.res), m.pending)
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if m.quitting {
		t.Fatal("Enter with nothing to choose left the search")
	}
	m.Update(loadedMsg{})
	if !m.quitting || m.outcome.Action != Accept || m.outcome.Command != "make build" {
		t.Errorf("after the history was read: %+v; want accept make build", m.outcome)
	}
}

// TestEscLeavesLine: Esc, Ctrl-C and Ctrl-G choose nothing.
func TestEscLeavesLine(t *testing.T) {
	for _, k := range []tea.KeyPressMsg{{Code: tea.KeyEscape}, {Code: 'c', Mod: tea.ModCtrl}, {Code: 'g', Mod: tea.ModCtrl}} {
		m := testModel(t, 120, 12)
		m.Update(k)
		if !m.quitting || m.outcome.Action != Cancel || m.outcome.Command != "" {
			t.Errorf("%s: %+v; want cancel", k, m.outcome)
		}
	}
}

// TestPreviewScrolls: PgDn and Shift-Down scroll the output, PgUp back.
func TestPreviewScrolls(t *testing.T) {
	m := testModel(t, 120, 8)
	long := strings.Repeat("x\n", 100)
	m.o.Output = func(context.Context, history.Entry) ([]byte, error) { return []byte(long), nil }
	m.detailID = 0
	m.loadDetail()
	m.Update(tea.KeyPressMsg{Code: tea.KeyPgDown})
	if m.scroll == 0 {
		t.Fatal("PgDn did not scroll the output")
	}
	s := m.scroll
	m.Update(tea.KeyPressMsg{Code: tea.KeyDown, Mod: tea.ModShift})
	if m.scroll != s+1 {
		t.Errorf("Shift-Down: scroll %d; want %d", m.scroll, s+1)
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyPgUp})
	m.Update(tea.KeyPressMsg{Code: tea.KeyPgUp})
	if m.scroll != 0 {
		t.Errorf("PgUp twice: scroll %d; want 0", m.scroll)
	}
	if !strings.Contains(ansi.Strip(m.render()), "[1-") {
		t.Error("the preview does not say which lines it shows")
	}
}

// TestSelectionFirstRowUntilMoved: while the user has only typed, the
// selection is the first row whenever the results change, also when the
// outputs' answer comes after the command lines' matches and puts another
// command first (issue 32); once the user moved it, it follows the command
// chosen.
func TestSelectionFirstRowUntilMoved(t *testing.T) {
	scattered := "find /var/log -name '*.gz' -amin -60 -ls | grep -v go"
	m := modelOf(t, 120, 12, []struct{ cmd, out string }{
		{"cat ~/notes.txt", "a flamingo, two herons\n"},
		{"echo flamenco", "flamenco\n"},
		{scattered, "x\n"},
	})
	typeText(m, "flamingo")
	cmd := m.outputsCmd()
	if r := m.selected(); r == nil || r.Command != scattered {
		t.Fatalf("before the outputs: selected %v; want the only command-line match", r)
	}
	m.Update(cmd())
	if m.sel != 0 || m.res[0].Command != "cat ~/notes.txt" {
		t.Fatalf("after the outputs: selected row %d of %q; want the first, cat", m.sel, commandsOf(m.res))
	}
	if !strings.Contains(ansi.Strip(m.render()), "a flamingo") {
		t.Errorf("the preview does not show the output that matched:\n%s", ansi.Strip(m.render()))
	}
	rows := strings.Split(ansi.Strip(m.render()), "\n")
	if !strings.Contains(rows[1], "cat ~/notes.txt") || !strings.Contains(rows[1], "⊳out") || !strings.Contains(rows[2], "⊳cmd ") {
		t.Errorf("the rows do not say why they matched (⊳out, ⊳cmd):\n%s\n%s", rows[1], rows[2])
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if m.outcome.Command != "cat ~/notes.txt" {
		t.Errorf("Enter chose %q; want the first row, cat", m.outcome.Command)
	}

	// Moved: the selection follows the command through a new answer.
	m = modelOf(t, 120, 12, []struct{ cmd, out string }{
		{"cat ~/notes.txt", "flamingo\n"},
		{"echo flamingo", ""},
		{"echo flamingo two", ""},
	})
	typeText(m, "flamingo")
	cmd = m.outputsCmd()
	m.Update(tea.KeyPressMsg{Code: tea.KeyDown})
	chosen := m.selected().Command
	m.Update(cmd())
	if r := m.selected(); r == nil || r.Command != chosen {
		t.Errorf("after moving to %q and the outputs' answer: selected %v", chosen, r)
	}
	// Typing again: the first row again.
	typeText(m, " ")
	typeText(m, "t")
	if m.sel != 0 {
		t.Errorf("after typing: selected row %d; want the first", m.sel)
	}
}

func commandsOf(res []search.Result) []string {
	var out []string
	for _, r := range res {
		out = append(out, r.Command)
	}
	return out
}

// TestPreviewUnknownStatus: an imported command (a history file keeps no
// status or duration) and an agent's record without a duration do not
// show "✓ 0" and "0µs" as if they had been measured (issue 32).
func TestPreviewUnknownStatus(t *testing.T) {
	ctx := context.Background()
	s, err := history.Open(ctx, filepath.Join(t.TempDir(), "h.db"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	tx, _ := s.Begin(ctx)
	tx.AddSession(ctx, history.Session{ID: "s", Shell: "bash"})
	at := time.Now().Add(-time.Hour).UnixMicro()
	tx.AddCommand(ctx, history.Entry{Session: "s", Seq: 1, Command: "make imported", Cwd: "/tmp", StartedAt: at, Source: "import"})
	tx.AddCommand(ctx, history.Entry{Session: "s", Seq: 2, Command: "make measured", Cwd: "/tmp", StartedAt: at + 1, DurationUS: 0})
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	e := search.New(s, search.Here{Cwd: "/tmp"}, "")
	if err := e.Load(ctx); err != nil {
		t.Fatal(err)
	}
	m := newModel(ctx, Options{Engine: e, Store: s, Height: 12})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 50})
	m.Update(loadedMsg{})
	typeText(m, "make imported")
	head := ansi.Strip(m.previewLines(80)[0])
	if strings.Contains(head, "✓") || strings.Contains(head, "0µs") || !strings.Contains(head, "status unknown") {
		t.Errorf("imported command's preview: %q; want status unknown and no duration", head)
	}
	m.Update(tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl})
	typeText(m, "make measured")
	if head := ansi.Strip(m.previewLines(80)[0]); !strings.Contains(head, "✓ 0") || !strings.HasSuffix(head, "  0s") {
		t.Errorf("a shell's command's preview: %q; want ✓ 0 and its duration", head)
	}
}

// TestPreviewWhy: an agent's command's preview says what the agent said it
// was for and what it was asked, sanitized; a command of the user's has
// neither line.
func TestPreviewWhy(t *testing.T) {
	m := testModel(t, 80, 12)
	ctx := context.Background()
	s := m.o.Store
	tx, _ := s.Begin(ctx)
	tx.AddSession(ctx, history.Session{ID: "cc", Shell: "agent", Author: "claude-code"})
	tx.AddPrompt(ctx, "cc", 1, time.Now().UnixMicro(), "fix the \x1b[31mbuild")
	tx.AddCommand(ctx, history.Entry{Session: "cc", Seq: 2, Command: "go build ./...", Cwd: "/tmp", StartedAt: time.Now().UnixMicro(), Source: "agent"})
	tx.AddIntent(ctx, "cc", 2, "Build the project")
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	en, err := s.BySeq(ctx, "cc", 2)
	if err != nil {
		t.Fatal(err)
	}
	m.res, m.sel, m.detailID = []search.Result{{Entry: en, Count: 1}}, 0, 0
	m.loadDetail()
	lines := m.previewLines(80)
	if len(lines) < 3 || ansi.Strip(lines[1]) != "why: Build the project" || !strings.HasPrefix(ansi.Strip(lines[2]), "asked: fix the ") ||
		strings.Contains(lines[2], "\x1b[31m") {
		t.Errorf("agent's preview: %q", lines)
	}
	m = testModel(t, 80, 12)
	m.loadDetail()
	for _, l := range m.previewLines(80) {
		if strings.HasPrefix(ansi.Strip(l), "why: ") || strings.HasPrefix(ansi.Strip(l), "asked: ") {
			t.Errorf("a user's command's preview has %q", l)
		}
	}
}
