package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/shelltest"
)

// The search tests run every shell with and without the capturing proxy
// (HOOKD_TEST_CAPTURE=pty, CI's second pass): without it, outputs come
// from hookd run.

const (
	ctrlR = "\x12"
	esc   = "\x1b"
	// plugh is a command whose output, and only its output, holds the
	// word plughzork.
	plugh     = `A=zork; echo "plugh${A}"`
	plughWord = "plughzork"
)

func capturing() bool { return os.Getenv("HOOKD_TEST_CAPTURE") == "pty" }

var searchPrompt = map[string]string{"bash": "PS1='P> '\n", "zsh": "PROMPT='P> '\n", "fish": fishSearchRC}

// searchShell starts shell with hookd loaded and a prompt "P> ".
func searchShell(t *testing.T, shell string, cols, rows int, rc string) (*shelltest.Home, *shelltest.Shell) {
	h := newHome(t)
	s := shelltest.Start(t, h, shell, shelltest.Options{RC: searchPrompt[shell] + rc + initLine(shell), Cols: cols, Rows: rows})
	return h, s
}

// recordOutput runs line so that its output is kept: at the prompt under
// the proxy, else through hookd run.
func recordOutput(t *testing.T, s *shelltest.Shell, line string) {
	t.Helper()
	if capturing() {
		s.RunAlone(line)
	} else {
		s.RunAlone("hookd run -c '" + strings.ReplaceAll(line, "'", `'\''`) + "'")
	}
}

type searchRec struct {
	rec
	Count      int    `json:"count"`
	Matched    string `json:"matched"`
	Line       string `json:"line"`
	LineNumber int    `json:"line_number"`
	Host       string `json:"host"`
	User       string `json:"user"`
	Source     string `json:"source"`
}

func searchJSON(t *testing.T, h *shelltest.Home, args ...string) []searchRec {
	t.Helper()
	out, errOut, err := hookdRun(h, nil, append([]string{"search", "--json"}, args...)...)
	if err != nil && out != "" {
		t.Fatalf("hookd search %q: %v\n%s", args, err, errOut)
	}
	var res []searchRec
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r searchRec
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("bad JSON line %q: %v", sc.Text(), err)
		}
		res = append(res, r)
	}
	return res
}

// waitSearchable waits until the output word is found by hookd search.
func waitSearchable(t *testing.T, h *shelltest.Home, word string) searchRec {
	t.Helper()
	var found searchRec
	shelltest.Eventually(t, 20*time.Second, func() bool {
		res := searchJSON(t, h, "--output-only", word)
		if len(res) > 0 {
			found = res[0]
		}
		return len(res) > 0
	}, func() string {
		return fmt.Sprintf("no output holding %q in the history: %q", word, commandsOf(entries(t, h)))
	})
	return found
}

func lastEntry(t *testing.T, h *shelltest.Home) rec {
	t.Helper()
	es := entries(t, h)
	if len(es) == 0 {
		t.Fatal("empty history")
	}
	return es[len(es)-1]
}

func outputOf(t *testing.T, h *shelltest.Home, id int64) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(hookd(t, h, "show", "--json", strconv.FormatInt(id, 10))), &m); err != nil {
		t.Fatal(err)
	}
	s, _ := m["output"].(string)
	return s
}

// waitLine waits until the search is gone and the command line, the last
// line on the screen, is P> line: the screen says so, and the search's
// process has ended (its last frame comes before it stops reading keys,
// and a key typed in between would be its).
func waitLine(t *testing.T, s *shelltest.Shell, line string) {
	t.Helper()
	s.WaitForScreen(regexp.MustCompile(`(?m)^P>`+regexp.QuoteMeta(strings.TrimRight(" "+line, " "))+`\s*\z`), 20*time.Second)
	shelltest.Eventually(t, 20*time.Second, func() bool {
		for _, pid := range shelltest.Descendants(s.PID()) {
			if b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline"); strings.Contains(string(b), "search\x00--widget") {
				return false
			}
		}
		return true
	}, func() string { return "hookd search --widget still runs" })
}

// searchUI returns the part of a screen that the search draws: from its
// query line down.
func searchUI(screen string) string {
	i := strings.LastIndex(screen, "\n› ")
	if i < 0 {
		return ""
	}
	return screen[i+1:]
}

// typeQuery types query into the open search and waits until the list
// shows its results: the query on the query line and a first row that
// matches row. (The list drawn before the query was read, the most recent
// commands, could hold a matching row too: keys typed then may come before
// the search has the history to answer them.)
func typeQuery(s *shelltest.Shell, query, row string) string {
	s.Type(query)
	return s.WaitForScreen(regexp.MustCompile(`(?s)› `+regexp.QuoteMeta(query)+`.*\n▌1.*`+row), 20*time.Second)
}

