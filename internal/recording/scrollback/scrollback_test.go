package scrollback

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/shelltest"

	"github.com/hookd/hookd/internal/required"
)

func TestCutOutput(t *testing.T) {
	tests := []struct{ name, screen, cmd, want string }{
		{"simple", "[st=0] $ ls\na b\n[st=0] $ gti status\nbash: gti: command not found\n", "gti status", "bash: gti: command not found\n"},
		{"last of two", "$ make\nerror 1\n$ make\nerror 2\n\n\n", "make", "error 2\n"},
		{"multi-line", "$ for i in 1 2; do\n> echo $i\n> done\n1\n2\n", "for i in 1 2; do\necho $i\ndone", "1\n2\n"},
		{"not on screen", "$ other\nout\n", "gti status", ""},
		{"no output", "$ false\n", "false", ""},
		{"empty command", "$ x\n", "", ""},
	}
	for _, tt := range tests {
		if got, _ := cutOutput(tt.screen, tt.cmd); got != tt.want {
			t.Errorf("%s: cutOutput(%q, %q) = %q; want %q", tt.name, tt.screen, tt.cmd, got, tt.want)
		}
	}
}

// A reply is what a fake tool does when its arguments match: print stdout
// (where "{sep}" stands for the argument after "display-message -p") and
// stderr, then exit with code, or sleep until killed.
type reply struct {
	stdout, stderr string
	code           int
	sleep          bool
}

// A rule answers the invocations whose arguments, joined by spaces, match
// the sh pattern; the first rule that matches answers.
type rule struct {
	pattern string
	reply
}

// fakeTools is a directory of fake executables, which is all of PATH.
type fakeTools struct {
	t     *testing.T
	dir   string
	sleep string // the real sleep, by absolute path
}

func newFakeTools(t *testing.T) *fakeTools {
	sleep := required.Tool(t, "sleep")
	sleep, _ = filepath.Abs(sleep)
	f := &fakeTools{t: t, dir: t.TempDir(), sleep: sleep}
	t.Setenv("PATH", f.dir)
	return f
}

func shQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// shPattern quotes a pattern for a case of sh, keeping its stars.
func shPattern(p string) string {
	parts := strings.Split(p, "*")
	for i, part := range parts {
		parts[i] = shQuote(part)
	}
	return strings.Join(parts, "*")
}

// add writes the fake name. It logs its arguments to name.log (separated
// by \x1f, one invocation a line) and uses shell builtins only.
func (f *fakeTools) add(name string, rules ...rule) {
	log := shQuote(filepath.Join(f.dir, name+".log"))
	var b strings.Builder
	b.WriteString("#!/bin/sh\n")
	b.WriteString("printf '%s\\037' \"$@\" >>" + log + "\nprintf '\\n' >>" + log + "\n")
	b.WriteString("sep= prev2= prev=\nfor a; do\n  if [ \"$prev2\" = display-message ] && [ \"$prev\" = -p ]; then sep=$a; fi\n  prev2=$prev prev=$a\ndone\n")
	b.WriteString("case \"$*\" in\n")
	for _, r := range rules {
		b.WriteString(shPattern(r.pattern) + ")\n")
		parts := strings.Split(r.stdout, "{sep}")
		for i, part := range parts {
			if i > 0 {
				b.WriteString("  printf '%s' \"$sep\"\n")
			}
			b.WriteString("  printf '%s' " + shQuote(part) + "\n")
		}
		b.WriteString("  printf '%s' " + shQuote(r.stderr) + " >&2\n")
		if r.sleep {
			b.WriteString("  exec " + shQuote(f.sleep) + " 30\n")
		}
		b.WriteString("  exit " + strconv.Itoa(r.code) + ";;\n")
	}
	b.WriteString("esac\necho \"fake " + name + ": unexpected arguments: $*\" >&2\nexit 99\n")
	if err := os.WriteFile(filepath.Join(f.dir, name), []byte(b.String()), 0o755); err != nil {
		f.t.Fatal(err)
	}
}

// calls returns the argument lists the fake name was run with, in order.
func (f *fakeTools) calls(name string) [][]string {
	data, err := os.ReadFile(filepath.Join(f.dir, name+".log"))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		f.t.Fatal(err)
	}
	var calls [][]string
	for line := range strings.Lines(string(data)) {
		args := strings.Split(strings.TrimSuffix(line, "\n"), "\x1f")
		calls = append(calls, args[:len(args)-1])
	}
	return calls
}

