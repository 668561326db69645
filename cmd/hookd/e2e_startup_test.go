package main

import (
	"cmp"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/required"
	"github.com/hookd/hookd/internal/shelltest"
)

// earlyLine is the rc file's first line that enters the capturing proxy
// there (issue 22).
func earlyLine(shell string) string {
	if shell == "fish" {
		return "hookd init fish --early | source\n"
	}
	return fmt.Sprintf("eval \"$(hookd init %s --early)\"\n", shell)
}

// plainPrompt is rc code that sets a plain prompt.
func plainPrompt(shell string) string {
	if shell == "fish" {
		return "function fish_prompt; printf '$ '; end\n"
	}
	return "PS1='$ '\nPROMPT='%# '\n"
}

// countingRC is an rc file that counts its runs in the home's rc-runs file
// between hookd's lines.
func countingRC(h *shelltest.Home, shell string, early bool) string {
	rc := "echo run >>" + h.Path("rc-runs") + "\n" + plainPrompt(shell) + initLine(shell)
	if early {
		rc = earlyLine(shell) + rc
	}
	return rc
}

// kindOf is a command line that prints what NAME is: bash and fish say
// "file", "function" or "NAME: none"; zsh "NAME: command", "NAME:
// function" or "NAME: none".
func kindOf(shell, name string) string {
	if shell == "zsh" {
		return "whence -w " + name
	}
	return "type -t " + name + " 2>/dev/null || echo " + name + ": none"
}

// isProxy reports whether process pid is the capturing proxy, as ps shows
// it: `hookd shell`.
func isProxy(pid int) bool {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	return strings.Contains(string(b), "hookd\x00shell\x00")
}

// proxyOf reports whether the terminal's process pid is the capturing
// proxy: bash and zsh re-execute themselves under it. In fish the early
// line's hookd becomes the proxy below the first fish, which waits for it
// (ptyshell.Handover): there it is pid's child. It returns the command
// line of pid as well.
func proxyOf(pid int, shell string) (string, bool) {
	cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if isProxy(pid) {
		return string(cmdline), true
	}
	if shell == "fish" {
		for _, c := range shelltest.Children(pid) {
			if isProxy(c) {
				return string(cmdline), true
			}
		}
	}
	return string(cmdline), false
}

func rcRuns(h *shelltest.Home) int {
	b, _ := os.ReadFile(h.Path("rc-runs"))
	return strings.Count(string(b), "run\n")
}

// TestEarlyLineRunsRCOnce: with the early line first and the usual line
// last, each new terminal enters the capturing proxy at the early line, so
// that the rc file runs once per terminal (a counter in it goes up by one),
// and commands are recorded with their output; `hookd status` suggests
// nothing. With the usual line alone, today's behaviour stays (the rc runs
// twice) and `hookd status` suggests the early line.
func TestEarlyLineRunsRCOnce(t *testing.T) {
	forAllShells(t, func(t *testing.T, shell string) {
		h := newHome(t)
		for term := 1; term <= 2; term++ {
			s := shelltest.Start(t, h, shell, shelltest.Options{RC: countingRC(h, shell, true), Env: captureOn})
			if cmdline, ok := proxyOf(s.PID(), shell); !ok {
				t.Fatalf("terminal %d: the shell did not enter the proxy: the terminal runs %q", term, cmdline)
			}
			runPrompt(t, s, fmt.Sprintf("echo early-%d", term))
			if n := rcRuns(h); n != term {
				t.Fatalf("after %d new terminals the rc file ran %d times; want %d", term, n, term)
			}
			// The early line's `hookd` function is gone once the usual
			// line has run.
			runPrompt(t, s, kindOf(shell, "hookd"))
			s.WaitForPlain(regexp.MustCompile(`\n(file|hookd: command)\n`), 10*time.Second)
			s.Run("hookd status > " + h.Path("status.txt"))
			st, _ := os.ReadFile(h.Path("status.txt"))
			if strings.Contains(string(st), "--early") || !strings.Contains(string(st), "on: this shell runs under hookd shell") {
				t.Errorf("terminal %d: hookd status:\n%s", term, st)
			}
			s.Exit()
		}
		var got []string
		for _, o := range outputs(t, h) {
			if strings.HasPrefix(o.Command, "echo early-") {
				got = append(got, o.Command+" → "+o.Output)
			}
		}
		if want := []string{"echo early-1 → early-1\n", "echo early-2 → early-2\n"}; !equal(got, want) {
			t.Errorf("recorded %q; want %q", got, want)
		}

		// The usual line alone: the rc runs again in the proxy's shell, and
		// hookd status says how to make it run once.
		h2 := newHome(t)
		s := shelltest.Start(t, h2, shell, shelltest.Options{RC: countingRC(h2, shell, false), Env: captureOn})
		s.Run("hookd status > " + h2.Path("status.txt"))
		if n := rcRuns(h2); n != 2 {
			t.Errorf("with the usual line alone the rc file ran %d times; want 2 (as before)", n)
		}
		st, _ := os.ReadFile(h2.Path("status.txt"))
		if want := strings.TrimSpace(earlyLine(shell)); !strings.Contains(string(st), want) {
			t.Errorf("hookd status does not suggest %s:\n%s", want, st)
		}
	})
}

