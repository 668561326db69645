package history

import (
	"context"
	"path/filepath"
	"testing"
	"time"
)

// TestFTS5Compiled checks the FTS5 constant (what hookd version reports)
// and SQLiteVersion against the SQLite library itself.
func TestFTS5Compiled(t *testing.T) {
	s, err := Open(context.Background(), filepath.Join(t.TempDir(), "h.db"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var on int
	var v string
	if err := s.db.QueryRow("SELECT sqlite_compileoption_used('ENABLE_FTS5'), sqlite_version()").Scan(&on, &v); err != nil {
		t.Fatal(err)
	}
	if FTS5 != (on == 1) {
		t.Errorf("FTS5 = %v, SQLite's ENABLE_FTS5 = %d", FTS5, on)
	}
	if SQLiteVersion() != v {
		t.Errorf("SQLiteVersion() = %q, sqlite_version() = %q", SQLiteVersion(), v)
	}
}
