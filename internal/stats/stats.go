// Package stats is hookd's statistics over the history: counts, failure
// rates, durations and time lost to failures grouped by command, program,
// directory, repository, day, week, host or author, with series for
// sparklines; a calendar of runs per day; and the flaky commands (the same
// line failing and succeeding in one directory with nothing of its
// recorded context changed between). hookd stats prints them on a
// terminal (Render…), hookd serve draws them: both call this package, the
// counting itself is SQLite's (history.Store.Tally, Calendar, Flaky).
package stats

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/search"
)

// Groupings are the keys a Query may group by, as --by names them.
var Groupings = []string{history.ByCommand, history.ByProgram, history.ByDir, history.ByRepo,
	history.ByDay, history.ByWeek, history.ByHost, history.ByAuthor}

// Sorts are the orders of a Query's rows, largest first.
var Sorts = []string{"count", "failures", "rate", "lost", "time", "key"}

// Query is one table of statistics.
type Query struct {
	// By is the grouping (Groupings; "" is "command").
	By string
	// Filter selects the runs counted, as a search's does: its Scope
	// (seen from Here), Failed, Since (µs; 0: the whole history), Cwd,
	// Agents, Author, Session. Coding agents' runs are left out unless
	// Agents or Author says otherwise.
	search.Filter
	// Here is where the scopes are seen from; Here.Now ends the period
	// (the zero time: now).
	Here search.Here
	// Host keeps only the runs of one host (its label or installation
	// id), as hookd history --host does.
	Host string
	// Rows is the number of rows (0: 20; negative: all).
	Rows int
	// Buckets is the number of spans of the period the series count in
	// (0: none; a terminal's sparkline asks for as many as it has room).
	Buckets int
	// Sort orders the rows (Sorts; "" is "count", and "key", the newest
	// first, by day or week).
	Sort string
}

// Row is one group's figures.
type Row struct {
	Key      string
	Count    int64
	Failures int64
	// FailureRate is Failures / Count (0 to 1).
	FailureRate float64
	// Total is the time its runs took, Median the median run's, Lost
	// the time in runs that failed.
	Total, Median, Lost time.Duration
	First, Last         time.Time
	// Activity and Failing count the runs and the failed runs in each
	// bucket of the period, oldest first (nil without Buckets).
	Activity, Failing []int64
	// Flaky is true when the group holds a flaky command (FlakyLine):
	// grouped by command, the line is; by directory, one ran there.
	Flaky bool
}

// Totals sums every group's figures, those beyond the rows shown too.
type Totals struct {
	Groups      int64
	Count       int64
	Failures    int64
	FailureRate float64
	Total, Lost time.Duration
}

// Report is a Query's answer.
type Report struct {
	By           string
	Since, Until time.Time // the period; Since is zero for the whole history
	// Bucket is the span of each bucket of the series (0: none).
	Bucket time.Duration
	Rows   []Row
	Totals Totals
	// Flaky lists the flaky command lines among the runs counted, most
	// flips first (at most 10).
	Flaky []FlakyLine
}

// FlakyLine is a command line that failed and succeeded in one directory
// with nothing of its recorded context changed between (history.FlakyLine).
type FlakyLine = history.FlakyLine

func (q Query) norm() (Query, error) {
	if q.By == "" {
		q.By = history.ByCommand
	}
	if !contains(Groupings, q.By) {
		return q, UsageError{fmt.Sprintf("unknown grouping %q (want %s)", q.By, strings.Join(Groupings, ", "))}
	}
	if q.Sort != "" && !contains(Sorts, q.Sort) {
		return q, UsageError{fmt.Sprintf("unknown order %q (want %s)", q.Sort, strings.Join(Sorts, ", "))}
	}
	if q.Sort == "" && (q.By == history.ByDay || q.By == history.ByWeek) {
		q.Sort = "key"
	}
	if q.Here.Now.IsZero() {
		q.Here.Now = time.Now()
	}
	if q.Rows == 0 {
		q.Rows = 20
	}
	return q, nil
}

// UsageError is a Query that asks for what does not exist: a grouping or
// an order not known.
type UsageError struct{ Msg string }

func (u UsageError) Error() string { return u.Msg }

