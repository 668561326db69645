package history

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// totalsRun is one run as the reference count reads it.
type totalsRun struct {
	command string
	exit    int
	dur, at int64
	agent   bool
	session string
	id      int64
}

// TestTotalsExact drives a history through every kind of change that
// touches the figures hookd stats reads (runs added in sessions known or
// not yet known, an agent's session arriving after its runs, authors set
// and cleared, sessions and runs removed, runs changed in place) and after
// each round checks command_totals and commands.agent against a count of
// the runs themselves, and every Tally against one computed here from the
// runs, for each grouping, order, period, selection of failures and of
// authors, with series: the totals path, its fallback and the series
// must all give the same figures as counting by hand.
func TestTotalsExact(t *testing.T) {
	for seed := uint64(1); seed <= 4; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			ctx := context.Background()
			s := openTotalsStore(t)
			rng := rand.New(rand.NewPCG(seed, 7))
			lines := []string{"make test", "make build", "git push", "git status", "go test ./...", "ls", "ls -la", "npm ci", "x"}
			seqs := map[string]int64{}
			known := map[string]bool{}
			for round := 0; round < 12; round++ {
				tx, err := s.Begin(ctx)
				if err != nil {
					t.Fatal(err)
				}
				for i := 0; i < 40; i++ {
					sess := fmt.Sprintf("s%d", rng.IntN(8))
					if !known[sess] && rng.IntN(3) > 0 {
						author := ""
						if rng.IntN(3) == 0 {
							author = "claude-code"
						}
						if err := tx.AddSession(ctx, Session{ID: sess, Shell: "bash", Author: author}); err != nil {
							t.Fatal(err)
						}
						known[sess] = true
					}
					seqs[sess]++
					exit := 0
					if rng.IntN(4) == 0 {
						exit = 1 + rng.IntN(3)
					}
					at := int64(round*1000+i) * 1e6
					if rng.IntN(10) == 0 {
						at -= int64(rng.IntN(5000)) * 1e6 // out of order, as sync brings them
					}
					if _, err := tx.AddCommand(ctx, Entry{Session: sess, Seq: seqs[sess], Command: lines[rng.IntN(len(lines))],
						ExitCode: exit, StartedAt: at, DurationUS: int64(rng.IntN(5000)) * 1000}); err != nil {
						t.Fatal(err)
					}
				}
				if err := tx.Commit(); err != nil {
					t.Fatal(err)
				}
				// Changes no writer of hookd's makes today, but that the
				// triggers must follow all the same.
				switch round % 4 {
				case 1:
					mustExec(t, s, `UPDATE sessions SET author = CASE WHEN author = '' THEN 'aider' ELSE '' END
						WHERE id = (SELECT id FROM sessions ORDER BY id LIMIT 1 OFFSET ?)`, rng.IntN(4))
				case 2:
					mustExec(t, s, `DELETE FROM sessions WHERE id = (SELECT id FROM sessions WHERE author <> '' ORDER BY id LIMIT 1)`)
					known = map[string]bool{}
					for _, id := range columnStrings(t, s, "SELECT id FROM sessions") {
						known[id] = true
					}
				case 3:
					mustExec(t, s, `UPDATE commands SET exit_code = 1 - (exit_code <> 0), duration_us = duration_us + 1,
						command = CASE WHEN id % 3 = 0 THEN 'make test' ELSE command END WHERE id % 7 = ?`, rng.IntN(7))
				}
				if _, err := s.Forget(ctx, columnInts(t, s, "SELECT id FROM commands ORDER BY random() LIMIT 6")); err != nil {
					t.Fatal(err)
				}
				if _, err := s.ForgetCommand(ctx, "x"); err != nil {
					t.Fatal(err)
				}
				checkTotalsTable(t, s)
				runs := totalsRuns(t, s)
				for q := 0; q < 25; q++ {
					checkTally(t, s, runs, rng, round)
				}
			}
		})
	}
}

