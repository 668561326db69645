package ingest_test

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/recording/ingest"
	"github.com/hookd/hookd/internal/recording/spool"
	_ "github.com/mattn/go-sqlite3"
)

// flushSpool writes the spool of a finished shell session k with texts.
func flushSpool(t *testing.T, e *env, k int, texts ...string) {
	t.Helper()
	b := spool.AppendSession(nil, spool.Session{Shell: "bash", Version: "5.2", PID: deadPID(t), Host: hostname(), User: "ann", UID: 1000, Start: base})
	for i, text := range texts {
		b = spool.AppendCommand(b, spool.Command{Seq: int64(i + 1), Start: base + int64(i), End: base + int64(i) + 1, Cwd: "/", Text: text})
	}
	e.write(sessionID(livePID, k), b)
}

func flushedTexts(t *testing.T, s *history.Store) []string {
	t.Helper()
	es, err := s.List(t.Context(), history.Query{})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, en := range es {
		out = append(out, en.Command)
	}
	slices.Sort(out)
	return out
}

// TestFlushOpen: what the spools hold is in the history Flush opens.
func TestFlushOpen(t *testing.T) {
	e := newEnv(t)
	e.store.Close()
	flushSpool(t, e, 1, "ls", "make")
	aside := ""
	s, res, err := ingest.Flush{DB: e.db, SpoolDir: e.dir, OutboxDir: t.TempDir(), Rules: e.rules, Busy: time.Second,
		Aside: func(p string) { aside = p }}.Open(t.Context())
	if err != nil || res.Err != nil {
		t.Fatalf("Open: %v, pass %v", err, res.Err)
	}
	defer s.Close()
	if got := flushedTexts(t, s); !slices.Equal(got, []string{"ls", "make"}) || aside != "" {
		t.Errorf("history %q, moved aside %q; want ls and make, nothing moved", got, aside)
	}
}

// TestFlushRecoversDamage: a database whose damage opening does not show
// fails the pass; Flush opens it again checked, which moves it aside and
// salvages it, and runs the pass again: the spool's commands are in the
// new database, nothing lost.
func TestFlushRecoversDamage(t *testing.T) {
	e := newEnv(t)
	var many []string
	for i := range 2000 {
		many = append(many, fmt.Sprintf("echo %d %s", i, strings.Repeat("x", 100)))
	}
	flushSpool(t, e, 1, many...)
	e.ingest()
	e.store.Close()
	// The spools table's root page, which a pass reads first, is
	// overwritten: opening does not read it.
	conn, err := sql.Open("sqlite3", "file:"+e.db)
	if err != nil {
		t.Fatal(err)
	}
	var root, size int64
	err = conn.QueryRow("SELECT rootpage FROM sqlite_master WHERE name = 'spools'").Scan(&root)
	if err == nil {
		err = conn.QueryRow("PRAGMA page_size").Scan(&size)
	}
	conn.Close()
	if err != nil || root < 2 {
		t.Fatalf("the spools table's root page: %d, %v", root, err)
	}
	f, err := os.OpenFile(e.db, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	junk := make([]byte, size)
	for i := range junk {
		junk[i] = byte(i*7 + 13)
	}
	f.WriteAt(junk, (root-1)*size)
	f.Close()
	if s, err := history.Open(t.Context(), e.db, time.Second); err != nil {
		t.Fatalf("opening shows the damage (%v): the test needs one that only a read shows", err)
	} else {
		s.Close()
	}

	flushSpool(t, e, 2, "git status", "go test")
	aside := ""
	s, res, err := ingest.Flush{DB: e.db, SpoolDir: e.dir, OutboxDir: t.TempDir(), Rules: e.rules, Busy: time.Second,
		Aside: func(p string) { aside = p }}.Open(t.Context())
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	defer s.Close()
	if res.Err != nil {
		t.Errorf("the pass on the recovered database failed: %v", res.Err)
	}
	if !strings.HasPrefix(aside, e.db+".corrupt-") || filepath.Dir(aside) != filepath.Dir(e.db) {
		t.Errorf("moved aside to %q; want %s.corrupt-TIME", aside, e.db)
	}
	got := flushedTexts(t, s)
	if !slices.Contains(got, "git status") || !slices.Contains(got, "go test") {
		t.Errorf("the recovered history lacks the spool's commands: %d entries, %q…", len(got), got[:min(len(got), 3)])
	}
}