func envOf(vars map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) {
		v, ok := vars[k]
		return v, ok
	}
}

var (
	tmuxEnv    = map[string]string{"TMUX": "/tmp/tmux-1000/default,123,0", "TMUX_PANE": "%3"}
	kittyEnv   = map[string]string{"KITTY_WINDOW_ID": "7", "KITTY_LISTEN_ON": "unix:/tmp/kitty-1"}
	weztermEnv = map[string]string{"WEZTERM_PANE": "5"}
)

func merge(envs ...map[string]string) map[string]string {
	m := map[string]string{}
	for _, e := range envs {
		for k, v := range e {
			m[k] = v
		}
	}
	return m
}

// The screen of a pane where make failed; hookd asks before the next prompt.
const makeScreen = "$ ls\nMakefile\n$ make\nmake: *** No rule to make target 'all'.  Stop.   \n\n\n"

const makeOutput = "make: *** No rule to make target 'all'.  Stop.\n"

func TestReadOrder(t *testing.T) {
	tests := []struct {
		name       string
		env        map[string]string
		tmuxFails  bool
		wantSource string
		wantRun    []string // the tools run, in order of the sources
	}{
		{"all three: tmux first", merge(tmuxEnv, kittyEnv, weztermEnv), false, SourceTmux, []string{"tmux"}},
		{"kitty before wezterm", merge(kittyEnv, weztermEnv), false, SourceKitty, []string{"kitty"}},
		{"wezterm", weztermEnv, false, SourceWezTerm, []string{"wezterm"}},
		{"TMUX without TMUX_PANE", merge(map[string]string{"TMUX": "x,1,0"}, weztermEnv), false, SourceWezTerm, []string{"wezterm"}},
		{"TMUX_PANE without TMUX", merge(map[string]string{"TMUX_PANE": "%1"}, kittyEnv), false, SourceKitty, []string{"kitty"}},
		{"empty values are unset", map[string]string{"TMUX": "", "TMUX_PANE": "", "KITTY_WINDOW_ID": "", "WEZTERM_PANE": "5"}, false, SourceWezTerm, []string{"wezterm"}},
		{"tmux fails: kitty next", merge(tmuxEnv, kittyEnv, weztermEnv), true, SourceKitty, []string{"tmux", "kitty"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeTools(t)
			capture := reply{stdout: makeScreen}
			if tt.tmuxFails {
				capture = reply{stderr: "no server running on /tmp/tmux-1000/default\n", code: 1}
			}
			f.add("tmux", rule{"-V", reply{stdout: "tmux 3.3a\n"}}, rule{"capture-pane*", capture})
			f.add("kitty", rule{"@*", reply{stdout: makeOutput}})
			f.add("wezterm", rule{"cli*", reply{stdout: makeScreen}})
			got, err := Read(context.Background(), envOf(tt.env), "make", time.Second)
			if err != nil {
				t.Fatal(err)
			}
			if got.Source != tt.wantSource || got.Text != makeOutput {
				t.Errorf("got %+v; want %q from %s", got, makeOutput, tt.wantSource)
			}
			var ran []string
			for _, tool := range []string{"tmux", "kitty", "wezterm"} {
				if f.calls(tool) != nil {
					ran = append(ran, tool)
				}
			}
			if !slices.Equal(ran, tt.wantRun) {
				t.Errorf("ran %v; want %v", ran, tt.wantRun)
			}
		})
	}
}

func TestReadNoTerminal(t *testing.T) {
	f := newFakeTools(t)
	f.add("tmux")
	_, err := Read(context.Background(), envOf(map[string]string{"TERM": "xterm"}), "make", time.Second)
	if !errors.Is(err, ErrNoTerminal) {
		t.Errorf("err = %v; want ErrNoTerminal", err)
	}
	if f.calls("tmux") != nil {
		t.Error("tmux was run")
	}
}

