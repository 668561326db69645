package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/ai/llm/llmtest"
	"github.com/hookd/hookd/internal/shelltest"
)

// TestFixesThatMakeSense: under the prompt, in real bash and zsh (issue 32,
// items 5, 8 and 9): ~/run.sh without the execute bit gets chmod +x as
// ./run.sh does, never sudo; cd ~; cd srcc typed in ~/src/app offers
// cd src (the second cd runs in the home); a cause that only says the
// error again (nosuchfile does not exist) prints no line.
func TestFixesThatMakeSense(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		if err := os.MkdirAll(filepath.Join(h.Dir, "src", "app"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(h.Dir, "run.sh"), []byte("#!/bin/sh\necho ran\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: "PS1='$ '\nPROMPT='%# '\n" + initLine(shell)})

		s.Type("~/run.sh\r")
		s.WaitForPlain(regexp.MustCompile(`↳ chmod \+x ~/run\.sh && ~/run\.sh\s+fix`), 10*time.Second)
		s.Sync()

		s.Run("cd ~/src/app")
		s.Type("cd ~; cd srcc\r")
		s.WaitForPlain(regexp.MustCompile(`↳ cd src\s+fix\n`), 10*time.Second)
		s.Sync()

		mark := len(s.Plain())
		s.Run("ls nosuchfile")
		s.Run("echo done-$((6*7))")
		s.WaitForPlain(regexp.MustCompile(`done-42`), 5*time.Second)
		if out := s.Plain()[mark:]; strings.Contains(out, "↳") {
			t.Errorf("a line under ls nosuchfile that says the error again: %q", out)
		}
		if out := s.Plain(); strings.Contains(out, "sudo") {
			t.Errorf("sudo offered (the test runs as root or without sudo): %q", out)
		}
	})
}

// TestFixWithNothingFailed: fix in a new shell says no command failed yet
// (or hookd has no fix), not "no fix 1 for the last command"; fix 3 where
// there is one fix says how many there are (issue 32 item 13).
func TestFixWithNothingFailed(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: "PS1='$ '\nPROMPT='%# '\n" + initLine(shell)})
		s.Type("fix\r")
		s.WaitForPlain(regexp.MustCompile(`hookd: no fix on offer: no command has failed yet, or hookd has none for the last failure\n`), 10*time.Second)
		s.Sync()
		s.Type("ech hi\r")
		s.WaitForPlain(regexp.MustCompile(`↳ echo hi\s+fix\n`), 10*time.Second)
		s.Sync()
		s.Type("fix 3\r")
		s.WaitForPlain(regexp.MustCompile(`hookd: no fix 3: the last failed command has 1\n`), 10*time.Second)
		if strings.Contains(s.Plain(), "no fix 1 for") {
			t.Errorf("the old message: %q", s.Plain())
		}
	})
}

// TestAskAlone: `??` alone explains the last command (its output with it)
// instead of printing a usage line (issue 32 item 13).
func TestAskAlone(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		fake, _, s := askingShell(t, shell, "It ", "explained.")
		s.Run("printf 'oops: broken\\n'; false")
		s.Run("??")
		s.WaitForPlain(regexp.MustCompile(`It explained\.`), 10*time.Second)
		if strings.Contains(s.Plain(), "usage:") {
			t.Errorf("?? alone printed a usage line:\n%s", s.Plain())
		}
		if user := userMessage(t, fake); !strings.Contains(user, "oops: broken") || !strings.Contains(user, "last command") {
			t.Errorf("?? alone did not ask about the last command:\n%s", user)
		}
	})
}

// askingShell starts shell with hookd loaded, capture on, and a fake
// OpenAI server that answers text.
func askingShell(t *testing.T, shell string, text ...string) (*llmtest.Server, *shelltest.Home, *shelltest.Shell) {
	t.Helper()
	fake := llmtest.NewOpenAI(t)
	fake.SetKey("test-key")
	fake.SetReply(llmtest.Reply{Text: text})
	h := newHome(t)
	s := shelltest.Start(t, h, shell, shelltest.Options{RC: initLine(shell), Env: append(llmEnv(fake), "HOOKD_CAPTURE=pty")})
	return fake, h, s
}

