package main

import (
	"cmp"
	"context"
	"errors"
	"os"
	"strconv"

	"github.com/hookd/hookd/internal/search"
	"github.com/hookd/hookd/internal/stats"
	"github.com/spf13/pflag"
	"golang.org/x/sys/unix"
)

func cmdStats(fs *pflag.FlagSet) runFunc {
	by := fs.String("by", "command", "group by `KEY`: command, program, dir, repo, day, week, host or author")
	since := fs.String("since", "", "count commands started since `WHEN`: a duration (90m, 2h, 3d, 1w, 1y) or a date (default: the whole history; a year with --calendar)")
	failed := fs.Bool("failed", false, "count only commands that failed")
	scope := fs.String("scope", "", "where: everything (the default), session, directory, repository or host (this installation's commands)")
	cwd := fs.String("cwd", "", "only commands started in `DIR` (. for here)")
	agents := fs.Bool("agents", false, "include coding agents' commands (left out by default)")
	sort := fs.String("sort", "", "order the rows by `ORDER`: count, failures, rate, lost or time, largest first, or key (default: count; by day or week: key, the newest first)")
	n := fs.IntP("limit", "n", 20, "show `N` rows (0: all)")
	calendar := fs.Bool("calendar", false, "draw runs per day as a calendar (a year, or since --since)")
	asJSON := fs.Bool("json", false, "print JSON Lines, one row per group: key, count, failed, failure_rate, total_ms, median_ms, lost_ms, flaky, activity, failures (with --calendar: day, count, failed)")
	width := fs.Int("width", 0, "lay out for `N` columns (default: the terminal's, else $COLUMNS, else 80)")
	return func(ctx context.Context, e *env, args []string) error {
		if len(args) > 0 {
			return usagef("stats takes no arguments")
		}
		if *n < 0 {
			return usagef("-n must not be negative")
		}
		q := stats.Query{By: *by, Sort: *sort, Rows: *n, Here: searchHere(e)}
		if *n == 0 {
			q.Rows = -1
		}
		var err error
		if q.Scope, err = search.ParseScope(cmp.Or(*scope, "everything")); err != nil {
			return usageError{err.Error()}
		}
		if q.Scope == search.ScopeSession && e.session == "" {
			return errors.New("--scope session: HOOKD_SESSION is not set (this shell does not load hookd)")
		}
		q.Failed, q.Agents = *failed, *agents
		if q.Cwd, q.Since, err = cwdSince(*cwd, *since); err != nil {
			return err
		}
		term := stats.Terminal{Width: *width, Palette: e.palette, Home: e.home}
		if term.Width == 0 {
			term.Width = e.columns()
		}
		s, err := e.openFlushed(ctx)
		if err != nil {
			return err
		}
		defer s.Close()
		if *calendar {
			cal, err := stats.CalendarOf(ctx, s, q)
			if err != nil {
				return usageOr(err)
			}
			if *asJSON {
				enc := e.jsonEncoder()
				for _, d := range cal.Days {
					if err := enc.Encode(map[string]any{"day": d.Date.Format("2006-01-02"), "count": d.Count, "failed": d.Failures}); err != nil {
						return err
					}
				}
				return nil
			}
			return term.RenderCalendar(e.stdout, cal)
		}
		if !*asJSON {
			q.Buckets = term.Buckets()
		} else {
			q.Buckets = 52
		}
		rep, err := stats.Run(ctx, s, q)
		if err != nil {
			return usageOr(err)
		}
		if *asJSON {
			enc := e.jsonEncoder()
			for _, r := range rep.Rows {
				if err := enc.Encode(stats.RowJSON(r)); err != nil {
					return err
				}
			}
			return nil
		}
		return term.Render(e.stdout, rep)
	}
}

// usageOr makes the engine's complaint about a flag's value (a grouping
// or an order it does not know) a usage error.
func usageOr(err error) error {
	var u stats.UsageError
	if errors.As(err, &u) {
		return usageError{err.Error()}
	}
	return err
}

// columns is the width of the terminal on stdout, else $COLUMNS, else 0.
func (e *env) columns() int {
	if f, ok := e.stdout.(*os.File); ok && e.stdoutTTY {
		if ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ); err == nil && ws.Col > 0 {
			return int(ws.Col)
		}
	}
	if c, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && c > 0 {
		return c
	}
	return 0
}