func TestReadArgv(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		tool string
		want [][]string
	}{
		{"tmux 3.3a", tmuxEnv, "tmux", [][]string{
			{"-V"},
			{"capture-pane", "-p", "-J", "-t", "%3", "-S", "-500"},
		}},
		{"kitty", kittyEnv, "kitty", [][]string{
			{"@", "--to", "unix:/tmp/kitty-1", "get-text", "--match", "id:7", "--extent", "last_cmd_output"},
		}},
		{"wezterm", weztermEnv, "wezterm", [][]string{
			{"cli", "get-text", "--pane-id", "5", "--start-line=-500"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeTools(t)
			f.add("tmux", rule{"-V", reply{stdout: "tmux 3.3a\n"}}, rule{"capture-pane*", reply{stdout: makeScreen}})
			f.add("kitty", rule{"@*", reply{stdout: makeOutput}})
			f.add("wezterm", rule{"cli*", reply{stdout: makeScreen}})
			got, err := Read(context.Background(), envOf(tt.env), "make", time.Second)
			if err != nil {
				t.Fatal(err)
			}
			if got.Text != makeOutput {
				t.Errorf("Text = %q; want %q", got.Text, makeOutput)
			}
			if calls := f.calls(tt.tool); !slices.EqualFunc(calls, tt.want, slices.Equal) {
				t.Errorf("%s ran with\n%q\nwant\n%q", tt.tool, calls, tt.want)
			}
		})
	}
}

// markedWalk is the tmux command string tmuxMarked runs in pane %3.
const markedWalk = `copy-mode -H -t %3 ; ` +
	`display-message -p -t %3 "#{copy_cursor_y} #{scroll_position}" ; send-keys -X -t %3 previous-prompt ; ` +
	`display-message -p -t %3 "#{copy_cursor_y} #{scroll_position}" ; send-keys -X -t %3 next-prompt -o ; ` +
	`display-message -p -t %3 "#{copy_cursor_y} #{scroll_position}" ; send-keys -X -t %3 next-prompt ; ` +
	`display-message -p -t %3 "#{copy_cursor_y} #{scroll_position}" ; send-keys -X -t %3 cancel`

var (
	versionCall  = []string{"-V"}
	walkCall     = []string{"if-shell", "-F", "-t", "%3", "#{pane_in_mode}", "display-message -p busy", markedWalk}
	fallbackCall = []string{"capture-pane", "-p", "-J", "-t", "%3", "-S", "-500"}
)

// captureCall is the capture tmuxMarked runs: the prompt lines, and the
// output lines when out is not nil.
func captureCall(prompt [2]int, out *[2]int) []string {
	args := []string{"capture-pane", "-p", "-J", "-t", "%3", "-S", strconv.Itoa(prompt[0]), "-E", strconv.Itoa(prompt[1])}
	if out != nil {
		args = append(args, ";", "display-message", "-p", "{sep}", ";",
			"capture-pane", "-p", "-J", "-t", "%3", "-S", strconv.Itoa(out[0]), "-E", strconv.Itoa(out[1]))
	}
	return args
}

// sepArg matches the separator tmuxMarked makes.
var sepArg = regexp.MustCompile(`^hookd-[A-Z2-7]{26}$`)

