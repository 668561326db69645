package main

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/shelltest"
)

// TestHistoryScreenful: on a terminal, hookd history shows the most recent
// screenful and says how to see more (-n, --all), as git log pages; piped,
// and with --all, it lists every command (issue 32).
func TestHistoryScreenful(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		var lines []string
		for i := 1; i <= 60; i++ {
			lines = append(lines, fmt.Sprintf("echo entry-%03d", i))
		}
		file := h.Path("imported_history")
		if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		hookd(t, h, "import", "bash", "--file", file)
		if out := hookd(t, h, "history"); strings.Count(out, "echo entry-") != 60 {
			t.Fatalf("hookd history piped: %d commands; want the 60:\n%s", strings.Count(out, "echo entry-"), out)
		}
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: searchPrompt[shell] + initLine(shell), Cols: 120, Rows: 20})
		m := s.Mark()
		s.Run("hookd history; echo listed-$((6*7))")
		got := s.WaitPlainSince(m, regexp.MustCompile(`(?s)hookd history;.*\nlisted-42`), 20*time.Second)[0]
		n := strings.Count(got, "echo entry-")
		if n == 0 || n > 20 || !strings.Contains(got, "echo entry-060") {
			t.Errorf("hookd history on a 20-row terminal: %d commands; want the last screenful, entry-060 last:\n%s", n, got)
		}
		if !strings.Contains(got, "hookd history -n ") || !strings.Contains(got, "--all") {
			t.Errorf("no hint of -n and --all above the screenful:\n%s", got)
		}
		m = s.Mark()
		s.Run("hookd history --all; echo listed-$((6*8))")
		got = s.WaitPlainSince(m, regexp.MustCompile(`(?s)hookd history --all;.*\nlisted-48`), 20*time.Second)[0]
		if n := strings.Count(got, "echo entry-"); n != 60 {
			t.Errorf("hookd history --all on a terminal: %d commands; want the 60", n)
		}
	})
}

// TestImportSessionShell: hookd import typed in a zsh session reads zsh's
// history even when the login shell ($SHELL) is bash, and in bash bash's
// (issue 32).
func TestImportSessionShell(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		os.MkdirAll(h.Path(".zdot"), 0o700) // the test home's ZDOTDIR
		os.WriteFile(h.Path(".zdot", ".zsh_history"), []byte(": 1700000000:0;echo from-zsh-history\n"), 0o600)
		os.WriteFile(h.Path(".bash_history"), []byte("echo from-bash-history\n"), 0o600)
		login := map[string]string{"bash": "/bin/zsh", "zsh": "/bin/bash"}[shell]
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: "export SHELL=" + login + "\n" + initLine(shell)})
		s.Run("true")
		s.Run("hookd import")
		s.WaitForPlain(regexp.MustCompile(`imported \d+ commands? from \S+`), 10*time.Second)
		out := hookd(t, h, "history")
		if !strings.Contains(out, "echo from-"+shell+"-history") || strings.Contains(out, "echo from-"+map[string]string{"bash": "zsh", "zsh": "bash"}[shell]+"-history") {
			t.Errorf("hookd import in %s with SHELL=%s imported:\n%s", shell, login, out)
		}
	})
}

// TestHistoryMarksOtherHosts: a command synced in from another machine
// carries its host in hookd history, as an agent's carries its name; this
// machine's carry none (issue 32).
func TestHistoryMarksOtherHosts(t *testing.T) {
	h := newHome(t)
	hookd(t, h, "history") // makes the database
	ctx := t.Context()
	s, err := history.Open(ctx, h.Path(".local", "share", "hookd", "history.db"), 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	tx, _ := s.Begin(ctx)
	remote := "r1" + history.HostSep + "0123456789abcdef"
	tx.AddSession(ctx, history.Session{ID: remote, Shell: "bash", Host: "laptop"})
	tx.AddSession(ctx, history.Session{ID: "here1", Shell: "bash", Host: "desk"})
	now := time.Now().UnixMicro()
	tx.AddCommand(ctx, history.Entry{Session: remote, Seq: 1, Command: "echo from-laptop", StartedAt: now - 2})
	tx.AddCommand(ctx, history.Entry{Session: "here1", Seq: 1, Command: "echo from-here", StartedAt: now - 1})
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	s.Close()
	out := hookd(t, h, "history")
	if !regexp.MustCompile(`\[@laptop\] echo from-laptop`).MatchString(out) || strings.Contains(out, "[@desk]") {
		t.Errorf("hookd history:\n%s\nwant [@laptop] before the other machine's command only", out)
	}
}

// TestHistoryUnknownNotZero: an imported command's status and duration were
// never measured (a history file keeps neither): hookd history shows "-" for
// both, and hookd show says so, instead of a 0 that reads as a success in
// no time; a recorded command keeps its figures (issue 32, item 3).
func TestHistoryUnknownNotZero(t *testing.T) {
	h := newHome(t)
	file := h.Path("imported_history")
	if err := os.WriteFile(file, []byte("echo from-file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	hookd(t, h, "import", "bash", "--file", file)
	hookd(t, h, "record", "--author", "claude-code", "--exit", "3", "--duration", "1500ms", "--", "echo", "measured")
	out := hookd(t, h, "history")
	if !regexp.MustCompile(`(?m)^\s+1  \S+ \S+\s+-\s+-\s+echo from-file$`).MatchString(out) {
		t.Errorf("the imported command's line does not say - for its status and duration:\n%s", out)
	}
	if !regexp.MustCompile(`(?m)^\s+2  \S+ \S+\s+1\.5s\s+3\s+\[claude-code\] echo measured$`).MatchString(out) {
		t.Errorf("the recorded command's line lost its figures:\n%s", out)
	}
	show := hookd(t, h, "show", "1")
	if !strings.Contains(show, "unknown (imported") || !strings.Contains(show, "(not measured)") {
		t.Errorf("hookd show of an imported command:\n%s", show)
	}
}

// TestCountsSayOne: one command is "1 command", not "1 commands", in
// hookd status, forget and import (issue 32, item 11's wording).
func TestCountsSayOne(t *testing.T) {
	h := newHome(t)
	file := h.Path("one_history")
	os.WriteFile(file, []byte("echo only-one\n"), 0o600)
	if out := hookd(t, h, "import", "bash", "--file", file); !strings.HasPrefix(out, "imported 1 command from ") {
		t.Errorf("hookd import of one command: %q", out)
	}
	if out := hookd(t, h, "status"); !regexp.MustCompile(`, 1 command, 0 failed, 1 session\)`).MatchString(out) {
		t.Errorf("hookd status with one command in one session:\n%s", out)
	}
	if out := hookd(t, h, "forget", "1"); !strings.Contains(out, "forgot 1 command\n") {
		t.Errorf("hookd forget of one command: %q", out)
	}
}