// openSearch types Ctrl-R and waits for the search's query line.
func openSearch(s *shelltest.Shell) {
	s.Type(ctrlR)
	s.WaitForScreen(regexp.MustCompile(`(?m)^› `), 20*time.Second)
}

// TestSearchFindsOutputAndRuns: Ctrl-R, a word that only an earlier
// command's output holds, Enter puts that command on the line exactly,
// Enter runs it, and it is recorded as typed (under the proxy, with its
// own output alone: the search's drawing is nobody's output).
func TestSearchFindsOutputAndRuns(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		h, s := searchShell(t, shell, 200, 50, "")
		recordOutput(t, s, plugh)
		first := waitSearchable(t, h, plughWord)
		if first.Command != plugh || first.Matched != "output" || first.Line != plughWord {
			t.Fatalf("search --output-only %s = %+v; want %q matched in its output", plughWord, first, plugh)
		}
		s.Editing()
		openSearch(s)
		typeQuery(s, plughWord, regexp.QuoteMeta(plugh))
		s.Type("\r")
		waitLine(t, s, plugh)
		s.RunAlone("")
		last := lastEntry(t, h)
		if last.Command != plugh || last.Shell != shell {
			t.Fatalf("recorded %q (%s); want %q, as typed, from %s", last.Command, last.Shell, plugh, shell)
		}
		if capturing() {
			for _, id := range []int64{first.ID, last.ID} {
				if out := outputOf(t, h, id); out != plughWord+"\n" {
					t.Errorf("output of #%d = %q; want %q alone", id, out, plughWord+"\n")
				}
			}
		}
	})
}

// TestSearchKeys: Tab puts the command on the line to edit, Esc leaves the
// line as it was, and the delete key forgets the command after y.
func TestSearchKeys(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		h, s := searchShell(t, shell, 200, 50, "")
		s.Run("echo tabword1")
		s.Run("echo deleteme2")
		s.Editing()
		// Tab: on the line, not run; what is typed next is added to it.
		openSearch(s)
		typeQuery(s, "tabword", `echo tabword1`)
		s.Type("\t")
		waitLine(t, s, "echo tabword1")
		s.Type(" more")
		s.RunAlone("")
		if got := lastEntry(t, h).Command; got != "echo tabword1 more" {
			t.Errorf("after Tab and an edit, recorded %q; want %q", got, "echo tabword1 more")
		}
		// Esc: the line as it was. (The search starts from the line:
		// Ctrl-U empties the query.)
		s.Editing()
		s.Type("echo keptline")
		before := s.Mark()
		openSearch(s)
		s.WaitForScreen(regexp.MustCompile(`(?m)^› echo keptline`), 20*time.Second)
		s.Type("\x15")
		typeQuery(s, "deleteme", `echo deleteme2`)
		s.Type(esc)
		waitLine(t, s, "echo keptline")
		// Bracketed paste is as the line editor left it: the search did
		// not turn it off (a pasted newline would then run the line).
		if raw := s.OutputSince(before); strings.Contains(raw, "\x1b[?2004l") {
			t.Errorf("the search turned bracketed paste off: %q", raw)
		}
		s.RunAlone("")
		if got := lastEntry(t, h).Command; got != "echo keptline" {
			t.Errorf("after Esc, recorded %q; want the line as it was, %q", got, "echo keptline")
		}
		// A line that starts with a dash is the query, not an option.
		s.Editing()
		s.Type("-x dash")
		openSearch(s)
		s.WaitForScreen(regexp.MustCompile(`(?m)^› -x dash`), 20*time.Second)
		s.Type(esc)
		waitLine(t, s, "-x dash")
		s.Type("\x15")
		s.Sync()
		// The delete key, then y: forgotten, as hookd forget does.
		s.Editing()
		openSearch(s)
		typeQuery(s, "deleteme", `echo deleteme2`)
		s.Type("\x04")
		s.WaitForScreen(regexp.MustCompile(`forget 1 run of this command for good\? y/n`), 20*time.Second)
		s.Type("y")
		s.WaitForScreen(regexp.MustCompile(`forgot 1 run\b`), 20*time.Second)
		s.Type(esc)
		waitLine(t, s, "")
		for _, c := range commandsOf(entries(t, h)) {
			if c == "echo deleteme2" {
				t.Errorf("echo deleteme2 is still in the history after the delete key and y")
			}
		}
	})
}