func TestReadTmuxMarks(t *testing.T) {
	const (
		marked   = "$ make\n{sep}\nmake: *** No rule to make target 'all'.  Stop.\n\n\n"
		fallback = "$ make\nmake: from the fallback\n"
	)
	tests := []struct {
		name      string
		version   string
		walk      reply  // the answer to the walk through the marks
		capture   string // the answer to the capture of the marked lines
		command   string
		wantCalls [][]string
		want      string
	}{
		{
			name:    "on the screen",
			version: "tmux 3.4",
			walk:    reply{stdout: "9 0\n3 0\n4 0\n4 0\n"}, // no prompt below the output
			capture: marked,
			command: "make",
			wantCalls: [][]string{versionCall, walkCall,
				captureCall([2]int{3, 3}, &[2]int{4, 9})},
			want: makeOutput,
		},
		{
			name:    "in the history, new prompt on the cursor line",
			version: "tmux next-3.5",
			walk:    reply{stdout: "39 0\n0 12\n0 11\n39 0\n"},
			capture: marked,
			command: "make",
			wantCalls: [][]string{versionCall, walkCall,
				captureCall([2]int{-12, -12}, &[2]int{-11, 38})},
			want: makeOutput,
		},
		{
			name:    "long output: the last 500 lines",
			version: "tmux master",
			walk:    reply{stdout: "39 0\n0 2000\n0 1998\n39 0\n"},
			capture: "$ make \\\n> -k\n{sep}\nlast lines\n",
			command: "make \\\n-k",
			wantCalls: [][]string{versionCall, walkCall,
				captureCall([2]int{-2000, -1999}, &[2]int{-461, 38})},
			want: "last lines\n",
		},
		{
			name:    "no output",
			version: "tmux 3.5a",
			walk:    reply{stdout: "9 0\n8 0\n9 0\n9 0\n"},
			capture: "$ false\n{sep}\n\n",
			command: "false",
			wantCalls: [][]string{versionCall, walkCall,
				captureCall([2]int{8, 8}, &[2]int{9, 9})},
			want: "",
		},
		{
			name:      "tmux 3.3a: no marks",
			version:   "tmux 3.3a",
			command:   "make",
			wantCalls: [][]string{versionCall, fallbackCall},
			want:      "make: from the fallback\n",
		},
		{
			name:      "tmux next-3.4: no marks",
			version:   "tmux next-3.4",
			command:   "make",
			wantCalls: [][]string{versionCall, fallbackCall},
			want:      "make: from the fallback\n",
		},
		{
			name:      "the pane is in copy mode",
			version:   "tmux 3.4",
			walk:      reply{stdout: "busy\n"},
			command:   "make",
			wantCalls: [][]string{versionCall, walkCall, fallbackCall},
			want:      "make: from the fallback\n",
		},
		{
			name:      "no prompt marks",
			version:   "tmux 3.4",
			walk:      reply{stdout: "9 0\n9 0\n9 0\n9 0\n"},
			command:   "make",
			wantCalls: [][]string{versionCall, walkCall, fallbackCall},
			want:      "make: from the fallback\n",
		},
		{
			name:      "no output mark",
			version:   "tmux 3.4",
			walk:      reply{stdout: "9 0\n3 0\n3 0\n3 0\n"},
			command:   "make",
			wantCalls: [][]string{versionCall, walkCall, fallbackCall},
			want:      "make: from the fallback\n",
		},
		{
			name:      "the server refuses the walk",
			version:   "tmux 3.4",
			walk:      reply{stderr: "unknown command: previous-prompt\n", code: 1},
			command:   "make",
			wantCalls: [][]string{versionCall, walkCall, fallbackCall},
			want:      "make: from the fallback\n",
		},
		{
			name:    "the marked prompt is another command's",
			version: "tmux 3.4",
			walk:    reply{stdout: "9 0\n3 0\n4 0\n4 0\n"},
			capture: "remote$ ls\n{sep}\nfile\n",
			command: "make",
			wantCalls: [][]string{versionCall, walkCall,
				captureCall([2]int{3, 3}, &[2]int{4, 9}), fallbackCall},
			want: "make: from the fallback\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeTools(t)
			f.add("tmux",
				rule{"-V", reply{stdout: tt.version + "\n"}},
				rule{"if-shell*", tt.walk},
				rule{"capture-pane*-S -500", reply{stdout: fallback}},
				rule{"capture-pane*", reply{stdout: tt.capture}},
			)
			got, err := Read(context.Background(), envOf(tmuxEnv), tt.command, time.Second)
			if err != nil {
				t.Fatal(err)
			}
			if got != (Output{Text: tt.want, Source: SourceTmux}) {
				t.Errorf("got %+v; want %q from tmux", got, tt.want)
			}
			calls := f.calls("tmux")
			for _, call := range calls {
				for i, arg := range call {
					if sepArg.MatchString(arg) {
						call[i] = "{sep}"
					}
				}
			}
			if !slices.EqualFunc(calls, tt.wantCalls, slices.Equal) {
				t.Errorf("tmux ran with\n%q\nwant\n%q", calls, tt.wantCalls)
			}
		})
	}
}

func TestReadTmuxMarksTimeout(t *testing.T) {
	f := newFakeTools(t)
	f.add("tmux",
		rule{"-V", reply{stdout: "tmux 3.4\n"}},
		rule{"if-shell*", reply{sleep: true}},
		rule{"capture-pane*", reply{stdout: makeScreen}},
	)
	_, err := Read(context.Background(), envOf(tmuxEnv), "make", 200*time.Millisecond)
	if want := "no terminal output: tmux: if-shell timed out after 200ms"; err == nil || err.Error() != want {
		t.Errorf("err = %v; want %s", err, want)
	}
	if calls := f.calls("tmux"); len(calls) != 2 {
		t.Errorf("tmux ran with %q; want no capture after the timeout", calls)
	}
}

