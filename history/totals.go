package history

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
)

// totalsSchema is what schema 10 adds for hookd stats, kept by triggers.
//
// commands.agent is 1 for a run of a coding agent's session (one with an
// author), 0 for the user's own and for a run whose session is not known:
// the stats index (commands_stats) leads with the line and then agent, so
// that the user's own runs of a line are one stretch of it, read without
// asking the sessions about each run. Set from the session when a run is
// added or moved, and for every run of a session that gains or loses its
// author.
//
// command_totals holds each command line's figures: per line
// and per kind of session, agent 1 for a coding agent's (its session has
// an author) and 0 for the user's own and for runs whose session is not
// known (as notAgents counts them), the runs (n), the failures (f), the
// runs' durations added up (d), the failures' (l), and since, a time at
// or before every run's. The triggers below keep the rows exact under
// every writer; since is only a bound: a removal leaves it, so that it
// never needs the runs read again.
//
// A Tally grouped by command line (or by program, the lines' first word)
// is then counted from these rows, one per line, instead of one per run:
// runs before the period asked for are taken off the lines they belong
// to, after counting them (tallyTotals).
const totalsSchema = `CREATE TABLE command_totals (
		command TEXT NOT NULL,
		agent INTEGER NOT NULL,
		n INTEGER NOT NULL,
		f INTEGER NOT NULL,
		d INTEGER NOT NULL,
		l INTEGER NOT NULL,
		since INTEGER NOT NULL,
		PRIMARY KEY (command, agent)
	) WITHOUT ROWID;
	CREATE TRIGGER command_totals_added AFTER INSERT ON commands BEGIN ` + totalsAdd + ` END;
	CREATE TRIGGER command_totals_removed AFTER DELETE ON commands BEGIN ` + totalsRemove + ` END;
	CREATE TRIGGER command_totals_changed AFTER UPDATE OF command, session, exit_code, duration_us, started_at ON commands
		BEGIN ` + totalsRemove + totalsAdd + ` END;
	CREATE TRIGGER command_totals_session_added AFTER INSERT ON sessions WHEN NEW.author <> ''
		BEGIN ` + totalsMoveNew + ` END;
	CREATE TRIGGER command_totals_session_removed AFTER DELETE ON sessions WHEN OLD.author <> ''
		BEGIN ` + totalsMoveOld + ` END;
	CREATE TRIGGER command_totals_session_changed AFTER UPDATE OF id, author ON sessions
		WHEN OLD.id <> NEW.id OR (OLD.author <> '') <> (NEW.author <> '')
		BEGIN ` + totalsMoveOld + totalsMoveNew + ` END;
	CREATE TRIGGER commands_agent_added AFTER INSERT ON commands
		WHEN NEW.agent <> EXISTS (SELECT 1 FROM sessions WHERE id = NEW.session AND author <> '')
		BEGIN UPDATE commands SET agent = NOT agent WHERE id = NEW.id; END;
	CREATE TRIGGER commands_agent_changed AFTER UPDATE OF session, agent ON commands
		WHEN NEW.agent <> EXISTS (SELECT 1 FROM sessions WHERE id = NEW.session AND author <> '')
		BEGIN UPDATE commands SET agent = NOT agent WHERE id = NEW.id; END;
	CREATE TRIGGER sessions_agent_added AFTER INSERT ON sessions WHEN NEW.author <> ''
		BEGIN UPDATE commands SET agent = 1 WHERE session = NEW.id AND agent = 0; END;
	CREATE TRIGGER sessions_agent_removed AFTER DELETE ON sessions WHEN OLD.author <> ''
		BEGIN UPDATE commands SET agent = 0 WHERE session = OLD.id AND agent = 1; END;
	CREATE TRIGGER sessions_agent_changed AFTER UPDATE OF id, author ON sessions
		WHEN OLD.id <> NEW.id OR (OLD.author <> '') <> (NEW.author <> '')
		BEGIN
			UPDATE commands SET agent = 0 WHERE session = OLD.id AND agent = 1;
			UPDATE commands SET agent = 1 WHERE session = NEW.id AND agent = 0 AND NEW.author <> '';
		END;`