// TestFixCallsAreNotFailures: the fix command's own line (no fix on offer,
// a number with none, an answer other than y, a fix put on the line) is
// hookd's, not the user's command: it is not recorded, so it is never a
// failure with fixes of its own, in stats or "it worked before"; the fix it
// runs is recorded as itself, and the fixes on offer stay the last failed
// command's (issue 32 item 13).
func TestFixCallsAreNotFailures(t *testing.T) {
	forAllShells(t, func(t *testing.T, shell string) {
		h := newHome(t)
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: plainPrompt(shell) + initLine(shell)})
		s.Type("ech kept-offer\r")
		s.WaitForPlain(regexp.MustCompile(`↳ echo kept-offer\s+fix\n`), 20*time.Second)
		s.Sync()
		m := s.Mark()
		s.Type("fix 3\r")
		s.WaitPlainSince(m, regexp.MustCompile(`hookd: no fix 3`), 10*time.Second)
		s.Sync()
		s.Type("fix 2\r")
		s.WaitPlainSince(m, regexp.MustCompile(`(?s)hookd: no fix 3.*hookd: no fix 2`), 10*time.Second)
		s.Sync()
		s.Type("fix\r")
		if shell == "zsh" {
			// zsh puts the fix on the line: Enter runs it.
			s.WaitPlainSince(m, regexp.MustCompile(`[%#] echo kept-offer$`), 10*time.Second)
			s.Type("\r")
		} else {
			s.WaitPlainSince(m, regexp.MustCompile(`run it \(low risk\)\? \[y/N, then Enter\] $`), 10*time.Second)
			s.Type("n\r")
			s.Sync()
			// Declined, and asked again: the offer is still the failure's.
			s.Type("fix 1\r")
			s.WaitPlainSince(m, regexp.MustCompile(`(?s)\[y/N, then Enter\] n\n.*run it \(low risk\)\? \[y/N, then Enter\] $`), 10*time.Second)
			s.Type("y\r")
		}
		s.WaitPlainSince(m, regexp.MustCompile(`[\n⏎] ?kept-offer\n`), 10*time.Second)
		s.Sync()
		if out := s.PlainSince(m); strings.Contains(out, "↳") {
			t.Errorf("fixes offered for the fix command's own line:\n%s", out)
		}
		var got []string
		for _, e := range entries(t, h) {
			got = append(got, fmt.Sprintf("%s=%d", e.Command, e.ExitCode))
		}
		if want := []string{"ech kept-offer=127", "echo kept-offer=0"}; !equal(got, want) {
			t.Errorf("history %q; want %q (the fix command's own lines left out)", got, want)
		}
	})
}

// TestStatusCountIsTheDatabases: hookd status gives one count of commands,
// the database's. The agent's own count was what that process stored, but
// hookd's other commands store what waits in the spools too (hookd history
// here, before the agent ran), so it disagreed (issue 32 item 13).
func TestStatusCountIsTheDatabases(t *testing.T) {
	h := newHome(t)
	hookd(t, h, "record", "--author", "claude", "--", "echo", "before-the-agent")
	hookd(t, h, "history") // the CLI stores the spooled command itself
	hookd(t, h, "daemon", "--detach")
	var st struct {
		Agent    *struct{ PID int }     `json:"agent"`
		Database struct{ Commands int } `json:"database"`
	}
	shelltest.Eventually(t, 10*time.Second, func() bool {
		hookd(t, h, "record", "--author", "claude", "--", "echo", "after")
		json.Unmarshal([]byte(hookd(t, h, "status", "--json")), &st)
		return st.Agent != nil
	}, func() string { return fmt.Sprintf("status: %+v", st) })
	out := hookd(t, h, "status")
	json.Unmarshal([]byte(hookd(t, h, "status", "--json")), &st)
	counts := regexp.MustCompile(`(\d+) commands?\b`).FindAllStringSubmatch(out, -1)
	if len(counts) == 0 {
		t.Fatalf("no count of commands:\n%s", out)
	}
	for _, c := range counts {
		if c[1] != fmt.Sprint(st.Database.Commands) {
			t.Errorf("status says %q; the database holds %d commands:\n%s", c[0], st.Database.Commands, out)
		}
	}
}

