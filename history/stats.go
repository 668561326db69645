package history

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"strings"
	"time"
)

// The keys commands are grouped by in a Tally (package stats names them
// for the user).
const (
	ByCommand = "command" // the command line
	ByProgram = "program" // its first word
	ByDir     = "dir"     // the directory it started in
	ByRepo    = "repo"    // the git work tree it ran in ("" when none was noted)
	ByDay     = "day"     // the local day it started (2006-01-02)
	ByWeek    = "week"    // the Monday of its local week (2006-01-02)
	ByHost    = "host"    // the host's label its shell reported
	ByAuthor  = "author"  // who ran it ("" for the user's own shells)
)

// keyExpr is, for each way of grouping, the SQL expression of a command's
// key over commands c joined to sessions s.
var keyExpr = map[string]string{
	ByCommand: "c.command",
	ByProgram: "substr(c.command, 1, instr(c.command || ' ', ' ') - 1)",
	ByDir:     "c.cwd",
	ByRepo:    "COALESCE((SELECT r.path FROM contexts x JOIN repos r ON r.id = x.repo WHERE x.id = c.id), '')",
	ByDay:     "date(c.started_at / 1000000, 'unixepoch', 'localtime')",
	ByWeek:    "date(c.started_at / 1000000, 'unixepoch', 'localtime', '-6 days', 'weekday 1')",
	ByHost:    "COALESCE(s.host, '')",
	ByAuthor:  "COALESCE(s.author, '')",
}

// Tally asks for the history's figures grouped by a key.
type Tally struct {
	// Query selects the commands counted (its Text, Limit and Oldest
	// are not used; Since starts the period).
	Query
	// By is the key (ByCommand…).
	By string
	// Until ends the period (µs): the series' last bucket ends there.
	Until int64
	// Buckets is the number of equal spans of [Since, Until) the series
	// count runs in (0: no series).
	Buckets int
	// Sort orders the rows: "count" (the default), "failures", "rate",
	// "lost" or "time", largest first, or "key", the last key first (the
	// newest day or week); the key breaks ties.
	Sort string
	// Rows is how many rows to return, after sorting (0: all).
	Rows int
}

// TallyRow is one key's figures in a Tally.
type TallyRow struct {
	Key      string
	Count    int64 // runs
	Failures int64 // runs that exited non-zero
	TotalUS  int64 // the runs' durations added up
	MedianUS int64 // the median run's duration (the lower of the middle two)
	LostUS   int64 // the failed runs' durations added up
	FirstAt  int64 // the first run (µs)
	LastAt   int64 // the last run (µs)
	// Activity and Failing count the runs and the failed runs in each of
	// the Tally's Buckets (nil without buckets).
	Activity, Failing []int64
}

// TallyTotals sums every key's figures, those beyond Rows too.
type TallyTotals struct {
	Keys     int64
	Count    int64
	Failures int64
	TotalUS  int64
	LostUS   int64
}

var tallySorts = map[string]string{
	"":         "n DESC",
	"count":    "n DESC",
	"failures": "f DESC, n DESC",
	"rate":     "CAST(f AS REAL) / n DESC, n DESC",
	"lost":     "l DESC, n DESC",
	"time":     "d DESC, n DESC",
	"key":      "k DESC",
}

// Tally returns the figures of the commands t selects grouped by t.By,
// sorted, with the totals over every key. The counting is SQLite's: one
// pass over the selected commands for the figures, one more over the rows'
// commands for the medians and the series.
func (s *Store) Tally(ctx context.Context, t Tally) ([]TallyRow, TallyTotals, error) {
	var tot TallyTotals
	key, ok := keyExpr[t.By]
	if !ok {
		return nil, tot, fmt.Errorf("stats: unknown grouping %q", t.By)
	}
	order, ok := tallySorts[t.Sort]
	if !ok {
		return nil, tot, fmt.Errorf("stats: unknown sort %q", t.Sort)
	}
	out, tot, ok, err := s.tallyTotals(ctx, t, key)
	if err != nil {
		return nil, tot, err
	}
	if !ok {
		if out, tot, err = s.tallyRuns(ctx, t, key, order); err != nil || len(out) == 0 {
			return out, tot, err
		}
	}
	// A few hundred keys a pass: SQLite's limit on a statement's
	// arguments is far above that, the rows shown far below.
	for lo := 0; lo < len(out); lo += 500 {
		if err := s.tallySeries(ctx, t, key, out[lo:min(lo+500, len(out))]); err != nil {
			return nil, tot, err
		}
	}
	return out, tot, nil
}

