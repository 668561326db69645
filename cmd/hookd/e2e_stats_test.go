package main

import (
	"encoding/json"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/shelltest"
)

// TestStatsCLI: commands run through hookd run are counted by hookd stats:
// a table without a single escape sequence through a pipe (and under
// NO_COLOR), JSON Lines with DESIGN.md's fields, a calendar, a usage error
// for a grouping that does not exist.
func TestStatsCLI(t *testing.T) {
	h := newHome(t)
	proj := h.Path("proj")
	os.MkdirAll(proj, 0o755)
	for _, c := range []string{"exit 3", "true", "exit 3", "true", "true"} {
		hookdIn(h, proj, nil, "run", "--no-suggest", "--", "sh", "-c", c)
	}
	for _, env := range [][]string{nil, {"NO_COLOR=1"}} {
		out, errOut, err := hookdIn(h, proj, env, "stats", "--width", "100")
		if err != nil {
			t.Fatalf("hookd stats: %v\n%s", err, errOut)
		}
		if strings.Contains(out, "\x1b") {
			t.Errorf("escape sequence through a pipe:\n%q", out)
		}
		for _, want := range []string{"By command", "5 runs, 40.0% failed", "sh -c 'exit 3'", "sh -c true"} {
			if !strings.Contains(out, want) {
				t.Errorf("hookd stats lacks %q:\n%s", want, out)
			}
		}
	}
	out, errOut, err := hookdIn(h, proj, nil, "stats", "--json", "--sort", "failures")
	if err != nil {
		t.Fatalf("hookd stats --json: %v\n%s", err, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		t.Fatalf("--json: %d lines, want 2:\n%s", len(lines), out)
	}
	var row map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &row); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"key", "count", "failed", "failure_rate", "total_ms", "median_ms", "lost_ms", "flaky"} {
		if _, ok := row[k]; !ok {
			t.Errorf("--json row lacks %q: %s", k, lines[0])
		}
	}
	if row["key"] != "sh -c 'exit 3'" || row["count"] != 2.0 || row["failed"] != 2.0 || row["failure_rate"] != 1.0 {
		t.Errorf("--json first row = %s", lines[0])
	}
	out, _, err = hookdIn(h, proj, nil, "stats", "--calendar", "--json", "--since", "6d")
	if err != nil || len(strings.Split(strings.TrimSpace(out), "\n")) != 7 {
		t.Errorf("--calendar --json --since 6d: %v, want 7 days:\n%s", err, out)
	}
	if _, errOut, err := hookdIn(h, proj, nil, "stats", "--by", "colour"); err == nil || !strings.Contains(errOut, "unknown grouping") {
		t.Errorf("--by colour: %v %s, want a usage error", err, errOut)
	}
}

// TestExportCLI: hookd export writes commands (or a session) in each
// format, an output's HTML inert. (The output's colours: hookd run keeps
// its text only; internal/export's tests draw colours.)
func TestExportCLI(t *testing.T) {
	h := newHome(t)
	proj := h.Path("proj")
	os.MkdirAll(proj, 0o755)
	hookdIn(h, proj, nil, "run", "--no-suggest", "--", "sh", "-c", "true")
	hookdIn(h, proj, nil, "run", "--no-suggest", "--", "sh", "-c", `printf '<script>x</script>\033[31mred\033[0m\n'; exit 4`)
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"export", "2", "--format", "md"}, []string{"failed: exit 4", "```console\n$ sh -c", "<script>x</script>red\n```\n"}},
		// The page draws the colour the capture kept; the others are plain.
		{[]string{"export", "2", "--format", "html"}, []string{`&lt;script&gt;x&lt;/script&gt;<span class="f1">red</span>`}},
		{[]string{"export", "2", "--format", "json"}, []string{`"exit_code":4`, `"output":"<script>x</script>red\n"`}},
		{[]string{"export", "1", "2", "--format", "text"}, []string{"$ sh -c true\n", "[#2 · failed: exit 4"}},
		// hookd run makes a session of each run: #2's is #2 alone.
		{[]string{"export", "2", "--session", "--format", "text"}, []string{"$ sh -c 'printf", "[#2 · failed: exit 4"}},
	} {
		out, errOut, err := hookdIn(h, proj, nil, c.args...)
		if err != nil {
			t.Fatalf("hookd %v: %v\n%s", c.args, err, errOut)
		}
		if strings.Contains(out, "\x1b") {
			t.Errorf("hookd %v: an escape sequence reaches the reader:\n%q", c.args, out)
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("hookd %v lacks %q:\n%s", c.args, w, out)
			}
		}
	}
	if _, errOut, err := hookdIn(h, proj, nil, "export", "--format", "pdf"); err == nil || !strings.Contains(errOut, "unknown format") {
		t.Errorf("--format pdf: %v %s, want a usage error", err, errOut)
	}
}

