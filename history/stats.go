package history

import (
	"context"
	"fmt"
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
	// The user's own commands (coding agents' left out), the default,
	// are counted without reading each command's session: every command
	// is counted, then the agents' sessions' commands, found through
	// the (session, seq) index, are taken off. Other selections of
	// authors, and keys or filters of sessions, join the sessions.
	w, from, own, ok := s.tallyWhere(ctx, t.Query, key)
	if !ok {
		return nil, tot, nil
	}
	cond := ""
	if len(w.clauses) > 0 {
		cond = " WHERE " + strings.Join(w.clauses, " AND ")
	}
	// One pass over the selected commands (over the index that leads
	// with the command line, when grouped by it: no sort, no read of the
	// table), less the agents' sessions' runs when only the user's own
	// are counted; the totals over every key ride along as windows.
	sums := `SELECT ` + key + ` AS k, COUNT(*) AS n, SUM(c.exit_code <> 0) AS f, SUM(c.duration_us) AS d,
		SUM(CASE WHEN c.exit_code <> 0 THEN c.duration_us ELSE 0 END) AS l` + from
	query := `WITH g AS (` + sums + cond + ` GROUP BY k)`
	args := w.args
	if own {
		agents := append([]string{"c.session IN (SELECT id FROM sessions WHERE author <> '')"}, w.clauses...)
		query = `WITH x AS MATERIALIZED (` + sums + ` WHERE ` + strings.Join(agents, " AND ") + ` GROUP BY k),
		g AS (SELECT a.k AS k, a.n - COALESCE(x.n, 0) AS n, a.f - COALESCE(x.f, 0) AS f,
			a.d - COALESCE(x.d, 0) AS d, a.l - COALESCE(x.l, 0) AS l
			FROM (` + sums + cond + ` GROUP BY k) a LEFT JOIN x ON x.k = a.k WHERE a.n > COALESCE(x.n, 0))`
		args = append(append([]any{}, w.args...), w.args...)
	}
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
	if len(out) == 0 {
		return out, tot, nil
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

// notAgents keeps the commands of the user's own sessions.
const notAgents = "c.session NOT IN (SELECT id FROM sessions WHERE author <> '')"

// tallyWhere is the selection of q's commands grouped by key: its WHERE
// clauses and the FROM clause, which joins the sessions only where the
// key or a filter reads them. own is true when q keeps the user's own
// commands alone (Authors [""]) and nothing else reads the sessions:
// that filter is then left out of w for the caller to apply (notAgents,
// or by subtraction). ok is false when q selects nothing.
func (s *Store) tallyWhere(ctx context.Context, q Query, key string) (w where, from string, own, ok bool) {
	q.Text = ""
	own = len(q.Authors) == 1 && q.Authors[0] == "" && q.Host == "" && !strings.Contains(key, "s.")
	if own {
		q.Authors = nil
	}
	w, ok = s.queryWhere(ctx, q)
	from = " FROM commands c"
	if !own && (q.Authors != nil || q.Host != "" || strings.Contains(key, "s.")) {
		from += " LEFT JOIN sessions s ON s.id = c.session"
	}
	return w, from, own, ok
}

// tallySeries fills the medians, first and last runs and the series of
// rows, whose keys are those of key: one pass over their commands (found
// through the index that leads with the command line, when grouped by
// it), grouped by key and bucket; the median is each line's middle run
// by duration, or by other keys found by numbering each key's runs.
func (s *Store) tallySeries(ctx context.Context, t Tally, key string, rows []TallyRow) error {
	// The user's own runs: the agents' sessions left out by their ids
	// (the index holds each run's session), not by reading sessions.
	w, from, own, ok := s.tallyWhere(ctx, t.Query, key)
	if !ok {
		return nil
	}
	if own {
		w.add(notAgents)
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
		// Each line's median: its runs found through the index, sorted
		// by duration up to the middle one (a window over every row
		// numbered costs five times as much).
		var parts []string
		var margs []any
		for _, r := range rows {
			parts = append(parts, `SELECT ?, (SELECT c.duration_us`+from+` WHERE `+strings.Join(append(append([]string{}, w.clauses...), "c.command = ?"), " AND ")+
				` ORDER BY c.duration_us LIMIT 1 OFFSET ?)`)
			margs = append(append(append(margs, r.Key), w.args...), r.Key, (r.Count-1)/2)
		}
		res, err := s.db.QueryContext(ctx, strings.Join(parts, " UNION ALL "), margs...)
		if err != nil {
			return fmt.Errorf("stats: %w", classify(err))
		}
		for res.Next() {
			var k string
			var med *int64
			if err := res.Scan(&k, &med); err != nil {
				res.Close()
				return fmt.Errorf("stats: %w", classify(err))
			}
			if i, ok := index[k]; ok && med != nil {
				rows[i].MedianUS = *med
			}
		}
		res.Close()
		if err := res.Err(); err != nil {
			return fmt.Errorf("stats: %w", classify(err))
		}
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
	if key == keyExpr[ByCommand] {
		median, number = "NULL", ""
	}
	query := `SELECT k, b, COUNT(*), SUM(bad), ` + median + `, MIN(at), MAX(at) FROM (
		SELECT ` + key + ` AS k, ` + bucket + ` AS b, c.exit_code <> 0 AS bad, c.duration_us AS dur, c.started_at AS at` +
		number + from + ` WHERE ` + strings.Join(clauses, " AND ") + `)
		GROUP BY k, b`
	res, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return fmt.Errorf("stats: %w", classify(err))
	}
	defer res.Close()
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
		if rows[i].FirstAt == 0 || first < rows[i].FirstAt {
			rows[i].FirstAt = first
		}
		rows[i].LastAt = max(rows[i].LastAt, last)
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
	w, from, own, ok := s.tallyWhere(ctx, q, "")
	if !ok {
		return nil, nil
	}
	if own {
		w.add(notAgents)
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
