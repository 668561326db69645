package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/hookd/hookd/internal/shelltest"

	"github.com/hookd/hookd/internal/required"
)

// captureOn turns output capture on for a test shell (the test homes have
// it off).
var captureOn = []string{"HOOKD_CAPTURE=pty"}

// startCaptured starts shell with hookd and capture on, and checks that it
// did re-execute itself under the proxy.
func startCaptured(t *testing.T, h *shelltest.Home, shell, rc string) *shelltest.Shell {
	t.Helper()
	s := shelltest.Start(t, h, shell, shelltest.Options{RC: rc + initLine(shell), Env: captureOn})
	// The process on the terminal is now the proxy.
	cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", s.PID()))
	if !strings.Contains(string(cmdline), "hookd\x00shell\x00") {
		t.Fatalf("%s did not re-execute under hookd shell: the terminal's process runs %q", shell, cmdline)
	}
	return s
}

// runPrompt types line and waits for the next prompt (its OSC 133;A mark) before
// going on. Keys typed while a command runs are echoed by the terminal as
// part of its output, as a user would see them: the tests type nothing
// ahead, so that each output is the command's alone.
func runPrompt(t *testing.T, s *shelltest.Shell, line string) {
	t.Helper()
	// The line editor is reading (the last prompt's marks are all out).
	s.Editing()
	// A command that prints an OSC 133;A mark itself (line names it)
	// comes before the prompt's own.
	// Several lines (typed ahead at once) give as many prompts.
	n := s.Prompts() + strings.Count(line, "133;A") + strings.Count(line, "\r")
	s.Type(line + "\r")
	s.WaitPrompts(n+1, 20*time.Second)
	s.Sync()
}

// storedOut is a command line and the output it should be stored with.
type storedOut struct{ cmd, out string }

// checkOutputs checks that the history holds exactly want's commands, in
// order, each with its whole output, and returns them.
func checkOutputs(t *testing.T, h *shelltest.Home, want []storedOut) []showJSON {
	t.Helper()
	got := outputs(t, h)
	if len(got) != len(want) {
		t.Fatalf("%d commands recorded; want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		if got[i].Command != w.cmd || got[i].Output != w.out || got[i].Missing != "" {
			t.Errorf("command %d: %q → %q (missing %q); want %q → %q", i, got[i].Command, got[i].Output, got[i].Missing, w.cmd, w.out)
		}
	}
	return got
}

// showJSON is `hookd show ID --json`.
type showJSON struct {
	rec
	Output    string `json:"output"`
	Missing   string `json:"output_missing"`
	Truncated bool   `json:"output_truncated"`
}

func show(t *testing.T, h *shelltest.Home, id int64) showJSON {
	t.Helper()
	var s showJSON
	out := hookd(t, h, "show", strconv.FormatInt(id, 10), "--json")
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("show --json: %v: %q", err, out)
	}
	return s
}

// outputs returns each recorded command with its stored output, oldest
// first.
func outputs(t *testing.T, h *shelltest.Home) []showJSON {
	t.Helper()
	var all []showJSON
	for _, e := range entries(t, h) {
		all = append(all, show(t, h, e.ID))
	}
	return all
}

