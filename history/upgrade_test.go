package history

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/required"
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

// fixture is a database written by the hookd of an earlier schema
// version (testdata/upgrade: make.sh says how each was made).
type fixture struct {
	version int
	path    string
}

// shippedFixtures lists the fixtures, one per schema version main has
// shipped before this test was written (1 to 7) at least.
func shippedFixtures(t *testing.T) []fixture {
	t.Helper()
	paths, err := filepath.Glob("testdata/upgrade/schema*-*.db")
	if err != nil {
		t.Fatal(err)
	}
	var fs []fixture
	have := map[int]bool{}
	for _, p := range paths {
		var v int
		if _, err := fmt.Sscanf(filepath.Base(p), "schema%d-", &v); err != nil {
			t.Fatalf("fixture %s: %v", p, err)
		}
		fs = append(fs, fixture{v, p})
		have[v] = true
	}
	for v := 1; v <= 7; v++ {
		if !have[v] {
			t.Errorf("no fixture of schema %d in testdata/upgrade", v)
		}
	}
	return fs
}

// copyFixture copies the fixture to a new directory, as the user's
// history.db (0600), and returns its path.
func copyFixture(t *testing.T, f fixture) string {
	t.Helper()
	b, err := os.ReadFile(f.path)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "history.db")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// rawOpen opens path with database/sql alone (no migration).
func rawOpen(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// plainTables lists the tables of db that hold rows of their own: not
// SQLite's, not a full-text index (virtual) or its shadow tables.
func plainTables(t *testing.T, db *sql.DB) []string {
	t.Helper()
	var virtual []string
	rows, err := db.Query("SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var n string
		rows.Scan(&n)
		virtual = append(virtual, n)
	}
	rows.Close()
	rows, err = db.Query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
next:
	for rows.Next() {
		var n string
		rows.Scan(&n)
		for _, v := range virtual {
			if n == v || strings.HasPrefix(n, v+"_") {
				continue next
			}
		}
		out = append(out, n)
	}
	return out
}

// columnsOf lists a table's columns: name, type, not null, default and
// primary key place, one string each.
func columnsOf(t *testing.T, db *sql.DB, table string) (names, shape []string) {
	t.Helper()
	rows, err := db.Query("SELECT name, type, \"notnull\", coalesce(dflt_value, 'NULL'), pk FROM pragma_table_info(?) ORDER BY cid", table)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var n, typ, dflt string
		var nn, pk int
		rows.Scan(&n, &typ, &nn, &dflt, &pk)
		names = append(names, n)
		shape = append(shape, fmt.Sprintf("%s %s notnull=%d default=%s pk=%d", n, typ, nn, dflt, pk))
	}
	return names, shape
}

// dumpTables renders every row of the given tables, each column given
// quoted by SQLite (type and bytes), sorted.
func dumpTables(t *testing.T, db *sql.DB, cols map[string][]string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for table, names := range cols {
		var q []string
		for _, n := range names {
			q = append(q, "quote(\""+n+"\")")
		}
		rows, err := db.Query("SELECT " + strings.Join(q, " || ',' || ") + " FROM " + table + " ORDER BY 1")
		if err != nil {
			t.Fatalf("dump %s: %v", table, err)
		}
		for rows.Next() {
			var r string
			rows.Scan(&r)
			out[table] = append(out[table], r)
		}
		rows.Close()
	}
	return out
}

// schemaShape is a database's plain tables' columns and its index and
// trigger names.
func schemaShape(t *testing.T, db *sql.DB) []string {
	t.Helper()
	var shape []string
	for _, table := range plainTables(t, db) {
		_, cols := columnsOf(t, db, table)
		for _, c := range cols {
			shape = append(shape, table+"."+c)
		}
	}
	rows, err := db.Query("SELECT type || ' ' || name || ' ON ' || tbl_name FROM sqlite_master WHERE type IN ('index', 'trigger') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY 1")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var s string
		rows.Scan(&s)
		shape = append(shape, s)
	}
	return shape
}