// RowJSON is r as hookd stats --json prints it (DESIGN.md's contract): key,
// count, failed, failure_rate (0 to 1), total_ms, median_ms, lost_ms,
// flaky; and the series, activity and failures.
func RowJSON(r Row) map[string]any {
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	m := map[string]any{"key": r.Key, "count": r.Count, "failed": r.Failures, "failure_rate": r.FailureRate,
		"total_ms": ms(r.Total), "median_ms": ms(r.Median), "lost_ms": ms(r.Lost), "flaky": r.Flaky}
	if r.Activity != nil {
		m["activity"], m["failures"] = r.Activity, r.Failing
	}
	return m
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// historyQuery is the history's selection of q's runs; false when it
// selects none.
func (q Query) historyQuery() (history.Query, bool) {
	hq, ok := q.Filter.HistoryQuery(q.Here)
	hq.Host = q.Host
	return hq, ok
}

// Run answers q from the history in st.
func Run(ctx context.Context, st *history.Store, q Query) (Report, error) {
	q, err := q.norm()
	if err != nil {
		return Report{}, err
	}
	rep := Report{By: q.By, Until: q.Here.Now}
	hq, ok := q.historyQuery()
	if !ok {
		return rep, nil
	}
	since := hq.Since
	if since == 0 {
		// The whole history: the period starts at its first run.
		if since, err = st.FirstRun(ctx); err != nil {
			return rep, err
		}
	}
	if since != 0 {
		rep.Since = time.UnixMicro(since)
	}
	until := q.Here.Now.UnixMicro()
	t := history.Tally{Query: hq, By: q.By, Until: until, Sort: q.Sort, Rows: max(q.Rows, 0)}
	t.Since = since // the same runs when 0 was asked: none is older
	if q.Buckets > 0 && until > since && since != 0 {
		t.Buckets = q.Buckets
		rep.Bucket = time.Duration(until-since) * time.Microsecond / time.Duration(q.Buckets)
	}
	rows, tot, err := st.Tally(ctx, t)
	if err != nil {
		return rep, err
	}
	rep.Totals = Totals{Groups: tot.Keys, Count: tot.Count, Failures: tot.Failures,
		Total: us(tot.TotalUS), Lost: us(tot.LostUS), FailureRate: rate(tot.Failures, tot.Count)}
	flaky, err := st.Flaky(ctx, hq, 0)
	if err != nil {
		return rep, err
	}
	lines, dirs := map[string]bool{}, map[string]bool{}
	for _, f := range flaky {
		lines[f.Command], dirs[f.Cwd] = true, true
	}
	if len(flaky) > 10 {
		flaky = flaky[:10]
	}
	rep.Flaky = flaky
	for _, r := range rows {
		row := Row{Key: r.Key, Count: r.Count, Failures: r.Failures, FailureRate: rate(r.Failures, r.Count),
			Total: us(r.TotalUS), Median: us(r.MedianUS), Lost: us(r.LostUS),
			First: time.UnixMicro(r.FirstAt), Last: time.UnixMicro(r.LastAt),
			Activity: r.Activity, Failing: r.Failing}
		switch q.By {
		case history.ByCommand:
			row.Flaky = lines[r.Key]
		case history.ByDir:
			row.Flaky = dirs[r.Key]
		}
		rep.Rows = append(rep.Rows, row)
	}
	return rep, nil
}

func us(v int64) time.Duration { return time.Duration(v) * time.Microsecond }

func rate(f, n int64) float64 {
	if n == 0 {
		return 0
	}
	return float64(f) / float64(n)
}

// Day is one day of a Calendar.
type Day struct {
	Date     time.Time // local midnight
	Count    int64
	Failures int64
}

// Calendar is the runs per day over a period, every day of it present
// (days without a run count 0), oldest first.
type Calendar struct {
	Days []Day
	// Max is the most runs in a day, Total the runs over the period.
	Max, Total int64
}

// CalendarOf counts the runs q selects per local day from q's Since (a
// year back when 0) to Here.Now; q.By, Rows, Buckets and Sort are unused.
func CalendarOf(ctx context.Context, st *history.Store, q Query) (Calendar, error) {
	q, err := q.norm()
	if err != nil {
		return Calendar{}, err
	}
	now := q.Here.Now
	if q.Since == 0 {
		q.Since = now.AddDate(-1, 0, 1).UnixMicro()
	}
	hq, ok := q.historyQuery()
	var counts []history.DayCount
	if ok {
		if counts, err = st.Calendar(ctx, hq); err != nil {
			return Calendar{}, err
		}
	}
	byDay := make(map[string]history.DayCount, len(counts))
	for _, c := range counts {
		byDay[c.Day] = c
	}
	var cal Calendar
	start := time.UnixMicro(q.Since).In(now.Location())
	d := time.Date(start.Year(), start.Month(), start.Day(), 0, 0, 0, 0, now.Location())
	for !d.After(now) {
		c := byDay[d.Format("2006-01-02")]
		cal.Days = append(cal.Days, Day{Date: d, Count: c.Count, Failures: c.Failures})
		cal.Max = max(cal.Max, c.Count)
		cal.Total += c.Count
		d = d.AddDate(0, 0, 1)
	}
	return cal, nil
}

// Flaky lists the flaky command lines among the runs q selects, most flips
// first (at most limit; 0: all).
func Flaky(ctx context.Context, st *history.Store, q Query, limit int) ([]FlakyLine, error) {
	q, err := q.norm()
	if err != nil {
		return nil, err
	}
	hq, ok := q.historyQuery()
	if !ok {
		return nil, nil
	}
	return st.Flaky(ctx, hq, limit)
}
