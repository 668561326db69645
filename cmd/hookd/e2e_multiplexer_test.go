package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/required"
	"github.com/hookd/hookd/internal/shelltest"
	"github.com/hookd/hookd/internal/shellwords"
)

// multiplexer drives a terminal multiplexer running detached: start is the
// command line (for sh) that starts it detached with cmd in its one window, keys types a line and Enter into it,
// screen is what the window shows.
type multiplexer struct {
	start  func(cmd string) string
	keys   func(line string)
	screen func() string
}

// tmuxIn is a tmux server of its own (its socket in the home).
func tmuxIn(t *testing.T, h *shelltest.Home) multiplexer {
	sock := h.Path("tmux.sock")
	tmux := func(args ...string) string {
		out, _ := exec.Command("tmux", append([]string{"-S", sock}, args...)...).CombinedOutput()
		return string(out)
	}
	t.Cleanup(func() { tmux("kill-server") })
	return multiplexer{
		start: func(cmd string) string {
			return "tmux -S " + shellwords.Quote(sock) + " -f /dev/null new-session -d -x 150 -y 40 " + shellwords.Quote(cmd)
		},
		keys:   func(line string) { tmux("send-keys", "-l", line); tmux("send-keys", "Enter") },
		screen: func() string { return tmux("capture-pane", "-p") },
	}
}

// screenIn is a GNU screen session of its own (its sockets in the home).
func screenIn(t *testing.T, h *shelltest.Home) multiplexer {
	dir := h.Path(".screens")
	os.MkdirAll(dir, 0o700)
	env := append(os.Environ(), "SCREENDIR="+dir)
	screen := func(args ...string) error {
		cmd := exec.Command("screen", append([]string{"-S", "hookdtest"}, args...)...)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil {
			return fmt.Errorf("%v: %s", err, out)
		}
		return nil
	}
	t.Cleanup(func() { screen("-X", "quit") })
	copyFile := h.Path("screen.txt")
	return multiplexer{
		start: func(cmd string) string {
			return "SCREENDIR=" + shellwords.Quote(dir) + " screen -c /dev/null -dmS hookdtest sh -c " + shellwords.Quote(cmd)
		},
		// stuff types its argument (screen reads ^X and \ in it: the
		// lines typed here have neither).
		keys: func(line string) { screen("-X", "stuff", line+"\r") },
		screen: func() string {
			os.Remove(copyFile)
			screen("-X", "hardcopy", copyFile)
			b, _ := os.ReadFile(copyFile)
			return string(b)
		},
	}
}

// shellCommand writes rc as shell's rc file in the home and returns the
// command line (for sh -c) that starts shell interactively with it: in a
// clean environment (the home's and extra, and the multiplexer's own
// variables), or with clean false in the one it is given.
func shellCommand(t *testing.T, h *shelltest.Home, shell, rc string, clean bool, extra ...string) string {
	t.Helper()
	start := ""
	switch shell {
	case "bash":
		os.WriteFile(h.Path(".bashrc"), []byte(rc), 0o600)
		start = "bash --noprofile --rcfile " + h.Path(".bashrc") + " -i"
	case "zsh":
		os.MkdirAll(h.Path(".zdot"), 0o700)
		os.WriteFile(h.Path(".zdot", ".zshrc"), []byte(rc), 0o600)
		start = "ZDOTDIR=" + h.Path(".zdot") + " zsh -d -i"
	case "fish":
		os.MkdirAll(h.Path(".config", "fish"), 0o700)
		os.WriteFile(h.Path(".config", "fish", "config.fish"), []byte(rc), 0o600)
		// Not fish's first start (see shelltest.Start).
		os.MkdirAll(h.Path(".local", "share", "fish", "generated_completions"), 0o700)
		os.WriteFile(h.Path(".config", "fish", "fish_variables"), []byte("# VERSION: 3.0\nSETUVAR __fish_initialized:3400\n"), 0o600)
		start = "fish -i"
	}
	if !clean {
		return "cd " + h.Dir + " && exec env " + strings.Join(quoteAll(extra), " ") + " " + start
	}
	env := append(append([]string{}, h.Env...), extra...)
	return "cd " + h.Dir + ` && exec env -i TMUX="$TMUX" TMUX_PANE="$TMUX_PANE" STY="$STY" WINDOW="$WINDOW" TERM="$TERM" ` +
		strings.Join(quoteAll(env), " ") + " " + start
}

