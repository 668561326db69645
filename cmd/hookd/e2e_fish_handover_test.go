package main

import (
	"cmp"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/hookd/hookd/internal/recording/ptyshell"
	"github.com/hookd/hookd/internal/shelltest"
)

func cmdlineOf(pid int) string {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	return string(b)
}

// handoverProxy returns the proxy below the first fish of a terminal: the
// early line's hookd, which ps shows as `hookd shell`.
func handoverProxy(t *testing.T, first int) int {
	t.Helper()
	for _, c := range shelltest.Children(first) {
		if isProxy(c) {
			return c
		}
	}
	t.Fatalf("no `hookd shell` below the terminal's fish (%q); its children: %v", cmdlineOf(first), shelltest.Children(first))
	return 0
}

// fishWithExitCounter is a home whose fish counts its fish_exit events in
// the home's "exits" file, from conf.d (read before config.fish: by the
// first fish and the new one alike).
func fishWithExitCounter(t *testing.T) *shelltest.Home {
	shelltest.Need(t, "fish")
	h := newHome(t)
	confd := h.Path(".config", "fish", "conf.d")
	if err := os.MkdirAll(confd, 0o700); err != nil {
		t.Fatal(err)
	}
	counter := "function _count_exit --on-event fish_exit\n    echo exit >>" + h.Path("exits") + "\nend\n"
	if err := os.WriteFile(filepath.Join(confd, "count-exit.fish"), []byte(counter), 0o600); err != nil {
		t.Fatal(err)
	}
	return h
}

// TestFishHandover: fish's early line's hookd becomes the capturing proxy
// itself, below the first fish (ptyshell.Handover), with no second hookd:
// ps shows it as `hookd shell`, the fish the user types in runs below it,
// config.fish runs once and output is captured; no handover directory is
// left; the new fish's exit status is the terminal's, and a fish_exit
// handler runs once (the first fish ends without running its own).
func TestFishHandover(t *testing.T) {
	h := fishWithExitCounter(t)
	s := shelltest.Start(t, h, "fish", shelltest.Options{RC: countingRC(h, "fish", true), Env: captureOn})
	first := s.PID()
	if !strings.Contains(cmdlineOf(first), "fish") {
		t.Fatalf("the terminal runs %q; want the first fish", cmdlineOf(first))
	}
	proxy := handoverProxy(t, first)
	var inner []string
	for _, c := range shelltest.Children(proxy) {
		inner = append(inner, cmdlineOf(c))
	}
	if len(inner) != 1 || !strings.Contains(inner[0], "fish") {
		t.Fatalf("below the proxy: %q; want the new fish", inner)
	}
	runPrompt(t, s, "echo handed-over")
	if n := rcRuns(h); n != 1 {
		t.Errorf("config.fish ran %d times; want once", n)
	}
	if left, _ := filepath.Glob(h.Path(".run", "hookd", "fish-early-*")); len(left) > 0 {
		t.Errorf("handover directories left: %q", left)
	}
	if p := ptyshell.Problem(h.Path(".local", "state", "hookd", "capture-problem")); p != "" {
		t.Errorf("a capture problem was noted: %q", p)
	}
	s.Type("exit 3\r")
	if code := s.Wait(20 * time.Second); code != 3 {
		t.Errorf("the terminal's process ended with %d; want the shell's 3", code)
	}
	var got []string
	for _, o := range outputs(t, h) {
		got = append(got, o.Command+" → "+o.Output)
	}
	if !strings.Contains(strings.Join(got, "\n"), "echo handed-over → handed-over\n") {
		t.Errorf("recorded %q; want echo handed-over with its output", got)
	}
	// Both fishes are gone once the terminal's process is: the new one
	// before the proxy wrote its status, the first one by its exec.
	if b, _ := os.ReadFile(h.Path("exits")); strings.Count(string(b), "exit\n") != 1 {
		t.Errorf("fish_exit handlers ran %d times; want once (the first fish runs none)", strings.Count(string(b), "exit\n"))
	}
}