// TestSearchKeepsPromptLine: while Ctrl-R's search is open, the prompt's
// line (the prompt's last line and what was typed) stays on the screen,
// and after it closes too, in both shells, with a plain prompt, a
// multi-line coloured PS1 and a prompt set by PROMPT_COMMAND as
// starship's is. bash clears that line while a bind -x command runs; the
// search draws it again (issue 32 item 3).
func TestSearchKeepsPromptLine(t *testing.T) {
	prompts := []struct{ name, bash, zsh string }{
		{"plain", "PS1='P> '\n", "PROMPT='P> '\n"},
		{"multiline", "PS1='\\[\\e[1;34m\\]top line \\w\\[\\e[0m\\]\\nP> '\n", "PROMPT=$'%B%F{blue}top line %~%f%b\\nP> '\n"},
		{"prompt-command", "starshipish() { PS1=\"[\\$?] P> \"; }\nPROMPT_COMMAND=starshipish\n", "precmd() { PROMPT=\"[$?] P> \" }\n"},
	}
	forEachShell(t, func(t *testing.T, shell string) {
		for _, p := range prompts {
			t.Run(p.name, func(t *testing.T) {
				h := newHome(t)
				rc := p.bash
				if shell == "zsh" {
					rc = p.zsh
				}
				s := shelltest.Start(t, h, shell, shelltest.Options{RC: rc + initLine(shell)})
				s.Run("echo promptword")
				s.Editing()
				s.Type("echo typedline")
				s.WaitForScreen(regexp.MustCompile(`P> echo typedline\s*\z`), 20*time.Second)
				s.Type(ctrlR)
				screen := s.WaitForScreen(regexp.MustCompile(`(?m)^› echo typedline`), 20*time.Second)
				if !regexp.MustCompile(`(?m)^(\[0\] )?P> echo typedline\s*\n› echo typedline`).MatchString(screen) {
					t.Errorf("the prompt's line is not above the open search:\n%s", screen)
				}
				if p.name == "multiline" && !strings.Contains(screen, "top line") {
					t.Errorf("the prompt's first line is gone:\n%s", screen)
				}
				s.Type(esc)
				waitLineSuffix(t, s, "echo typedline")
			})
		}
	})
}

// waitLineSuffix waits until the search is gone and the screen's last line
// is the prompt with line on it, once.
func waitLineSuffix(t *testing.T, s *shelltest.Shell, line string) {
	t.Helper()
	screen := s.WaitForScreen(regexp.MustCompile(`(?m)^(\[0\] )?P> `+regexp.QuoteMeta(line)+`\s*\z`), 20*time.Second)
	if strings.Count(screen, "P> "+line) != 1 {
		t.Errorf("the prompt's line shows %d times after the search:\n%s", strings.Count(screen, "P> "+line), screen)
	}
}

// TestFixOutputIsTheFixs: under capture, a fix that fix runs after asking
// is stored with its own output only: the fix shown, the question and the
// answer are not part of it (they were, in bash and fish, before its output
// started again at the answer). zsh puts the fix on the line: no question.
func TestFixOutputIsTheFixs(t *testing.T) {
	forShells(t, []string{"bash", "fish"}, func(t *testing.T, shell string) {
		h := newHome(t)
		s := startCaptured(t, h, shell, plainPrompt(shell))
		runPrompt(t, s, "ech only-this")
		s.WaitForPlain(regexp.MustCompile(`↳ echo only-this\s+fix\n`), 20*time.Second)
		s.Editing()
		m := s.Mark()
		s.Type("fix\r")
		s.WaitPlainSince(m, regexp.MustCompile(`run it \(low risk\)\? \[y/N, then Enter\] $`), 10*time.Second)
		n := s.Prompts()
		s.Type("y\r")
		s.WaitPrompts(n+1, 20*time.Second)
		s.Sync()
		got := outputs(t, h)
		if len(got) != 2 || got[1].Command != "echo only-this" || got[1].Output != "only-this\n" {
			t.Errorf("stored %+v; want the failure, then echo only-this with its output only", got)
		}
	})
}
