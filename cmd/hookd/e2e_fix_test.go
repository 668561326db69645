package main

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/shelltest"
)

// TestFixFlow: a failure prints its fix before the next prompt, the prompt
// still shows the failure's status, and `fix` applies it only with consent.
func TestFixFlow(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		rc := "PS1='[st=$?] $ '\nPROMPT='[st=%?] %# '\n" + initLine(shell)
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: rc})
		s.Type("ech fixed-it\r")
		// The fix comes before the prompt that shows the failure's status.
		s.WaitForPlain(regexp.MustCompile(`(?s)ech fixed-it\n.*↳ echo fixed-it\s+fix\n\[st=127\] [$#%] `), 10*time.Second)
		s.Sync()
		// Nothing for an interrupted command or an ordinary "no".
		mark := len(s.Plain())
		s.Run("grep -q nothing /dev/null")
		s.Run("(exit 130)")
		if out := s.Plain()[mark:]; strings.Contains(out, "↳") {
			t.Errorf("a suggestion after grep's no or exit 130: %q", out)
		}
		s.Run("ech again")
		if shell == "bash" {
			s.Type("fix\r")
			s.WaitForPlain(regexp.MustCompile(`run it\? \[y/N\] $`), 5*time.Second)
			s.Type("n\r")
			s.Sync()
			if strings.Contains(s.Plain(), "\nagain\n") {
				t.Fatalf("fix ran without consent")
			}
			s.Type("fix\r")
			s.WaitForPlain(regexp.MustCompile(`(?s)run it\? \[y/N\] .*run it\? \[y/N\] $`), 5*time.Second)
			s.Type("y\r")
		} else {
			// zsh puts the fix on the command line: Enter runs it.
			s.Type("fix\r")
			s.WaitForPlain(regexp.MustCompile(`(?s)fix\n.*% echo again$|# echo again$`), 5*time.Second)
			if strings.Contains(s.Plain(), "\nagain\n") {
				t.Fatalf("fix ran without Enter")
			}
			s.Type("\r")
		}
		s.WaitForPlain(regexp.MustCompile(`\nagain\n`), 5*time.Second)
		s.Sync()
		// The fix is in the history as itself.
		got := commandsOf(entries(t, h))
		if got[len(got)-1] != "echo again" {
			t.Errorf("history ends with %q; want the fix itself", got[len(got)-1])
		}
	})
}