// TestFishHandoverProxyKilled: when the proxy dies (killed), the first
// fish, which waited for it, goes on as the shell, capture off: the
// terminal keeps a working shell.
func TestFishHandoverProxyKilled(t *testing.T) {
	h := fishWithExitCounter(t)
	s := shelltest.Start(t, h, "fish", shelltest.Options{RC: countingRC(h, "fish", true), Env: captureOn})
	runPrompt(t, s, "echo before")
	proxy := handoverProxy(t, s.PID())
	m := s.Mark()
	if err := syscall.Kill(proxy, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	// The first fish runs the rest of config.fish and starts its line
	// editor.
	s.WaitSince(m, regexp.MustCompile(`\x1b\[\?2004h`), 20*time.Second)
	m = s.Mark()
	s.Type("echo alive-$HOOKD_CAPTURE\r")
	s.WaitPlainSince(m, regexp.MustCompile(`(?m)^alive-off\r?$`), 20*time.Second)
	if code := s.Exit(); code != 0 {
		t.Errorf("exit status %d", code)
	}
}

// TestFishHandoverNotInteractive: a fish that is not interactive (fish -c
// on a terminal) keeps its terminal: it says no at once, runs its command
// and ends, with no proxy, no problem noted and no directory left behind.
func TestFishHandoverNotInteractive(t *testing.T) {
	shelltest.Need(t, "fish")
	h := newHome(t)
	fd := h.Path(".config", "fish")
	os.MkdirAll(fd, 0o700)
	os.MkdirAll(h.Path(".local", "share", "fish", "generated_completions"), 0o700)
	os.WriteFile(filepath.Join(fd, "fish_variables"), []byte("# VERSION: 3.0\nSETUVAR __fish_initialized:3400\n"), 0o600)
	if err := os.WriteFile(filepath.Join(fd, "config.fish"), []byte(countingRC(h, "fish", true)), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(shelltest.Need(t, "fish"), "-c", "echo not-interactive-$status")
	cmd.Env = append(append([]string{}, h.Env...), captureOn...)
	cmd.Dir = h.Dir
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer ptmx.Close()
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	tty.Close()
	out, _ := io.ReadAll(ptmx) // to the end: EIO once fish is gone
	if err := cmd.Wait(); err != nil {
		t.Fatalf("fish -c: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "not-interactive-0") || strings.Contains(string(out), "hookd") {
		t.Errorf("fish -c printed %q; want its command's output alone", out)
	}
	if p := ptyshell.Problem(h.Path(".local", "state", "hookd", "capture-problem")); p != "" {
		t.Errorf("a capture problem was noted: %q", p)
	}
	if left, _ := filepath.Glob(h.Path(".run", "hookd", "fish-early-*")); len(left) > 0 {
		t.Errorf("handover directories left: %q", left)
	}
}

// TestFishOnDemandNotOnPromptPath: fish reads hookd's on-demand functions
// (shellinit.FishOnDemand) only when the user asks for one: with their
// file gone, commands (one failing, with fixes on offer) are recorded and
// nothing says it is missing, until the fix command, which needs them,
// says so.
func TestFishOnDemandNotOnPromptPath(t *testing.T) {
	shelltest.Need(t, "fish")
	h := newHome(t)
	script := hookd(t, h, "init", "--capture=off", "fish")
	m := regexp.MustCompile(`source '([^']*on-demand-[0-9a-f]+\.fish)'`).FindStringSubmatch(script)
	if m == nil {
		t.Fatalf("the script loads no on-demand file:\n%s", script)
	}
	if err := os.Remove(m[1]); err != nil {
		t.Fatal(err)
	}
	file := h.Path("hookd.fish")
	if err := os.WriteFile(file, []byte(script), 0o600); err != nil {
		t.Fatal(err)
	}
	s := shelltest.Start(t, h, "fish", shelltest.Options{RC: plainPrompt("fish") + "source " + file + "\n"})
	for _, line := range []string{"echo one", "gti status", "cd /tmp", "echo two"} {
		s.Run(line)
	}
	if strings.Contains(s.Plain(), "is missing") {
		t.Fatalf("an on-demand function ran on the prompt's path:\n%s", s.Plain())
	}
	// In the session's order (fish's times are to a hundredth of a second,
	// and a command typed within one of the last may sort before it).
	es := entries(t, h)
	slices.SortFunc(es, func(a, b rec) int { return cmp.Compare(a.Seq, b.Seq) })
	if got := commandsOf(es); !equal(got, []string{"echo one", "gti status", "cd /tmp", "echo two"}) {
		t.Errorf("recorded %q", got)
	}
	mark := s.Mark()
	s.Type("fix\r")
	s.WaitPlainSince(mark, regexp.MustCompile(`is missing: start a new shell`), 20*time.Second)
}
