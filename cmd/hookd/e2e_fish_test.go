package main

import (
	"database/sql"
	"github.com/hookd/hookd/internal/required"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/ai/llm/llmtest"
	"github.com/hookd/hookd/internal/shelltest"
)

// fishLine is config.fish's line that loads hookd.
var fishLine = initLine("fish")

// startFish starts fish with hookd loaded from config.fish (rc before the
// line, if any).
func startFish(t *testing.T, h *shelltest.Home, rc string, env ...string) *shelltest.Shell {
	t.Helper()
	shelltest.Need(t, "fish")
	return shelltest.Start(t, h, "fish", shelltest.Options{RC: rc + fishLine, Env: env})
}

// TestFishRecords: fish's hooks record each command as typed (a
// multi-line one too), its status and pipestatus, its duration and the
// directory it started in, in one session; an empty line, a line with a
// leading space is not recorded.
func TestFishRecords(t *testing.T) {
	t.Parallel()
	h := newHome(t)
	sub := h.Path("sub dir")
	os.MkdirAll(sub, 0o755)
	s := startFish(t, h, "")
	lines := []string{
		"echo hello",
		"false",
		"false | true",
		`echo "double quoted" 'single quoted' it\'s`,
		"echo 日本語 ✓",
		"cd 'sub dir'",
		"pwd",
		"sleep 0.2",
	}
	for _, l := range lines {
		s.Run(l)
	}
	s.Type("\r") // an empty line: nothing recorded
	s.Sync()
	s.Run(" echo private")
	// A command of two lines, typed as such (the first line open).
	s.Type("begin\recho two\rend\r")
	s.Sync()
	s.Run("cd ..")
	es := entries(t, h)
	want := append(append([]string{}, lines...), "begin\necho two\nend", "cd ..")
	if got := commandsOf(es); !equal(got, want) {
		t.Fatalf("recorded %q; want %q", got, want)
	}
	byCmd := map[string]rec{}
	for _, e := range es {
		byCmd[e.Command] = e
	}
	if e := byCmd["false"]; e.ExitCode != 1 || !equal(intsToStrings(e.Pipestatus), []string{"1"}) {
		t.Errorf("false: exit %d pipestatus %v; want 1 [1]", e.ExitCode, e.Pipestatus)
	}
	if e := byCmd["false | true"]; !equal(intsToStrings(e.Pipestatus), []string{"1", "0"}) || e.ExitCode != 0 {
		t.Errorf("pipeline: exit %d pipestatus %v; want 0 [1 0]", e.ExitCode, e.Pipestatus)
	}
	if e := byCmd["cd 'sub dir'"]; e.Cwd != h.Dir {
		t.Errorf("cd: cwd %q; want the directory it started in, %q", e.Cwd, h.Dir)
	}
	if e := byCmd["pwd"]; e.Cwd != sub {
		t.Errorf("pwd: cwd %q; want %q", e.Cwd, sub)
	}
	if e := byCmd["sleep 0.2"]; e.DurationMS < 200 || e.DurationMS > 5000 {
		t.Errorf("sleep 0.2: duration %.1f ms", e.DurationMS)
	}
	e := byCmd["echo hello"]
	if e.DurationMS > 1000 || e.Shell != "fish" || e.Session == "" {
		t.Errorf("echo hello: %+v", e)
	}
	// The start times are the wall clock's, within the test's time.
	if st, err := time.Parse(time.RFC3339Nano, e.StartedAt); err != nil || time.Since(st) > time.Minute || time.Until(st) > 5*time.Second {
		t.Errorf("echo hello started at %q (%v); want about now", e.StartedAt, err)
	}
	for i := 1; i < len(es); i++ {
		if es[i].Seq <= es[i-1].Seq || es[i].Session != es[0].Session {
			t.Errorf("entry %d: session %s seq %d after %s seq %d", i, es[i].Session, es[i].Seq, es[i-1].Session, es[i-1].Seq)
		}
	}
	// The session's header names the user's uid (fish has no $UID: hookd
	// init fills it in).
	conn, err := sql.Open("sqlite3", h.Path(".local", "share", "hookd", "history.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var uid int
	if err := conn.QueryRow(`SELECT uid FROM sessions WHERE id = ?`, e.Session).Scan(&uid); err != nil || uid != os.Getuid() {
		t.Errorf("the session's uid: %d (%v); want %d", uid, err, os.Getuid())
	}
}

// TestFishStatusKept: the prompt and the next command see the command's
// own $status and $pipestatus, after hookd's handlers (a failure's too,
// which starts hookd suggest).
func TestFishStatusKept(t *testing.T) {
	t.Parallel()
	h := newHome(t)
	s := startFish(t, h, "function fish_prompt; printf 'st=%s ps=%s> ' $status \"$pipestatus\"; end\n")
	m := s.Mark()
	s.Run("true | false")
	s.WaitPlainSince(m, regexp.MustCompile(`st=1 ps=0 1> `), 20*time.Second)
	m = s.Mark()
	s.Run("sh -c 'exit 3'")
	s.WaitPlainSince(m, regexp.MustCompile(`st=3 ps=3> `), 20*time.Second)
	m = s.Mark()
	s.Run("false | true; echo got=$status/\"$pipestatus\"")
	s.WaitPlainSince(m, regexp.MustCompile(`got=0/1 0`), 20*time.Second)
	if got := commandsOf(entries(t, h)); len(got) != 3 || !strings.HasPrefix(got[1], "sh -c") {
		t.Errorf("recorded %q", got)
	}
}

// TestFishCapture: under the capturing proxy, fish's commands keep their
// output exactly, and hookd out prints it (the last command of this
// session, hookd out itself not counted).
func TestFishCapture(t *testing.T) {
	t.Parallel()
	shelltest.Need(t, "fish")
	h := newHome(t)
	s := startCaptured(t, h, "fish", "")
	runPrompt(t, s, "echo hello; echo to-stderr >&2")
	runPrompt(t, s, "printf 'line1\\nline2\\n\\nline4\\n'")
	runPrompt(t, s, "true")
	runPrompt(t, s, " echo hidden-output")
	runPrompt(t, s, "sh -c 'printf partial; exit 3'")
	got := checkOutputs(t, h, []storedOut{
		{"echo hello; echo to-stderr >&2", "hello\nto-stderr\n"},
		{"printf 'line1\\nline2\\n\\nline4\\n'", "line1\nline2\n\nline4\n"},
		{"true", ""},
		{"sh -c 'printf partial; exit 3'", "partial"},
	})
	if got[3].ExitCode != 3 {
		t.Errorf("exit %d; want 3", got[3].ExitCode)
	}
	s.Run("hookd out | tr a-z A-Z")
	s.WaitForPlain(regexp.MustCompile(`\nPARTIAL`), 10*time.Second)
	if regexp.MustCompile(`6973;hookd;[0-9a-f]{32}`).MatchString(s.Output()) {
		t.Errorf("a private mark reached the terminal")
	}
}

// TestFishFix: a failure prints its fix before the next prompt; `fix`
// runs it only with consent and it is recorded as itself; Ctrl-X f puts
// it on the command line.
func TestFishFix(t *testing.T) {
	t.Parallel()
	h := newHome(t)
	s := startFish(t, h, "function fish_prompt; printf '[st=%s] $ ' $status; end\n")
	s.Type("ech fixed-it\r")
	s.WaitForPlain(regexp.MustCompile(`(?s)↳ echo fixed-it\s+fix\n.*\[st=127\] \$ `), 20*time.Second)
	s.Sync()
	s.Type("fix\r")
	s.WaitForPlain(regexp.MustCompile(`run it \(low risk\)\? \[y/N, then Enter\] $`), 10*time.Second)
	s.Type("n\r")
	s.Sync()
	if strings.Contains(s.Plain(), "\nfixed-it\n") {
		t.Fatalf("fix ran without consent")
	}
	m := s.Mark()
	s.Type("fix\r")
	s.WaitPlainSince(m, regexp.MustCompile(`run it \(low risk\)\? \[y/N, then Enter\] $`), 10*time.Second)
	s.Type("y\r")
	s.WaitPlainSince(m, regexp.MustCompile(`[\n⏎] ?fixed-it\n`), 10*time.Second)
	s.Sync()
	got := commandsOf(entries(t, h))
	if got[len(got)-1] != "echo fixed-it" {
		t.Errorf("history ends with %q; want the fix itself", got[len(got)-1])
	}
	// The fix key.
	s.Run("ech key-works")
	s.Editing()
	s.TypeWait("\x18f", regexp.MustCompile(`echo key-works`), 10*time.Second)
	s.Type("\r")
	s.WaitForPlain(regexp.MustCompile(`\nkey-works\n`), 10*time.Second)
	s.Sync()
	got = commandsOf(entries(t, h))
	if got[len(got)-1] != "echo key-works" {
		t.Errorf("history ends with %q; want the fix put there by the key", got[len(got)-1])
	}
}

// TestFishAsk: `?? QUESTION` at fish's prompt goes to the LLM (the fake)
// with !!ctx's command; the line is rewritten to hookd ask, so that `??`
// never goes into fish's history as a command; nothing in it is run.
func TestFishAsk(t *testing.T) {
	t.Parallel()
	shelltest.Need(t, "fish")
	fake := llmtest.NewOpenAI(t)
	fake.SetKey("test-key")
	fake.SetReply(llmtest.Reply{Text: []string{"It ", "failed."}})
	h := newHome(t)
	s := startFish(t, h, "", llmEnv(fake)...)
	s.Run("echo oops-broken; false")
	s.Run("?? why does this fail !!ctx")
	s.WaitForPlain(regexp.MustCompile(`It failed\.`), 20*time.Second)
	if user := userMessage(t, fake); !strings.Contains(user, "why does this fail (command #") || !strings.Contains(user, "echo oops-broken; false") {
		t.Errorf("the question did not bring the last command:\n%s", user)
	}
	s.Run("?? what does (touch canary) it's \\ do")
	s.WaitForPlain(regexp.MustCompile(`(?s)canary.*It failed\..*It failed\.`), 20*time.Second)
	if _, err := os.Stat(h.Path("canary")); err == nil {
		t.Errorf("a question ran a command substitution")
	}
	if user := userMessage(t, fake); !strings.HasPrefix(user, `what does (touch canary) it's \ do`) {
		t.Errorf("the question did not arrive verbatim: %q", user)
	}
	es := entries(t, h)
	if last := es[len(es)-1].Command; last != `hookd ask -- 'what does (touch canary) it\'s \\ do'` {
		t.Errorf("history holds %q; want the hookd ask line", last)
	}
	// A pasted question is rewritten too (the paste arms Enter).
	s.Editing()
	s.Type("\x1b[200~?? pasted question\x1b[201~")
	s.Type("\r")
	s.WaitForPlain(regexp.MustCompile(`(?s)ask -- 'pasted question'.*It failed\.`), 20*time.Second)
	s.Sync()
	if user := userMessage(t, fake); !strings.HasPrefix(user, "pasted question") {
		t.Errorf("the pasted question did not arrive: %q", user)
	}
	// An ordinary line leaves Enter as fish's own: hookd's Enter runs
	// only once a line starts to look like a question.
	m := s.Mark()
	s.Run("bind \\r")
	s.WaitPlainSince(m, regexp.MustCompile(`bind (--preset )?\\r execute`), 20*time.Second)
	s.Run("echo to-pin")
	s.Run("!!ctx")
	s.WaitForPlain(regexp.MustCompile("next question gets `echo to-pin`"), 20*time.Second)
	s.Type("exit\r")
	s.Wait(20 * time.Second)
	hist, _ := os.ReadFile(h.Path(".local", "share", "fish", "fish_history"))
	if strings.Contains(string(hist), "cmd: ??") || !strings.Contains(string(hist), "cmd: hookd ask") {
		t.Errorf("fish's history:\n%s", hist)
	}
}

// TestFishImport: hookd import fish reads the history file a real fish
// wrote (without hookd loaded): each command as typed, a multi-line one
// and one with backslashes and file paths too, with fish's times.
func TestFishImport(t *testing.T) {
	t.Parallel()
	shelltest.Need(t, "fish")
	h := newHome(t)
	os.WriteFile(h.Path("a file.txt"), []byte("x\n"), 0o600)
	s := shelltest.Start(t, h, "fish", shelltest.Options{RC: "function fish_prompt; printf '$ '; end\n"})
	before := time.Now().Add(-time.Second)
	lines := []string{"echo hello", `echo 'back\slash' "it's"`, "cat 'a file.txt'"}
	for _, l := range lines {
		s.Run(l)
	}
	s.Type("begin\recho two\rend\r")
	s.Sync()
	s.Type("exit\r")
	s.Wait(20 * time.Second)
	file, _ := os.ReadFile(h.Path(".local", "share", "fish", "fish_history"))
	if !strings.Contains(string(file), "  paths:\n") || !strings.Contains(string(file), `\n`) {
		t.Fatalf("fish's history file has no paths or no multi-line entry:\n%s", file)
	}
	out := hookd(t, h, "import", "fish")
	if !strings.Contains(out, "imported 5 commands from "+h.Path(".local", "share", "fish", "fish_history")) {
		t.Errorf("hookd import fish: %q", out)
	}
	es := entries(t, h)
	want := append(append([]string{}, lines...), "begin\necho two\nend", "exit")
	if got := commandsOf(es); !equal(got, want) {
		t.Fatalf("imported %q; want %q", got, want)
	}
	for _, e := range es {
		st, err := time.Parse(time.RFC3339Nano, e.StartedAt)
		if err != nil || st.Before(before.Truncate(time.Second)) || time.Since(st) > time.Minute {
			t.Errorf("%q: started at %q; want fish's time of it", e.Command, e.StartedAt)
		}
	}
	// Again: nothing twice.
	if out := hookd(t, h, "import", "fish"); !strings.Contains(out, "imported 0 commands") {
		t.Errorf("second import: %q", out)
	}
}

// fishSearchRC is config.fish for the search tests: a prompt "P> ", and
// no autosuggestion drawn after the line (the tests read the screen).
const fishSearchRC = "function fish_prompt; printf 'P> '; end\nset -g fish_autosuggestion_enabled 0\n"

// TestFishSearch: Ctrl-R in fish is hookd's search: a word that only an
// earlier command's output holds finds it, Enter puts it on the line
// exactly and Enter runs it, recorded as typed; Esc leaves the line as it
// was.
func TestFishSearch(t *testing.T) {
	t.Parallel()
	shelltest.Need(t, "fish")
	h := newHome(t)
	s := shelltest.Start(t, h, "fish", shelltest.Options{RC: fishSearchRC + fishLine, Cols: 200, Rows: 50})
	const plughFish = `set A zork; echo "plugh$A"`
	if capturing() {
		s.RunAlone(plughFish)
	} else {
		s.RunAlone(`hookd run -c 'set A zork; echo "plugh$A"'`) // (in $SHELL, fish)
	}
	first := waitSearchable(t, h, plughWord)
	s.Editing()
	openSearch(s)
	typeQuery(s, plughWord, regexp.QuoteMeta(first.Command))
	s.Type("\r")
	waitLine(t, s, first.Command)
	s.RunAlone("")
	if last := lastEntry(t, h); last.Command != first.Command || last.Shell != "fish" {
		t.Fatalf("recorded %q (%s); want %q, as typed, from fish", last.Command, last.Shell, first.Command)
	}
	// Esc: the line as it was.
	s.Editing()
	s.Type("echo keptline")
	openSearch(s)
	s.WaitForScreen(regexp.MustCompile(`(?m)^› echo keptline`), 20*time.Second)
	s.Type(esc)
	waitLine(t, s, "echo keptline")
	s.RunAlone("")
	if got := lastEntry(t, h).Command; got != "echo keptline" {
		t.Errorf("after Esc, recorded %q; want the line as it was", got)
	}
}

// TestFishSearchKeepsFzf: where fzf's fish bindings hold Ctrl-R, hookd
// leaves them (its search is then on no key), unless search.replace.
func TestFishSearchKeepsFzf(t *testing.T) {
	t.Parallel()
	shelltest.Need(t, "fish")
	if _, err := os.Stat("/usr/share/fish/vendor_functions.d/fzf_key_bindings.fish"); err != nil {
		required.Skip(t, "fzf's fish bindings are not installed", "REQUIRE_SHELLS")
	}
	for _, replace := range []bool{false, true} {
		h := newHome(t)
		if replace {
			os.MkdirAll(h.Path(".config", "hookd"), 0o700)
			os.WriteFile(h.Path(".config", "hookd", "config.yaml"), []byte("search:\n  replace: true\n"), 0o600)
		}
		s := shelltest.Start(t, h, "fish", shelltest.Options{RC: fishSearchRC + "fzf_key_bindings\n" + fishLine})
		m := s.Mark()
		s.Run("bind \\cr")
		want := "fzf-history-widget"
		if replace {
			want = "_hookd_search"
		}
		s.WaitPlainSince(m, regexp.MustCompile(`bind \\cr `+want), 20*time.Second)
	}
}

// TestFishPlugins: fzf's fish bindings, zoxide and direnv loaded before
// hookd's line (as docs/shell-plugins.md says) keep working, and hookd
// records every command with its own status.
func TestFishPlugins(t *testing.T) {
	t.Parallel()
	shelltest.Need(t, "fish")
	need(t, "zoxide", "direnv")
	needFile(t, "/usr/share/fish/vendor_functions.d/fzf_key_bindings.fish", "fzf")
	h := newHome(t)
	proj := h.Path("proj")
	os.MkdirAll(proj, 0o755)
	os.WriteFile(h.Path("proj", ".envrc"), []byte("export FROM_DIRENV=yes\n"), 0o600)
	rc := "function fish_prompt; printf '$ '; end\nfzf_key_bindings\nzoxide init fish | source\ndirenv hook fish | source\n"
	s := startFish(t, h, rc)
	s.Run("direnv allow proj")
	s.Run("cd proj")
	m := s.Mark()
	s.Run("echo from=$FROM_DIRENV")
	s.WaitPlainSince(m, regexp.MustCompile(`\nfrom=yes\n`), 20*time.Second)
	s.Run("cd ..")
	m = s.Mark()
	s.Run("z proj; and pwd")
	s.WaitPlainSince(m, regexp.MustCompile(`\n`+regexp.QuoteMeta(proj)+`\n`), 20*time.Second)
	s.Run("false")
	m = s.Mark()
	s.Run("bind \\cr")
	s.WaitPlainSince(m, regexp.MustCompile(`fzf-history-widget`), 20*time.Second)
	got := commandsOf(entries(t, h))
	want := []string{"direnv allow proj", "cd proj", "echo from=$FROM_DIRENV", "cd ..", "z proj; and pwd", "false", "bind \\cr"}
	if !equal(got, want) {
		t.Fatalf("recorded %q; want %q", got, want)
	}
	if e := entries(t, h)[5]; e.ExitCode != 1 {
		t.Errorf("false: exit %d", e.ExitCode)
	}
}

// TestFishAskOffer: the first command of a `??` answer waits on fish's next
// command line, not run until Enter, as in bash and zsh.
func TestFishAskOffer(t *testing.T) {
	t.Parallel()
	shelltest.Need(t, "fish")
	fake := llmtest.NewOpenAI(t)
	fake.SetKey("test-key")
	fake.SetReply(llmtest.Reply{Text: []string{"Run:\n\n```sh\ntouch offered-file\n```\n"}})
	h := newHome(t)
	s := startFish(t, h, "function fish_prompt; printf '$ '; end\n", llmEnv(fake)...)
	s.Type("?? how do I make the file\r")
	// (The screen, not the stream: fish may draw the line more than once.)
	s.WaitForScreen(regexp.MustCompile(`(?m)touch offered-file\s*\n(?:.*\n)*\$ touch offered-file\s*$`), 20*time.Second)
	enterRunsOffer(t, s, h)
	es := entries(t, h)
	if got := commandsOf(es); len(got) < 2 || got[len(got)-1] != "touch offered-file" || !strings.HasPrefix(got[len(got)-2], "hookd ask -- ") {
		t.Errorf("recorded %q; want the question, then the offered command", got)
	}
	// A question whose answer has no command leaves the line empty.
	fake.SetReply(llmtest.Reply{Text: []string{"No command needed."}})
	s.Run("?? just tell me")
	s.WaitForPlain(regexp.MustCompile(`No command needed\.`), 20*time.Second)
	s.Run("echo after")
	if got := commandsOf(entries(t, h)); got[len(got)-1] != "echo after" {
		t.Errorf("recorded %q last; want echo after alone", got[len(got)-1])
	}
}
