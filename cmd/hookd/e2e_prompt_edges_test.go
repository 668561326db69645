package main

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/ai/llm/llmtest"
	"github.com/hookd/hookd/internal/shelltest"
)

// TestOfferBelongsToItsQuestion: an answer's command is offered on the
// next command line only after the question that made it. A typed `hookd
// ask` whose answer has a command, then a `??` whose answer has none: the
// line after it is empty, so what is typed there runs as typed (not
// appended to the old command).
func TestOfferBelongsToItsQuestion(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		fake := llmtest.NewOpenAI(t)
		fake.SetKey("test-key")
		fake.SetReply(llmtest.Reply{Text: []string{"Run:\n\n```sh\necho old-offer\n```\n"}})
		h := newHome(t)
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: "PS1='$ '\nPROMPT='%# '\n" + initLine(shell), Env: llmEnv(fake)})
		s.Run("hookd ask -- 'typed question'")
		s.WaitForPlain(regexp.MustCompile(`echo old-offer`), 10*time.Second)
		fake.SetReply(llmtest.Reply{Text: []string{"Nothing to run for that."}})
		from := len(s.Output())
		s.Type("?? second question\r")
		// The answer, then the line editor back at the next prompt.
		shelltest.Eventually(t, 20*time.Second, func() bool {
			return regexp.MustCompile(`Nothing to run for that\.(?s:.*)\x1b\[\?2004h`).MatchString(s.Output()[from:])
		}, func() string { return "no answer and prompt; output:\n" + s.Output()[from:] })
		s.Type("echo typed-after\r")
		s.WaitForPlain(regexp.MustCompile(`\ntyped-after\n`), 10*time.Second)
		s.Sync()
		es := entries(t, h)
		if last := es[len(es)-1].Command; last != "echo typed-after" {
			t.Errorf("the line after a question that offered nothing ran as %q; want echo typed-after", last)
		}
	})
}

// TestEndTimeBeforeOtherPromptCode: a command's end time is taken before
// any other prompt code runs, whatever order the user's hooks were added
// in: zsh's precmd() function (which zsh runs before precmd_functions),
// defined before hookd's line or after it, a precmd hook put before
// hookd's, and in bash prompt code put before hookd's in PROMPT_COMMAND.
// Each takes a second; `true` must be recorded as far less.
func TestEndTimeBeforeOtherPromptCode(t *testing.T) {
	rcs := map[string]map[string]string{
		"bash": {
			"prepended": initLine("bash") + "PROMPT_COMMAND=\"sleep 1;$PROMPT_COMMAND\"\n",
			"array":     "PROMPT_COMMAND=(:)\n" + initLine("bash") + "PROMPT_COMMAND=('sleep 1' \"${PROMPT_COMMAND[@]}\")\n",
		},
		"zsh": {
			"precmd before": "precmd() { sleep 1 }\n" + initLine("zsh") + "slow() { sleep 1 }\nprecmd_functions=(slow $precmd_functions)\n",
			"precmd after":  initLine("zsh") + "precmd() { local st=$?; sleep 1; print -r -- \"status=$st\" }\n",
		},
	}
	forEachShell(t, func(t *testing.T, shell string) {
		for name, rc := range rcs[shell] {
			t.Run(name, func(t *testing.T) {
				h := newHome(t)
				s := shelltest.Start(t, h, shell, shelltest.Options{RC: "PS1='$ '\nPROMPT='%# '\n" + rc})
				s.Run("true")
				s.Run("false")
				es := entries(t, h)
				if len(es) != 2 {
					t.Fatalf("recorded %+v", es)
				}
				for _, e := range es {
					if e.DurationMS >= 900 {
						t.Errorf("%s recorded as %.0f ms: the prompt code's second was counted", e.Command, e.DurationMS)
					}
				}
				if es[1].ExitCode != 1 {
					t.Errorf("false recorded with status %d", es[1].ExitCode)
				}
				if name == "precmd after" {
					s.WaitForPlain(regexp.MustCompile(`status=1\n`), 10*time.Second)
				}
			})
		}
	})
}