// TestSearchToggles: Ctrl-R again cycles the scope (session, then
// directory: the list changes), Ctrl-F shows the failed commands only.
func TestSearchToggles(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		h, s := searchShell(t, shell, 200, 50, "")
		os.MkdirAll(h.Path("a"), 0o755)
		os.MkdirAll(h.Path("b"), 0o755)
		// Another session's command, and this one's in two directories.
		hookd(t, h, "run", "-c", "echo othersession")
		s.Run("cd " + h.Path("a"))
		s.Run("echo in_a_dir")
		s.Run("cd " + h.Path("b"))
		s.Run("echo in_b_dir")
		s.Run("false failedcmd")
		s.Editing()
		openSearch(s)
		sc := s.WaitForScreen(regexp.MustCompile(`othersession`), 20*time.Second)
		if ui := searchUI(sc); !strings.Contains(ui, "everything") || !strings.Contains(ui, "in_a_dir") {
			t.Fatalf("the search starts with everything; screen:\n%s", sc)
		}
		s.Type(ctrlR)
		sc = s.WaitForScreen(regexp.MustCompile(`(?m)^› .* session +\d+$`), 20*time.Second)
		if ui := searchUI(sc); strings.Contains(ui, "othersession") || !strings.Contains(ui, "in_a_dir") {
			t.Errorf("scope session still shows another session's command, or not this one's; screen:\n%s", sc)
		}
		s.Type(ctrlR)
		sc = s.WaitForScreen(regexp.MustCompile(`(?m)^› .* directory +\d+$`), 20*time.Second)
		if ui := searchUI(sc); strings.Contains(ui, "in_a_dir") || !strings.Contains(ui, "in_b_dir") {
			t.Errorf("scope directory shows another directory's command, or not this one's; screen:\n%s", sc)
		}
		s.Type("\x06")
		sc = s.WaitForScreen(regexp.MustCompile(`(?m)^› .* failed +1$`), 20*time.Second)
		if ui := searchUI(sc); strings.Contains(ui, "in_b_dir") || !strings.Contains(ui, "false failedcmd") {
			t.Errorf("failed only shows a command that succeeded, or not the failed one; screen:\n%s", sc)
		}
		s.Type(esc)
		waitLine(t, s, "")
	})
}

// TestSearchJSONContract: hookd search --json prints JSON Lines with the
// fields of hookd history --json, plus count, matched and, for an output
// match, the line that matched; identical commands come once.
func TestSearchJSONContract(t *testing.T) {
	shelltest.Need(t, "bash")
	h := newHome(t)
	hookd(t, h, "run", "-c", "printf 'first line\\nsecond xyzzyq line\\n'")
	hookd(t, h, "run", "-c", "echo xyzzyq")
	hookd(t, h, "run", "-c", "echo xyzzyq")
	res := searchJSON(t, h, "xyzzyq")
	if len(res) != 2 {
		t.Fatalf("search xyzzyq: %d results; want 2 (the echo once, with a count): %+v", len(res), res)
	}
	byCmd := map[string]searchRec{}
	for _, r := range res {
		byCmd[r.Command] = r
	}
	echo, pf := byCmd["echo xyzzyq"], byCmd["printf 'first line\\nsecond xyzzyq line\\n'"]
	if echo.Count != 2 || echo.Matched != "both" || echo.Line != "xyzzyq" || echo.LineNumber != 1 {
		t.Errorf("echo: %+v; want count 2, matched both, line 1 xyzzyq", echo)
	}
	if pf.Count != 1 || pf.Matched != "both" || pf.Line != "second xyzzyq line" || pf.LineNumber != 2 {
		t.Errorf("printf: %+v; want matched both (its command holds the word too), line 2", pf)
	}
	out := hookd(t, h, "search", "--json", "--output-only", "second")
	var m map[string]any
	if err := json.Unmarshal([]byte(strings.SplitN(out, "\n", 2)[0]), &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"id", "session", "seq", "command", "exit_code", "pipestatus", "cwd", "started_at", "duration_ms", "shell", "host", "user", "tty", "output_bytes", "source", "count", "matched", "line", "line_number"} {
		if _, ok := m[k]; !ok {
			t.Errorf("search --json lacks %q: %v", k, m)
		}
	}
	if m["matched"] != "output" {
		t.Errorf("--output-only: matched = %v; want output", m["matched"])
	}
	if res := searchJSON(t, h, "--command-only", "second"); len(res) != 1 || res[0].Matched != "command" {
		t.Errorf("--command-only second: %+v; want the printf, matched in its command", res)
	}
	if _, _, err := hookdRun(h, nil, "search", "--command-only", "--output-only", "x"); err == nil {
		t.Error("--command-only with --output-only: no usage error")
	}
}

