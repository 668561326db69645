package daemon_test

import (
	"github.com/hookd/hookd/internal/shelltest"
	"os"
	"testing"
	"time"

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
)

// waitFor polls cond with the one poller of the tests (shelltest.Eventually:
// HOOKD_TEST_SLOW, at least MinWait) and says what cond last saw.
func waitFor(t testing.TB, timeout time.Duration, what string, cond func() (bool, string)) {
	t.Helper()
	var seen string
	shelltest.Eventually(t, timeout, func() bool {
		ok, s := cond()
		seen = s
		return ok
	}, func() string { return "still waiting for " + what + "; last seen: " + seen })
}

// livePID is a process that runs for the whole test: this one.
var livePID = os.Getpid()
