package main

import (
	"fmt"
	"github.com/hookd/hookd/internal/required"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/shelltest"
)

// TestFixFromTmuxPane: without a capture of its own, hookd reads the failed
// command's output back from the tmux pane, which this failure needs (the
// fix depends on grep's message).
func TestFixFromTmuxPane(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		required.Skip(t, "tmux is not installed", "REQUIRE_SHELLS")
	}
	shelltest.Need(t, "bash")
	h := newHome(t)
	os.MkdirAll(h.Path("src"), 0o755)
	os.WriteFile(h.Path("src", "a.txt"), []byte("TODO\n"), 0o644)
	rc := h.Path(".bashrc")
	os.WriteFile(rc, []byte("PS1='[st=$?] $ '\n"+initLine("bash")), 0o600)
	sock := filepath.Join(h.Dir, "tmux.sock")
	tmux := func(args ...string) string {
		out, _ := exec.Command("tmux", append([]string{"-S", sock}, args...)...).CombinedOutput()
		return string(out)
	}
	shell := "cd " + h.Dir + ` && exec env -i TMUX="$TMUX" TMUX_PANE="$TMUX_PANE" ` + strings.Join(quoteAll(h.Env), " ") + " bash --noprofile --rcfile " + rc + " -i"
	if out, err := exec.Command("tmux", "-S", sock, "-f", "/dev/null", "new-session", "-d", "-x", "150", "-y", "40", shell).CombinedOutput(); err != nil {
		t.Fatalf("tmux: %v %s", err, out)
	}
	t.Cleanup(func() { tmux("kill-server") })
	wait := func(want string) {
		t.Helper()
		var screen string
		shelltest.Eventually(t, 15*time.Second, func() bool {
			screen = tmux("capture-pane", "-p")
			return strings.Contains(screen, want)
		}, func() string { return fmt.Sprintf("no %q on the screen:\n%s", want, screen) })
	}
	wait("[st=0] $")
	tmux("send-keys", "grep TODO src", "Enter")
	wait("↳ grep -r TODO src")
	tmux("send-keys", "fix", "Enter")
	wait("run it (low risk)? [y/N, then Enter]")
	tmux("send-keys", "y", "Enter")
	wait("src/a.txt:TODO")
}

func quoteAll(env []string) []string {
	out := make([]string, len(env))
	for i, kv := range env {
		out[i] = "'" + strings.ReplaceAll(kv, "'", `'\''`) + "'"
	}
	return out
}

// TestSearchPagerShortOutputAtTop: in tmux, Ctrl-O with the default pager
// (less) shows a two-line output at the top of the screen, not at the
// bottom of an empty one (issue 32).
func TestSearchPagerShortOutputAtTop(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		required.Skip(t, "tmux is not installed", "REQUIRE_SHELLS")
	}
	required.Tool(t, "less", "REQUIRE_SHELLS")
	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		rc := "unset PAGER LESS\n" + searchPrompt[shell] + initLine(shell)
		start := " bash --noprofile --rcfile " + h.Path(".bashrc") + " -i"
		os.WriteFile(h.Path(".bashrc"), []byte(rc), 0o600)
		if shell == "zsh" {
			os.MkdirAll(h.Path(".zdot"), 0o700)
			os.WriteFile(h.Path(".zdot", ".zshrc"), []byte(rc), 0o600)
			start = " ZDOTDIR=" + h.Path(".zdot") + " zsh -d -i"
		}
		sock := filepath.Join(h.Dir, "tmux.sock")
		tmux := func(args ...string) string {
			out, _ := exec.Command("tmux", append([]string{"-S", sock}, args...)...).CombinedOutput()
			return string(out)
		}
		cmd := "cd " + h.Dir + ` && exec env -i TMUX="$TMUX" TMUX_PANE="$TMUX_PANE" ` + strings.Join(quoteAll(h.Env), " ") + start
		if out, err := exec.Command("tmux", "-S", sock, "-f", "/dev/null", "new-session", "-d", "-x", "120", "-y", "30", cmd).CombinedOutput(); err != nil {
			t.Fatalf("tmux: %v %s", err, out)
		}
		t.Cleanup(func() { tmux("kill-server") })
		var screen string
		wait := func(want string) {
			t.Helper()
			shelltest.Eventually(t, 20*time.Second, func() bool {
				screen = tmux("capture-pane", "-p")
				return strings.Contains(screen, want)
			}, func() string { return fmt.Sprintf("no %q on the screen:\n%s", want, screen) })
		}
		wait("P>")
		tmux("send-keys", `hookd run -c "printf 'pagerword line1\nline2\n'"`, "Enter")
		waitSearchable(t, h, "pagerword")
		// The next prompt first: a Ctrl-R sent while the command still
		// runs reaches the terminal, not the line editor.
		wait("line2\nP>")
		tmux("send-keys", "C-r")
		wait("› ")
		tmux("send-keys", "-l", "pagerword")
		wait("⊳")
		tmux("send-keys", "C-o")
		wait("(END)")
		if first := strings.SplitN(screen, "\n", 2)[0]; !strings.HasPrefix(first, "pagerword line1") {
			t.Errorf("the pager's first line is %q; want the output's first line at the top:\n%s", first, screen)
		}
		tmux("send-keys", "q")
		wait("› pagerword")
		tmux("send-keys", "Escape")
	})
}
