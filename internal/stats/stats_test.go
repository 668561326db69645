package stats

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/search"
)

// now is the tests' fixed present: noon, so that a day back is the day
// before in any time zone without a jump.
var now = time.Date(2026, 11, 28, 12, 0, 0, 0, time.Local)

type run struct {
	cmd, cwd string
	exit     int
	dur      time.Duration
	ago      time.Duration
	branch   string
	author   string
}

// storeWith opens a new history file holding runs, each with its context
// (the same work tree /p and the branch given), in one session per author.
func storeWith(t testing.TB, runs []run) *history.Store {
	t.Helper()
	ctx := context.Background()
	st, err := history.Open(ctx, filepath.Join(t.TempDir(), "history.db"), 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	tx, err := st.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	seqs := map[string]int64{}
	for _, r := range runs {
		sess := "s-" + r.author
		if seqs[sess] == 0 {
			if err := tx.AddSession(ctx, history.Session{ID: sess, Shell: "bash", Host: "box", Author: r.author}); err != nil {
				t.Fatal(err)
			}
		}
		seqs[sess]++
		at := now.Add(-r.ago).UnixMicro()
		if _, err := tx.AddCommand(ctx, history.Entry{Session: sess, Seq: seqs[sess], Command: r.cmd, ExitCode: r.exit,
			Cwd: r.cwd, StartedAt: at, DurationUS: r.dur.Microseconds()}); err != nil {
			t.Fatal(err)
		}
		if err := tx.AddContext(ctx, sess, seqs[sess], r.exit == 0, at, history.Context{Key: 1, Repo: "/p", Branch: r.branch}); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	return st
}

const day = 24 * time.Hour

func TestRun(t *testing.T) {
	st := storeWith(t, []run{
		{cmd: "make test", cwd: "/p", exit: 2, dur: 30 * time.Second, ago: 9 * day, branch: "main"},
		{cmd: "make test", cwd: "/p", exit: 0, dur: 10 * time.Second, ago: 8 * day, branch: "main"},
		{cmd: "make test", cwd: "/p", exit: 0, dur: 20 * time.Second, ago: 1 * day, branch: "main"},
		{cmd: "make test", cwd: "/p", exit: 1, dur: 40 * time.Second, ago: 1 * time.Hour, branch: "main"},
		{cmd: "git push", cwd: "/p", exit: 1, dur: 5 * time.Second, ago: 2 * day, branch: "main"},
		{cmd: "git push", cwd: "/p", exit: 0, dur: 3 * time.Second, ago: 1 * day, branch: "fix"},
		{cmd: "ls", cwd: "/q", exit: 0, dur: time.Millisecond, ago: 20 * day, branch: ""},
		{cmd: "rm -rf build", cwd: "/p", exit: 1, dur: time.Hour, ago: time.Hour, author: "claude-code"},
	})
	ctx := context.Background()
	for _, c := range []struct {
		name  string
		q     Query
		want  []Row // Key, Count, Failures, FailureRate, Total, Median, Lost, Flaky
		total Totals
	}{
		{"by command over ten days", Query{Filter: search.Filter{Since: now.Add(-10 * day).UnixMicro()}, Buckets: 10},
			[]Row{
				{Key: "make test", Count: 4, Failures: 2, FailureRate: 0.5, Total: 100 * time.Second, Median: 20 * time.Second, Lost: 70 * time.Second, Flaky: true},
				{Key: "git push", Count: 2, Failures: 1, FailureRate: 0.5, Total: 8 * time.Second, Median: 3 * time.Second, Lost: 5 * time.Second},
			}, Totals{Groups: 2, Count: 6, Failures: 3, FailureRate: 0.5, Total: 108 * time.Second, Lost: 75 * time.Second}},
		{"failed only, by dir, the agent's too", Query{By: "dir", Filter: search.Filter{Failed: true, Agents: true}},
			[]Row{{Key: "/p", Count: 4, Failures: 4, FailureRate: 1, Total: time.Hour + 75*time.Second, Median: 30 * time.Second, Lost: time.Hour + 75*time.Second, Flaky: true}},
			Totals{Groups: 1, Count: 4, Failures: 4, FailureRate: 1, Total: time.Hour + 75*time.Second, Lost: time.Hour + 75*time.Second}},
		{"by lost time, the whole history", Query{Sort: "lost", Rows: 1},
			[]Row{{Key: "make test", Count: 4, Failures: 2, FailureRate: 0.5, Total: 100 * time.Second, Median: 20 * time.Second, Lost: 70 * time.Second, Flaky: true}},
			Totals{Groups: 3, Count: 7, Failures: 3, FailureRate: 3.0 / 7, Total: 108*time.Second + time.Millisecond, Lost: 75 * time.Second}},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.q.Here.Now = now
			rep, err := Run(ctx, st, c.q)
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Rows) != len(c.want) {
				t.Fatalf("rows = %+v, want %d", rep.Rows, len(c.want))
			}
			for i, w := range c.want {
				g := rep.Rows[i]
				if g.Key != w.Key || g.Count != w.Count || g.Failures != w.Failures || g.FailureRate != w.FailureRate ||
					g.Total != w.Total || g.Median != w.Median || g.Lost != w.Lost || g.Flaky != w.Flaky {
					t.Errorf("row %d = %+v\nwant %+v", i, g, w)
				}
			}
			if rep.Totals != c.total {
				t.Errorf("totals = %+v, want %+v", rep.Totals, c.total)
			}
			if c.q.Buckets > 0 {
				act, fail := rep.Rows[0].Activity, rep.Rows[0].Failing
				// make test: 9 and 8 days ago (buckets 1 and 2: the
				// period starts 10 days ago), a day ago and an hour ago
				// (bucket 9).
				if len(act) != 10 || act[0] != 0 || act[1] != 1 || act[2] != 1 || act[9] != 2 || fail[1] != 1 || fail[9] != 1 || fail[2] != 0 {
					t.Errorf("series = %v / %v", act, fail)
				}
			}
		})
	}
	fl, err := Flaky(ctx, st, Query{Here: search.Here{Now: now}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	// make test failed, worked, worked, failed on main: two flips; git
	// push's success came on another branch: not flaky.
	if len(fl) != 1 || fl[0].Command != "make test" || fl[0].Flips != 2 {
		t.Errorf("Flaky = %+v, want make test with 2 flips", fl)
	}
}

func TestCalendarOf(t *testing.T) {
	st := storeWith(t, []run{
		{cmd: "a", cwd: "/", ago: 2 * day},
		{cmd: "b", cwd: "/", exit: 1, ago: 2 * day},
		{cmd: "c", cwd: "/", ago: 400 * day},
	})
	cal, err := CalendarOf(context.Background(), st, Query{Here: search.Here{Now: now}})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(cal.Days); n < 365 || n > 366 {
		t.Fatalf("%d days, want a year's", n)
	}
	last := cal.Days[len(cal.Days)-1]
	if !last.Date.Equal(time.Date(2026, 11, 28, 0, 0, 0, 0, time.Local)) {
		t.Errorf("last day %v, want today", last.Date)
	}
	d := cal.Days[len(cal.Days)-3]
	if d.Count != 2 || d.Failures != 1 || cal.Max != 2 || cal.Total != 2 {
		t.Errorf("two days ago = %+v, max %d, total %d; want 2 runs, 1 failed (the run 400 days ago out)", d, cal.Max, cal.Total)
	}
}
