package ingest_test

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/ingest"
	"github.com/hookd/hookd/spool"
)

const base = int64(1_700_000_000_000_000) // µs: when the test sessions start

// env is a spool directory and a history database.
type env struct {
	t     *testing.T
	dir   string // the spool directory
	db    string // the database path
	store *history.Store
	rules *ingest.Rules
}

func newEnv(t *testing.T) *env {
	t.Helper()
	root := t.TempDir()
	e := &env{t: t, dir: filepath.Join(root, "spool"), db: filepath.Join(root, "data", "history.db"), rules: &ingest.Rules{}}
	if err := os.Mkdir(e.dir, 0o700); err != nil {
		t.Fatal(err)
	}
	e.store = openStore(t, e.db, 10*time.Second)
	return e
}

func openStore(t testing.TB, path string, busy time.Duration) *history.Store {
	t.Helper()
	s, err := history.Open(context.Background(), path, busy)
	if err != nil {
		t.Fatalf("history.Open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// ingest runs one pass and fails the test on an error.
func (e *env) ingest() ingest.Stats {
	e.t.Helper()
	st, err := ingest.Spools(e.t.Context(), e.store, e.dir, e.rules, time.Unix(1_800_000_000, 0))
	if err != nil {
		e.t.Fatalf("Ingest: %v (stats %+v)", err, st)
	}
	return st
}

// path returns the spool file of a session.
func (e *env) path(session string) string { return filepath.Join(e.dir, session+spool.Suffix) }

// write appends b to the session's spool in one write, as a shell does.
func (e *env) write(session string, b []byte) {
	e.t.Helper()
	appendFile(e.t, e.path(session), b)
}

func appendFile(t testing.TB, path string, b []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// entries returns the whole history, oldest first within each session.
func (e *env) entries() []history.Entry {
	e.t.Helper()
	es, err := e.store.List(e.t.Context(), history.Query{})
	if err != nil {
		e.t.Fatalf("List: %v", err)
	}
	slices.SortFunc(es, func(a, b history.Entry) int {
		return cmp.Or(cmp.Compare(a.Session, b.Session), cmp.Compare(a.Seq, b.Seq))
	})
	return es
}

// texts returns the commands of a session in order.
func (e *env) texts(session string) []string {
	e.t.Helper()
	out := []string{}
	for _, x := range e.entries() {
		if x.Session == session {
			out = append(out, x.Command)
		}
	}
	return out
}

// sessionID makes a session id as the shell code does: "<start µs>-<pid>-<random>".
func sessionID(pid, k int) string { return fmt.Sprintf("%d-%d-%08x", base+int64(k), pid, 0x5eed0000+k) }

// livePID is a process that runs for the whole test: this one.
var livePID = os.Getpid()

// deadPID returns the pid of a process that has exited and been reaped.
func deadPID(t testing.TB) int {
	t.Helper()
	c := exec.Command("true")
	if err := c.Run(); err != nil {
		t.Fatalf("running true: %v", err)
	}
	return c.Process.Pid
}

// command returns the seq-th command of a session, finished 0.5 s after it
// started.
func command(seq int64, text string) spool.Command {
	return spool.Command{Seq: seq, Start: base + seq*1_000_000, End: base + seq*1_000_000 + 500_000, Cwd: "/home/u", Text: text}
}

// records returns n commands (seq from, from+1, …) encoded as zsh writes them.
func records(from, n int, format string) []byte {
	var b []byte
	for i := from; i < from+n; i++ {
		b = spool.AppendCommand(b, command(int64(i), fmt.Sprintf(format, i)))
	}
	return b
}

func header(pid int) []byte {
	return spool.AppendSession(nil, spool.Session{Shell: "zsh", Version: "5.9", PID: pid, Host: hostname(), User: "u", UID: 1000, Start: base})
}

func hostname() string {
	h, _ := os.Hostname()
	return h
}

// rawDB returns the bytes of the database file and its WAL.
func rawDB(t testing.TB, path string) []byte {
	t.Helper()
	var all []byte
	for _, p := range []string{path, path + "-wal"} {
		b, err := os.ReadFile(p)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		all = append(all, b...)
	}
	return all
}

// waitFor polls cond until it holds or the deadline passes.
func waitFor(t testing.TB, timeout time.Duration, what string, cond func() (bool, string)) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		ok, seen := cond()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %v, still waiting for %s; last seen: %s", timeout, what, seen)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