// TestCaptureInMultiplexers: bash, zsh and fish with the early line,
// capture on, inside a real tmux and a real GNU screen: the shell enters
// the capturing proxy in the multiplexer's window, and each command is
// recorded once with exactly its output (no command doubled, none split
// in two, none lost). The multiplexer is started from a clean
// environment, and (nested) from a bash that is itself captured, as a
// user starts tmux: the window's shell inherits that proxy's variables
// and must still enter a proxy of its own, on its own terminal.
func TestCaptureInMultiplexers(t *testing.T) {
	for _, mux := range []string{"tmux", "screen", "tmux-nested", "screen-nested"} {
		t.Run(mux, func(t *testing.T) {
			mux, nested := strings.CutSuffix(mux, "-nested")
			t.Parallel()
			if _, err := exec.LookPath(mux); err != nil {
				required.Skip(t, mux+" is not installed", "REQUIRE_SHELLS")
			}
			forAllShells(t, func(t *testing.T, shell string) {
				h := newHome(t)
				m := tmuxIn(t, h)
				if mux == "screen" {
					m = screenIn(t, h)
				}
				var outer *shelltest.Shell
				if nested {
					outer = startCaptured(t, h, "bash", plainPrompt("bash"))
				}
				rc := earlyLine(shell) + "echo run >>" + h.Path("rc-runs") + "\n" + plainPrompt(shell) + initLine(shell)
				start := m.start(shellCommand(t, h, shell, rc, !nested, captureOn...))
				if nested {
					runPrompt(t, outer, start)
				} else if out, err := exec.Command("sh", "-c", start).CombinedOutput(); err != nil {
					t.Fatalf("%s: %v: %s", mux, err, out)
				}
				var screen string
				wait := func(what string, ok func() bool) {
					t.Helper()
					shelltest.Eventually(t, 20*time.Second, ok, func() string {
						return fmt.Sprintf("%s; the window shows:\n%s", what, screen)
					})
				}
				prompts := func(n int) func() bool {
					return func() bool {
						screen = m.screen()
						return len(shellPrompts(screen)) >= n
					}
				}
				wait("no first prompt", prompts(1))
				// The outer shell's command that started the multiplexer
				// is recorded first, with no output.
				var first []storedOut
				if nested {
					first = []storedOut{{start, ""}}
				}
				lines := []storedOut{
					{"echo alpha; echo beta", "alpha\nbeta\n"},
					{"seq 3", "1\n2\n3\n"},
					{"sh -c 'echo gamma >&2; exit 3'", "gamma\n"},
					{"true", ""},
				}
				for i, l := range lines {
					m.keys(l.cmd)
					// The next prompt and the record: then the next line.
					wait(fmt.Sprintf("no prompt after %q", l.cmd), prompts(i+2))
					wait(fmt.Sprintf("%q not recorded", l.cmd), func() bool { return len(entries(t, h)) >= i+1+len(first) })
				}
				got := checkOutputs(t, h, append(first, lines...))[len(first):]
				if got[2].ExitCode != 3 {
					t.Errorf("exit status %d; want 3", got[2].ExitCode)
				}
				// It is the proxy's capture (not a read of the pane), and the
				// rc ran once.
				if !proxyRunning(h) {
					t.Errorf("no capturing proxy (hookd shell) runs in the %s window", mux)
				}
				if n := rcRuns(h); n != 1 {
					t.Errorf("the rc ran %d times; want once", n)
				}
			})
		})
	}
}

// shellPrompts are the lines of screen that start with the prompt ("$ ",
// zsh's "# " or "% "), a command typed after it or not.
func shellPrompts(screen string) []string {
	var ps []string
	for _, l := range strings.Split(screen, "\n") {
		if l = strings.TrimRight(l, " \x00"); len(l) > 0 && strings.Contains("$#%", l[:1]) && (len(l) == 1 || l[1] == ' ') {
			ps = append(ps, l)
		}
	}
	return ps
}

// proxyRunning says whether a capturing proxy (hookd shell) of the home's
// runs.
func proxyRunning(h *shelltest.Home) bool {
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		cmdline, _ := os.ReadFile(filepath.Join(d, "cmdline"))
		env, _ := os.ReadFile(filepath.Join(d, "environ"))
		if strings.Contains(string(cmdline), "hookd\x00shell\x00") && strings.Contains(string(env), "\x00HOME="+h.Dir+"\x00") {
			return true
		}
	}
	return false
}