// TestEarlyLineWithoutCapture: with capture off, the early line loads
// hookd's functions and the usual line runs them without a process; the
// rc runs once and commands are recorded. A `hookd` function of the
// user's own is left alone.
func TestEarlyLineWithoutCapture(t *testing.T) {
	forAllShells(t, func(t *testing.T, shell string) {
		h := newHome(t)
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: countingRC(h, shell, true), Env: []string{"HOOKD_CAPTURE=off"}})
		s.Run("echo plain")
		s.Run("false")
		s.RunAlone(kindOf(shell, "hookd") + "; " + kindOf(shell, "_hookd_init"))
		s.WaitForPlain(regexp.MustCompile(`\n(file|hookd: command)\n_hookd_init: none\n`), 10*time.Second)
		if n := rcRuns(h); n != 1 {
			t.Errorf("rc ran %d times; want 1", n)
		}
		if got := commandsOf(entries(t, h)); len(got) < 2 || got[0] != "echo plain" || got[1] != "false" {
			t.Errorf("recorded %q", got)
		}

		// A hookd function of the user's own, defined before the early line.
		h2 := newHome(t)
		own := "hookd() { command hookd \"$@\"; }\n"
		if shell == "fish" {
			own = "function hookd; command hookd $argv; end\n"
		}
		rc := own + earlyLine(shell) + initLine(shell)
		s = shelltest.Start(t, h2, shell, shelltest.Options{RC: rc, Env: []string{"HOOKD_CAPTURE=off"}})
		s.Run("echo with-my-function")
		s.RunAlone(kindOf(shell, "hookd"))
		s.WaitForPlain(regexp.MustCompile(`\n(function|hookd: function)\n`), 10*time.Second)
		if got := commandsOf(entries(t, h2)); len(got) == 0 || got[0] != "echo with-my-function" {
			t.Errorf("with a hookd function of the user's own, recorded %q", got)
		}
	})
}

// TestEarlyLineCannotCapture: where the proxy cannot start (no
// pseudo-terminals), the early line leaves a working shell at once, the rc
// runs once, commands are recorded, and hookd status says why.
func TestEarlyLineCannotCapture(t *testing.T) {
	wrap := []string{"unshare", "-r", "-m", "sh", "-c", `mount --bind /dev/null /dev/ptmx && exec "$@"`, "sh"}
	if out, err := exec.Command(wrap[0], append(wrap[1:len(wrap):len(wrap)], "true")...).CombinedOutput(); err != nil {
		required.Cannot(t, fmt.Sprintf("cannot hide /dev/ptmx here: this kernel or container allows no user and mount namespace (unshare: %v: %s)", err, out))
	}
	forAllShells(t, func(t *testing.T, shell string) {
		h := newHome(t)
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: countingRC(h, shell, true), Env: captureOn, Wrap: wrap})
		s.Run("echo still-works")
		s.Run("hookd status > " + h.Path("status.txt"))
		st, _ := os.ReadFile(h.Path("status.txt"))
		if !strings.Contains(string(st), "pseudo-terminal") {
			t.Errorf("hookd status does not say why capture is off:\n%s", st)
		}
		if n := rcRuns(h); n != 1 {
			t.Errorf("rc ran %d times; want 1", n)
		}
		if got := commandsOf(entries(t, h)); len(got) == 0 || got[0] != "echo still-works" {
			t.Errorf("recorded %q", got)
		}
	})
}