func TestCaptureOutputs(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		// A fancy prompt with colours and a title, and set -u.
		rc := "set -u\nPS1=$'\\[\\e]0;title\\a\\e[1;32m\\]\\u \\w\\[\\e[0m\\] $ '\nPROMPT=$'%{\\e]0;title\\a\\e[1;32m%}%n %~%{\\e[0m%} %# '\n"
		s := startCaptured(t, h, shell, rc)
		runPrompt(t, s, "echo hello; echo to-stderr >&2")
		runPrompt(t, s, "printf 'line1\\nline2\\n\\nline4\\n'")
		runPrompt(t, s, "printf 'working 10%%\\rworking 50%%\\rdone       \\n'")
		runPrompt(t, s, "printf '\\033[31mred\\033[0m plain\\n'")
		runPrompt(t, s, "true")
		runPrompt(t, s, " echo hidden-output")
		runPrompt(t, s, "printf '\\033]133;D;0\\007\\033]133;A\\007fake-marks\\n'")
		runPrompt(t, s, "printf '\\033]6973;hookd;0123;D;x;1;0\\007spoof\\n'")
		// Rapid commands typed ahead, with and without output.
		runPrompt(t, s, "echo r1\rtrue\recho r3\r:\recho r5")
		// Output without a final newline.
		runPrompt(t, s, "sh -c 'printf \"partial\"; exit 3'")
		s.WaitForPlain(regexp.MustCompile(`\npartial`), 10*time.Second)

		want := []storedOut{
			{"echo hello; echo to-stderr >&2", "hello\nto-stderr\n"},
			{"printf 'line1\\nline2\\n\\nline4\\n'", "line1\nline2\n\nline4\n"},
			{"printf 'working 10%%\\rworking 50%%\\rdone       \\n'", "done\n"},
			{"printf '\\033[31mred\\033[0m plain\\n'", "red plain\n"},
			{"true", ""},
			{"printf '\\033]133;D;0\\007\\033]133;A\\007fake-marks\\n'", "fake-marks\n"},
			{"printf '\\033]6973;hookd;0123;D;x;1;0\\007spoof\\n'", "spoof\n"},
			{"echo r1", "r1\n"},
			{"true", ""},
			{"echo r3", "r3\n"},
			{":", ""},
			{"echo r5", "r5\n"},
			{"sh -c 'printf \"partial\"; exit 3'", "partial"},
		}
		got := checkOutputs(t, h, want)
		if got[0].OutputBytes != int64(len(want[0].out)) {
			t.Errorf("output_bytes = %d; want %d", got[0].OutputBytes, len(want[0].out))
		}
		// hookd out prints it exactly; the prompt never leaks into it.
		last := got[len(got)-1]
		if out := hookd(t, h, "out", strconv.FormatInt(last.ID, 10)); out != "partial" {
			t.Errorf("hookd out = %q; want %q", out, "partial")
		}
		// Inside the shell, -1 is the last command, and `hookd out` itself
		// is not counted.
		s.Run("hookd out | tr a-z A-Z")
		s.WaitForPlain(regexp.MustCompile(`\nPARTIAL`), 5*time.Second)
		if !strings.Contains(s.Plain(), "hidden-output\n") {
			t.Errorf("the hidden command's output did not reach the terminal")
		}
		raw, _ := os.ReadFile(h.Path(".local", "share", "hookd", "history.db"))
		if strings.Contains(string(raw), "hidden-output") {
			t.Errorf("the output of a command with a leading space was stored")
		}
		// The private marks never reach the terminal; OSC 133 marks do.
		if regexp.MustCompile(`6973;hookd;[0-9a-f]{32}`).MatchString(s.Output()) {
			t.Errorf("a private mark reached the terminal")
		}
		if !strings.Contains(s.Output(), "\x1b]133;C\a") || !strings.Contains(s.Output(), "\x1b]133;D;0\a") {
			t.Errorf("no OSC 133 marks reached the terminal")
		}
		if code := s.Exit(); code != 0 {
			t.Errorf("exit status %d; want 0", code)
		}
	})
}

func TestCaptureExitStatusAndLarge(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		s := startCaptured(t, h, shell, "")
		// 10 MB of output: the terminal gets it all, the history keeps
		// head and tail.
		runPrompt(t, s, "head -c 10000000 /dev/zero | tr '\\0' x | fold -w 100; echo; echo END-OF-BIG")
		s.WaitForPlain(regexp.MustCompile(`\nEND-OF-BIG\n`), 30*time.Second)
		runPrompt(t, s, "printf '\\033[?1049hfull screen\\033[?1049l'")
		es := entries(t, h)
		big := show(t, h, es[0].ID)
		if !big.Truncated || len(big.Output) > 1<<20+200 || len(big.Output) < 1_000_000 ||
			!strings.HasPrefix(big.Output, strings.Repeat("x", 100)+"\n") || !strings.HasSuffix(big.Output, "\nEND-OF-BIG\n") ||
			!strings.Contains(big.Output, "bytes not kept") {
			t.Errorf("10 MB output: truncated=%v, %d bytes kept, %.80q…%q", big.Truncated, len(big.Output), big.Output, big.Output[max(0, len(big.Output)-30):])
		}
		_, errOut, err := hookdRun(h, nil, "out", strconv.FormatInt(es[1].ID, 10))
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(errOut, "full-screen program") {
			t.Errorf("hookd out of a full-screen program: %v, %q; want exit 1 saying why", err, errOut)
		}
		s.Type("exit 7\r")
		if code := s.Wait(20 * time.Second); code != 7 {
			t.Errorf("the proxy exited %d; want the shell's 7", code)
		}
	})
}

