package history

import (
	"context"
	"database/sql"
	"encoding/binary"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/required"
)

const salvageT0 = int64(1_700_000_000_000_000)

// rowSet is the content of a database: per table, each row's values by its
// natural key.
type rowSet map[string]map[string]string

// tableQueries read each table with its natural key first; commands
// include their id, which Salvage keeps when it can.
var tableQueries = map[string]string{
	"commands": `SELECT session || x'00' || seq, id, command, exit_code, pipestatus, cwd, started_at, duration_us,
		output_bytes, source FROM commands`,
	"sessions": `SELECT id, shell, version, pid, host, user, uid, tty, started_at, capture FROM sessions`,
	"outputs":  `SELECT session || x'00' || seq || x'00' || stream, typeof(text), text, bytes, flags, created_at FROM outputs`,
	"spools":   `SELECT name, inode, offset, bad, updated_at FROM spools`,
	"intents":  `SELECT session || x'00' || seq, text FROM intents`,
	"prompts":  `SELECT session || x'00' || seq, at, text FROM prompts`,
}

func readRows(t testing.TB, db *sql.DB) rowSet {
	t.Helper()
	rs := rowSet{}
	for table, q := range tableQueries {
		rs[table] = map[string]string{}
		rows, err := db.Query(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			for _, v := range vals[1:] {
				if bs, ok := v.([]byte); ok {
					v = string(bs)
				}
				fmt.Fprintf(&b, "%q|", fmt.Sprint(v))
			}
			key := fmt.Sprint(vals[0])
			if bs, ok := vals[0].([]byte); ok {
				key = string(bs)
			}
			rs[table][key] = b.String()
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		rows.Close()
	}
	return rs
}

func storeRows(t testing.TB, s *Store) rowSet { return readRows(t, s.db) }

func fileRows(t testing.TB, path string) rowSet {
	db, err := sql.Open("sqlite3", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	return readRows(t, db)
}

// cellKey names the row a decoded cell holds, as readRows keys it.
func cellKey(c *cell) (table, key string) {
	v := c.vals
	switch tableOf(c) {
	case tableCommands:
		return "commands", fmt.Sprintf("%s\x00%d", v[1].b, v[2].i)
	case tableSessions:
		return "sessions", string(v[0].b)
	case tableOutputs:
		return "outputs", fmt.Sprintf("%s\x00%d\x00%s", v[0].b, v[1].i, v[2].b)
	case tableSpools:
		return "spools", string(v[0].b)
	case tableIntents:
		return "intents", fmt.Sprintf("%s\x00%d", v[0].b, v[1].i)
	case tablePrompts:
		return "prompts", fmt.Sprintf("%s\x00%d", v[0].b, v[1].i)
	}
	return "", ""
}

// rowPages returns, for each row of the intact database at path, the
// pages each copy of it found lives on (its cell's, then its overflow
// pages). TestSalvageIntact checks that this finds every row.
func rowPages(t testing.TB, path string) map[string][][]uint32 {
	t.Helper()
	p, err := openDamaged(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer p.close()
	sc := newScanner(p)
	sc.keepPath = true
	m := map[string][][]uint32{}
	sc.scanAll(nil, nil, func(c *cell) {
		if table, key := cellKey(c); table != "" {
			m[table+"\x00"+key] = append(m[table+"\x00"+key], c.pages)
		}
	})
	return m
}

func openTestStore(t testing.TB, path string) *Store {
	t.Helper()
	s, err := Open(context.Background(), path, 10*time.Second)
	if err != nil {
		t.Fatalf("Open(%s): %v", path, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func mustTx(t testing.TB, s *Store, fn func(context.Context, *Tx) error) {
	t.Helper()
	ctx := context.Background()
	tx, err := s.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if err := fn(ctx, tx); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// buildSalvageDB makes a closed database at path with sessions of schema
// 1 (9-value records) and 2, a few hundred commands (one of 20 KB, some in
// unicode or invalid UTF-8), outputs (some of 200 KB, one pruned) and
// spool offsets.
func buildSalvageDB(t testing.TB, path string) {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(migrations[0] + "; PRAGMA user_version = 1"); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if _, err := db.Exec(`INSERT INTO sessions (id, shell, version, pid, host, user, uid, tty, started_at)
			VALUES (?, 'bash', '5.1', ?, 'old-host', 'u', 1000, '/dev/pts/0', ?)`,
			fmt.Sprintf("old-%d", i), 100+i, salvageT0+int64(i)); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()

	s := openTestStore(t, path)
	r := rand.New(rand.NewPCG(7, 8))
	mustTx(t, s, func(ctx context.Context, tx *Tx) error {
		for i := range 4 {
			if err := tx.AddSession(ctx, Session{ID: fmt.Sprintf("new-%d", i), Shell: "zsh", Version: "5.9",
				PID: 200 + i, Host: "héllo-host", User: "u", UID: 1000, TTY: "/dev/pts/3",
				StartedAt: salvageT0 + 100, Capture: []string{"pty", "off"}[i%2], Author: []string{"", "", "", "claude-code"}[i]}); err != nil {
				return err
			}
		}
		for i := range 400 {
			e := Entry{Session: fmt.Sprintf("new-%d", i%4), Seq: int64(i/4 + 1),
				Command:  fmt.Sprintf("git commit -m 'change %d' && make -j%d", i, i%16),
				ExitCode: i % 3, Cwd: fmt.Sprintf("/home/u/src/p%d", i%7), StartedAt: salvageT0 + int64(i)*1_000_000,
				DurationUS: int64(r.IntN(1_000_000)), Source: []string{"hook", "import", "run"}[i%3]}
			if i%3 == 1 {
				e.Pipestatus = []int{0, 1, -1}
			}
			switch i {
			case 10:
				e.Command = "echo " + strings.Repeat("0123456789abcdef", 20<<10/16) // overflow pages
			case 11:
				e.Command = "echo 'héllo wörld 世界 🎉'"
			case 12:
				e.Command = "printf '\xff\xfe\x00 invalid \xc3'"
			}
			if _, err := tx.AddCommand(ctx, e); err != nil {
				return err
			}
		}
		for i := range 40 {
			o := Output{Session: fmt.Sprintf("new-%d", i%4), Seq: int64(i/4 + 1), Stream: []string{"", "stdout", "stderr"}[i%3],
				Text: []byte(fmt.Sprintf("output %d\n", i)), Bytes: 10, CreatedAt: salvageT0 + int64(i)}
			if i%8 == 3 {
				big := make([]byte, 200<<10)
				for j := range big {
					big[j] = byte('a' + r.IntN(26))
				}
				o.Text, o.Bytes = big, int64(len(big))
			}
			if i == 5 {
				o.Text, o.Flags = nil, OutputPruned
			}
			if err := tx.AddOutput(ctx, o); err != nil {
				return err
			}
		}
		// A coding agent's session (new-3): why it ran its commands (one
		// intent of 3 KB, over a page's share) and what it was asked.
		for i := range 30 {
			text := fmt.Sprintf("list the files of p%d to find the build script", i)
			if i == 7 {
				text = strings.Repeat("why it ran ", 300)
			}
			if err := tx.AddIntent(ctx, "new-3", int64(i+1), text); err != nil {
				return err
			}
			if i%5 == 0 {
				if err := tx.AddPrompt(ctx, "new-3", int64(i), salvageT0+int64(i)*1_000_000,
					fmt.Sprintf("fix the failing test %d, héllo", i)); err != nil {
					return err
				}
			}
		}
		for i := range 3 {
			if err := tx.SetSpoolOffset(ctx, fmt.Sprintf("spool-%d", i), uint64(5000+i), int64(1000*i), i, salvageT0); err != nil {
				return err
			}
		}
		return nil
	})
	s.Close()
	for _, suffix := range []string{"-wal", "-shm"} {
		if _, err := os.Stat(path + suffix); err == nil {
			t.Fatalf("%s left after Close", path+suffix)
		}
	}
}

// checkFTS checks that the full-text index matches the commands, when
// this build has it.
func checkFTS(t *testing.T, s *Store) {
	t.Helper()
	if !s.fts {
		return
	}
	if _, err := s.db.Exec(`INSERT INTO commands_fts(commands_fts, rank) VALUES ('integrity-check', 1)`); err != nil {
		t.Errorf("full-text index integrity check: %v", err)
	}
	var upto string
	var maxID int64
	s.db.QueryRow(`SELECT value, (SELECT COALESCE(max(id), 0) FROM commands) FROM meta WHERE key = 'fts_upto'`).Scan(&upto, &maxID)
	if upto != fmt.Sprint(maxID) {
		t.Errorf("fts_upto = %s; want max(id) %d", upto, maxID)
	}
}

func TestSalvageIntact(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history.db")
	buildSalvageDB(t, path)
	want := fileRows(t, path)
	if n := len(want["sessions"]); n != 7 {
		t.Fatalf("built %d sessions; want 7", n)
	}
	s := openTestStore(t, filepath.Join(t.TempDir(), "new.db"))
	st, err := s.Salvage(t.Context(), path)
	if err != nil {
		t.Fatalf("Salvage: %v", err)
	}
	t.Logf("Salvage of an intact file: %+v", st)
	if st.BadPages != 0 || st.Commands != 400 || st.Sessions != 7 || st.Outputs != 40 || st.Spools != 3 ||
		st.Intents != 30 || st.Prompts != 6 {
		t.Errorf("Salvage = %+v; want no bad pages, 400 commands, 7 sessions, 40 outputs, 3 spools, 30 intents, 6 prompts", st)
	}
	compareRows(t, storeRows(t, s), want, want)
	checkFTS(t, s)
	if es, err := s.List(t.Context(), Query{Text: "wörld"}); err != nil || len(es) != 1 {
		t.Errorf("List(wörld) = %d entries, %v; want 1", len(es), err)
	}
	// The map of rows to pages the damage tests rely on finds every row.
	pages := rowPages(t, path)
	for table, rows := range want {
		for key := range rows {
			if len(pages[table+"\x00"+key]) == 0 {
				t.Errorf("rowPages misses %s %q", table, key)
			}
		}
	}
	// Again: nothing new.
	if st, err := s.Salvage(t.Context(), path); err != nil || st.Commands+st.Sessions+st.Outputs+st.Spools+st.Intents+st.Prompts != 0 {
		t.Errorf("second Salvage = %+v, %v; want no rows copied", st, err)
	}
	compareRows(t, storeRows(t, s), want, want)
}

// compareRows checks that every row got is the original one, and that got
// has every row of need.
func compareRows(t *testing.T, got, orig, need rowSet) {
	t.Helper()
	for table, rows := range got {
		for key, v := range rows {
			if w, ok := orig[table][key]; !ok || w != v {
				t.Errorf("salvaged %s %q = %s; want %s (present: %v)", table, key, v, w, ok)
			}
		}
		for key := range need[table] {
			if _, ok := rows[key]; !ok {
				t.Errorf("%s %q not salvaged", table, key)
			}
		}
	}
}

func TestSalvageDamaged(t *testing.T) {
	dir := t.TempDir()
	orig := filepath.Join(dir, "history.db")
	buildSalvageDB(t, orig)
	want := fileRows(t, orig)
	pages := rowPages(t, orig)
	clean, err := os.ReadFile(orig)
	if err != nil {
		t.Fatal(err)
	}
	const ps = 4096
	npages := len(clean) / ps
	r := rand.New(rand.NewPCG(1, 1))
	random := func(b []byte) {
		for i := range b {
			b[i] = byte(r.Uint32())
		}
	}
	// keep picks a few pages for "all pages zero but a few": those of a
	// command, a schema-1 session, a 200 KB output, an agent's intent and
	// a prompt.
	keep := map[int]bool{}
	for _, k := range []string{"commands\x00new-2\x0010", "sessions\x00old-1", "outputs\x00new-3\x005\x00stdout",
		"intents\x00new-3\x008", "prompts\x00new-3\x0025"} {
		if len(pages[k]) == 0 {
			t.Fatalf("no pages for %q", k)
		}
		for _, n := range pages[k][0] {
			keep[int(n)] = true
		}
	}
	tests := []struct {
		name   string
		damage func(b []byte) ([]byte, func(page int) bool) // returns the file, and which pages are hurt
	}{
		{"first 64 KiB random", func(b []byte) ([]byte, func(int) bool) {
			random(b[:64<<10])
			return b, func(n int) bool { return n <= 16 }
		}},
		{"16 KiB in the middle", func(b []byte) ([]byte, func(int) bool) {
			off := len(b)/2 - 1000
			random(b[off : off+16<<10])
			return b, func(n int) bool { return (n-1)*ps < off+16<<10 && n*ps > off }
		}},
		{"last third cut", func(b []byte) ([]byte, func(int) bool) {
			cut := len(b) * 2 / 3
			return b[:cut], func(n int) bool { return n*ps > cut }
		}},
		{"all zero but a few", func(b []byte) ([]byte, func(int) bool) {
			for n := 1; n <= npages; n++ {
				if !keep[n] {
					clear(b[(n-1)*ps : n*ps])
				}
			}
			return b, func(n int) bool { return !keep[n] }
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "damaged.db")
			b, hurt := tt.damage(slices.Clone(clean))
			if err := os.WriteFile(path, b, 0o600); err != nil {
				t.Fatal(err)
			}
			// What must come back: every row with a copy on pages the
			// damage spared.
			need := rowSet{}
			total, lost := 0, 0
			for table, rows := range want {
				need[table] = map[string]string{}
				for key, v := range rows {
					total++
					for _, ps := range pages[table+"\x00"+key] {
						if !slices.ContainsFunc(ps, func(n uint32) bool { return hurt(int(n)) }) {
							need[table][key] = v
							break
						}
					}
					if _, ok := need[table][key]; !ok {
						lost++
					}
				}
			}
			s := openTestStore(t, filepath.Join(t.TempDir(), "new.db"))
			st, err := s.Salvage(t.Context(), path)
			if err != nil {
				t.Fatalf("Salvage: %v", err)
			}
			got := storeRows(t, s)
			n := 0
			for _, rows := range got {
				n += len(rows)
			}
			t.Logf("%+v: %d of %d rows back, %d on damaged pages", st, n, total, lost)
			compareRows(t, got, want, need)
			if st.BadPages == 0 && tt.name != "last third cut" && tt.name != "all zero but a few" {
				t.Errorf("BadPages = 0; want the damaged pages counted")
			}
			checkFTS(t, s)
		})
	}
}

func TestSalvageIntoExisting(t *testing.T) {
	orig := filepath.Join(t.TempDir(), "history.db")
	buildSalvageDB(t, orig)
	want := fileRows(t, orig)

	s := openTestStore(t, filepath.Join(t.TempDir(), "new.db"))
	// Rows of the same keys, with other values; and a command with
	// another key on an id the salvaged ones use.
	mustTx(t, s, func(ctx context.Context, tx *Tx) error {
		if err := tx.AddSession(ctx, Session{ID: "new-1", Shell: "fish"}); err != nil {
			return err
		}
		for _, e := range []Entry{
			{Session: "new-0", Seq: 1, Command: "kept as it was", StartedAt: 1},
			{Session: "new-1", Seq: 1, Command: "kept too", StartedAt: 2},
			{Session: "other", Seq: 1, Command: "mine, on id 3", StartedAt: 3},
		} {
			if _, err := tx.AddCommand(ctx, e); err != nil {
				return err
			}
		}
		if err := tx.AddOutput(ctx, Output{Session: "new-0", Seq: 1, Stream: "", Text: []byte("mine")}); err != nil {
			return err
		}
		return tx.SetSpoolOffset(ctx, "spool-1", 1, 2, 3, 4)
	})
	before := storeRows(t, s)
	st, err := s.Salvage(t.Context(), orig)
	if err != nil {
		t.Fatalf("Salvage: %v", err)
	}
	if st.Commands != 398 || st.Sessions != 6 || st.Outputs != 39 || st.Spools != 2 {
		t.Errorf("Salvage = %+v; want 398 commands, 6 sessions, 39 outputs, 2 spools", st)
	}
	got := storeRows(t, s)
	for table, rows := range want {
		for key, v := range rows {
			g, ok := got[table][key]
			switch {
			case !ok:
				t.Errorf("%s %q missing", table, key)
			case before[table][key] != "":
				if g != before[table][key] {
					t.Errorf("existing %s %q = %s; want it unchanged: %s", table, key, g, before[table][key])
				}
			case table == "commands" && key == "new-2\x001":
				// Its id (3) was taken: it has another, the rest is the same.
				if _, rest, _ := strings.Cut(g, "|"); !strings.HasSuffix(v, rest) || g == v {
					t.Errorf("command on a taken id = %s; want %s but for the id", g, v)
				}
			case g != v:
				t.Errorf("%s %q = %s; want %s", table, key, g, v)
			}
		}
		if n := len(got[table]); n != len(want[table])+len(before[table])-overlap(want[table], before[table]) {
			t.Errorf("%d %s; want %d (no duplicates)", n, table, len(want[table])+len(before[table])-overlap(want[table], before[table]))
		}
	}
	checkFTS(t, s)
}

func overlap(a, b map[string]string) int {
	n := 0
	for k := range a {
		if _, ok := b[k]; ok {
			n++
		}
	}
	return n
}

// TestSalvageWAL salvages a database whose rows are still in its WAL, and
// one whose WAL is garbage.
func TestSalvageWAL(t *testing.T) {
	dir := t.TempDir()
	live := filepath.Join(dir, "live.db")
	s := openTestStore(t, live)
	mustTx(t, s, func(ctx context.Context, tx *Tx) error {
		for i := range 50 {
			if _, err := tx.AddCommand(ctx, Entry{Session: "w", Seq: int64(i + 1), Command: fmt.Sprint("in the wal ", i), StartedAt: int64(i)}); err != nil {
				return err
			}
		}
		return nil
	})
	// A copy while it is open: the rows are in the WAL only.
	copyFile := func(from, to string) {
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	snap := filepath.Join(dir, "snap.db")
	copyFile(live, snap)
	copyFile(live+"-wal", snap+"-wal")
	s2 := openTestStore(t, filepath.Join(dir, "a.db"))
	if st, err := s2.Salvage(t.Context(), snap); err != nil || st.Commands != 50 {
		t.Errorf("Salvage with the rows in the WAL = %+v, %v; want 50 commands", st, err)
	}
	// A garbage WAL is ignored.
	if err := os.WriteFile(snap+"-wal", []byte(strings.Repeat("garbage!", 1000)), 0o600); err != nil {
		t.Fatal(err)
	}
	s3 := openTestStore(t, filepath.Join(dir, "b.db"))
	if _, err := s3.Salvage(t.Context(), snap); err != nil {
		t.Errorf("Salvage with a garbage WAL: %v", err)
	}
}

func TestSalvageCanceled(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history.db")
	buildSalvageDB(t, path)
	s := openTestStore(t, filepath.Join(t.TempDir(), "new.db"))
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := s.Salvage(ctx, path); err == nil {
		t.Errorf("Salvage with a canceled context succeeded")
	}
	if n := len(storeRows(t, s)["commands"]); n != 0 {
		t.Errorf("canceled Salvage left %d commands; want none", n)
	}
	if _, err := s.Salvage(t.Context(), filepath.Join(t.TempDir(), "missing.db")); err == nil {
		t.Errorf("Salvage of a missing file succeeded")
	}
}

var updateSalvageSeeds = flag.Bool("update-salvage-seeds", false, "rewrite the seed corpus of FuzzSalvage")

// TestSalvageSeeds writes FuzzSalvage's seed corpus when asked to:
// go test ./history -run TestSalvageSeeds -update-salvage-seeds
// (without -tags sqlite_fts5, which would add the index's tables).
func TestSalvageSeeds(t *testing.T) {
	if !*updateSalvageSeeds {
		required.Cannot(t, "writes the seeds only when asked (-update-salvage-seeds)")
	}
	// A small database of 512-byte pages, with a row of each table and
	// overflow chains.
	path := filepath.Join(t.TempDir(), "tiny.db")
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("PRAGMA page_size = 512; " + migrations[0] + `; PRAGMA user_version = 1;
		INSERT INTO sessions (id, shell) VALUES ('old', 'bash')`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s := openTestStore(t, path)
	mustTx(t, s, func(ctx context.Context, tx *Tx) error {
		if err := tx.AddSession(ctx, Session{ID: "s", Shell: "zsh", Capture: "pty"}); err != nil {
			return err
		}
		for i, cmd := range []string{"ls", "echo " + strings.Repeat("long ", 300), "héllo \xff"} {
			if _, err := tx.AddCommand(ctx, Entry{Session: "s", Seq: int64(i + 1), Command: cmd, Pipestatus: []int{0, 1}}); err != nil {
				return err
			}
		}
		if err := tx.AddOutput(ctx, Output{Session: "s", Seq: 2, Text: []byte(strings.Repeat("out ", 400))}); err != nil {
			return err
		}
		if err := tx.AddOutput(ctx, Output{Session: "s", Seq: 1, Stream: "stderr", Flags: OutputPruned}); err != nil {
			return err
		}
		return tx.SetSpoolOffset(ctx, "spool", 1, 2, 0, 3)
	})
	s.Close()
	tiny, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	noHeader := slices.Clone(tiny)
	clear(noHeader[:100])
	// A table leaf whose one cell (payload 1047 bytes: 39 on the page,
	// then two overflow pages' worth) has an overflow chain that loops on
	// page 3.
	cycle := make([]byte, 3*512)
	leaf := cycle[512:1024]
	leaf[0] = 0x0d
	binary.BigEndian.PutUint16(leaf[3:], 1)   // one cell
	binary.BigEndian.PutUint16(leaf[5:], 400) // content from 400
	binary.BigEndian.PutUint16(leaf[8:], 400) // the cell
	copy(leaf[400:], []byte{0x88, 0x17, 0x01, 0x03, 0x01, 0x01, 0x11})
	binary.BigEndian.PutUint32(leaf[400+3+39:], 3)
	binary.BigEndian.PutUint32(cycle[1024:], 3)
	seeds := map[string][]byte{
		"empty":     nil,
		"tiny":      tiny,
		"no-header": noHeader,
		"cycle":     cycle,
		"magic":     []byte(sqliteMagic + "\x10\x00\x01\x01\x00\x40\x20\x20"),
	}
	dir := filepath.Join("testdata", "fuzz", "FuzzSalvage")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, b := range seeds {
		text := "go test fuzz v1\n[]byte(" + strconv.Quote(string(b)) + ")\n"
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// FuzzSalvage salvages arbitrary bytes: no panic, and no error (the store
// written to is sound).
func FuzzSalvage(f *testing.F) {
	s := openTestStore(f, filepath.Join(f.TempDir(), "into.db"))
	f.Fuzz(func(t *testing.T, b []byte) {
		path := filepath.Join(t.TempDir(), "fuzz.db")
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Salvage(t.Context(), path); err != nil {
			t.Fatalf("Salvage: %v", err)
		}
	})
}

// TestSalvageSeedPageSize salvages the fuzz seeds of 512-byte pages, with
// and without their header: the page size is found either way.
func TestSalvageSeedPageSize(t *testing.T) {
	for _, name := range []string{"tiny", "no-header"} {
		text, err := os.ReadFile(filepath.Join("testdata", "fuzz", "FuzzSalvage", name))
		if err != nil {
			t.Fatal(err)
		}
		q := strings.TrimSuffix(strings.TrimPrefix(string(text), "go test fuzz v1\n[]byte("), ")\n")
		b, err := strconv.Unquote(q)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		path := filepath.Join(t.TempDir(), "seed.db")
		if err := os.WriteFile(path, []byte(b), 0o600); err != nil {
			t.Fatal(err)
		}
		s := openTestStore(t, filepath.Join(t.TempDir(), "new.db"))
		st, err := s.Salvage(t.Context(), path)
		want := SalvageStats{Pages: len(b) / 512, Commands: 3, Sessions: 2, Outputs: 2, Spools: 1}
		if err != nil || st != want {
			t.Errorf("Salvage(%s) = %+v, %v; want %+v", name, st, err, want)
		}
	}
}

// BenchmarkSalvage salvages an intact history of 100,000 commands (about
// 60 bytes each, in 500 sessions) into a new store.
func BenchmarkSalvage(b *testing.B) {
	const rows = 100_000
	path := filepath.Join(b.TempDir(), "history.db")
	s := openTestStore(b, path)
	r := rand.New(rand.NewPCG(3, 4))
	mustTx(b, s, func(ctx context.Context, tx *Tx) error {
		for k := range 500 {
			if err := tx.AddSession(ctx, Session{ID: fmt.Sprintf("s%03d", k), Shell: "bash", Host: "h", User: "u"}); err != nil {
				return err
			}
		}
		for i := range rows {
			e := Entry{Session: fmt.Sprintf("s%03d", i%500), Seq: int64(i/500 + 1),
				Command:  fmt.Sprintf("go test ./pkg%d/... -run Test%d -count=%d", r.IntN(100), r.IntN(1000), i%5),
				ExitCode: i % 10 / 9, Cwd: fmt.Sprintf("/home/u/src/p%d", r.IntN(30)), StartedAt: salvageT0 + int64(i)*1e6,
				DurationUS: int64(r.IntN(5e6))}
			if _, err := tx.AddCommand(ctx, e); err != nil {
				return err
			}
		}
		return nil
	})
	s.Close()
	size := fileSize(path)
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		into := openTestStore(b, filepath.Join(b.TempDir(), fmt.Sprintf("new%d.db", i)))
		b.StartTimer()
		st, err := into.Salvage(context.Background(), path)
		if err != nil || st.Commands != rows {
			b.Fatalf("Salvage = %+v, %v; want %d commands", st, err, rows)
		}
		b.StopTimer()
		into.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(size)/(1<<20), "MB")
}

// TestSalvageDeleted checks that rows deleted from the database stay
// deleted: forgotten ones (overwritten by secure_delete), and rows deleted
// plainly, whose emptied pages went to the freelist with their old bytes.
func TestSalvageDeleted(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "history.db")
	buildSalvageDB(t, path)
	s := openTestStore(t, path)
	e, err := s.BySeq(ctx, "new-0", 6)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := s.Forget(ctx, []int64{e.ID}); n != 1 || err != nil {
		t.Fatalf("Forget = %d, %v", n, err)
	}
	if _, err := s.db.Exec(`PRAGMA secure_delete = OFF`); err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.Exec(`DELETE FROM commands WHERE id BETWEEN 100 AND 250; DELETE FROM outputs WHERE session = 'new-2'`); err != nil {
		t.Fatal(err)
	}
	var free int
	if err := s.db.QueryRow(`PRAGMA freelist_count`).Scan(&free); err != nil || free == 0 {
		t.Fatalf("freelist_count = %d, %v; want pages on the freelist", free, err)
	}
	s.Close()
	want := fileRows(t, path)

	into := openTestStore(t, filepath.Join(t.TempDir(), "new.db"))
	st, err := into.Salvage(ctx, path)
	if err != nil {
		t.Fatalf("Salvage: %v", err)
	}
	t.Logf("%+v, %d free pages", st, free)
	compareRows(t, storeRows(t, into), want, want)
	checkFTS(t, into)
}

// TestSalvageCancelMidway cancels a salvage in progress: it stops at once
// and leaves the store as it was.
func TestSalvageCancelMidway(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history.db")
	buildSalvageDB(t, path)
	s := openTestStore(t, filepath.Join(t.TempDir(), "new.db"))
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	pages := 0
	// Cancel when the scan is a third of the way through.
	st, err := s.salvageHook(ctx, path, func() {
		if pages++; pages == 100 {
			cancel()
		}
	})
	if err == nil {
		t.Fatalf("Salvage canceled midway = %+v, nil; want an error", st)
	}
	if pages > 101 {
		t.Errorf("Salvage went on for %d pages after being canceled", pages-100)
	}
	if n := len(storeRows(t, s)["commands"]); n != 0 {
		t.Errorf("canceled Salvage left %d commands; want none", n)
	}
}

// TestSalvageBelowIndexed salvages commands whose ids are below those the
// full-text index covers: a build with FTS5 indexes them one by one, a
// build without notes that the index must be rebuilt, which the next Open
// of a build with FTS5 does.
func TestSalvageBelowIndexed(t *testing.T) {
	src := filepath.Join(t.TempDir(), "history.db")
	buildSalvageDB(t, src)
	for _, withFTS := range []bool{true, false} {
		t.Run(fmt.Sprint("fts=", withFTS), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "new.db")
			s := openTestStore(t, path)
			if !s.fts {
				required.Cannot(t, "this SQLite has no FTS5 (built without -tags sqlite_fts5)")
			}
			if _, err := s.db.Exec(`INSERT INTO commands (id, session, seq, command, exit_code, started_at)
				VALUES (1000, 'x', 1, 'a high id', 0, 0)`); err != nil {
				t.Fatal(err)
			}
			s.Close()
			s = openTestStore(t, path) // indexes it
			s.fts = withFTS
			if _, err := s.Salvage(t.Context(), src); err != nil {
				t.Fatalf("Salvage: %v", err)
			}
			var stale int
			s.db.QueryRow(`SELECT count(*) FROM meta WHERE key = 'fts_stale'`).Scan(&stale)
			if want := map[bool]int{true: 0, false: 1}[withFTS]; stale != want {
				t.Errorf("fts_stale notes = %d; want %d", stale, want)
			}
			s.Close()
			s = openTestStore(t, path)
			checkFTS(t, s)
			if es, err := s.List(t.Context(), Query{Text: "wörld"}); err != nil || len(es) != 1 || es[0].ID > 1000 {
				t.Errorf("List(wörld) = %+v, %v; want the salvaged command, with its old id", es, err)
			}
		})
	}
}
