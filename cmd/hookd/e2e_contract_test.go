package main

import (
	"os"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/recording/spool"
	"github.com/hookd/hookd/internal/shelltest"
)

// The tests here hold the scripts to the contracts they share with the Go
// side: where the files are, and what a session id looks like.

// TestStateDirAsGoReadsIt sets XDG_STATE_HOME to values that adrg/xdg reads
// as a directory under HOME ("~/st", "$HOME/st": it expands both) and a
// shell would not: every command must still reach the history, and the
// fixes of a failure must still reach `fix`.
func TestStateDirAsGoReadsIt(t *testing.T) {
	for _, val := range []string{"~/st", "$HOME/st"} {
		t.Run(val, func(t *testing.T) {
			forEachShell(t, func(t *testing.T, shell string) {
				h := newHome(t)
				// Last wins: the shell, the daemon it starts and the CLI
				// below all see this value.
				h.Env = append(h.Env, "XDG_STATE_HOME="+val)
				rc := "PS1='P> '\nPROMPT='P> '\n" + initLine(shell)
				s := shelltest.Start(t, h, shell, shelltest.Options{RC: rc})
				lines := []string{"echo one", "true | false", "cd /", "echo three"}
				for _, l := range lines {
					s.Run(l)
				}
				if got := commandsOf(entries(t, h)); !equal(got, lines) {
					t.Fatalf("recorded %q; want %q", got, lines)
				}
				// The fixes go where `fix` reads them.
				s.Run("ech fixed")
				s.WaitForPlain(regexp.MustCompile(`↳ echo fixed`), 10*time.Second)
				s.Type("fix\r")
				if shell == "bash" {
					s.WaitForPlain(regexp.MustCompile(`(?s)fix\necho fixed\nrun it \(low risk\)\? \[y/N, then Enter\] $`), 10*time.Second)
					s.Type("n\r")
				} else {
					s.WaitForPlain(regexp.MustCompile(`(?s)fix\n.*P> echo fixed$`), 10*time.Second)
					s.Type("\x15") // Ctrl-U: the line stays unrun
				}
				s.Sync()
				// Nothing was written where Go never looks.
				if _, err := os.Stat(h.Path(".local", "state", "hookd")); err == nil {
					t.Errorf("the shell made %s, which hookd does not read with XDG_STATE_HOME=%s", h.Path(".local", "state", "hookd"), val)
				}
				if _, err := os.Stat(h.Path("st", "hookd", "spool")); err != nil {
					t.Errorf("no spool directory under %s: %v", h.Path("st"), err)
				}
			})
		})
	}
}

// TestSessionIDContract: the session ids the real scripts make
// ("<start µs>-<pid>-<random>") parse with the Go side's parser, which
// finds the shell's pid in them (to tell a session that has ended).
func TestSessionIDContract(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		before := time.Now()
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: initLine(shell)})
		// The echo of the typed line cannot match what printf prints.
		s.Run(`printf 'SID_%s_%s_END\n' "$HOOKD_SESSION" "$$"`)
		m := regexp.MustCompile(`SID_([^_\s]*)_([0-9]+)_END`).FindStringSubmatch(s.Plain())
		if m == nil {
			t.Fatalf("no session id printed; output:\n%s", s.Plain())
		}
		id, pid := m[1], m[2]
		if got := spool.SessionPID(id); strconv.Itoa(got) != pid {
			t.Errorf("spool.SessionPID(%q) = %d; want the shell's pid %s", id, got, pid)
		}
		parts := regexp.MustCompile(`^([0-9]{16})-([0-9]+)-([0-9]+)$`).FindStringSubmatch(id)
		if parts == nil {
			t.Fatalf("session id %q is not <start µs (16 digits)>-<pid>-<random>", id)
		}
		us, _ := strconv.ParseInt(parts[1], 10, 64)
		if start := time.UnixMicro(us); start.Before(before.Add(-time.Second)) || start.After(time.Now()) {
			t.Errorf("session id %q starts at %v; want the shell's start, between %v and now", id, start, before)
		}
		es := entries(t, h)
		if len(es) != 1 || es[0].Session != id {
			t.Errorf("history %+v; want one entry of session %q", es, id)
		}
	})
}
