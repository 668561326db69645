package main

import (
	"bytes"
	"crypto/rand"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	_ "github.com/mattn/go-sqlite3"

	"github.com/hookd/hookd/internal/shelltest"
)

// TestImportStopsOnSignal: a history file that never ends (/dev/urandom)
// is read until the user stops it, and Ctrl-C or SIGTERM stops it within a
// second.
func TestImportStopsOnSignal(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			h := newHome(t)
			cmd := exec.Command(hookdBin, "import", "bash", "--file", "/dev/urandom")
			cmd.Env, cmd.Dir = h.Env, h.Dir
			var errOut bytes.Buffer
			cmd.Stderr = &errOut
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			// Reading by now: the file is open (after the signal handlers
			// are set) and bytes have come from it.
			shelltest.Eventually(t, 10*time.Second, func() bool { return reading(cmd.Process.Pid, "/dev/urandom") },
				func() string { return "hookd import never read /dev/urandom" })
			sent := time.Now()
			cmd.Process.Signal(sig)
			select {
			case err := <-done:
				if took := time.Since(sent); took > shelltest.Scale(time.Second) {
					t.Errorf("hookd import stopped %v after %v; want within a second", took, sig)
				}
				if err == nil {
					t.Errorf("hookd import after %v exited 0; want a failure", sig)
				}
				if !strings.Contains(errOut.String(), "canceled") {
					t.Errorf("stderr = %q; want it to say the import was canceled", errOut.String())
				}
			case <-time.After(shelltest.Scale(30 * time.Second)):
				cmd.Process.Kill()
				t.Fatalf("hookd import did not stop within 30s of %v", sig)
			}
		})
	}
}

// waitCommands waits until the history holds every one of want.
func waitCommands(t *testing.T, h *shelltest.Home, want ...string) []rec {
	t.Helper()
	var es []rec
	var missing []string
	shelltest.Eventually(t, 15*time.Second, func() bool {
		es = entries(t, h)
		have := map[string]bool{}
		for _, e := range es {
			have[e.Command] = true
		}
		missing = nil
		for _, w := range want {
			if !have[w] {
				missing = append(missing, w)
			}
		}
		return len(missing) == 0
	}, func() string {
		return fmt.Sprintf("commands missing from the history: %q; it holds %q", missing, commandsOf(es))
	})
	return es
}

// reading reports whether process pid has path open and has read from it.
func reading(pid int, path string) bool {
	fds, _ := filepath.Glob(fmt.Sprintf("/proc/%d/fd/*", pid))
	open := false
	for _, fd := range fds {
		if target, err := os.Readlink(fd); err == nil && target == path {
			open = true
		}
	}
	io, err := os.ReadFile(fmt.Sprintf("/proc/%d/io", pid))
	var rchar int64
	if err == nil {
		fmt.Sscanf(string(io), "rchar: %d", &rchar)
	}
	return open && rchar > 0
}

// spoolHolds reports whether any spool file of h holds text (the daemon has
// not ingested it yet).
func spoolHolds(h *shelltest.Home, text string) bool {
	dir := h.Path(".local", "state", "hookd", "spool")
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if b, _ := os.ReadFile(filepath.Join(dir, e.Name())); strings.Contains(string(b), text) {
			return true
		}
	}
	return false
}

