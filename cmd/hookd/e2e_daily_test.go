package main

import (
	"regexp"
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
		deadline := time.Now().Add(20 * time.Second)
		for !regexp.MustCompile(`Nothing to run for that\.(?s:.*)\x1b\[\?2004h`).MatchString(s.Output()[from:]) {
			if time.Now().After(deadline) {
				t.Fatalf("no answer and prompt; output:\n%s", s.Output()[from:])
			}
			time.Sleep(10 * time.Millisecond)
		}
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
