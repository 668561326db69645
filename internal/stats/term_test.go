package stats

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/search"
	"github.com/hookd/hookd/internal/ui/style"
	"github.com/muesli/termenv"
	"github.com/rivo/uniseg"
)

var update = flag.Bool("update", false, "rewrite golden files")

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		os.MkdirAll("testdata", 0o755)
		os.WriteFile(path, []byte(got), 0o644)
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -run %s -update)", err, t.Name())
	}
	if got != string(want) {
		t.Errorf("%s differs (go test -run %s -update if intended):\n%s", path, t.Name(), got)
	}
}

// goldenHistory is a month of a small project's commands at noon each
// day: tests that fail more and more, a flaky lint, a build that works,
// a hostile command line, an agent's run.
func goldenHistory(t *testing.T) []run {
	var runs []run
	for d := 29; d >= 0; d-- {
		ago := time.Duration(d)*day + time.Duration(d%3)*time.Minute
		exit := 0
		if d < 10 && d%2 == 0 || d < 4 {
			exit = 1
		}
		runs = append(runs,
			run{cmd: "go test ./...", cwd: "/home/u/src/app", exit: exit, dur: time.Duration(40+d) * time.Second, ago: ago, branch: "main"},
			run{cmd: "go build ./cmd/app", cwd: "/home/u/src/app", dur: 3 * time.Second, ago: ago - time.Minute, branch: "main"})
		if d%5 == 0 {
			runs = append(runs, run{cmd: "golangci-lint run --timeout=5m ./internal/... ./cmd/...", cwd: "/home/u/src/app",
				exit: d % 2, dur: 95 * time.Second, ago: ago - 2*time.Minute, branch: "main"})
		}
		if d%7 == 0 {
			runs = append(runs, run{cmd: "printf '\x1b[31mred\x1b[0m \u202eevil'", cwd: "/tmp", dur: time.Millisecond, ago: ago - 3*time.Minute})
		}
	}
	runs = append(runs, run{cmd: "rm -rf /", cwd: "/", exit: 1, ago: time.Hour, author: "claude-code"})
	return runs
}

func TestRenderGolden(t *testing.T) {
	st := storeWith(t, goldenHistory(t))
	ctx := context.Background()
	for _, c := range []struct {
		name   string
		by     string
		width  int
		colour bool
	}{
		{"command-80", "command", 80, false},
		{"command-80-colour", "command", 80, true},
		{"command-200", "command", 200, false},
		{"command-200-colour", "command", 200, true},
		{"day-80", "day", 80, false},
		{"dir-200", "dir", 200, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			term := Terminal{Width: c.width, Home: "/home/u"}
			if c.colour {
				term.Palette = style.New(termenv.NewOutput(&buf, termenv.WithProfile(termenv.ANSI)))
			}
			rep, err := Run(ctx, st, Query{By: c.by, Rows: 6, Buckets: term.Buckets(),
				Filter: search.Filter{Since: now.Add(-30 * day).UnixMicro()}, Here: search.Here{Now: now}})
			if err != nil {
				t.Fatal(err)
			}
			if err := term.Render(&buf, rep); err != nil {
				t.Fatal(err)
			}
			out := buf.String()
			checkTerminalText(t, out, c.width, c.colour)
			golden(t, c.name+".golden", out)
		})
	}
	for _, w := range []int{80, 200} {
		var buf bytes.Buffer
		term := Terminal{Width: w}
		cal, err := CalendarOf(ctx, st, Query{Here: search.Here{Now: now}})
		if err != nil {
			t.Fatal(err)
		}
		if err := term.RenderCalendar(&buf, cal); err != nil {
			t.Fatal(err)
		}
		checkTerminalText(t, buf.String(), w, false)
		golden(t, map[int]string{80: "calendar-80.golden", 200: "calendar-200.golden"}[w], buf.String())
	}
}

var sgr = regexp.MustCompile("\x1b\\[[0-9;]*m")

// checkTerminalText: no line wider than the terminal, no control
// character but colours' SGR (and those only with colour).
func checkTerminalText(t *testing.T, out string, width int, colour bool) {
	t.Helper()
	if !colour && strings.Contains(out, "\x1b") {
		t.Errorf("escape sequence without colour:\n%q", out)
	}
	plain := sgr.ReplaceAllString(out, "")
	for _, l := range strings.Split(strings.TrimSuffix(plain, "\n"), "\n") {
		if w := uniseg.StringWidth(l); w > width {
			t.Errorf("line %d columns wide at %d: %q", w, width, l)
		}
		for _, r := range l {
			if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || r == '\u202e' {
				t.Errorf("control character %U in %q", r, l)
			}
		}
	}
	if colour && !sgr.MatchString(out) {
		t.Errorf("no colour with colour on:\n%s", out)
	}
}

func TestSparkline(t *testing.T) {
	for _, c := range []struct {
		vals []int64
		top  int64
		want string
	}{
		{[]int64{0, 1, 2, 3, 4, 5, 6, 7, 8}, 0, " ▁▂▃▄▅▆▇█"},
		{[]int64{1, 1}, 0, "██"},
		{[]int64{1, 0, 8}, 8, "▁ █"},
		{[]int64{0, 0}, 0, "  "},
		{[]int64{100, 1}, 0, "█▁"}, // a run is never drawn as none
	} {
		if got := Sparkline(c.vals, c.top); got != c.want {
			t.Errorf("Sparkline(%v, %d) = %q, want %q", c.vals, c.top, got, c.want)
		}
	}
}
