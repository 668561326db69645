//go:build cgo

package history

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	sqlite3 "github.com/mattn/go-sqlite3"
)

// The codes hookd compares against are SQLite's own, as go-sqlite3 names them.
func TestSQLiteCodes(t *testing.T) {
	for _, c := range []struct {
		ours int
		lib  sqlite3.ErrNo
	}{
		{sqlitePerm, sqlite3.ErrPerm}, {sqliteBusy, sqlite3.ErrBusy}, {sqliteLocked, sqlite3.ErrLocked},
		{sqliteReadonly, sqlite3.ErrReadonly}, {sqliteCorrupt, sqlite3.ErrCorrupt},
		{sqliteFull, sqlite3.ErrFull}, {sqliteNotADB, sqlite3.ErrNotADB},
	} {
		if c.ours != int(c.lib) {
			t.Errorf("%v: hookd has %d, SQLite %d", c.lib, c.ours, c.lib)
		}
	}
	// A wrapped SQLite error is read through the wrapping.
	err := fmt.Errorf("open: %w", sqlite3.Error{Code: sqlite3.ErrBusy})
	if !IsBusy(err) || sqliteIs(err, sqliteCorrupt) {
		t.Errorf("IsBusy(%v) = %v, corrupt = %v", err, IsBusy(err), sqliteIs(err, sqliteCorrupt))
	}
	// A file that is not a database is reported as ErrCorrupt (SQLITE_NOTADB).
	p := filepath.Join(t.TempDir(), "h.db")
	if err := os.WriteFile(p, []byte("this is not a database, just some text long enough to be a header......................................................"), 0o600); err != nil {
		t.Fatal(err)
	}
	if s, err := Open(context.Background(), p, 0); err == nil {
		s.Close()
		t.Fatal("a text file opened as a database")
	} else if !errors.Is(err, ErrCorrupt) {
		t.Errorf("Open(text file) = %v, want SQLITE_NOTADB", err)
	}
}