func TestReadFailures(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		tools   map[string][]rule // nil: the tool is missing
		timeout time.Duration
		want    string // the error
		is      error  // what the error wraps
	}{
		{
			name: "tools missing",
			env:  merge(tmuxEnv, kittyEnv, weztermEnv),
			want: "no terminal output: tmux: not installed (no tmux on PATH); " +
				"kitty: not installed (no kitty on PATH); wezterm: not installed (no wezterm on PATH)",
			is: exec.ErrNotFound,
		},
		{
			name: "tmux exits 1",
			env:  tmuxEnv,
			tools: map[string][]rule{"tmux": {
				{"-V", reply{stdout: "tmux 3.3a\n"}},
				{"capture-pane*", reply{stderr: "no server running on /tmp/tmux-1000/default\n", code: 1}},
			}},
			want: "no terminal output: tmux: capture-pane failed: exit status 1: no server running on /tmp/tmux-1000/default",
		},
		{
			name:  "tmux: the command is not on the screen",
			env:   tmuxEnv,
			tools: map[string][]rule{"tmux": {{"-V", reply{stdout: "tmux 3.3a\n"}}, {"capture-pane*", reply{stdout: "$ ls\nMakefile\n"}}}},
			want:  "no terminal output: tmux: the command is not on the screen",
		},
		{
			name: "kitty: remote control off",
			env:  kittyEnv,
			tools: map[string][]rule{"kitty": {{"@*", reply{
				stderr: "Error: Remote control is disabled. Add allow_remote_control to your kitty.conf\n", code: 1}}}},
			want: "no terminal output: kitty: remote control is off (allow_remote_control in kitty.conf): " +
				"@ get-text failed: exit status 1: Error: Remote control is disabled. Add allow_remote_control to your kitty.conf",
		},
		{
			name:  "kitty: not listening",
			env:   map[string]string{"KITTY_WINDOW_ID": "7"},
			tools: map[string][]rule{"kitty": {{"@*", reply{stdout: makeOutput}}}},
			want: "no terminal output: kitty: KITTY_LISTEN_ON is unset: kitty must listen on a socket " +
				"(listen_on in kitty.conf) and allow remote control",
		},
		{
			name:    "wezterm times out",
			env:     weztermEnv,
			tools:   map[string][]rule{"wezterm": {{"cli*", reply{sleep: true}}}},
			timeout: 200 * time.Millisecond,
			want:    "no terminal output: wezterm: cli get-text timed out after 200ms",
			is:      context.DeadlineExceeded,
		},
		{
			name:  "wezterm: the command is not on the screen",
			env:   weztermEnv,
			tools: map[string][]rule{"wezterm": {{"cli*", reply{stdout: "$ ls\nMakefile\n"}}}},
			want:  "no terminal output: wezterm: the command is not on the screen",
		},
		{
			name: "all fail, each says why",
			env:  merge(tmuxEnv, kittyEnv, weztermEnv),
			tools: map[string][]rule{
				"tmux":    {{"-V", reply{stdout: "tmux 3.3a\n"}}, {"capture-pane*", reply{stderr: "can't find pane: %3\n", code: 1}}},
				"kitty":   {{"@*", reply{stderr: "Error: Remote control is disabled.\n", code: 1}}},
				"wezterm": {{"cli*", reply{stderr: "Error: failed to connect\nCaused by: no socket\n", code: 1}}},
			},
			want: "no terminal output: tmux: capture-pane failed: exit status 1: can't find pane: %3; " +
				"kitty: remote control is off (allow_remote_control in kitty.conf): @ get-text failed: exit status 1: Error: Remote control is disabled.; " +
				"wezterm: cli get-text failed: exit status 1: Error: failed to connect",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeTools(t)
			for name, rules := range tt.tools {
				f.add(name, rules...)
			}
			timeout := tt.timeout
			if timeout == 0 {
				timeout = shelltest.Scale(30 * time.Second) // only bounds a hang
			}
			start := time.Now()
			_, err := Read(context.Background(), envOf(tt.env), "make", timeout)
			if err == nil || err.Error() != tt.want {
				t.Errorf("err = %v\nwant  %s", err, tt.want)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("err does not wrap %v", tt.is)
			}
			if d := time.Since(start); d > timeout+shelltest.Scale(30*time.Second) {
				t.Errorf("took %v", d)
			}
		})
	}
}