// tallyRuns counts t's figures from the runs themselves, grouped by key and
// sorted by order, with the totals over every key.
func (s *Store) tallyRuns(ctx context.Context, t Tally, key, order string) ([]TallyRow, TallyTotals, error) {
	var tot TallyTotals
	w, from, ok := s.tallyWhere(ctx, t.Query, key)
	if !ok {
		return nil, tot, nil
	}
	cond := ""
	if len(w.clauses) > 0 {
		cond = " WHERE " + strings.Join(w.clauses, " AND ")
	}
	// One pass over the selected commands (over the index that leads
	// with the command line, when grouped by it: no sort, no read of the
	// table); the totals over every key ride along as windows.
	query := `WITH g AS (SELECT ` + key + ` AS k, COUNT(*) AS n, SUM(c.exit_code <> 0) AS f, SUM(c.duration_us) AS d,
		SUM(CASE WHEN c.exit_code <> 0 THEN c.duration_us ELSE 0 END) AS l` + from + cond + ` GROUP BY k)`
	args := w.args
	query += `
		SELECT k, n, f, d, l, COUNT(*) OVER (), SUM(n) OVER (), SUM(f) OVER (), SUM(d) OVER (), SUM(l) OVER ()
		FROM g ORDER BY ` + order + `, k`
	if t.Rows > 0 {
		query += fmt.Sprintf(" LIMIT %d", t.Rows)
	}
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, tot, fmt.Errorf("stats: %w", classify(err))
	}
	var out []TallyRow
	for rows.Next() {
		var r TallyRow
		if err := rows.Scan(&r.Key, &r.Count, &r.Failures, &r.TotalUS, &r.LostUS,
			&tot.Keys, &tot.Count, &tot.Failures, &tot.TotalUS, &tot.LostUS); err != nil {
			rows.Close()
			return nil, tot, fmt.Errorf("stats: %w", classify(err))
		}
		out = append(out, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, tot, fmt.Errorf("stats: %w", classify(err))
	}
	return out, tot, nil
}

// tallyWhere is the selection of q's commands grouped by key: its WHERE
// clauses and the FROM clause, which joins the sessions only where the
// key or a filter reads them. The user's own commands alone (Authors
// [""]), with nothing else reading the sessions, are selected by the runs'
// own mark (ownRuns, which the stats index holds after the line). ok is
// false when q selects nothing.
func (s *Store) tallyWhere(ctx context.Context, q Query, key string) (w where, from string, ok bool) {
	q.Text = ""
	own := len(q.Authors) == 1 && q.Authors[0] == "" && q.Host == "" && !strings.Contains(key, "s.")
	if own {
		q.Authors = nil
	}
	w, ok = s.queryWhere(ctx, q)
	if own {
		w.add(ownRuns)
	}
	from = " FROM commands c"
	if !own && (q.Authors != nil || q.Host != "" || strings.Contains(key, "s.")) {
		from += " LEFT JOIN sessions s ON s.id = c.session"
	}
	return w, from, ok
}