// totalsAdd counts the run NEW in its line's row.
const totalsAdd = `INSERT INTO command_totals (command, agent, n, f, d, l, since)
		VALUES (NEW.command, EXISTS (SELECT 1 FROM sessions WHERE id = NEW.session AND author <> ''), 1,
			NEW.exit_code <> 0, NEW.duration_us, CASE WHEN NEW.exit_code <> 0 THEN NEW.duration_us ELSE 0 END, NEW.started_at)
		ON CONFLICT (command, agent) DO UPDATE SET n = n + 1, f = f + excluded.f, d = d + excluded.d,
			l = l + excluded.l, since = MIN(since, excluded.since);`

// totalsRemove takes the run OLD off its line's row, and the row away
// once no run is left in it.
const totalsRemove = `UPDATE command_totals SET n = n - 1, f = f - (OLD.exit_code <> 0), d = d - OLD.duration_us,
			l = l - CASE WHEN OLD.exit_code <> 0 THEN OLD.duration_us ELSE 0 END
		WHERE command = OLD.command AND agent = EXISTS (SELECT 1 FROM sessions WHERE id = OLD.session AND author <> '');
	DELETE FROM command_totals WHERE command = OLD.command AND n <= 0;`

// A session that gains an author (a new agent's session whose runs came
// first, or an author set later) moves its runs from the user's rows to
// the agents'; one that loses it (removed, or its author cleared) moves
// them back: its runs are then counted as the user's own, as ownRuns
// selects them.
const (
	totalsMoveNew = `INSERT INTO command_totals (command, agent, n, f, d, l, since)
		SELECT command, 1, n, f, d, l, since FROM (` + totalsRunsNew + `) WHERE true
		` + totalsUpsert + `
	UPDATE command_totals SET ` + totalsMinus + ` FROM (` + totalsRunsNew + `) AS m
		WHERE command_totals.command = m.command AND command_totals.agent = 0;
	DELETE FROM command_totals WHERE agent = 0 AND n <= 0 AND command IN (SELECT command FROM commands WHERE session = NEW.id);`
	totalsMoveOld = `INSERT INTO command_totals (command, agent, n, f, d, l, since)
		SELECT command, 0, n, f, d, l, since FROM (` + totalsRunsOld + `) WHERE true
		` + totalsUpsert + `
	UPDATE command_totals SET ` + totalsMinus + ` FROM (` + totalsRunsOld + `) AS m
		WHERE command_totals.command = m.command AND command_totals.agent = 1;
	DELETE FROM command_totals WHERE agent = 1 AND n <= 0 AND command IN (SELECT command FROM commands WHERE session = OLD.id);`

	// The runs of the session NEW (OLD) by line, when it has an author.
	totalsRunsNew = totalsRunsOf + `NEW.id AND NEW.author <> '' GROUP BY command`
	totalsRunsOld = totalsRunsOf + `OLD.id AND OLD.author <> '' GROUP BY command`
	totalsRunsOf  = `SELECT command, COUNT(*) AS n, SUM(exit_code <> 0) AS f, SUM(duration_us) AS d,
			SUM(CASE WHEN exit_code <> 0 THEN duration_us ELSE 0 END) AS l, MIN(started_at) AS since
		FROM commands WHERE session = `
	totalsUpsert = `ON CONFLICT (command, agent) DO UPDATE SET n = n + excluded.n, f = f + excluded.f, d = d + excluded.d,
			l = l + excluded.l, since = MIN(since, excluded.since);`
	totalsMinus = `n = command_totals.n - m.n, f = command_totals.f - m.f, d = command_totals.d - m.d,
			l = command_totals.l - m.l`
)

// ownRuns selects the user's own runs (commands.agent, above).
const ownRuns = "c.agent = 0"

// totalsOutsideMax is the most runs before a Tally's period that
// tallyTotals takes off the lines' totals; with more, counting the period's
// runs themselves costs less.
const totalsOutsideMax = 100000

