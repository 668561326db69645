package history_test

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookd/hookd/history"
)

const t0 = int64(1_700_000_000_000_000) // µs: a fixed "now" for the tests

// openAt opens the history at path and closes it when the test ends.
func openAt(t testing.TB, path string) *history.Store {
	t.Helper()
	s, err := history.Open(context.Background(), path, 10*time.Second)
	if err != nil {
		t.Fatalf("Open(%s): %v", path, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// newStore opens a fresh history in a temporary directory.
func newStore(t testing.TB) *history.Store {
	t.Helper()
	return openAt(t, filepath.Join(t.TempDir(), "history.db"))
}

// add stores sessions and commands in one transaction.
func add(t testing.TB, s *history.Store, sessions []history.Session, entries ...history.Entry) {
	t.Helper()
	ctx := context.Background()
	tx, err := s.Begin(ctx)
	if err != nil {
		t.Fatalf("Begin: %v", err)
	}
	defer tx.Rollback()
	for _, se := range sessions {
		if err := tx.AddSession(ctx, se); err != nil {
			t.Fatalf("AddSession(%+v): %v", se, err)
		}
	}
	for _, e := range entries {
		added, err := tx.AddCommand(ctx, e)
		if err != nil || !added {
			t.Fatalf("AddCommand(%+v) = %v, %v; want true, nil", e, added, err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatalf("Commit: %v", err)
	}
}

// rawDB opens the database file directly, beside the Store.
func rawDB(t testing.TB, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+path+"?_busy_timeout=10000")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func userVersion(t testing.TB, path string) int {
	t.Helper()
	var v int
	if err := rawDB(t, path).QueryRow("PRAGMA user_version").Scan(&v); err != nil {
		t.Fatalf("user_version: %v", err)
	}
	return v
}

func TestOpenCreatesPrivateFiles(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "data", "hookd", "history.db")
	s := openAt(t, path)
	add(t, s, nil, history.Entry{Session: "s", Seq: 1, Command: "ls", StartedAt: t0})

	for _, dir := range []string{filepath.Join(root, "data"), filepath.Dir(path)} {
		fi, err := os.Stat(dir)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != 0o700 {
			t.Errorf("directory %s has mode %v; want 0700", dir, got)
		}
	}
	for _, f := range []string{path, path + "-wal", path + "-shm"} {
		fi, err := os.Stat(f)
		if errors.Is(err, os.ErrNotExist) && f != path {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != 0o600 {
			t.Errorf("file %s has mode %v; want 0600", f, got)
		}
	}
	if got := s.Path(); got != path {
		t.Errorf("Path() = %q; want %q", got, path)
	}
}

func TestOpenMigrates(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history.db")
	s := openAt(t, path)
	if err := s.Check(t.Context()); err != nil {
		t.Errorf("Check on a new database: %v", err)
	}
	s.Close()
	if got := userVersion(t, path); got != history.SchemaVersion || got < 1 {
		t.Errorf("user_version after Open = %d; want SchemaVersion %d (>= 1)", got, history.SchemaVersion)
	}
	// Reopening keeps the data and does not migrate again.
	s = openAt(t, path)
	add(t, s, nil, history.Entry{Session: "s", Seq: 1, Command: "echo kept", StartedAt: t0})
	s.Close()
	s = openAt(t, path)
	got, err := s.List(t.Context(), history.Query{})
	if err != nil || len(got) != 1 || got[0].Command != "echo kept" {
		t.Errorf("List after reopening = %+v, %v; want the one command", got, err)
	}
}

// TestOpenConcurrent opens a new database from several connections at
// once: SQLite does not wait for the lock that switching to WAL mode takes,
// so Open must retry.
func TestOpenConcurrent(t *testing.T) {
	for round := range 30 {
		path := filepath.Join(t.TempDir(), "history.db")
		const n = 4
		var wg sync.WaitGroup
		errs := make([]error, n)
		start := make(chan struct{})
		for i := range n {
			wg.Go(func() {
				<-start
				s, err := history.Open(t.Context(), path, 10*time.Second)
				if err != nil {
					errs[i] = err
					return
				}
				defer s.Close()
				tx, err := s.Begin(t.Context())
				if err != nil {
					errs[i] = err
					return
				}
				defer tx.Rollback()
				if _, err := tx.AddCommand(t.Context(), history.Entry{Session: "s", Seq: int64(i + 1), Command: fmt.Sprint("cmd ", i), StartedAt: t0}); err != nil {
					errs[i] = err
					return
				}
				errs[i] = tx.Commit()
			})
		}
		close(start)
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("round %d: Open/add in goroutine %d: %v", round, i, err)
			}
		}
		if got := userVersion(t, path); got != history.SchemaVersion {
			t.Fatalf("round %d: user_version = %d; want %d", round, got, history.SchemaVersion)
		}
		s := openAt(t, path)
		got, err := s.List(t.Context(), history.Query{})
		if err != nil || len(got) != n {
			t.Fatalf("round %d: List = %d entries, %v; want %d (one per opener)", round, len(got), err, n)
		}
	}
}

// TestOpenNewerSchema: a database of a later hookd's schema is refused
// with an error that says to upgrade, and left as it was: the same bytes,
// no backup, no file beside it.
func TestOpenNewerSchema(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "history.db")
	s0 := openAt(t, path)
	add(t, s0, nil, history.Entry{Session: "s", Seq: 1, Command: "echo kept", StartedAt: t0})
	s0.Close()
	db := rawDB(t, path)
	if _, err := db.Exec(fmt.Sprintf("PRAGMA user_version = %d", history.SchemaVersion+1)); err != nil {
		t.Fatal(err)
	}
	db.Close()
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := history.Open(t.Context(), path, time.Second)
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Errorf("Open of a newer schema changed the database file")
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Errorf("files after Open of a newer schema: %v; want history.db alone", names)
	}
	if err == nil {
		s.Close()
		t.Fatalf("Open of a schema newer than this build succeeded; want an error")
	}
	if !strings.Contains(err.Error(), "newer") || !strings.Contains(err.Error(), "upgrade hookd") || errors.Is(err, history.ErrCorrupt) {
		t.Errorf("Open of a newer schema: %v; want a 'newer … upgrade hookd' error that is not ErrCorrupt", err)
	}
}

// damage overwrites the middle of a database file with garbage, leaving its
// header intact.
func damage(t *testing.T, path string) {
	s := openAt(t, path)
	var es []history.Entry
	for i := range 2000 {
		es = append(es, history.Entry{Session: "s", Seq: int64(i + 1), Command: strings.Repeat("x", 100), StartedAt: t0 + int64(i)})
	}
	add(t, s, nil, es...)
	s.Close()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 64<<10 {
		t.Fatalf("database only %d bytes", len(b))
	}
	for i := 4096; i < len(b)-4096; i++ {
		b[i] = byte(i*7 + 13)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestCorruptRecover(t *testing.T) {
	tests := []struct {
		name    string
		prepare func(t *testing.T, path string)
	}{
		{"garbage", func(t *testing.T, path string) {
			b := bytes.Repeat([]byte("this is not a SQLite database\x00\xff"), 200)
			if err := os.WriteFile(path, b, 0o600); err != nil {
				t.Fatal(err)
			}
		}},
		{"short garbage", func(t *testing.T, path string) {
			if err := os.WriteFile(path, []byte("junk"), 0o600); err != nil {
				t.Fatal(err)
			}
		}},
		{"damaged pages", damage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := t.Context()
			path := filepath.Join(t.TempDir(), "history.db")
			tt.prepare(t, path)
			want, _ := os.ReadFile(path)

			// Open fails, or opens and Check (what the daemon runs) fails.
			s, err := history.Open(ctx, path, time.Second)
			if err == nil {
				err = s.Check(ctx)
				s.Close()
			}
			if !errors.Is(err, history.ErrCorrupt) {
				t.Fatalf("Open+Check of a corrupt file: %v; want an error wrapping ErrCorrupt", err)
			}

			s, aside, err := history.OpenRecover(ctx, path, time.Second, true)
			if err != nil {
				t.Fatalf("OpenRecover: %v", err)
			}
			s.Close()
			if !strings.HasPrefix(aside, path+".corrupt-") {
				t.Errorf("OpenRecover moved the file to %q; want %s.corrupt-TIME", aside, path)
			}
			if got := openAt(t, path).Asides(ctx); len(got) != 1 || got[0].Path != aside {
				t.Errorf("Asides() = %+v; want the file moved aside, %s", got, aside)
			}
			if got, err := os.ReadFile(aside); err != nil || !bytes.Equal(got, want) {
				t.Errorf("file moved aside differs from the corrupt one (err %v)", err)
			}
			s = openAt(t, path)
			if err := s.Check(ctx); err != nil {
				t.Errorf("Check of the new database: %v", err)
			}
			add(t, s, nil, history.Entry{Session: "s", Seq: 1, Command: "ls", StartedAt: t0})
			if got, err := s.List(ctx, history.Query{}); err != nil || len(got) != 1 {
				t.Errorf("List of the new database = %d entries, %v; want 1", len(got), err)
			}
		})
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{
		filepath.Join(file, "history.db"), // a file where a directory should be
		dir,                               // a directory where the file should be
	} {
		s, err := history.Open(t.Context(), path, time.Second)
		if err == nil {
			s.Close()
			t.Errorf("Open(%s) succeeded; want an error", path)
			continue
		}
		if errors.Is(err, history.ErrCorrupt) || !strings.Contains(err.Error(), "open history") {
			t.Errorf("Open(%s) = %v; want an 'open history' error that is not ErrCorrupt", path, err)
		}
	}
}

func TestOpenOddPath(t *testing.T) {
	// Characters that mean something in a SQLite URI.
	path := filepath.Join(t.TempDir(), "a?b#c%d 'e'", "history.db")
	s := openAt(t, path)
	add(t, s, nil, history.Entry{Session: "s", Seq: 1, Command: "ls", StartedAt: t0})
	if _, err := os.Stat(path); err != nil {
		t.Errorf("database not at %s: %v", path, err)
	}
	if got, err := s.List(t.Context(), history.Query{}); err != nil || len(got) != 1 {
		t.Errorf("List = %d entries, %v; want 1", len(got), err)
	}
}