// tallySeries fills the medians, first and last runs and the series of
// rows, whose keys are those of key: by command line, each line's runs
// read through the index that leads with it (lineSeries); by other keys,
// one pass over their commands grouped by key and bucket, the median
// found by numbering each key's runs by duration.
func (s *Store) tallySeries(ctx context.Context, t Tally, key string, rows []TallyRow) error {
	// The user's own runs: the agents' sessions left out by their ids
	// (the index holds each run's session), not by reading sessions.
	w, from, ok := s.tallyWhere(ctx, t.Query, key)
	if !ok {
		return nil
	}
	index := make(map[string]int, len(rows))
	keys := make([]any, len(rows))
	for i, r := range rows {
		index[r.Key] = i
		keys[i] = r.Key
		if t.Buckets > 0 {
			rows[i].Activity = make([]int64, t.Buckets)
			rows[i].Failing = make([]int64, t.Buckets)
		}
	}
	if key == keyExpr[ByCommand] {
		return s.lineSeries(ctx, t, rows)
	}
	span := t.Until - t.Since
	bucket := "0"
	args := []any{}
	if t.Buckets > 0 && span > 0 {
		bucket = "(c.started_at - ?) * ? / ?"
		args = append(args, t.Since, t.Buckets, span)
	}
	clauses := append(append([]string{}, w.clauses...), key+" IN (?"+strings.Repeat(", ?", len(keys)-1)+")")
	args = append(append(args, w.args...), keys...)
	median := "MAX(CASE WHEN rn = (cnt + 1) / 2 THEN dur END)"
	number := `, ROW_NUMBER() OVER (PARTITION BY ` + key + ` ORDER BY c.duration_us) AS rn,
			COUNT(*) OVER (PARTITION BY ` + key + `) AS cnt`
	query := `SELECT k, b, COUNT(*), SUM(bad), ` + median + `, MIN(at), MAX(at) FROM (
		SELECT ` + key + ` AS k, ` + bucket + ` AS b, c.exit_code <> 0 AS bad, c.duration_us AS dur, c.started_at AS at` +
		number + from + ` WHERE ` + strings.Join(clauses, " AND ") + `)
		GROUP BY k, b`
	res, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return fmt.Errorf("stats: %w", classify(err))
	}
	defer res.Close()
	seen := make([]bool, len(rows))
	for res.Next() {
		var k string
		var b, n, bad, first, last int64
		var med *int64
		if err := res.Scan(&k, &b, &n, &bad, &med, &first, &last); err != nil {
			return fmt.Errorf("stats: %w", classify(err))
		}
		i, ok := index[k]
		if !ok {
			continue
		}
		if med != nil {
			rows[i].MedianUS = *med
		}
		if !seen[i] || first < rows[i].FirstAt {
			rows[i].FirstAt = first
		}
		if !seen[i] || last > rows[i].LastAt {
			rows[i].LastAt = last
		}
		seen[i] = true
		if t.Buckets > 0 {
			b = min(max(b, 0), int64(t.Buckets-1))
			rows[i].Activity[b] += n
			rows[i].Failing[b] += bad
		}
	}
	if err := res.Err(); err != nil {
		return fmt.Errorf("stats: %w", classify(err))
	}
	return nil
}

