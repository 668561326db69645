package history

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestMigrateBacksUpFirst: a history at each earlier schema version opens
// with this build, migrated forward, after a copy of it as it was (0600)
// has been kept; its commands are still there.
func TestMigrateBacksUpFirst(t *testing.T) {
	ctx := context.Background()
	for from := 1; from < len(migrations); from++ {
		path := filepath.Join(t.TempDir(), "history.db")
		db, err := sql.Open("sqlite3", path)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range migrations[:from] {
			if _, err := db.Exec(m); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := db.Exec(`INSERT INTO sessions (id) VALUES ('s');
			INSERT INTO commands (session, seq, command, exit_code, started_at) VALUES ('s', 1, 'echo old', 0, 1)`); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec("PRAGMA user_version = " + string(rune('0'+from))); err != nil {
			t.Fatal(err)
		}
		db.Close()

		s, err := Open(ctx, path, time.Second)
		if err != nil {
			t.Fatalf("from schema %d: %v", from, err)
		}
		var v, n int
		s.db.QueryRow("PRAGMA user_version").Scan(&v)
		s.db.QueryRow("SELECT count(*) FROM commands WHERE command = 'echo old'").Scan(&n)
		s.Close()
		if v != SchemaVersion || n != 1 {
			t.Errorf("from schema %d: now version %d, %d old commands", from, v, n)
		}
		bak := backupPath(path, from)
		fi, err := os.Stat(bak)
		if err != nil {
			t.Fatalf("from schema %d: no backup: %v", from, err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("backup mode %v, want 0600", fi.Mode().Perm())
		}
		b, _ := sql.Open("sqlite3", bak)
		b.QueryRow("PRAGMA user_version").Scan(&v)
		b.QueryRow("SELECT count(*) FROM commands").Scan(&n)
		b.Close()
		if v != from || n != 1 {
			t.Errorf("backup from schema %d: version %d, %d commands", from, v, n)
		}
	}
}