// tallyTotals answers t from command_totals when it can: grouped by
// command line or program, over the user's own runs or everyone's, failed
// or all, from a time on, in an order that taking runs off a line can only
// lower it in (count, failures, key; time and lost when no duration taken
// off is negative). ok is false when it cannot: the caller counts the runs.
//
// The lines' totals are read largest first, rows + m of them, m being the
// number of lines with runs before the period: a line whose figures drop
// out of the first rows can only be one of those m, so the first rows
// after the runs before the period are taken off are among these.
func (s *Store) tallyTotals(ctx context.Context, t Tally, key string) (rows []TallyRow, tot TallyTotals, ok bool, err error) {
	q := t.Query
	own := len(q.Authors) == 1 && q.Authors[0] == ""
	if (t.By != ByCommand && t.By != ByProgram) || q.Session != "" || q.Cwd != "" || q.CwdUnder != "" ||
		q.Host != "" || q.ThisHost || !(q.Authors == nil || own) {
		return nil, tot, false, nil
	}
	sortBy := t.Sort
	switch sortBy {
	case "":
		sortBy = "count"
	case "count", "failures", "key", "time", "lost":
	default:
		return nil, tot, false, nil
	}
	// The runs before the period, by key, unless there are too many.
	var sel []string
	if q.Failed {
		sel = append(sel, "c.exit_code <> 0")
	}
	if own {
		sel = append(sel, ownRuns)
	}
	outside := map[string]*TallyRow{}
	if q.Since > 0 {
		var before int64
		if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM (SELECT 1 FROM commands INDEXED BY commands_started
			WHERE started_at < ? LIMIT ?)`, q.Since, totalsOutsideMax+1).Scan(&before); err != nil {
			return nil, tot, false, fmt.Errorf("stats: %w", classify(err))
		}
		if before > totalsOutsideMax {
			return nil, tot, false, nil
		}
		if before > 0 {
			cond := strings.Join(append([]string{"c.started_at < ?"}, sel...), " AND ")
			res, err := s.db.QueryContext(ctx, `SELECT `+key+` AS k, COUNT(*), SUM(c.exit_code <> 0), SUM(c.duration_us),
				SUM(CASE WHEN c.exit_code <> 0 THEN c.duration_us ELSE 0 END)
				FROM commands c INDEXED BY commands_started WHERE `+cond+` GROUP BY k`, q.Since)
			if err != nil {
				return nil, tot, false, fmt.Errorf("stats: %w", classify(err))
			}
			older, err := scanTallyRows(res)
			if err != nil {
				return nil, tot, false, err
			}
			for i := range older {
				r := &older[i]
				if q.Failed {
					r.Count, r.TotalUS = r.Failures, r.LostUS
				}
				if (sortBy == "time" && r.TotalUS < 0) || (sortBy == "lost" && r.LostUS < 0) {
					return nil, tot, false, nil // taking them off would raise a line
				}
				outside[r.Key] = r
			}
		}
	}
	// The lines' totals over the whole history, as the rows of a table g
	// with t's key: the user's own, or everyone's, and the failed runs
	// alone when t asks for them.
	lines := `SELECT command, n, f, d, l FROM command_totals WHERE agent = 0`
	if !own {
		lines = `SELECT command, SUM(n) AS n, SUM(f) AS f, SUM(d) AS d, SUM(l) AS l FROM command_totals GROUP BY command`
	}
	figures := "n, f, d, l"
	if q.Failed {
		figures = "f AS n, f, l AS d, l"
	}
	g := `SELECT command AS k, ` + figures + ` FROM (` + lines + `)`
	if t.By == ByProgram {
		g = `SELECT ` + strings.ReplaceAll(keyExpr[ByProgram], "c.command", "k") + ` AS k, SUM(n) AS n, SUM(f) AS f,
			SUM(d) AS d, SUM(l) AS l FROM (` + g + `) GROUP BY 1`
	}
	g = `(SELECT * FROM (` + g + `) WHERE n > 0)`
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(SUM(n), 0), COALESCE(SUM(f), 0),
		COALESCE(SUM(d), 0), COALESCE(SUM(l), 0) FROM `+g).Scan(&tot.Keys, &tot.Count, &tot.Failures, &tot.TotalUS, &tot.LostUS); err != nil {
		return nil, tot, false, fmt.Errorf("stats: %w", classify(err))
	}
	query := `SELECT k, n, f, d, l FROM ` + g + ` ORDER BY ` + tallySorts[sortBy] + `, k`
	if t.Rows > 0 {
		query += fmt.Sprintf(" LIMIT %d", t.Rows+len(outside))
	}
	res, err := s.db.QueryContext(ctx, query)
	if err != nil {
		return nil, tot, false, fmt.Errorf("stats: %w", classify(err))
	}
	if rows, err = scanTallyRows(res); err != nil {
		return nil, tot, false, err
	}
	// The runs before the period taken off, from the totals too: a line
	// left with none is no key of the period.
	if len(outside) > 0 {
		all, err := s.totalsOf(ctx, g, outside)
		if err != nil {
			return nil, tot, false, err
		}
		for k, o := range outside {
			tot.Count -= o.Count
			tot.Failures -= o.Failures
			tot.TotalUS -= o.TotalUS
			tot.LostUS -= o.LostUS
			if all[k] == o.Count {
				tot.Keys--
			}
		}
		kept := rows[:0]
		for _, r := range rows {
			if o := outside[r.Key]; o != nil {
				r.Count -= o.Count
				r.Failures -= o.Failures
				r.TotalUS -= o.TotalUS
				r.LostUS -= o.LostUS
			}
			if r.Count > 0 {
				kept = append(kept, r)
			}
		}
		rows = kept
		slices.SortStableFunc(rows, tallyOrder(sortBy))
	}
	if t.Rows > 0 && len(rows) > t.Rows {
		rows = rows[:t.Rows]
	}
	return rows, tot, true, nil
}

