// Package spooltest helps tests that write spools as the shells do and
// ingest them: a spool directory with a history database, session ids,
// records, and polling.
package spooltest

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/recording/spool"
)

// Base is when the test sessions start, in microseconds since the epoch.
const Base = int64(1_700_000_000_000_000)

// Env is a spool directory and a history database.
type Env struct {
	T     *testing.T
	Dir   string // the spool directory
	DB    string // the database path
	Store *history.Store
}

// New makes an Env under t.TempDir.
func New(t *testing.T) *Env {
	t.Helper()
	root := t.TempDir()
	e := &Env{T: t, Dir: filepath.Join(root, "spool"), DB: filepath.Join(root, "data", "history.db")}
	if err := os.Mkdir(e.Dir, 0o700); err != nil {
		t.Fatal(err)
	}
	e.Store = OpenStore(t, e.DB, 10*time.Second)
	return e
}

// OpenStore opens a history database, closed when the test ends.
func OpenStore(t testing.TB, path string, busy time.Duration) *history.Store {
	t.Helper()
	s, err := history.Open(context.Background(), path, busy)
	if err != nil {
		t.Fatalf("history.Open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// Path returns the spool file of a session.
func (e *Env) Path(session string) string { return spool.Path(e.Dir, session) }

// Write appends b to the session's spool in one write, as a shell does.
func (e *Env) Write(session string, b []byte) {
	e.T.Helper()
	AppendFile(e.T, e.Path(session), b)
}

// AppendFile appends b to the file at path in one write.
func AppendFile(t testing.TB, path string, b []byte) {
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

// Entries returns the whole history, oldest first within each session.
func (e *Env) Entries() []history.Entry {
	e.T.Helper()
	es, err := e.Store.List(e.T.Context(), history.Query{})
	if err != nil {
		e.T.Fatalf("List: %v", err)
	}
	slices.SortFunc(es, func(a, b history.Entry) int {
		return cmp.Or(cmp.Compare(a.Session, b.Session), cmp.Compare(a.Seq, b.Seq))
	})
	return es
}

// Texts returns the commands of a session in order.
func (e *Env) Texts(session string) []string {
	e.T.Helper()
	out := []string{}
	for _, x := range e.Entries() {
		if x.Session == session {
			out = append(out, x.Command)
		}
	}
	return out
}

// SessionID makes a session id as the shell code does: "<start µs>-<pid>-<random>".
func SessionID(pid, k int) string { return fmt.Sprintf("%d-%d-%08x", Base+int64(k), pid, 0x5eed0000+k) }

// Command returns the seq-th command of a session, finished 0.5 s after it
// started.
func Command(seq int64, text string) spool.Command {
	return spool.Command{Seq: seq, Start: Base + seq*1_000_000, End: Base + seq*1_000_000 + 500_000, Cwd: "/home/u", Text: text}
}

// Records returns n commands (seq from, from+1, …) encoded as zsh writes them.
func Records(from, n int, format string) []byte {
	var b []byte
	for i := from; i < from+n; i++ {
		b = spool.AppendCommand(b, Command(int64(i), fmt.Sprintf(format, i)))
	}
	return b
}

// Header returns a session header of a zsh with the given pid.
func Header(pid int) []byte {
	return spool.AppendSession(nil, spool.Session{Shell: "zsh", Version: "5.9", PID: pid, Host: Hostname(), User: "u", UID: 1000, Start: Base})
}

// Hostname is this machine's name.
func Hostname() string {
	h, _ := os.Hostname()
	return h
}
