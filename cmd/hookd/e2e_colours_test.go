package main

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// sgrOnly matches the SGR sequences hookd draws an output's colours with.
var sgrOnly = regexp.MustCompile(`\x1b\[[0-9;]*m`)

// TestCaptureColours: a real output captured through the PTY keeps its
// SGR colours apart from its text: hookd out --color and export's HTML
// page draw them, and every other reader (out through a pipe, show --json,
// export md, text and json, search) gets the plain text; other control
// sequences in the output (OSC titles and clipboard writes, screen
// clears, device queries, DCS) are stored nowhere and shown by none.
func TestCaptureColours(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		os.Mkdir(h.Path("zdir"), 0o700)
		os.WriteFile(h.Path("lint.txt"), []byte("error: the green light\nfine\n"), 0o600)
		s := startCaptured(t, h, shell, "")
		runPrompt(t, s, "ls --color=always -d zdir lint.txt")
		runPrompt(t, s, "grep --color=always error lint.txt")
		// (From a file, so that the command line names none of it.)
		os.WriteFile(h.Path("hostile.out"), []byte("\x1b]0;evil\a\x1b]52;c;aGk=\a\x1b[2J\x1b[5n\x1bP+q\x1b\\\x1b[31mred\x1b[0m\n"), 0o600)
		runPrompt(t, s, "cat hostile.out")
		want := []storedOut{
			{"ls --color=always -d zdir lint.txt", "lint.txt  zdir\n"},
			{"grep --color=always error lint.txt", "error: the green light\n"},
			{"cat hostile.out", "red\n"},
		}
		got := checkOutputs(t, h, want) // show --json: plain
		ls, grep, hostile := strconv.FormatInt(got[0].ID, 10), strconv.FormatInt(got[1].ID, 10), strconv.FormatInt(got[2].ID, 10)
		for i, id := range []string{ls, grep, hostile} {
			if out := hookd(t, h, "out", id); out != want[i].out {
				t.Errorf("hookd out %s through a pipe = %q; want the plain %q", id, out, want[i].out)
			}
		}
		if out := hookd(t, h, "out", "--color", ls); !strings.Contains(out, "\x1b[0;1;34mzdir\x1b[0m") || sgrOnly.ReplaceAllString(out, "") != want[0].out {
			t.Errorf("hookd out --color (ls) = %q; want zdir in bold blue, nothing else added", out)
		}
		if out := hookd(t, h, "out", "--color", grep); !strings.Contains(out, "\x1b[0;1;31merror\x1b[0m") {
			t.Errorf("hookd out --color (grep) = %q; want the match in bold red", out)
		}
		out := hookd(t, h, "out", "--color", hostile)
		if out != "\x1b[0;31mred\x1b[0m\n" {
			t.Errorf("hookd out --color (hostile) = %q; want its SGR colour alone", out)
		}
		for _, f := range []string{"md", "text", "json"} {
			if ex := hookd(t, h, "export", grep, "--format", f); strings.Contains(ex, "\x1b") || strings.Contains(ex, "\\u001b") || strings.Contains(ex, "[01;31m") {
				t.Errorf("export --format %s carries colour sequences:\n%s", f, ex)
			}
		}
		page := hookd(t, h, "export", grep, ls, hostile, "--format", "html")
		for _, w := range []string{`<span class="f1 bo">error</span>`, `<span class="f4 bo">zdir</span>`, `<span class="f1">red</span>`} {
			if !strings.Contains(page, w) {
				t.Errorf("export's HTML page lacks %s:\n%s", w, page)
			}
		}
		if strings.Contains(page, "evil") || strings.Contains(page, "aGk=") || strings.Contains(page, "\x1b") {
			t.Errorf("export's HTML page shows the hostile sequences:\n%s", page)
		}
		raw, _ := os.ReadFile(h.Path(".local", "share", "hookd", "history.db"))
		if strings.Contains(string(raw), "evil") || strings.Contains(string(raw), "aGk=") || strings.Contains(string(raw), "\x1b[") {
			t.Errorf("the history file holds an escape sequence or an OSC's text")
		}
		// Search matches the plain text.
		if res := hookd(t, h, "search", "--output-only", "--list", "green light"); !strings.Contains(res, "grep --color=always") {
			t.Errorf("search found no plain words of the coloured output:\n%s", res)
		}
		// On a terminal: the colours drawn again, the hostile sequences
		// not; with NO_COLOR, plain.
		m := s.Mark()
		runPrompt(t, s, "hookd out "+ls+"; hookd out "+hostile)
		if got := s.OutputSince(m); !strings.Contains(got, "\x1b[0;1;34mzdir\x1b[0m") || !strings.Contains(got, "\x1b[0;31mred\x1b[0m") ||
			strings.Contains(got, "evil") || strings.Contains(got, "\x1b[2J") {
			t.Errorf("hookd out on a terminal:\n%q", got)
		}
		m = s.Mark()
		runPrompt(t, s, "NO_COLOR=1 hookd out "+ls)
		if got := s.OutputSince(m); strings.Contains(got, "34mzdir") || !strings.Contains(got, "zdir") {
			t.Errorf("hookd out with NO_COLOR on a terminal:\n%q", got)
		}
		s.Exit()
	})
}
