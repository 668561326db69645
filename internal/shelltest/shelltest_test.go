package shelltest

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"time"
)

// promptRC makes each prompt start with the prompt mark, as hookd's hooks do.
var promptRC = map[string]string{
	"bash": `PS1=$'\[\e]133;A\a\]$ '` + "\n",
	"zsh":  `PROMPT=$'%{\e]133;A\a%}$ '` + "\n",
}

// TestLargeOutput drives a real shell through 10 MB of output: the waits
// see the end of it, count the prompts, and ignore what came before their
// mark.
func TestLargeOutput(t *testing.T) {
	for _, shell := range Shells {
		t.Run(shell, func(t *testing.T) {
			t.Parallel()
			h := NewHome(t, "")
			s := Start(t, h, shell, Options{RC: promptRC[shell]})
			s.Run("echo END-OF-BIG-BEFORE")
			before := s.Prompts()
			m := s.Mark()
			s.Type("head -c 10000000 /dev/zero | tr '\\0' x | fold -w 100; echo; echo END-OF-BIG\r")
			s.WaitPlainSince(m, regexp.MustCompile(`\nEND-OF-BIG\n`), time.Minute)
			s.WaitPrompts(before+1, time.Minute)
			got := s.WaitSince(m, regexp.MustCompile(`END-OF-(B)IG\r\n`), time.Minute)
			if got[1] != "B" {
				t.Errorf("submatches %q", got)
			}
			if n := strings.Count(s.PlainSince(m), strings.Repeat("x", 100)+"\n"); n != 100_000 {
				t.Errorf("%d lines of x; want 100000", n)
			}
			// The command's prompt and the Sync's (which may still be on
			// its way when Sync returns: it waits for the marker's output).
			s.Sync()
			s.WaitPrompts(before+2, time.Minute)
			if strings.Contains(s.PlainSince(m), "END-OF-BIG-BEFORE") {
				t.Errorf("PlainSince has what came before the mark")
			}
			if s.Exit() != 0 {
				t.Errorf("exit status not 0")
			}
		})
	}
}

// TestRunAloneAndEditing: the waits on the line editor's bracketed-paste
// switches find each one after the mark.
func TestRunAloneAndEditing(t *testing.T) {
	for _, shell := range Shells {
		t.Run(shell, func(t *testing.T) {
			t.Parallel()
			h := NewHome(t, "")
			s := Start(t, h, shell, Options{RC: promptRC[shell]})
			s.RunAlone("echo one")
			s.Editing()
			m := s.Mark()
			s.TypeAlone("echo two")
			if !strings.Contains(s.PlainSince(m), "two\n") {
				t.Errorf("no output after TypeAlone: %q", s.PlainSince(m))
			}
		})
	}
}

func TestWaitFile(t *testing.T) {
	p := t.TempDir() + "/f"
	go func() {
		os.WriteFile(p, []byte("half"), 0o600)
		os.WriteFile(p, []byte("done\n"), 0o600)
	}()
	b := WaitFile(t, p, time.Minute, func(b []byte) bool { return strings.HasSuffix(string(b), "\n") })
	if string(b) != "done\n" {
		t.Fatalf("%q", b)
	}
}

func TestScale(t *testing.T) {
	if Slow() < 1 {
		t.Fatalf("Slow() = %v", Slow())
	}
	if got := deadline(time.Second); got < MinWait {
		t.Fatalf("deadline(1s) = %v; want at least %v", got, MinWait)
	}
}