// TestCorruptDatabaseWhileDaemonRuns: the database is damaged under a
// running daemon (its first 64 KiB overwritten, its WAL files removed);
// the commands typed next are not lost, the daemon goes on ingesting into
// the recovered database, and status names the file moved aside.
func TestCorruptDatabaseWhileDaemonRuns(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: initLine(shell)})
		var before []string
		for i := 0; i < 50; i++ {
			before = append(before, fmt.Sprintf("echo before %d %s", i, strings.Repeat("x", 200)))
		}
		for _, c := range before {
			s.Run(c)
		}
		daemonPID(t, h)
		waitCommands(t, h, before...)

		db := h.Path(".local", "share", "hookd", "history.db")
		// Everything in the database file itself, as after a while of use
		// (otherwise the daemon's WAL would hold all of it and repair the
		// damage on its next checkpoint).
		conn, err := sql.Open("sqlite3", db)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := conn.Exec("PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
			t.Fatal(err)
		}
		conn.Close()
		f, err := os.OpenFile(db, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		junk := make([]byte, 64<<10)
		rand.Read(junk)
		if _, err := f.WriteAt(junk, 0); err != nil {
			t.Fatal(err)
		}
		f.Close()
		os.Remove(db + "-wal")
		os.Remove(db + "-shm")

		after := []string{"echo after 1", "echo after 2", "echo after 3"}
		for _, c := range after {
			s.Run(c)
		}
		// The daemon's passes (one a second) ingest them.
		shelltest.Eventually(t, 15*time.Second, func() bool { return !spoolHolds(h, "echo after 3") },
			func() string { return "the daemon never ingested the commands typed after the damage" })
		out, errOut, err := hookdRun(h, nil, "status")
		if err != nil {
			t.Fatalf("hookd status: %v\n%s%s", err, out, errOut)
		}
		es := waitCommands(t, h, after...)
		if len(es) < len(after) {
			t.Fatalf("history after recovery: %q", commandsOf(es))
		}
		out, _, _ = hookdRun(h, nil, "status")
		if !strings.Contains(out, ".corrupt-") || !strings.Contains(out, "Remove that file") {
			t.Errorf("hookd status does not name the database moved aside:\n%s", out)
		}
		// The daemon still runs, and ingests what comes next.
		s.Run("echo later")
		waitCommands(t, h, "echo later")
	})
}

// TestConfigWarningAtShellStart: a config file with a syntax error is
// warned about once when a shell starts, with capture on (the shell
// re-executes itself under the proxy and runs its rc file again), is
// listed by hookd status, and does not make every other command repeat it.
func TestConfigWarningAtShellStart(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		os.MkdirAll(h.Path(".config", "hookd"), 0o700)
		if err := os.WriteFile(h.Path(".config", "hookd", "config.yaml"), []byte("capture: pty\nhistory: [oops\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: initLine(shell), Env: []string{"HOOKD_CAPTURE=pty"}})
		s.Run("hookd history -n 1 >/dev/null; echo history-done")
		s.WaitForPlain(regexp.MustCompile(`\nhistory-done`), 10*time.Second)
		if n := strings.Count(s.Plain(), "hookd: warning:"); n != 1 {
			t.Errorf("%d config warnings on the screen; want 1:\n%s", n, s.Plain())
		}
		out, _, _ := hookdRun(h, nil, "status")
		if !strings.Contains(out, "config: "+h.Path(".config", "hookd", "config.yaml")) {
			t.Errorf("hookd status does not list the config problem:\n%s", out)
		}
	})
}

// TestLooseDirectoriesTightened: hookd's directories made 0755 by an older
// version or a loose umask are made 0700 when a shell loads hookd.
func TestLooseDirectoriesTightened(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		dirs := []string{h.Path(".config", "hookd"), h.Path(".local", "share", "hookd"), h.Path(".local", "state", "hookd")}
		for _, d := range dirs {
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
			os.Chmod(d, 0o755)
		}
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: initLine(shell)})
		s.Run("true")
		for _, d := range dirs {
			if fi, err := os.Stat(d); err != nil || fi.Mode().Perm() != 0o700 {
				t.Errorf("%s: %v, mode %v; want 0700", d, err, fi.Mode().Perm())
			}
		}
	})
}

// TestInvisibleCharactersEscaped: bidirectional and invisible characters in
// a stored command reach the terminal escaped (they could make it read as
// another command), in hookd history and hookd show.
func TestInvisibleCharactersEscaped(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		file := h.Path("histfile")
		cmd := "echo safe \u202e\u2066gpj.exe\u2069 \u200bx\u2028y"
		if err := os.WriteFile(file, []byte(cmd+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		hookd(t, h, "import", "bash", "--file", file)
		want := `echo safe \u202e\u2066gpj.exe\u2069 \u200bx\u2028y`
		if out := hookd(t, h, "history"); !strings.Contains(out, want) {
			t.Errorf("hookd history = %q; want the command shown as %q", out, want)
		}
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: initLine(shell)})
		s.Run("hookd show 1")
		s.WaitForPlain(regexp.MustCompile(regexp.QuoteMeta(want)), 10*time.Second)
		if strings.ContainsAny(s.Output(), "\u202e\u2066\u200b\u2028") {
			t.Errorf("raw bidi or invisible characters reached the terminal:\n%q", s.Output())
		}
	})
}