// TestNoProcessAtStartUp: hookd's code starts no process while a shell
// starts (issue 22: no subshell for the key checks, the trap check, the
// session header; the daemon, running, is not waited for). The script
// `hookd init` printed is sourced from a file, so that the only process
// the usual line starts, hookd init itself, is not counted; strace counts
// every fork of the shell (threads aside) up to its second prompt (in
// fish, past a command that changes the environment and a pipeline too).
func TestNoProcessAtStartUp(t *testing.T) {
	if _, err := exec.LookPath("strace"); err != nil {
		required.Skip(t, "strace is not installed", "REQUIRE_SHELLS")
	}
	forAllShells(t, func(t *testing.T, shell string) {
		h := newHome(t)
		if _, errOut, err := hookdRun(h, nil, "daemon", "--detach"); err != nil {
			t.Fatalf("start the daemon: %v\n%s", err, errOut)
		}
		daemonPID(t, h)
		// Names watched besides the built-in ones are spliced into the
		// prompt's check at start-up: without a process either.
		os.MkdirAll(h.Path(".config", "hookd"), 0o700)
		if err := os.WriteFile(h.Path(".config", "hookd", "config.yaml"), []byte("fix:\n  watch_env: [API_URL]\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		// Without capture: entering the proxy is starting a process.
		script := hookd(t, h, "init", "--capture=off", shell)
		// (zsh's definitions are one quoted word: shellinit's zshOwnOptions.)
		if !strings.Contains(script, "_hookd_watch='API_URL'") && !strings.Contains(script, "_hookd_watch 'API_URL'") &&
			!strings.Contains(script, `_hookd_watch='\''API_URL'\''`) {
			t.Fatalf("fix.watch_env is not in the script")
		}
		file := h.Path("hookd." + shell)
		if err := os.WriteFile(file, []byte(script), 0o600); err != nil {
			t.Fatal(err)
		}
		trace := h.Path("strace.out")
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: plainPrompt(shell) + "source " + file + "\n",
			Wrap: []string{"strace", "-f", "-qq", "-o", trace, "-e", "trace=clone,clone3,fork,vfork"}})
		want := []string{"echo started"}
		s.Run("echo started")
		if shell == "fish" {
			want = append(want, "set -gx API_URL http://x; false | true")
			s.Run(want[1])
		}
		b, err := os.ReadFile(trace)
		if err != nil {
			t.Fatal(err)
		}
		var forks []string
		for _, l := range strings.Split(string(b), "\n") {
			if strings.TrimSpace(l) != "" && !strings.Contains(l, "CLONE_THREAD") {
				forks = append(forks, l)
			}
		}
		if len(forks) > 0 {
			t.Errorf("%d processes started while the shell started and ran a builtin:\n%s", len(forks), strings.Join(forks, "\n"))
		}
		if got := commandsOf(entries(t, h)); !equal(got, want) {
			t.Errorf("recorded %q; want %q", got, want)
		}
		// The watched name is in the prompt's check (and the record's).
		m := s.Mark()
		if shell == "fish" {
			s.Run("functions _hookd_postexec _hookd_envwrite | string match '*\"$API_URL\"*' | count")
		} else {
			s.Run("typeset -f _hookd_precmd _hookd_envrec | grep -c 'API_URL-'")
		}
		s.WaitPlainSince(m, regexp.MustCompile(`(?m)^2\r?$`), 30*time.Second)
	})
}

