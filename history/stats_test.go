package history_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/hookd/hookd/history"
)

// run is one command of a generated history, with the context its shell
// noted (env nil: none noted; noCtx: no context at all, as an import).
type run struct {
	cmd, cwd string
	exit     int
	dur      time.Duration
	at       int64 // µs after t0
	branch   string
	dirty    int
	env      map[string]string
	noCtx    bool
	session  string
}

// addRuns stores runs, in order, one session each ("s1" unless named),
// with their contexts.
func addRuns(t testing.TB, s *history.Store, runs []run) {
	t.Helper()
	ctx := context.Background()
	tx, err := s.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	seqs := map[string]int64{}
	for _, id := range []string{"s1", "s2", "agent"} {
		se := history.Session{ID: id, Shell: "bash", Host: "box-" + id}
		if id == "agent" {
			se.Author = "claude-code"
		}
		if err := tx.AddSession(ctx, se); err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range runs {
		sess := r.session
		if sess == "" {
			sess = "s1"
		}
		seqs[sess]++
		seq := seqs[sess]
		at := t0 + r.at
		if _, err := tx.AddCommand(ctx, history.Entry{Session: sess, Seq: seq, Command: r.cmd, ExitCode: r.exit,
			Cwd: r.cwd, StartedAt: at, DurationUS: r.dur.Microseconds()}); err != nil {
			t.Fatal(err)
		}
		if r.noCtx {
			continue
		}
		if r.env != nil {
			if err := tx.AddEnv(ctx, sess, seq, r.env); err != nil {
				t.Fatal(err)
			}
		}
		if err := tx.AddContext(ctx, sess, seq, r.exit == 0, at, history.Context{Key: 7, Repo: r.cwd,
			Branch: r.branch, Dirty: r.dirty}); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// generated is a history of n runs of each of a few commands, every k-th
// failing, run i taking i seconds: the figures are known in closed form.
func generated(n int, cmds map[string]int) []run {
	var runs []run
	at := int64(0)
	for i := 1; i <= n; i++ {
		for _, c := range []string{"make test", "git push", "go build ./..."} {
			k := cmds[c]
			exit := 0
			if k > 0 && i%k == 0 {
				exit = 2
			}
			at += 1e6
			runs = append(runs, run{cmd: c, cwd: "/p", exit: exit, dur: time.Duration(i) * time.Second, at: at, branch: "main"})
		}
	}
	return runs
}

func TestTallyFigures(t *testing.T) {
	s := newStore(t)
	// 10 runs each taking 1..10 s: make test fails every 2nd (runs 2, 4,
	// 6, 8, 10: 30 s lost), git push every 5th (5, 10: 15 s), go build
	// never.
	addRuns(t, s, generated(10, map[string]int{"make test": 2, "git push": 5}))
	addRuns(t, s, []run{{cmd: "rm -rf /", cwd: "/p", exit: 1, dur: time.Hour, at: 500e6, session: "agent"}})
	rows, tot, err := s.Tally(context.Background(), history.Tally{Query: history.Query{Authors: []string{""}}, By: history.ByCommand, Sort: "failures"})
	if err != nil {
		t.Fatal(err)
	}
	want := []history.TallyRow{
		{Key: "make test", Count: 10, Failures: 5, TotalUS: 55e6, MedianUS: 5e6, LostUS: 30e6},
		{Key: "git push", Count: 10, Failures: 2, TotalUS: 55e6, MedianUS: 5e6, LostUS: 15e6},
		{Key: "go build ./...", Count: 10, Failures: 0, TotalUS: 55e6, MedianUS: 5e6, LostUS: 0},
	}
	if len(rows) != len(want) {
		t.Fatalf("rows = %+v, want %d rows", rows, len(want))
	}
	for i, w := range want {
		g := rows[i]
		if g.Key != w.Key || g.Count != w.Count || g.Failures != w.Failures || g.TotalUS != w.TotalUS ||
			g.MedianUS != w.MedianUS || g.LostUS != w.LostUS {
			t.Errorf("row %d = %+v, want %+v", i, g, w)
		}
	}
	if tot.Keys != 3 || tot.Count != 30 || tot.Failures != 7 || tot.LostUS != 45e6 || tot.TotalUS != 165e6 {
		t.Errorf("totals = %+v (the agent's run must be left out)", tot)
	}
}

func TestTallyGroupsAndSeries(t *testing.T) {
	s := newStore(t)
	day := int64(24 * time.Hour / time.Microsecond)
	addRuns(t, s, []run{
		{cmd: "make test", cwd: "/a", exit: 1, dur: 3 * time.Second, at: 0},
		{cmd: "make lint", cwd: "/a", exit: 0, dur: 1 * time.Second, at: day},
		{cmd: "go vet", cwd: "/b", exit: 0, dur: 2 * time.Second, at: 2 * day},
		{cmd: "make test", cwd: "/b", exit: 0, dur: 4 * time.Second, at: 3*day + 1},
	})
	for _, c := range []struct {
		by       string
		sort     string
		keys     []string
		activity [][]int64 // per row, 4 buckets of a day
		failing  [][]int64
		median   []int64 // µs
	}{
		{history.ByCommand, "", []string{"make test", "go vet", "make lint"},
			[][]int64{{1, 0, 0, 1}, {0, 0, 1, 0}, {0, 1, 0, 0}}, [][]int64{{1, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}}, []int64{3e6, 2e6, 1e6}},
		{history.ByProgram, "", []string{"make", "go"}, [][]int64{{1, 1, 0, 1}, {0, 0, 1, 0}}, [][]int64{{1, 0, 0, 0}, {0, 0, 0, 0}}, []int64{3e6, 2e6}},
		{history.ByDir, "lost", []string{"/a", "/b"}, [][]int64{{1, 1, 0, 0}, {0, 0, 1, 1}}, [][]int64{{1, 0, 0, 0}, {0, 0, 0, 0}}, []int64{1e6, 2e6}},
		{history.ByRepo, "time", []string{"/b", "/a"}, nil, nil, []int64{2e6, 1e6}},
		{history.ByHost, "", []string{"box-s1"}, nil, nil, []int64{2e6}},
	} {
		t.Run(c.by, func(t *testing.T) {
			rows, _, err := s.Tally(context.Background(), history.Tally{Query: history.Query{Since: t0}, By: c.by, Sort: c.sort,
				Until: t0 + 4*day, Buckets: 4})
			if err != nil {
				t.Fatal(err)
			}
			var keys []string
			for _, r := range rows {
				keys = append(keys, r.Key)
			}
			if fmt.Sprint(keys) != fmt.Sprint(c.keys) {
				t.Fatalf("keys = %q, want %q", keys, c.keys)
			}
			for i, r := range rows {
				if c.activity != nil && (fmt.Sprint(r.Activity) != fmt.Sprint(c.activity[i]) || fmt.Sprint(r.Failing) != fmt.Sprint(c.failing[i])) {
					t.Errorf("%s: activity %v failing %v, want %v %v", r.Key, r.Activity, r.Failing, c.activity[i], c.failing[i])
				}
				if r.MedianUS != c.median[i] {
					t.Errorf("%s: median %d, want %d", r.Key, r.MedianUS, c.median[i])
				}
			}
		})
	}
}

func TestFlaky(t *testing.T) {
	venv := map[string]string{"VIRTUAL_ENV": "/v"}
	other := map[string]string{"VIRTUAL_ENV": "/w"}
	for _, c := range []struct {
		name  string
		runs  []run
		flips int64 // 0: not flaky
	}{
		{"fails then works, nothing changed", []run{
			{cmd: "make test", cwd: "/p", exit: 1, branch: "main"},
			{cmd: "make test", cwd: "/p", exit: 0, branch: "main"}}, 1},
		{"works, fails, works", []run{
			{cmd: "make test", cwd: "/p", exit: 0, branch: "main"},
			{cmd: "make test", cwd: "/p", exit: 0, branch: "main"},
			{cmd: "make test", cwd: "/p", exit: 2, branch: "main"},
			{cmd: "make test", cwd: "/p", exit: 0, branch: "main"}}, 2},
		{"other runs between do not matter", []run{
			{cmd: "make test", cwd: "/p", exit: 1, branch: "main"},
			{cmd: "vim x.go", cwd: "/p", exit: 0, branch: "main"},
			{cmd: "make test", cwd: "/p", exit: 0, branch: "main"}}, 1},
		{"branch changed", []run{
			{cmd: "make test", cwd: "/p", exit: 1, branch: "main"},
			{cmd: "make test", cwd: "/p", exit: 0, branch: "fix"}}, 0},
		{"work tree changed", []run{
			{cmd: "make test", cwd: "/p", exit: 1, branch: "main", dirty: 1},
			{cmd: "make test", cwd: "/p", exit: 0, branch: "main", dirty: 0}}, 0},
		{"environment changed", []run{
			{cmd: "make test", cwd: "/p", exit: 1, branch: "main", env: venv},
			{cmd: "make test", cwd: "/p", exit: 0, branch: "main", env: other}}, 0},
		{"same environment", []run{
			{cmd: "make test", cwd: "/p", exit: 1, branch: "main", env: venv},
			{cmd: "ls", cwd: "/p", exit: 0, branch: "main", env: venv},
			{cmd: "make test", cwd: "/p", exit: 0, branch: "main"}}, 1},
		{"other directory", []run{
			{cmd: "make test", cwd: "/p", exit: 1, branch: "main"},
			{cmd: "make test", cwd: "/q", exit: 0, branch: "main"}}, 0},
		{"other line", []run{
			{cmd: "make test", cwd: "/p", exit: 1, branch: "main"},
			{cmd: "make  test", cwd: "/p", exit: 0, branch: "main"}}, 0},
		{"no context recorded", []run{
			{cmd: "make test", cwd: "/p", exit: 1, noCtx: true},
			{cmd: "make test", cwd: "/p", exit: 0, noCtx: true}}, 0},
		{"always fails", []run{
			{cmd: "make test", cwd: "/p", exit: 1, branch: "main"},
			{cmd: "make test", cwd: "/p", exit: 1, branch: "main"}}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newStore(t)
			for i := range c.runs {
				c.runs[i].at = int64(i) * 1e6
			}
			addRuns(t, s, c.runs)
			got, err := s.Flaky(context.Background(), history.Query{}, 0)
			if err != nil {
				t.Fatal(err)
			}
			if c.flips == 0 {
				if len(got) != 0 {
					t.Fatalf("Flaky = %+v, want none", got)
				}
				return
			}
			if len(got) != 1 || got[0].Command != "make test" || got[0].Cwd != "/p" || got[0].Flips != c.flips {
				t.Fatalf("Flaky = %+v, want make test in /p with %d flips", got, c.flips)
			}
			if got[0].LastFailed == 0 || got[0].LastOK == 0 {
				t.Errorf("Flaky = %+v, want the last failed and successful runs' ids", got[0])
			}
		})
	}
}

func TestCalendarDays(t *testing.T) {
	s := newStore(t)
	addRuns(t, s, []run{
		{cmd: "a", cwd: "/", exit: 0, at: 0},
		{cmd: "b", cwd: "/", exit: 1, at: 60e6},
		{cmd: "c", cwd: "/", exit: 0, at: 2 * 86400e6},
	})
	got, err := s.Calendar(context.Background(), history.Query{})
	if err != nil {
		t.Fatal(err)
	}
	day := func(us int64) string { return time.UnixMicro(t0 + us).Format("2006-01-02") }
	want := []history.DayCount{{Day: day(0), Count: 2, Failures: 1}, {Day: day(2 * 86400e6), Count: 1}}
	if day(0) != day(60e6) {
		want = []history.DayCount{{Day: day(0), Count: 1}, {Day: day(60e6), Count: 1, Failures: 1}, {Day: day(2 * 86400e6), Count: 1}}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Calendar = %v, want %v", got, want)
	}
}