func TestReadCanceled(t *testing.T) {
	f := newFakeTools(t)
	f.add("tmux", rule{"*", reply{sleep: true}})
	f.add("kitty", rule{"@*", reply{stdout: makeOutput}})
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := Read(ctx, envOf(merge(tmuxEnv, kittyEnv)), "make", 10*time.Second)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v; want the context's deadline", err)
	}
	if f.calls("kitty") != nil {
		t.Error("kitty was tried after the context ended")
	}
}

func TestReadPlainText(t *testing.T) {
	tests := []struct{ name, tool, out, want string }{
		{"kitty: escapes and trailing blanks", "kitty", "\x1b[31merror\x1b[0m: no rule   \n\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\\n\n\n", "error: no rule\nlink\n"},
		{"kitty: control characters", "kitty", "a\x07b\r\nc\x01d\n", "ab\nc\\x01d\n"},
		{"kitty: alternate screen switch", "kitty", "a\x1b[?1049hb\n", "a[?1049hb\n"},
		{"kitty: nothing", "kitty", "\n\n", ""},
		{"wezterm: escapes before cutting", "wezterm", "\x1b[1m$ make\x1b[0m\n\x1b[31mmake: error\x1b[0m\t \n", "make: error\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeTools(t)
			f.add("kitty", rule{"@*", reply{stdout: tt.out}})
			f.add("wezterm", rule{"cli*", reply{stdout: tt.out}})
			env := kittyEnv
			if tt.tool == "wezterm" {
				env = weztermEnv
			}
			got, err := Read(context.Background(), envOf(env), "make", time.Second)
			if err != nil {
				t.Fatal(err)
			}
			if got.Text != tt.want {
				t.Errorf("Text = %q; want %q", got.Text, tt.want)
			}
		})
	}
}

func TestReadWezTermCut(t *testing.T) {
	tests := []struct{ name, screen, command, want string }{
		{"last of two", "$ make\nerror 1\n$ make\nerror 2\n\n\n", "make", "error 2\n"},
		{"prompt with the path", "[me@box ~/src]$ gti status\ngit: 'gti' is not a git command. See 'git --help'.\n", "gti status",
			"git: 'gti' is not a git command. See 'git --help'.\n"},
		{"multi-line command", "$ for i in 1 2; do\n> echo $i\n> done\n1\n2\n", "for i in 1 2; do\necho $i\ndone", "1\n2\n"},
		{"no output", "$ false\n\n", "false", ""},
		{"the last 500 lines", "$ seq 600\n" + seqLines(1, 600), "seq 600", seqLines(101, 600)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeTools(t)
			f.add("wezterm", rule{"cli*", reply{stdout: tt.screen}})
			got, err := Read(context.Background(), envOf(weztermEnv), tt.command, time.Second)
			if err != nil {
				t.Fatal(err)
			}
			if got != (Output{Text: tt.want, Source: SourceWezTerm}) {
				t.Errorf("got %+v; want %q", got, tt.want)
			}
		})
	}
}

func seqLines(from, to int) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		b.WriteString(strconv.Itoa(i) + "\n")
	}
	return b.String()
}

func TestTmuxVersion(t *testing.T) {
	tests := []struct {
		v    string
		want bool
	}{
		{"tmux 3.3a", false},
		{"tmux 3.3a\n", false},
		{"tmux 3.4", true},
		{"tmux 3.4\n", true},
		{"tmux 3.5a", true},
		{"tmux 3.6", true},
		{"tmux 4.0", true},
		{"tmux next-3.5", true},
		{"tmux next-3.4", false}, // on the way to 3.4, maybe before the marks
		{"tmux next-4.0", true},
		{"tmux master", true},
		{"tmux 3.4-rc", true},
		{"tmux 2.9a", false},
		{"tmux 3.10", true},
		{"tmux openbsd-7.5", false}, // unknown: no marks
		{"tmux", false},
		{"", false},
		{"screen 4.9", false},
	}
	for _, tt := range tests {
		if got := parseTmuxVersion(tt.v).promptMarks(); got != tt.want {
			t.Errorf("parseTmuxVersion(%q).promptMarks() = %v; want %v", tt.v, got, tt.want)
		}
	}
	if v := parseTmuxVersion("tmux next-3.5"); v != (tmuxVersion{major: 3, minor: 5, next: true}) {
		t.Errorf("parseTmuxVersion(next-3.5) = %+v", v)
	}
}

