package agent_test

import (
	"os"
	"testing"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/recording/ingest"
	"github.com/hookd/hookd/internal/spooltest"
)

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

func (e *env) write(session string, b []byte) { e.t.Helper(); e.Write(session, b) }
func (e *env) texts(session string) []string  { return e.Texts(session) }

var (
	openStore = spooltest.OpenStore
	sessionID = spooltest.SessionID
	records   = spooltest.Records
	waitFor   = spooltest.WaitFor
)

// livePID is a process that runs for the whole test: this one.
var livePID = os.Getpid()