// TestSearchWidths: on a 200-column terminal the preview sits beside the
// list; on a 40-column one below it; neither wraps a line.
func TestSearchWidths(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		for _, cols := range []int{200, 40} {
			h, s := searchShell(t, shell, cols, 30, "")
			recordOutput(t, s, "echo widthword-"+strings.Repeat("x", 60))
			waitSearchable(t, h, "widthword")
			s.Editing()
			openSearch(s)
			s.Type("widthword")
			sc := s.WaitForScreen(regexp.MustCompile(`(?s)^.*\n› widthword.*✓ 0`), 20*time.Second)
			lines := strings.Split(sc, "\n")
			var query, list, preview int = -1, -1, -1
			for i, l := range lines {
				switch {
				case strings.HasPrefix(l, "› widthword"):
					query = i
				case strings.HasPrefix(l, "▌1") && list < 0:
					list = i
				}
				if strings.Contains(l, "✓ 0") && preview < 0 {
					preview = i
				}
			}
			if query < 0 || list != query+1 {
				t.Fatalf("%d columns: no query line with the list under it; screen:\n%s", cols, sc)
			}
			if cols == 200 && (preview != list || !strings.Contains(lines[list], "│")) {
				t.Errorf("200 columns: the preview is not beside the list; screen:\n%s", sc)
			}
			if cols == 40 && preview <= list {
				t.Errorf("40 columns: the preview is not below the list; screen:\n%s", sc)
			}
			if !strings.Contains(sc, "enter") {
				t.Errorf("%d columns: no hint line; screen:\n%s", cols, sc)
			}
			s.Type(esc)
			waitLine(t, s, "")
			if strings.Contains(s.Screen(), "› widthword") {
				t.Errorf("%d columns: the search is still on the screen after Esc:\n%s", cols, s.Screen())
			}
		}
	})
}

// TestSearchHostileOutput: an output holding escape sequences and
// bidirectional overrides is previewed harmlessly: shown escaped, never
// sent to the terminal raw.
func TestSearchHostileOutput(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		h, s := searchShell(t, shell, 200, 40, "")
		recordOutput(t, s, `printf 'hostileword \033]0;pwned\007 \033[2J \342\200\256evil\n'`)
		waitSearchable(t, h, "hostileword")
		s.Editing()
		from := s.Mark()
		openSearch(s)
		s.Type("hostileword")
		sc := s.WaitForScreen(regexp.MustCompile(`\\u202e`), 20*time.Second)
		if !strings.Contains(sc, "hostileword") {
			t.Errorf("the preview does not show the output; screen:\n%s", sc)
		}
		s.Type(esc)
		waitLine(t, s, "")
		raw := s.OutputSince(from)
		for _, bad := range []string{"\u202e", "\x1b]0;pwned", "\x1b[2J"} {
			if strings.Contains(raw, bad) {
				t.Errorf("the search sent %q to the terminal raw", bad)
			}
		}
	})
}

// TestSearchEnterPutsFirstRow: a word that only an output holds, typed key
// by key, the outputs' matches answering after the command lines'
// (letters of the word scattered across a long line that ran more often
// and more recently): the command whose output holds the word is the first
// row, it is the one selected, its row says it matched in its output, and
// Enter puts it on the line (issue 32).
func TestSearchEnterPutsFirstRow(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		h, s := searchShell(t, shell, 200, 40, "")
		if err := os.WriteFile(h.Path("notes.txt"), []byte("birds seen:\na flamingo, two herons\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		const cat = "cat ~/notes.txt"
		const scattered = "find /var/log -name '*.gz' -amin -60 -ls 2>/dev/null | grep -v go"
		recordOutput(t, s, cat)
		waitSearchable(t, h, "flamingo")
		for range 3 {
			s.Run(scattered)
		}
		s.Editing()
		openSearch(s)
		for i := range len("flamingo") {
			s.Type("flamingo"[i : i+1])
			s.WaitForScreen(regexp.MustCompile(`(?m)^› `+"flamingo"[:i+1]+`\b`), 20*time.Second)
		}
		// The first row is the cat, matched in its output (it comes
		// only with the outputs' answer); then Enter.
		screen := s.WaitForScreen(regexp.MustCompile(`\n[▌ ]1 +`+regexp.QuoteMeta(cat)+` .*⊳out`), 20*time.Second)
		if !regexp.MustCompile(`\n▌1 +` + regexp.QuoteMeta(cat)).MatchString(screen) {
			t.Errorf("the first row is not the one selected:\n%s", searchUI(screen))
		}
		s.Type("\r")
		waitLine(t, s, cat)
	})
}