// TestReadRealTmux runs Read against a real tmux server.
// Its shell prints the OSC 133 marks, so a tmux 3.4 or newer takes the
// marks; an older one cuts the screen.
func TestReadRealTmux(t *testing.T) {
	required.Tool(t, "tmux", "REQUIRE_SHELLS")
	required.Tool(t, "bash", "REQUIRE_SHELLS")
	dir := t.TempDir()
	sock := filepath.Join(dir, "tmux.sock")
	tmux := func(args ...string) string {
		t.Helper()
		out, err := exec.Command("tmux", append([]string{"-S", sock}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %q: %v: %s", args, err, out)
		}
		return string(out)
	}
	rc := filepath.Join(dir, "rc")
	// A prompt in two lines, the marks as hookd's hooks print them.
	if err := os.WriteFile(rc, []byte("PS1='\\[\\e]133;A\\a\\]me@box\\n> '\nPS0='\\[\\e]133;C\\a\\]'\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tmux("-f", "/dev/null", "new-session", "-d", "-x", "80", "-y", "12", "env", "-i", "PATH="+os.Getenv("PATH"), "TERM=screen", "bash", "--noprofile", "--rcfile", rc, "-i")
	t.Cleanup(func() { exec.Command("tmux", "-S", sock, "kill-server").Run() })
	pane := strings.TrimSpace(tmux("display-message", "-p", "#{pane_id}"))
	// waitFor waits for the screen to show lines, whole lines at the start
	// of one (the command line typed holds the words of its output, which
	// must not count).
	waitFor := func(lines string) {
		t.Helper()
		shelltest.Eventually(t, 30*time.Second, func() bool {
			return strings.Contains("\n"+tmux("capture-pane", "-p", "-t", pane), "\n"+lines+"\n")
		}, func() string {
			return fmt.Sprintf("%q never showed:\n%s", lines, tmux("capture-pane", "-p", "-t", pane))
		})
	}
	waitFor("me@box\n>")
	tmux("send-keys", "-t", pane, "seq 30; echo done", "Enter")
	waitFor("done\nme@box\n>")
	// The state hookd asks in: the output shown, the next prompt not yet.
	const command = "echo one; echo two; sleep 60"
	tmux("send-keys", "-t", pane, command, "Enter")
	waitFor("one\ntwo")

	t.Setenv("TMUX", sock+",1,0") // where the tmux client finds the server
	env := envOf(map[string]string{"TMUX": sock + ",1,0", "TMUX_PANE": pane})
	// Generous: tmux answers in milliseconds, but not on a loaded machine.
	timeout := shelltest.Scale(30 * time.Second)
	got, err := Read(context.Background(), env, command, timeout)
	if err != nil {
		t.Fatal(err)
	}
	if want := (Output{Text: "one\ntwo\n", Source: SourceTmux}); got != want {
		t.Errorf("got %+v; want %+v", got, want)
	}

	// The walk through the marks parses, and leaves the pane as it was.
	v := parseTmuxVersion(tmux("-V"))
	out, err := tmuxMarked(context.Background(), pane, command, timeout)
	if v.promptMarks() {
		if err != nil || out != "one\ntwo\n" {
			t.Errorf("tmuxMarked = %q, %v; want one, two", out, err)
		}
	} else if !errors.Is(err, errNoMarks) {
		t.Errorf("tmuxMarked on %+v: %v; want errNoMarks", v, err)
	}
	if mode := strings.TrimSpace(tmux("display-message", "-p", "-t", pane, "#{pane_in_mode}")); mode != "0" {
		t.Errorf("pane_in_mode = %s after tmuxMarked", mode)
	}
	tmux("copy-mode", "-t", pane)
	if _, err := tmuxMarked(context.Background(), pane, command, timeout); !errors.Is(err, errNoMarks) || !strings.Contains(err.Error(), "in a mode") {
		t.Errorf("tmuxMarked in copy mode: %v", err)
	}
	if mode := strings.TrimSpace(tmux("display-message", "-p", "-t", pane, "#{pane_in_mode}")); mode != "1" {
		t.Errorf("the user's copy mode ended: pane_in_mode = %s", mode)
	}
}

func TestTailBuffer(t *testing.T) {
	b := &tailBuffer{max: 4}
	for _, s := range []string{"ab", "cdefg", "hij", "k"} {
		b.Write([]byte(s))
	}
	if got := b.String(); got != "hijk" {
		t.Errorf("tailBuffer kept %q; want the last 4 bytes, hijk", got)
	}
}