// noReapEnv makes the test binary noReapInit (noreap_linux_test.go), its
// child started in the directory it names.
const noReapEnv = "HOOKD_TEST_NOREAP"

// daemonInPIDFile is the pid in the daemon's pid file (0 for none) and whether
// that process runs (a zombie does not).
func daemonInPIDFile(h *shelltest.Home) (int, bool) {
	b, err := os.ReadFile(h.Path(".local", "state", "hookd", "agent.pid"))
	if err != nil {
		return 0, false
	}
	pid, _ := strconv.Atoi(strings.Fields(string(b) + " 0")[0])
	st, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if pid == 0 || err != nil {
		return pid, false
	}
	state := strings.Fields(string(st[bytes.LastIndexByte(st, ')')+1:]))[0]
	return pid, state != "Z" && state != "X"
}

// TestZombieDaemon: in a container whose PID 1 never reaps, a killed daemon
// stays a zombie; it counts as dead, and the next prompt starts a new one
// (the promise "restarted by the next prompt"), in bash and zsh.
func TestZombieDaemon(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		// The test binary reads files of its package as it starts: it
		// starts there, and its child in the home.
		pkg, err := os.Getwd()
		if err != nil {
			t.Fatal(err)
		}
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: initLine(shell),
			Wrap: []string{"sh", "-c", `cd "$0" && exec "$@"`, pkg, os.Args[0]}, Env: []string{noReapEnv + "=" + h.Dir}})
		var old int
		shelltest.Eventually(t, 20*time.Second, func() bool {
			pid, alive := daemonInPIDFile(h)
			if alive {
				old = pid
				return true
			}
			s.Run("true")
			return false
		}, func() string { return "no daemon started" })
		s.Run("echo before-the-kill")
		if err := syscall.Kill(old, syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		// Dead, not reaped: a zombie (its parent, the init above, never waits).
		for i := 0; ; i++ {
			st, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", old))
			if err != nil {
				t.Fatalf("the killed daemon was reaped: the test's init does reap (%v)", err)
			}
			if strings.Contains(string(st[bytes.LastIndexByte(st, ')'):]), ") Z ") {
				break
			}
			if i > 2000 {
				t.Fatalf("the daemon did not die")
			}
			time.Sleep(5 * time.Millisecond)
		}
		shelltest.Eventually(t, 20*time.Second, func() bool {
			s.Run("echo after-the-kill")
			pid, alive := daemonInPIDFile(h)
			return alive && pid != old
		}, func() string {
			pid, alive := daemonInPIDFile(h)
			return fmt.Sprintf("the prompt did not start a new daemon (pid file: %d, running %v; the old one, %d, is a zombie)", pid, alive, old)
		})
	})
}

// TestFixWaitNotTimed: bash's `fix` says that the answer takes Enter, and
// the fix it runs is recorded with its own duration, without the time the
// question waited for the answer.
func TestFixWaitNotTimed(t *testing.T) {
	shelltest.Need(t, "bash")
	h := newHome(t)
	s := shelltest.Start(t, h, "bash", shelltest.Options{RC: "PS1='$ '\n" + initLine("bash")})
	s.Type("ech fixed-it\r")
	s.WaitForPlain(regexp.MustCompile(`↳ echo fixed-it`), 10*time.Second)
	s.Sync()
	s.Type("fix\r")
	s.WaitForPlain(regexp.MustCompile(`run it \(low risk\)\? \[y/N, then Enter\] $`), 10*time.Second)
	time.Sleep(1500 * time.Millisecond) // the user thinks it over
	s.Type("y\r")
	s.WaitForPlain(regexp.MustCompile(`\nfixed-it\n`), 10*time.Second)
	s.Sync()
	es := entries(t, h)
	last := es[len(es)-1]
	if last.Command != "echo fixed-it" || last.DurationMS >= 1000 {
		t.Errorf("the fix was recorded as %q, %.0f ms; want echo fixed-it, without the 1.5 s wait", last.Command, last.DurationMS)
	}
}