// scanTallyRows reads rows of key, count, failures, total and lost
// durations, and closes res.
func scanTallyRows(res *sql.Rows) ([]TallyRow, error) {
	defer res.Close()
	var out []TallyRow
	for res.Next() {
		var r TallyRow
		if err := res.Scan(&r.Key, &r.Count, &r.Failures, &r.TotalUS, &r.LostUS); err != nil {
			return nil, fmt.Errorf("stats: %w", classify(err))
		}
		out = append(out, r)
	}
	if err := res.Err(); err != nil {
		return nil, fmt.Errorf("stats: %w", classify(err))
	}
	return out, nil
}

// totalsOf is the count of each of outside's keys in g, the lines' totals.
func (s *Store) totalsOf(ctx context.Context, g string, outside map[string]*TallyRow) (map[string]int64, error) {
	keys := make([]any, 0, len(outside))
	for k := range outside {
		keys = append(keys, k)
	}
	all := make(map[string]int64, len(keys))
	for lo := 0; lo < len(keys); lo += 500 {
		part := keys[lo:min(lo+500, len(keys))]
		res, err := s.db.QueryContext(ctx, `SELECT k, n FROM `+g+` WHERE k IN (?`+strings.Repeat(", ?", len(part)-1)+`)`, part...)
		if err != nil {
			return nil, fmt.Errorf("stats: %w", classify(err))
		}
		for res.Next() {
			var k string
			var n int64
			if err := res.Scan(&k, &n); err != nil {
				res.Close()
				return nil, fmt.Errorf("stats: %w", classify(err))
			}
			all[k] = n
		}
		res.Close()
		if err := res.Err(); err != nil {
			return nil, fmt.Errorf("stats: %w", classify(err))
		}
	}
	return all, nil
}

// tallyOrder is tallySorts' order (the key breaking ties, its bytes
// compared as SQLite's BINARY collation does) for rows read into Go.
func tallyOrder(sortBy string) func(a, b TallyRow) int {
	desc := func(x, y int64) int { return -cmpInt(x, y) }
	return func(a, b TallyRow) int {
		var c int
		switch sortBy {
		case "failures":
			c = desc(a.Failures, b.Failures)
		case "time":
			c = desc(a.TotalUS, b.TotalUS)
		case "lost":
			c = desc(a.LostUS, b.LostUS)
		case "key":
			return -strings.Compare(a.Key, b.Key)
		}
		if c == 0 {
			c = desc(a.Count, b.Count)
		}
		if c == 0 {
			c = strings.Compare(a.Key, b.Key)
		}
		return c
	}
}

func cmpInt(x, y int64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}
