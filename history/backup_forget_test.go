package history

import (
	"bytes"
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"
)

// TestForgetDropsBackups: the copy kept before a migration (0600, beside
// the history) goes when something is forgotten, so that a forgotten
// secret is in no file of the history's directory.
func TestForgetDropsBackups(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "history.db")
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	from := len(migrations) - 1
	for _, m := range migrations[:from] {
		if _, err := db.Exec(m); err != nil {
			t.Fatal(err)
		}
	}
	const secret = "hunter2-very-secret-token"
	if _, err := db.Exec(`PRAGMA user_version = ` + strconv.Itoa(from) + `;
		INSERT INTO sessions (id) VALUES ('s');
		INSERT INTO commands (session, seq, command, exit_code, started_at) VALUES ('s', 1, 'echo ` + secret + `', 0, 1), ('s', 2, 'echo kept', 0, 2)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s, err := Open(ctx, path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	bak := backupPath(path, from)
	if fi, err := os.Stat(bak); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("backup before migrating: %v, %v", fi, err)
	}
	if n, err := s.ForgetMatch(ctx, regexp.MustCompile("hunter2")); n != 1 || err != nil {
		t.Fatalf("ForgetMatch = %d, %v", n, err)
	}
	if _, err := os.Stat(bak); err == nil {
		t.Errorf("the backup %s outlived a forget", filepath.Base(bak))
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		b, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		if bytes.Contains(b, []byte(secret)) {
			t.Errorf("%s still holds the forgotten command", e.Name())
		}
	}
}
