package ingest_test

import (
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/recording/ingest"
	"github.com/hookd/hookd/internal/spooltest"
)

const base = spooltest.Base

// env is a spool directory and a history database, with the rules ingested
// by.
type env struct {
	*spooltest.Env
	t     *testing.T
	dir   string // the spool directory
	db    string // the database path
	store *history.Store
	rules *ingest.Rules
}

func newEnv(t *testing.T) *env {
	t.Helper()
	se := spooltest.New(t)
	return &env{Env: se, t: t, dir: se.Dir, db: se.DB, store: se.Store, rules: &ingest.Rules{}}
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

func (e *env) path(session string) string     { return e.Path(session) }
func (e *env) write(session string, b []byte) { e.t.Helper(); e.Write(session, b) }
func (e *env) entries() []history.Entry       { return e.Entries() }
func (e *env) texts(session string) []string  { return e.Texts(session) }

var (
	openStore  = spooltest.OpenStore
	appendFile = spooltest.AppendFile
	sessionID  = spooltest.SessionID
	command    = spooltest.Command
	records    = spooltest.Records
	header     = spooltest.Header
	hostname   = spooltest.Hostname
)

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