// TestUpgradeFromShippedSchemas opens each database written by the hookd
// of an earlier schema (testdata/upgrade) with this build: it is migrated
// to SchemaVersion, to the very tables, columns, indexes and triggers a
// new database has; a copy of it as it was (0600) is kept first; every
// row of every table it had is still there, column for column; and the
// history reads and writes as usual (commands, outputs, learned fixes,
// asks).
func TestUpgradeFromShippedSchemas(t *testing.T) {
	ctx := t.Context()
	freshPath := filepath.Join(t.TempDir(), "history.db")
	fresh, err := Open(ctx, freshPath, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	fresh.Close()
	want := schemaShape(t, rawOpen(t, freshPath))
	for _, f := range shippedFixtures(t) {
		t.Run(filepath.Base(f.path), func(t *testing.T) {
			path := copyFixture(t, f)
			old := rawOpen(t, path)
			var v int
			old.QueryRow("PRAGMA user_version").Scan(&v)
			if v != f.version || v > SchemaVersion {
				t.Fatalf("fixture at schema %d; its name says %d, this build writes %d", v, f.version, SchemaVersion)
			}
			cols := map[string][]string{}
			for _, table := range plainTables(t, old) {
				cols[table], _ = columnsOf(t, old, table)
			}
			before := dumpTables(t, old, cols)
			old.Close()
			if len(before["commands"]) < 8 {
				t.Fatalf("fixture holds %d commands; want the 8 make.sh writes", len(before["commands"]))
			}

			s := openMigrated(t, path)
			defer s.Close()
			got := schemaShape(t, rawOpen(t, path))
			if d := diffLines(want, got); d != "" {
				t.Errorf("migrated schema differs from a new database's (- new, + migrated):\n%s", d)
			}
			after := dumpTables(t, rawOpen(t, path), cols)
			for table := range cols {
				// Rows may be added (meta notes the new indexes' progress);
				// none may be lost or changed.
				if d := diffLines(before[table], after[table]); strings.Contains("\n"+d, "\n- ") {
					t.Errorf("table %s lost or changed rows in the upgrade (- before, + after):\n%s", table, d)
				}
			}

			bak := backupPath(path, f.version)
			if f.version == SchemaVersion { // this build's own: nothing to migrate
				if _, err := os.Stat(bak); err == nil {
					t.Errorf("a backup of a database that needed no migration")
				}
				checkFixtureHistory(t, s, f.version)
				return
			}
			fi, err := os.Stat(bak)
			if err != nil {
				t.Fatalf("no backup before migrating: %v", err)
			}
			if fi.Mode().Perm() != 0o600 {
				t.Errorf("backup mode %v; want 0600", fi.Mode().Perm())
			}
			b := rawOpen(t, bak)
			b.QueryRow("PRAGMA user_version").Scan(&v)
			if v != f.version {
				t.Errorf("backup at schema %d; want %d", v, f.version)
			}
			if d := func() string {
				got := dumpTables(t, b, cols)
				var d string
				for table := range cols {
					d += diffLines(before[table], got[table])
				}
				return d
			}(); d != "" {
				t.Errorf("backup differs from the database as it was:\n%s", d)
			}

			checkFixtureHistory(t, s, f.version)
		})
	}
}

// openMigrated opens path with this build and checks it is at
// SchemaVersion.
func openMigrated(t *testing.T, path string) *Store {
	t.Helper()
	s, err := Open(t.Context(), path, time.Second)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	var v int
	s.db.QueryRow("PRAGMA user_version").Scan(&v)
	if v != SchemaVersion {
		t.Errorf("user_version %d after opening; want %d", v, SchemaVersion)
	}
	return s
}

// checkFixtureHistory reads what mkfixture wrote through the Store, and
// adds a command.
func checkFixtureHistory(t *testing.T, s *Store, version int) {
	ctx := t.Context()
	es, err := s.List(ctx, Query{Oldest: true})
	if err != nil {
		t.Fatalf("List: %v", err)
	}
	by := map[string]Entry{}
	for _, e := range es {
		by[e.Command] = e
	}
	for _, imported := range []string{"ls -la", "git status", "cd /tmp"} {
		if _, ok := by[imported]; !ok {
			t.Errorf("imported command %q missing", imported)
		}
	}
	if e := by["make tset"]; e.ExitCode != 2 || e.Cwd != "/home/ann/proj" || e.Session != "fixture-s1" || e.Shell != "bash" {
		t.Errorf("make tset: %+v", e)
	}
	if e := by["false | true"]; fmt.Sprint(e.Pipestatus) != "[1 0]" {
		t.Errorf("false | true: pipestatus %v; want [1 0]", e.Pipestatus)
	}
	if _, ok := by["printf 'h\\xc3\\xa9llo\\n'\necho two lines"]; !ok {
		t.Errorf("the two-line command is not there as typed: %q", slices.Collect(maps.Keys(by)))
	}
	if _, ok := by["rm -rf build # forgotten"]; ok {
		t.Errorf("a forgotten command came back")
	}
	if hits, err := s.List(ctx, Query{Text: "tset"}); err != nil || len(hits) != 1 {
		t.Errorf("search for tset: %v, %v; want make tset", hits, err)
	}
	if version >= 2 {
		o, err := s.Output(ctx, "fixture-s1", 4, "")
		if err != nil || string(o.Text) != "héllo\ntwo lines\n" {
			t.Errorf("output of command 4: %q, %v", o.Text, err)
		}
	}
	if version >= 3 {
		if asks, err := s.Asks(ctx, "fixture-s1", 5); err != nil || len(asks) != 1 || asks[0].Question != "why did make fail?" {
			t.Errorf("asks: %+v, %v", asks, err)
		}
	}
	if version >= 4 {
		if l, err := s.LearnedFor(ctx, "make", 5); err != nil || len(l) != 1 || l[0].From != "tset" || l[0].To != "test" {
			t.Errorf("learned fixes for make: %+v, %v", l, err)
		}
	}
	if version >= 5 {
		if e := by["go test ./..."]; e.Author != "claude-code" {
			t.Errorf("the agent's command: author %q", e.Author)
		}
	}
	tx, err := s.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.AddCommand(ctx, Entry{Session: "fixture-s1", Seq: 6, Command: "echo after the upgrade", StartedAt: 1764000009000000}); err != nil {
		t.Fatalf("add a command after the upgrade: %v", err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if hits, err := s.List(ctx, Query{Text: "upgrade"}); err != nil || len(hits) != 1 {
		t.Errorf("the command added after the upgrade: %v, %v", hits, err)
	}
}

// diffLines says which lines are only in a (-) or only in b (+).
func diffLines(a, b []string) string {
	count := map[string]int{}
	for _, l := range a {
		count[l]++
	}
	for _, l := range b {
		count[l]--
	}
	var d []string
	for l, n := range count {
		for ; n > 0; n-- {
			d = append(d, "- "+l)
		}
		for ; n < 0; n++ {
			d = append(d, "+ "+l)
		}
	}
	slices.Sort(d)
	return strings.Join(d, "\n")
}

// TestMigrateKilledResumes kills a process in the middle of migrating the
// oldest fixture, inside the transaction of each migration in turn: the
// database stays at the last version committed, and the next Open carries
// on to SchemaVersion with every row there, the first backup intact.
func TestMigrateKilledResumes(t *testing.T) {
	fs := shippedFixtures(t)
	slices.SortFunc(fs, func(a, b fixture) int { return a.version - b.version })
	f := fs[0]
	for stop := f.version + 1; stop <= SchemaVersion; stop++ {
		t.Run(fmt.Sprintf("in-migration-%d", stop), func(t *testing.T) {
			path := copyFixture(t, f)
			old := rawOpen(t, path)
			cols := map[string][]string{}
			for _, table := range plainTables(t, old) {
				cols[table], _ = columnsOf(t, old, table)
			}
			before := dumpTables(t, old, cols)
			old.Close()

			cmd := exec.Command(os.Args[0], "-test.run=^TestMigratePausedHelper$", "-test.count=1")
			cmd.Env = append(os.Environ(), "HOOKD_TEST_MIGRATE_PATH="+path, fmt.Sprintf("HOOKD_TEST_MIGRATE_STOP=%d", stop))
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			cmd.Stderr = os.Stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// A helper that never pauses (or hangs before) is killed.
			timer := time.AfterFunc(2*time.Minute, func() { cmd.Process.Kill() })
			defer timer.Stop()
			line, _ := bufio.NewReader(out).ReadString('\n')
			if line != fmt.Sprintf("paused in migration %d\n", stop) {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("helper said %q; want it paused in migration %d", line, stop)
			}
			cmd.Process.Signal(syscall.SIGKILL)
			cmd.Wait()

			var v int
			rawOpen(t, path).QueryRow("PRAGMA user_version").Scan(&v)
			if v != stop-1 {
				t.Errorf("after the kill, user_version %d; want %d (the last migration committed)", v, stop-1)
			}
			s := openMigrated(t, path)
			defer s.Close()
			after := dumpTables(t, rawOpen(t, path), cols)
			for table := range cols {
				if d := diffLines(before[table], after[table]); strings.Contains("\n"+d, "\n- ") {
					t.Errorf("table %s lost rows (- before, + after):\n%s", table, d)
				}
			}
			b := rawOpen(t, backupPath(path, f.version))
			b.QueryRow("PRAGMA user_version").Scan(&v)
			if got := dumpTables(t, b, cols); v != f.version || len(got["commands"]) != len(before["commands"]) {
				t.Errorf("first backup: schema %d, %d commands; want %d, %d", v, len(got["commands"]), f.version, len(before["commands"]))
			}
			checkFixtureHistory(t, s, f.version)
		})
	}
}

// TestMigratePausedHelper is TestMigrateKilledResumes's child process: it
// opens the database and stops inside the migration it is told, where it
// is killed.
func TestMigratePausedHelper(t *testing.T) {
	path := os.Getenv("HOOKD_TEST_MIGRATE_PATH")
	if path == "" {
		required.Cannot(t, "the child process of TestMigrateKilledResumes, run by it")
	}
	stop, _ := strconv.Atoi(os.Getenv("HOOKD_TEST_MIGRATE_STOP"))
	migrating = func(v int) {
		if v == stop {
			fmt.Printf("paused in migration %d\n", v)
			time.Sleep(time.Hour)
		}
	}
	s, err := Open(context.Background(), path, time.Second)
	if err == nil {
		s.Close()
	}
	fmt.Println("not paused:", err)
}
