package main

import (
	"bytes"
	"crypto/rand"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
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
			time.Sleep(300 * time.Millisecond) // reading by now
			sent := time.Now()
			cmd.Process.Signal(sig)
			select {
			case err := <-done:
				if took := time.Since(sent); took > time.Second {
					t.Errorf("hookd import stopped %v after %v; want within a second", took, sig)
				}
				if err == nil {
					t.Errorf("hookd import after %v exited 0; want a failure", sig)
				}
				if !strings.Contains(errOut.String(), "canceled") {
					t.Errorf("stderr = %q; want it to say the import was canceled", errOut.String())
				}
			case <-time.After(10 * time.Second):
				cmd.Process.Kill()
				t.Fatalf("hookd import did not stop within 10s of %v", sig)
			}
		})
	}
}

// waitCommands waits until the history holds every one of want.
func waitCommands(t *testing.T, h *shelltest.Home, want ...string) []rec {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		es := entries(t, h)
		have := map[string]bool{}
		for _, e := range es {
			have[e.Command] = true
		}
		missing := []string{}
		for _, w := range want {
			if !have[w] {
				missing = append(missing, w)
			}
		}
		if len(missing) == 0 {
			return es
		}
		if time.Now().After(deadline) {
			t.Fatalf("commands missing from the history: %q; it holds %q", missing, commandsOf(es))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestCorruptDatabaseWhileAgentRuns: the database is damaged under a
// running agent (its first 64 KiB overwritten, its WAL files removed);
// the commands typed next are not lost, the agent goes on ingesting into
// the recovered database, and status names the file moved aside.
func TestCorruptDatabaseWhileAgentRuns(t *testing.T) {
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
		agentPID(t, h)
		waitCommands(t, h, before...)

		db := h.Path(".local", "share", "hookd", "history.db")
		// Everything in the database file itself, as after a while of use
		// (otherwise the agent's WAL would hold all of it and repair the
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
		time.Sleep(2 * time.Second) // the agent's passes, at one a second
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
		// The agent still runs, and ingests what comes next.
		s.Run("echo later")
		waitCommands(t, h, "echo later")
	})
}