func TestCaptureInteractive(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		s := startCaptured(t, h, shell, "")
		// A command reading input (typed once it is reading: the line
		// editor's terminal settings are gone once the command printed).
		m := s.Mark()
		s.Type("printf 'read%s\\n' y; read x; echo got:$x\r")
		s.WaitPlainSince(m, regexp.MustCompile(`\nready\n`), 10*time.Second)
		s.Type("typed-in\r")
		s.WaitForPlain(regexp.MustCompile(`got:typed-in`), 10*time.Second)
		s.Sync()
		// Ctrl-C interrupts a running command, not the proxy.
		s.Type("sleep 30\r")
		s.WaitForeground("sleep", "30")
		s.Type("\x03")
		s.Sync()
		// Ctrl-Z suspends it; fg brings it back.
		s.Type("sleep 3; echo slept\r")
		s.WaitForeground("sleep", "3")
		s.Type("\x1a")
		s.WaitForPlain(regexp.MustCompile(`(?i)(stopped|suspended)`), 10*time.Second)
		s.Sync()
		s.Run("fg")
		s.WaitForPlain(regexp.MustCompile(`\nslept\n`), 10*time.Second)
		s.Sync()
		// A resize of the outer terminal reaches programs inside.
		// The proxy passes the new size on when its SIGWINCH comes: ask
		// until the shell inside sees it.
		s.Resize(123, 45)
		shelltest.Eventually(t, 20*time.Second, func() bool {
			m := s.Mark()
			runPrompt(t, s, "stty size")
			return strings.Contains(s.PlainSince(m), "\n45 123\n")
		}, func() string { return "the shell inside never saw the new size:\n" + s.Plain() })

		es := entries(t, h)
		byCmd := map[string]rec{}
		for _, e := range es {
			byCmd[e.Command] = e
		}
		if e, ok := byCmd["sleep 30"]; !ok || e.ExitCode != 130 {
			t.Errorf("sleep 30 after Ctrl-C: %+v; want exit 130", e)
		}
		if o := show(t, h, byCmd["printf 'read%s\\n' y; read x; echo got:$x"].ID); !strings.Contains(o.Output, "got:typed-in") {
			t.Errorf("read's output = %q", o.Output)
		}
		if o := show(t, h, byCmd["stty size"].ID); o.Output != "45 123\n" {
			t.Errorf("stty size output = %q", o.Output)
		}
	})
}

// TestCaptureNestedShell: a shell started inside a captured one is not
// wrapped again, and its commands' outputs are kept one by one.
func TestCaptureNestedShell(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		s := startCaptured(t, h, shell, "")
		s.Run(shell)
		runPrompt(t, s, "echo in-nested")
		s.Run("hookd status --json > " + h.Path("nested-status.json"))
		s.Run("exit")
		runPrompt(t, s, "echo back-outside")
		// One proxy only: the terminal's process has no hookd shell below it.
		procs := proxiesUnder(t, s.PID())
		if procs != 0 {
			t.Errorf("%d proxies run below the first one; want none", procs)
		}
		var nested, outside string
		for _, o := range outputs(t, h) {
			switch o.Command {
			case "echo in-nested":
				nested = o.Output
			case "echo back-outside":
				outside = o.Output
			}
		}
		if nested != "in-nested\n" || outside != "back-outside\n" {
			t.Errorf("nested %q, outside %q", nested, outside)
		}
	})
}

// proxiesUnder counts the hookd shell processes descending from pid.
func proxiesUnder(t *testing.T, pid int) int {
	n := 0
	for _, p := range shelltest.Descendants(pid) {
		cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", p))
		if strings.Contains(string(cmdline), "hookd\x00shell\x00") {
			n++
		}
	}
	return n
}