// TestDeadDaemonRestartedByPrompt: a daemon killed while shells stay open is
// started again by the next prompt, and what waited in the spool is
// ingested (raw command lines do not linger there).
func TestDeadDaemonRestartedByPrompt(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: initLine(shell)})
		s.Run("echo one")
		old := daemonPID(t, h)
		if err := syscall.Kill(old, syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		// Gone, reaped too (a zombie is issue 21's item 4, tested apart).
		shelltest.Eventually(t, 5*time.Second, func() bool { return syscall.Kill(old, 0) != nil },
			func() string { return "the daemon did not die" })
		s.Run("echo two")
		s.Run("echo three")
		shelltest.Eventually(t, 10*time.Second, func() bool { return daemonPID(t, h) != old },
			func() string { return "no new daemon after the prompt" })
		// The new daemon ingests on its own: the spool is emptied without
		// any hookd command reading the history.
		shelltest.Eventually(t, 10*time.Second, func() bool { return !spoolHolds(h, "echo three") },
			func() string { return "the spool still holds the raw command lines" })
		waitCommands(t, h, "echo one", "echo two", "echo three")
	})
}

// TestRedactedFixNotRunnable: a fix built from a command whose secret was
// redacted says so before the prompt, and `fix` does not run it as it is.
func TestRedactedFixNotRunnable(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: initLine(shell)})
		s.Type("gti push https://bob:s3cret-pw@example.invalid/x.git\r")
		s.WaitForPlain(regexp.MustCompile(`git push https://bob:\[REDACTED\]@example.invalid/x.git.*complete it first`), 10*time.Second)
		s.Sync()
		s.Type("fix\r")
		s.WaitForPlain(regexp.MustCompile(`a secret was redacted from it`), 5*time.Second)
		if shell == "zsh" {
			// zsh put it on the command line, to complete: not this time.
			s.WaitForPlain(regexp.MustCompile(`git push https://bob:\[REDACTED\]@example.invalid/x.git$`), 5*time.Second)
			s.Type("\x15")
		}
		s.Sync()
		if strings.Contains(s.Plain(), "run it (") {
			t.Errorf("bash's fix offered to run a fix with [REDACTED] in it")
		}
		for _, e := range entries(t, h) {
			if strings.HasPrefix(e.Command, "git push") {
				t.Errorf("the redacted fix ran: %q", e.Command)
			}
		}
	})
}

// TestDamagedDatabaseSalvaged: with no daemon running, 16 KiB of damage in
// the middle of a database is found when it is read; the file is moved
// aside, what can be read of it is salvaged into a new one, and status
// names the file moved aside.
func TestDamagedDatabaseSalvaged(t *testing.T) {
	h := newHome(t)
	file := h.Path("histfile")
	var b strings.Builder
	const n = 3000
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "#%d\necho command number %d %s\n", 1700000000+i, i, strings.Repeat("y", i%50))
	}
	if err := os.WriteFile(file, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	hookd(t, h, "import", "bash", "--file", file)
	db := h.Path(".local", "share", "hookd", "history.db")
	conn, err := sql.Open("sqlite3", db)
	if err != nil {
		t.Fatal(err)
	}
	conn.Exec("PRAGMA wal_checkpoint(TRUNCATE)")
	conn.Close()
	fi, err := os.Stat(db)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(db, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	junk := make([]byte, 16<<10)
	rand.Read(junk)
	f.WriteAt(junk, fi.Size()/2/4096*4096)
	f.Close()

	out, errOut, err := hookdRun(h, nil, "history", "--json")
	if err != nil {
		t.Fatalf("hookd history on a damaged database: %v\n%s", err, errOut)
	}
	if !strings.Contains(errOut, "was corrupt") {
		t.Errorf("stderr does not say the database was corrupt: %q", errOut)
	}
	got := strings.Count(out, "\n")
	if got < n*8/10 || got > n {
		t.Errorf("%d of %d commands salvaged; want most of them", got, n)
	}
	st, _, _ := hookdRun(h, nil, "status")
	if !regexp.MustCompile(`moved to \S+\.corrupt-\S+; \d+ of its commands were copied`).MatchString(st) {
		t.Errorf("hookd status does not name the file moved aside and what was salvaged:\n%s", st)
	}
	t.Logf("%d of %d commands salvaged", got, n)
}