// lineSeries is tallySeries for rows grouped by command line. The index
// holds each line's selected runs in one stretch by time (the user's own
// apart from the agents'), so each bucket of the series is counted over
// its own span of that stretch, the first and last runs are its ends,
// and the median is its middle run by duration: SQLite reads each run
// once and sorts only durations, and no run is handed to Go.
func (s *Store) lineSeries(ctx context.Context, t Tally, rows []TallyRow) error {
	// The period's start is a bound of the first bucket's span, not a
	// clause of its own: given two lower bounds on the time, SQLite reads
	// from the first.
	q := t.Query
	q.Since = 0
	w, from, ok := s.tallyWhere(ctx, q, keyExpr[ByCommand])
	if !ok {
		return nil
	}
	w.add("c.command = ?")
	sel := strings.Join(w.clauses, " AND ")
	period := sel + " AND c.started_at >= ?"
	ends, err := s.db.PrepareContext(ctx, `SELECT (SELECT c.started_at`+from+` WHERE `+period+` ORDER BY c.started_at LIMIT 1),
		(SELECT c.started_at`+from+` WHERE `+period+` ORDER BY c.started_at DESC LIMIT 1),
		(SELECT c.duration_us`+from+` WHERE `+period+` ORDER BY c.duration_us LIMIT 1 OFFSET ?)`)
	if err != nil {
		return fmt.Errorf("stats: %w", classify(err))
	}
	defer ends.Close()
	span := t.Until - t.Since
	bucketed := t.Buckets > 0 && span > 0
	var spans *sql.Stmt
	if bucketed {
		if spans, err = s.db.PrepareContext(ctx, `SELECT COUNT(*), COALESCE(SUM(c.exit_code <> 0), 0)`+from+
			` WHERE `+sel+` AND c.started_at >= ? AND c.started_at < ?`); err != nil {
			return fmt.Errorf("stats: %w", classify(err))
		}
		defer spans.Close()
	}
	// Bucket i holds the runs at whose (at - Since) * Buckets / span, as
	// an integer division, is i (the last also those after Until): from
	// Since + ⌈i·span/Buckets⌉ on.
	// The period's start (none: Since 0).
	from0 := t.Since
	if from0 == 0 {
		from0 = math.MinInt64
	}
	lo := func(i int) int64 {
		switch {
		case i <= 0:
			return from0
		case i >= t.Buckets:
			return math.MaxInt64
		}
		n := int64(i) * span
		return t.Since + (n+int64(t.Buckets)-1)/int64(t.Buckets)
	}
	for i := range rows {
		r := &rows[i]
		args := append(append([]any{}, w.args...), r.Key)
		inPeriod := append(append([]any{}, args...), from0)
		var first, last, med sql.NullInt64
		all := append(append(append(append([]any{}, inPeriod...), inPeriod...), inPeriod...), (r.Count-1)/2)
		if err := ends.QueryRowContext(ctx, all...).Scan(&first, &last, &med); err != nil {
			return fmt.Errorf("stats: %w", classify(err))
		}
		r.FirstAt, r.LastAt, r.MedianUS = first.Int64, last.Int64, med.Int64
		if !bucketed {
			if t.Buckets > 0 {
				r.Activity[0], r.Failing[0] = r.Count, r.Failures
			}
			continue
		}
		for b := 0; b < t.Buckets; b++ {
			if err := spans.QueryRowContext(ctx, append(args, lo(b), lo(b+1))...).Scan(&r.Activity[b], &r.Failing[b]); err != nil {
				return fmt.Errorf("stats: %w", classify(err))
			}
		}
	}
	return nil
}

// FirstRun is when the oldest command in the history started (µs; 0 when
// there is none).
func (s *Store) FirstRun(ctx context.Context) (int64, error) {
	var at int64
	if err := s.db.QueryRowContext(ctx, "SELECT COALESCE(MIN(started_at), 0) FROM commands").Scan(&at); err != nil {
		return 0, fmt.Errorf("first command: %w", classify(err))
	}
	return at, nil
}

// DayCount is one local day's runs.
type DayCount struct {
	Day      string // 2006-01-02, local time
	Count    int64
	Failures int64
}

// Calendar counts the runs q selects per local day, oldest day first;
// days without a run are left out. SQLite counts per hour (an integer
// division of each run's time, no date arithmetic per row); the hours are
// folded into the local days here, daylight saving time included.
func (s *Store) Calendar(ctx context.Context, q Query) ([]DayCount, error) {
	w, from, ok := s.tallyWhere(ctx, q, "")
	if !ok {
		return nil, nil
	}
	query := `SELECT c.started_at / 3600000000 AS h, COUNT(*), SUM(c.exit_code <> 0)` + from
	if len(w.clauses) > 0 {
		query += " WHERE " + strings.Join(w.clauses, " AND ")
	}
	query += " GROUP BY h ORDER BY h"
	rows, err := s.db.QueryContext(ctx, query, w.args...)
	if err != nil {
		return nil, fmt.Errorf("calendar: %w", classify(err))
	}
	defer rows.Close()
	var out []DayCount
	for rows.Next() {
		var h, n, f int64
		if err := rows.Scan(&h, &n, &f); err != nil {
			return nil, fmt.Errorf("calendar: %w", classify(err))
		}
		day := time.Unix(h*3600, 0).Format("2006-01-02")
		if len(out) > 0 && out[len(out)-1].Day == day {
			out[len(out)-1].Count += n
			out[len(out)-1].Failures += f
			continue
		}
		out = append(out, DayCount{Day: day, Count: n, Failures: f})
	}
	return out, rows.Err()
}