// TestCaptureProxyKilled: when the proxy dies, the shell gets SIGHUP and
// what was captured before is kept.
func TestCaptureProxyKilled(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		s := startCaptured(t, h, shell, "")
		runPrompt(t, s, "echo before-kill")
		below := shelltest.Descendants(s.PID())
		if len(below) == 0 {
			t.Fatalf("no shell below the proxy")
		}
		inner := below[0]
		syscall.Kill(s.PID(), syscall.SIGKILL)
		shelltest.Eventually(t, 10*time.Second, func() bool { return !shelltest.Alive(inner) },
			func() string { return "the inner shell survived its proxy" })
		var got string
		for _, o := range outputs(t, h) {
			if o.Command == "echo before-kill" {
				got = o.Output
			}
		}
		if got != "before-kill\n" {
			t.Errorf("output captured before the kill = %q", got)
		}
	})
}

// TestCaptureFixUsesOutput: the failure path reads the captured output, so
// fixes that need the error message work without tmux.
func TestCaptureFixUsesOutput(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		os.MkdirAll(h.Path("src"), 0o700)
		os.WriteFile(h.Path("src", "a.txt"), []byte("TODO\n"), 0o600)
		s := startCaptured(t, h, shell, "")
		s.Type("grep TODO src\r")
		s.WaitForPlain(regexp.MustCompile(`↳ grep -r TODO src`), 10*time.Second)
		s.Sync()
	})
}

// TestHistorySizeColumn: on a terminal (where the column is styled), hookd
// history's output sizes line up, and a full-screen command, whose output
// is not kept, shows no size (nor in --json).
func TestHistorySizeColumn(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		s := startCaptured(t, h, shell, "PS1='$ '\nPROMPT='%# '\n")
		sizes := []struct{ cmd, size string }{
			{"echo hi", "   3B"},
			{"seq 1 3000", "  13K"},
			{"printf '\\033[?1049hfull screen\\033[?1049l'", "     "},
			{"true", "     "},
		}
		for _, c := range sizes {
			runPrompt(t, s, c.cmd)
		}
		m := s.Mark()
		runPrompt(t, s, "hookd history")
		if raw := s.OutputSince(m); !strings.Contains(raw, "\x1b[2m") {
			t.Fatalf("hookd history on a terminal is not styled:\n%q", raw)
		}
		col := -1
		for _, line := range strings.Split(s.PlainSince(m), "\n") {
			for _, c := range sizes {
				i := strings.Index(line, "  "+c.cmd)
				if i < 0 || !regexp.MustCompile(`^ *\d+  \d{4}-`).MatchString(line) {
					continue
				}
				// In characters on the screen (µs is one).
				if n := utf8.RuneCountInString(line[:i]); col < 0 {
					col = n
				} else if n != col {
					t.Errorf("%q starts at column %d, not %d:\n%s", c.cmd, n, col, s.PlainSince(m))
				}
				if i < 5 || line[i-5:i] != c.size {
					t.Errorf("%q: size %q; want %q", c.cmd, line[max(0, i-5):i], c.size)
				}
			}
		}
		if col < 0 {
			t.Fatalf("no history lines:\n%s", s.PlainSince(m))
		}
		for _, e := range entries(t, h) {
			if strings.Contains(e.Command, "1049h") && e.OutputBytes != 0 {
				t.Errorf("the full-screen command's output_bytes = %d; want 0", e.OutputBytes)
			}
		}
	})
}

// TestCaptureOffShowsWhy: with capture off, hookd out says so.
func TestCaptureOffShowsWhy(t *testing.T) {
	shell := "bash"
	shelltest.Need(t, shell)
	h := newHome(t)
	s := shelltest.Start(t, h, shell, shelltest.Options{RC: initLine(shell), Env: []string{"HOOKD_CAPTURE=off"}})
	s.Run("echo not-captured")
	es := entries(t, h)
	_, errOut, err := hookdRun(h, nil, "out", strconv.FormatInt(es[0].ID, 10))
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(errOut, "capture was off") {
		t.Errorf("hookd out without capture: %v, %q; want exit 1 saying capture was off", err, errOut)
	}
}