func mustExec(t *testing.T, s *Store, q string, args ...any) {
	t.Helper()
	if _, err := s.db.Exec(q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

func columnStrings(t *testing.T, s *Store, q string) []string { return column[string](t, s, q) }

func columnInts(t *testing.T, s *Store, q string) []int64 { return column[int64](t, s, q) }

// column is the first column of q's rows.
func column[T any](t *testing.T, s *Store, q string) []T {
	t.Helper()
	rows, err := s.db.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		var v T
		if err := rows.Scan(&v); err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}

// checkTotalsTable compares command_totals and commands.agent with the
// runs counted afresh.
func checkTotalsTable(t *testing.T, s *Store) {
	t.Helper()
	got := columnStrings(t, s, `SELECT command || '|' || agent || '|' || n || '|' || f || '|' || d || '|' || l
		FROM command_totals ORDER BY command, agent`)
	want := columnStrings(t, s, `SELECT command || '|' || a || '|' || COUNT(*) || '|' || SUM(exit_code <> 0) || '|' ||
		SUM(duration_us) || '|' || SUM(CASE WHEN exit_code <> 0 THEN duration_us ELSE 0 END)
		FROM (SELECT *, session IN (SELECT id FROM sessions WHERE author <> '') AS a FROM commands)
		GROUP BY command, a ORDER BY command, a`)
	if !slices.Equal(got, want) {
		t.Fatalf("command_totals\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if bad := columnStrings(t, s, `SELECT t.command FROM command_totals t
		WHERE t.since > (SELECT MIN(started_at) FROM commands c WHERE c.command = t.command
			AND (c.session IN (SELECT id FROM sessions WHERE author <> '')) = t.agent)`); len(bad) > 0 {
		t.Fatalf("since after a run of %q", bad)
	}
	if bad := columnInts(t, s, `SELECT id FROM commands
		WHERE agent <> (session IN (SELECT id FROM sessions WHERE author <> ''))`); len(bad) > 0 {
		t.Fatalf("commands %v have the wrong agent mark", bad)
	}
}

func totalsRuns(t *testing.T, s *Store) []totalsRun {
	t.Helper()
	rows, err := s.db.Query(`SELECT id, command, exit_code, duration_us, started_at, session,
		session IN (SELECT id FROM sessions WHERE author <> '') FROM commands`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []totalsRun
	for rows.Next() {
		var r totalsRun
		if err := rows.Scan(&r.id, &r.command, &r.exit, &r.dur, &r.at, &r.session, &r.agent); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

// checkTally asks for a random Tally and compares it with the same figures
// counted here.
func checkTally(t *testing.T, s *Store, runs []totalsRun, rng *rand.Rand, round int) {
	t.Helper()
	ta := Tally{By: []string{ByCommand, ByProgram}[rng.IntN(2)], Sort: []string{"", "count", "failures", "rate", "lost", "time", "key"}[rng.IntN(7)],
		Rows: rng.IntN(5), Until: int64(round*1000+60) * 1e6}
	ta.Failed = rng.IntN(4) == 0
	if rng.IntN(3) > 0 {
		ta.Authors = []string{""}
	}
	if rng.IntN(4) > 0 {
		ta.Since = int64(rng.IntN(round*1000+40)) * 1e6
	}
	if rng.IntN(3) > 0 {
		ta.Buckets = 1 + rng.IntN(12)
	}
	checkTallyOf(t, s, runs, ta)
}

// TestTallyBucketEdges puts a run at every microsecond of a short period,
// so that each bucket's first and last runs sit on its edges: the series
// must count each where (at - Since) * Buckets / span puts it.
func TestTallyBucketEdges(t *testing.T) {
	ctx := context.Background()
	s := openTotalsStore(t)
	tx, err := s.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for at := int64(1); at <= 240; at++ {
		if _, err := tx.AddCommand(ctx, Entry{Session: "s", Seq: at, Command: "make", ExitCode: int(at % 2),
			StartedAt: at, DurationUS: at}); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	runs := totalsRuns(t, s)
	for _, since := range []int64{0, 1, 7, 100} {
		for _, until := range []int64{200, 241, 239} {
			for b := 1; b <= 13; b++ {
				checkTallyOf(t, s, runs, Tally{Query: Query{Since: since}, By: ByCommand, Until: until, Buckets: b})
			}
		}
	}
}

func checkTallyOf(t *testing.T, s *Store, runs []totalsRun, ta Tally) {
	t.Helper()
	key := func(c string) string {
		if ta.By == ByProgram {
			c, _, _ = strings.Cut(c, " ")
		}
		return c
	}
	type acc struct {
		TallyRow
		durs []int64
	}
	groups := map[string]*acc{}
	for _, r := range runs {
		if (ta.Since > 0 && r.at < ta.Since) || (ta.Failed && r.exit == 0) || (ta.Authors != nil && r.agent) {
			continue
		}
		k := key(r.command)
		g := groups[k]
		if g == nil {
			g = &acc{TallyRow: TallyRow{Key: k, FirstAt: r.at, LastAt: r.at}}
			if ta.Buckets > 0 {
				g.Activity, g.Failing = make([]int64, ta.Buckets), make([]int64, ta.Buckets)
			}
			groups[k] = g
		}
		g.Count++
		g.TotalUS += r.dur
		g.durs = append(g.durs, r.dur)
		if r.exit != 0 {
			g.Failures++
			g.LostUS += r.dur
		}
		g.FirstAt, g.LastAt = min(g.FirstAt, r.at), max(g.LastAt, r.at)
		if ta.Buckets > 0 {
			b := int64(0)
			if span := ta.Until - ta.Since; span > 0 {
				b = (r.at - ta.Since) * int64(ta.Buckets) / span
			}
			b = min(max(b, 0), int64(ta.Buckets-1))
			g.Activity[b]++
			if r.exit != 0 {
				g.Failing[b]++
			}
		}
	}
	var want []TallyRow
	var tot TallyTotals
	for _, g := range groups {
		slices.Sort(g.durs)
		g.MedianUS = g.durs[(len(g.durs)-1)/2]
		want = append(want, g.TallyRow)
		tot.Keys++
		tot.Count += g.Count
		tot.Failures += g.Failures
		tot.TotalUS += g.TotalUS
		tot.LostUS += g.LostUS
	}
	sortBy := cmpOr(ta.Sort, "count")
	slices.SortFunc(want, func(a, b TallyRow) int {
		if sortBy == "rate" {
			ra, rb := float64(a.Failures)/float64(a.Count), float64(b.Failures)/float64(b.Count)
			if ra != rb {
				if ra > rb {
					return -1
				}
				return 1
			}
			if a.Count != b.Count {
				return -cmpInt(a.Count, b.Count)
			}
			return strings.Compare(a.Key, b.Key)
		}
		return tallyOrder(sortBy)(a, b)
	})
	if ta.Rows > 0 && len(want) > ta.Rows {
		want = want[:ta.Rows]
	}
	got, gotTot, err := s.Tally(context.Background(), ta)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 && len(want) == 0 {
		got, want = nil, nil
	}
	if !reflect.DeepEqual(got, want) || gotTot != tot {
		t.Fatalf("Tally(%+v)\n got %+v\n     %+v\nwant %+v\n     %+v", ta, got, gotTot, want, tot)
	}
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// TestQueryPlansStartSmall: the queries that join a small table (notes) to
// the commands start from the small one. Told nothing of the tables'
// sizes, SQLite walked all the commands of a million-command history to
// find the notes of none, for a word's search (a bound LIKE pattern):
// 6 of the 9 s that BenchmarkServeKeys spent.
func TestQueryPlansStartSmall(t *testing.T) {
	s := openTotalsStore(t)
	q, args := notesMatching([]string{"flaky"}, 50)
	plan := strings.Join(columnPlan(t, s, q, args...), "\n")
	if strings.Contains(plan, "SCAN c") || !strings.Contains(plan, "SCAN n") {
		t.Errorf("notes search plan:\n%s\nwant the notes scanned, each command looked up", plan)
	}
}

func columnPlan(t *testing.T, s *Store, q string, args ...any) []string {
	t.Helper()
	rows, err := s.db.Query("EXPLAIN QUERY PLAN "+q, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id, parent, notused int
		var detail string
		if err := rows.Scan(&id, &parent, &notused, &detail); err != nil {
			t.Fatal(err)
		}
		out = append(out, detail)
	}
	return out
}

// TestConnectionKeepsJournalsInMemory: each run added fires the stats
// triggers, whose statement journals went to a temporary file (twenty
// writes a run: BenchmarkIngest in internal/recording/ingest at half its
// speed), and a spool's transaction spilled the page cache to the log.
func TestConnectionKeepsJournalsInMemory(t *testing.T) {
	s := openTotalsStore(t)
	var temp, cache int
	if err := s.db.QueryRow("PRAGMA temp_store").Scan(&temp); err != nil {
		t.Fatal(err)
	}
	if err := s.db.QueryRow("PRAGMA cache_size").Scan(&cache); err != nil {
		t.Fatal(err)
	}
	if temp != 2 || cache != -16384 {
		t.Errorf("temp_store %d, cache_size %d; want 2 (memory) and -16384 (16 MiB)", temp, cache)
	}
}

// openTotalsStore is a new history for a test, closed at its end.
func openTotalsStore(t *testing.T) *Store {
	t.Helper()
	s, err := Open(context.Background(), filepath.Join(t.TempDir(), "history.db"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}
