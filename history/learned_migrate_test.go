package history

import (
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestLearnedMigratesFromSchema3: a database of the previous schema (3,
// the asks table) gets the learned tables, keeps its commands, and
// learning starts from nothing.
func TestLearnedMigratesFromSchema3(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "history.db")
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(strings.Join(migrations[:3], ";\n") + `;
		INSERT INTO commands (session, seq, command, exit_code, started_at) VALUES ('s', 1, 'deploy --prod x', 2, 1);
		PRAGMA user_version = 3`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s, err := Open(ctx, path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var v int
	s.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v)
	if v != SchemaVersion || SchemaVersion < 4 {
		t.Errorf("user_version = %d, SchemaVersion %d; want the latest, at least 4", v, SchemaVersion)
	}
	if l, err := s.AllLearned(ctx); err != nil || len(l) != 0 {
		t.Errorf("AllLearned after migrating = %v, %v; want none", l, err)
	}
	mark, set, last, err := s.LearnMark(ctx)
	if err != nil || set || mark != 0 || last != 1 {
		t.Errorf("LearnMark = %d, %v, %d, %v; want 0, unset, 1", mark, set, last, err)
	}
	// The program lookup uses the table's unique index.
	var plan string
	rows, err := s.db.QueryContext(ctx, "EXPLAIN QUERY PLAN SELECT "+learnedColumns+" FROM learned WHERE program = ? ORDER BY count DESC LIMIT 5", "deploy")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var a, b, c int
		var d string
		rows.Scan(&a, &b, &c, &d)
		plan += d + "; "
	}
	rows.Close()
	if !strings.Contains(plan, "USING INDEX") {
		t.Errorf("lookup by program: plan %q; want an index", plan)
	}
}