// FlakyLine is a command line that both failed and succeeded in one
// directory with nothing of its recorded context changed between.
type FlakyLine struct {
	Command  string
	Cwd      string
	Count    int64 // its runs there
	Failures int64 // of which failed
	// Flips counts the runs whose outcome differed from the run before
	// it (same line, same directory) while the context noted of both
	// was the same: work tree, branch or detached commit, whether the
	// tree had changes, and the environment the shell noted.
	Flips  int64
	LastAt int64 // its last run there (µs)
	// LastFailed is the id of its last failed run there, LastOK of its
	// last successful one: the pair "it worked before" compares.
	LastFailed, LastOK int64
}

// Flaky lists the command lines q selects that flipped between failing
// and succeeding in the same directory with the same recorded context,
// most flips first (at most limit, 0: all). Runs without a recorded
// context (before hookd noted contexts, imports) never count: nothing is
// known of what changed between them.
func (s *Store) Flaky(ctx context.Context, q Query, limit int) ([]FlakyLine, error) {
	q.Text = ""
	q.Failed = false // a flip needs the successes too
	w, ok := s.queryWhere(ctx, q)
	if !ok {
		return nil, nil
	}
	// A history without contexts (imported, or from before hookd noted
	// them) has no flaky line: nothing to number.
	var any bool
	if err := s.db.QueryRowContext(ctx, "SELECT EXISTS (SELECT 1 FROM contexts)").Scan(&any); err != nil {
		return nil, fmt.Errorf("flaky commands: %w", classify(err))
	}
	if !any {
		return nil, nil
	}
	cond := ""
	if len(w.clauses) > 0 {
		cond = " AND " + strings.Join(w.clauses, " AND ")
	}
	// Each run with a context, with the environment its session noted
	// last before it, and the run before it of the same line in the same
	// directory; a flip is an outcome that differs from that run's with
	// the same context. Only lines that both failed and succeeded there
	// are numbered.
	query := `WITH runs AS MATERIALIZED (
			SELECT c.id, c.command, c.cwd, c.started_at, c.exit_code <> 0 AS bad,
				x.repo, x.branch, x.head, x.dirty,
				(SELECT e.env FROM session_envs e WHERE e.session = c.session AND e.from_seq <= c.seq
					ORDER BY e.from_seq DESC LIMIT 1) AS env
			FROM contexts x JOIN commands c ON c.id = x.id
			LEFT JOIN sessions s ON s.id = c.session WHERE 1` + cond + `),
		mixed AS MATERIALIZED (SELECT command, cwd FROM runs GROUP BY command, cwd HAVING MIN(bad) = 0 AND MAX(bad) = 1),
		seq AS (SELECT r.*, LAG(bad) OVER w AS pbad, LAG(repo) OVER w AS prepo, LAG(branch) OVER w AS pbranch,
				LAG(head) OVER w AS phead, LAG(dirty) OVER w AS pdirty, LAG(env) OVER w AS penv
			FROM runs r WHERE (command, cwd) IN (SELECT command, cwd FROM mixed)
			WINDOW w AS (PARTITION BY command, cwd ORDER BY started_at, id))
		SELECT command, cwd, COUNT(*), SUM(bad),
			SUM(pbad IS NOT NULL AND bad <> pbad AND repo = prepo AND branch = pbranch AND head = phead
				AND dirty = pdirty AND env IS penv) AS flips,
			MAX(started_at), COALESCE(MAX(CASE WHEN bad THEN id END), 0), COALESCE(MAX(CASE WHEN NOT bad THEN id END), 0)
		FROM seq GROUP BY command, cwd HAVING flips > 0 ORDER BY flips DESC, MAX(started_at) DESC, command`
	if limit > 0 {
		query += fmt.Sprintf(" LIMIT %d", limit)
	}
	rows, err := s.db.QueryContext(ctx, query, w.args...)
	if err != nil {
		return nil, fmt.Errorf("flaky commands: %w", classify(err))
	}
	defer rows.Close()
	var out []FlakyLine
	for rows.Next() {
		var f FlakyLine
		if err := rows.Scan(&f.Command, &f.Cwd, &f.Count, &f.Failures, &f.Flips, &f.LastAt, &f.LastFailed, &f.LastOK); err != nil {
			return nil, fmt.Errorf("flaky commands: %w", classify(err))
		}
		out = append(out, f)
	}
	return out, rows.Err()
}