// TestNotesCLI: hookd note attaches a redacted note that hookd show prints
// (and --json carries), hookd search finds by its words, hookd export
// writes, and hookd forget takes away with its command.
func TestNotesCLI(t *testing.T) {
	h := newHome(t)
	proj := h.Path("proj")
	os.MkdirAll(proj, 0o755)
	hookdIn(h, proj, nil, "run", "--no-suggest", "--", "sh", "-c", "exit 3")
	hookdIn(h, proj, nil, "run", "--no-suggest", "--", "sh", "-c", "true")
	secret := "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
	out, errOut, err := hookdIn(h, proj, nil, "note", "1", "fails", "without", "the", "VPN;", "token", secret)
	if err != nil || !strings.Contains(out, "noted on #1") {
		t.Fatalf("hookd note: %v %s%s", err, out, errOut)
	}
	if _, errOut, err := hookdIn(h, proj, nil, "note", "1"); err == nil || !strings.Contains(errOut, "want a REF and the note") {
		t.Errorf("hookd note without text: %v %s", err, errOut)
	}
	out, _, _ = hookdIn(h, proj, nil, "show", "1")
	if !strings.Contains(out, "note      fails without the VPN; token [REDACTED]") || strings.Contains(out, secret) {
		t.Errorf("hookd show: the note is not shown redacted:\n%s", out)
	}
	out, _, _ = hookdIn(h, proj, nil, "show", "1", "--json")
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	if ns, _ := m["notes"].([]any); len(ns) != 1 {
		t.Errorf("hookd show --json: notes = %v", m["notes"])
	}
	out, _, err = hookdIn(h, proj, nil, "search", "--list", "vpn")
	if err != nil || !strings.Contains(out, "sh -c 'exit 3'") || !strings.Contains(out, "note: fails without the VPN") {
		t.Errorf("hookd search vpn: %v\n%s", err, out)
	}
	out, _, _ = hookdIn(h, proj, nil, "search", "--json", "vpn")
	if !strings.Contains(out, `"matched":"note"`) {
		t.Errorf("hookd search --json vpn: %s", out)
	}
	out, _, _ = hookdIn(h, proj, nil, "export", "1", "--format", "md")
	if !strings.Contains(out, "> Note: fails without the VPN; token \\[REDACTED\\]") {
		t.Errorf("hookd export: no note:\n%s", out)
	}
	hookdIn(h, proj, nil, "forget", "1")
	if out, _, err := hookdIn(h, proj, nil, "search", "--list", "vpn"); err == nil || strings.Contains(out, "VPN") {
		t.Errorf("the note outlived its command: %v\n%s", err, out)
	}
}

// TestSearchFindsNote: Ctrl-R finds a command by a word of a note on it
// (hookd note), tags the row ⊳note, and Enter puts the command on the line.
func TestSearchFindsNote(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		h, s := searchShell(t, shell, 200, 50, "")
		s.Run("echo deploywidget")
		var id int64
		shelltest.Eventually(t, 20*time.Second, func() bool {
			es := entries(t, h)
			if len(es) > 0 && es[len(es)-1].Command == "echo deploywidget" {
				id = es[len(es)-1].ID
			}
			return id != 0
		}, func() string { return "echo deploywidget not recorded" })
		hookd(t, h, "note", strconv.FormatInt(id, 10), "needs", "quuxvpn", "up")
		s.Editing()
		openSearch(s)
		screen := typeQuery(s, "quuxvpn", regexp.QuoteMeta("echo deploywidget"))
		if !strings.Contains(searchUI(screen), "⊳note") {
			t.Errorf("the row does not say it matched a note:\n%s", searchUI(screen))
		}
		s.Type("\r")
		waitLine(t, s, "echo deploywidget")
	})
}