// TestCaptureCannotStart: where no pseudo-terminal can be opened, a shell
// with capture on stays a normal shell, records as ever, and hookd status
// says why there is no capture. (/dev/ptmx is hidden in a mount namespace.)
func TestCaptureCannotStart(t *testing.T) {
	wrap := []string{"unshare", "-r", "-m", "sh", "-c", `mount --bind /dev/null /dev/ptmx && exec "$@"`, "sh"}
	if out, err := exec.Command(wrap[0], append(wrap[1:len(wrap):len(wrap)], "true")...).CombinedOutput(); err != nil {
		required.Cannot(t, fmt.Sprintf("cannot hide /dev/ptmx here: this kernel or container allows no user and mount namespace (unshare: %v: %s)", err, out))
	}
	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: initLine(shell), Env: captureOn, Wrap: wrap})
		s.Run("echo still-works")
		s.Run("hookd status > " + h.Path("status.txt"))
		cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", s.PID()))
		if strings.Contains(string(cmdline), "hookd\x00shell\x00") {
			t.Errorf("the terminal runs the proxy although it cannot start")
		}
		st, _ := os.ReadFile(h.Path("status.txt"))
		if !strings.Contains(string(st), "could not start") || !strings.Contains(string(st), "pseudo-terminal") {
			t.Errorf("hookd status does not say why capture is off:\n%s", st)
		}
		if got := commandsOf(entries(t, h)); len(got) == 0 || got[0] != "echo still-works" {
			t.Errorf("recorded %q; want the command recorded as without capture", got)
		}
	})
}

// TestCaptureDirenvNotOutput: what direnv prints when the directory
// changes ("direnv: loading …") is not stored as the output of the `cd`,
// in bash (where it runs from PROMPT_COMMAND), zsh (chpwd_functions and
// precmd_functions) and fish (on PWD and fish_prompt) alike, and a
// command's own output in that directory is stored exactly. In zsh a
// chpwd function of the user's own stays part of the `cd`'s output.
func TestCaptureDirenvNotOutput(t *testing.T) {
	need(t, "direnv")
	forAllShells(t, func(t *testing.T, shell string) {
		h := newHome(t)
		proj := h.Path("proj")
		os.MkdirAll(proj, 0o755)
		os.WriteFile(h.Path("proj", ".envrc"), []byte("export FROM_DIRENV=yes\n"), 0o600)
		rc := fmt.Sprintf("eval \"$(direnv hook %s)\"\n", shell)
		if shell == "fish" {
			rc = "direnv hook fish | source\n"
		}
		s := startCaptured(t, h, shell, rc)
		runPrompt(t, s, "direnv allow proj")
		m := s.Mark()
		runPrompt(t, s, "cd proj")
		s.WaitPlainSince(m, regexp.MustCompile(`direnv: loading`), 20*time.Second)
		runPrompt(t, s, "echo from=$FROM_DIRENV; echo direnv: export +X >&2")
		m = s.Mark()
		runPrompt(t, s, "cd ..")
		s.WaitPlainSince(m, regexp.MustCompile(`direnv: unloading`), 20*time.Second)
		want := []storedOut{
			{"direnv allow proj", ""},
			{"cd proj", ""},
			{"echo from=$FROM_DIRENV; echo direnv: export +X >&2", "from=yes\ndirenv: export +X\n"},
			{"cd ..", ""},
		}
		if shell == "zsh" {
			// The user's own chpwd function prints as part of the cd.
			// direnv's hook loaded again is not run twice.
			runPrompt(t, s, "chpwd() { echo now in $PWD:t }; eval \"$(direnv hook zsh)\"")
			runPrompt(t, s, "cd proj")
			runPrompt(t, s, "print -r -- $chpwd_functions")
			want = append(want, storedOut{"chpwd() { echo now in $PWD:t }; eval \"$(direnv hook zsh)\"", ""},
				storedOut{"cd proj", "now in proj\n"}, storedOut{"print -r -- $chpwd_functions", "_hookd_hushed_direnv\n"})
		}
		checkOutputs(t, h, want)
	})
}