// TestZshWithoutHereDocument: zsh's definitions come in a here-document,
// which zsh writes to a temporary file; where it cannot (TMPPREFIX in a
// directory that does not exist), hookd still loads, through the quoted
// form, silently, with the early line too, and records.
func TestZshWithoutHereDocument(t *testing.T) {
	t.Parallel()
	shelltest.Need(t, "zsh")
	for _, early := range []bool{false, true} {
		h := newHome(t)
		rc := plainPrompt("zsh") + initLine("zsh")
		if early {
			rc = "eval \"$(hookd init zsh --early)\"\n" + rc
		}
		s := shelltest.Start(t, h, "zsh", shelltest.Options{RC: rc, Env: []string{"TMPPREFIX=" + h.Path("no such dir", "zsh")}})
		s.Run("echo loaded=${+functions[_hookd_preexec]}")
		s.WaitForPlain(regexp.MustCompile(`\nloaded=1`), 20*time.Second)
		if got := commandsOf(entries(t, h)); !equal(got, []string{"echo loaded=${+functions[_hookd_preexec]}"}) {
			t.Errorf("early=%v: recorded %q", early, got)
		}
		if strings.Contains(s.Plain(), "here document") {
			t.Errorf("early=%v: zsh's complaint reached the terminal:\n%s", early, s.Plain())
		}
	}
}

// TestFishProxyReadsStartUpFirst: under capture, fish's early line
// re-executes the shell under the proxy, and the proxy's fish finds hookd's
// start-up in a vendor_conf.d of hookd's, read before config.fish
// (shellinit.FishEarly): its config.fish's two hookd lines then start no
// process, so the only `hookd init` is the first fish's early line (there
// were two). The rc runs once, XDG_DATA_DIRS and the rest of the
// environment are the user's again, and commands are recorded with their
// output.
func TestFishProxyReadsStartUpFirst(t *testing.T) {
	if _, err := exec.LookPath("strace"); err != nil {
		required.Skip(t, "strace is not installed", "REQUIRE_SHELLS")
	}
	shelltest.Need(t, "fish")
	for _, xdg := range []string{"", "/opt/share:/usr/share"} {
		t.Run(fmt.Sprintf("XDG_DATA_DIRS=%q", xdg), func(t *testing.T) {
			h := newHome(t)
			// The daemon runs already: one the shell started would run
			// under strace, which waits for it.
			if _, errOut, err := hookdRun(h, nil, "daemon", "--detach"); err != nil {
				t.Fatalf("start the daemon: %v\n%s", err, errOut)
			}
			daemonPID(t, h)
			env := captureOn
			if xdg != "" {
				env = append(slices.Clone(env), "XDG_DATA_DIRS="+xdg)
			}
			trace := h.Path("strace.out")
			s := shelltest.Start(t, h, "fish", shelltest.Options{RC: countingRC(h, "fish", true), Env: env,
				Wrap: []string{"strace", "-f", "-qq", "-o", trace, "-e", "trace=execve"}})
			s.Run(`printf '<%s|%s|%s>\n' (set -q XDG_DATA_DIRS; and echo "$XDG_DATA_DIRS"; or echo unset) (set -q HOOKD_FISH_EARLY; and echo leaked; or echo ok) (set -q HOOKD_FISH_DATA_DIR; and echo leaked; or echo ok) >` + h.Path("env.txt"))
			got, _ := os.ReadFile(h.Path("env.txt"))
			if want := fmt.Sprintf("<%s|ok|ok>\n", cmp.Or(xdg, "unset")); string(got) != want {
				t.Errorf("the proxy's fish has %q; want %q", got, want)
			}
			runPrompt(t, s, "echo proxied-fish")
			if n := rcRuns(h); n != 1 {
				t.Errorf("the rc file ran %d times; want 1", n)
			}
			b, err := os.ReadFile(trace)
			if err != nil {
				t.Fatal(err)
			}
			var inits []string
			for _, l := range strings.Split(string(b), "\n") {
				if strings.Contains(l, "execve(") && strings.Contains(l, `"init", "fish"`) {
					inits = append(inits, l)
				}
			}
			if len(inits) != 1 {
				t.Errorf("%d hookd init processes before the proxy's fish ran a command; want 1 (the first fish's early line):\n%s",
					len(inits), strings.Join(inits, "\n"))
			}
			s.Exit()
			var out []string
			for _, o := range outputs(t, h) {
				if o.Command == "echo proxied-fish" {
					out = append(out, o.Output)
				}
			}
			if !equal(out, []string{"proxied-fish\n"}) {
				t.Errorf("outputs of echo proxied-fish: %q", out)
			}
		})
	}
}
