package web

import (
	"fmt"
	"github.com/hookd/hookd/internal/ui/units"
	"math"
	"net/http"
	"net/url"
	"time"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/search"
	"github.com/hookd/hookd/internal/stats"
)

// The stats page draws package stats' figures (the ones hookd stats
// prints) as SVG, on the server: a calendar of runs per day, the failure
// rate over time, the commands that took the most time and that failed
// most, the flaky ones.

type statsData struct {
	Since, Scope   string
	Scopes, Sinces []string
	Agents         bool
	Error          string
	Totals         stats.Totals
	Lost, Total    string
	Calendar       *heatmap
	Rate           *timeChart
	Slowest        *barChart
	Failing        *barChart
	Flaky          []stats.FlakyLine
}

// A heatmap is a year of days, a column a week, as GitHub draws one.
type heatmap struct {
	W, H   int
	Cells  []cell
	Months []label
	Total  int64
}

type cell struct {
	X, Y  int
	Level int // 0 (none) to 4 (the most)
	Title string
}

type label struct {
	X, Y int
	Text string
}

// A timeChart is runs per day (or week) as bars, and the failure rate as a
// line over them.
type timeChart struct {
	W, H   int
	Bars   []bar
	Points string // the rate's polyline
	Labels []label
}

type bar struct {
	X, Y, W, H int
	Fail       int // height of the failed part, at the bar's foot
	FailY      int
	Title      string
}

// A barChart ranks commands: a bar each, its length the figure.
type barChart struct {
	W, H int
	Rows []barRow
}

type barRow struct {
	Y, Len   int
	Key      string
	Link     string
	Figure   string
	Fail     int // length of the failed part
	Title    string
	LabelY   int
	FigureX  int
	BarLabel string
}

var sinces = []string{"7d", "30d", "90d", "1y"}

func (s *Server) handleStats(w http.ResponseWriter, r *http.Request) {
	v := r.URL.Query()
	d := statsData{Since: v.Get("since"), Scope: v.Get("scope"), Agents: v.Get("agents") != "", Scopes: scopes, Sinces: sinces}
	if d.Since == "" {
		d.Since = "90d"
	}
	now := s.o.Now()
	here := s.o.Engine.Here()
	here.Now = now
	q := stats.Query{Here: here}
	q.Agents = d.Agents
	if d.Scope != "" {
		sc, err := search.ParseScope(d.Scope)
		if err != nil {
			d.Error = err.Error()
		}
		q.Scope = sc
	}
	since, err := history.ParseSince(d.Since, now)
	if err != nil {
		d.Error = err.Error()
		since = now.AddDate(0, 0, -90)
	}
	q.Since = since.UnixMicro()
	if d.Error == "" {
		if err := s.drawStats(r, &d, q, now); err != nil {
			d.Error = err.Error()
		}
	}
	s.page(w, "stats.html", d)
}

func (s *Server) drawStats(r *http.Request, d *statsData, q stats.Query, now time.Time) error {
	ctx := r.Context()
	// The calendar covers a year, whatever the period of the rest.
	cq := q
	cq.Since = 0
	cal, err := stats.CalendarOf(ctx, s.o.Store, cq)
	if err != nil {
		return err
	}
	d.Calendar = drawHeatmap(cal)

	// Runs and failures over the period: the calendar's days (by week
	// past four months), not another count.
	d.Rate = drawTimeChart(periodRows(cal, time.UnixMicro(q.Since), now.Sub(time.UnixMicro(q.Since)) > 120*24*time.Hour))

	sq := q
	sq.By, sq.Rows, sq.Sort = history.ByCommand, 10, "time"
	slow, err := stats.Run(ctx, s.o.Store, sq)
	if err != nil {
		return err
	}
	d.Totals, d.Flaky = slow.Totals, slow.Flaky // grouped by command line
	d.Total, d.Lost = units.Duration(slow.Totals.Total), units.Duration(slow.Totals.Lost)
	d.Slowest = drawBars(slow.Rows, func(r stats.Row) (float64, float64, string) {
		return r.Total.Seconds(), r.Lost.Seconds(), fmt.Sprintf("%s in all, median %s", units.Duration(r.Total), units.Duration(r.Median))
	})
	fq := q
	fq.By, fq.Rows, fq.Sort = history.ByCommand, 10, "failures"
	fail, err := stats.Run(ctx, s.o.Store, fq)
	if err != nil {
		return err
	}
	var failing []stats.Row
	for _, r := range fail.Rows {
		if r.Failures > 0 {
			failing = append(failing, r)
		}
	}
	d.Failing = drawBars(failing, func(r stats.Row) (float64, float64, string) {
		return float64(r.Count), float64(r.Failures), fmt.Sprintf("%d of %d failed (%.0f%%)", r.Failures, r.Count, 100*r.FailureRate)
	})
	return nil
}

func level(n, top int64) int {
	if n == 0 || top == 0 {
		return 0
	}
	return 1 + int(math.Min(3, math.Floor(4*float64(n-1)/float64(top))))
}

func drawHeatmap(cal stats.Calendar) *heatmap {
	const size, gap, left, top = 11, 2, 28, 16
	h := &heatmap{Total: cal.Total}
	if len(cal.Days) == 0 {
		return h
	}
	col := 0
	lastMonth := -1
	for i, day := range cal.Days {
		wd := int(day.Date.Weekday()+6) % 7 // Monday first
		if i > 0 && wd == 0 {
			col++
		}
		x := left + col*(size+gap)
		if m := int(day.Date.Month()); m != lastMonth && day.Date.Day() <= 7 {
			h.Months = append(h.Months, label{X: x, Y: top - 5, Text: day.Date.Format("Jan")})
			lastMonth = m
		}
		title := fmt.Sprintf("%s: %d runs", day.Date.Format("Mon 2 Jan 2006"), day.Count)
		if day.Failures > 0 {
			title += fmt.Sprintf(", %d failed", day.Failures)
		}
		h.Cells = append(h.Cells, cell{X: x, Y: top + wd*(size+gap), Level: level(day.Count, cal.Max), Title: title})
	}
	h.W = left + (col+1)*(size+gap)
	h.H = top + 7*(size+gap)
	return h
}

// periodRows are the calendar's days from since on, or its weeks (from
// Monday), as rows oldest first.
func periodRows(cal stats.Calendar, since time.Time, weekly bool) []stats.Row {
	var rows []stats.Row
	for _, day := range cal.Days {
		if day.Date.Add(24 * time.Hour).Before(since) {
			continue
		}
		key := day.Date.Format("2006-01-02")
		if weekly {
			monday := day.Date.AddDate(0, 0, -(int(day.Date.Weekday())+6)%7)
			key = "week of " + monday.Format("2006-01-02")
		}
		if len(rows) == 0 || rows[len(rows)-1].Key != key {
			rows = append(rows, stats.Row{Key: key})
		}
		r := &rows[len(rows)-1]
		r.Count += day.Count
		r.Failures += day.Failures
	}
	for i := range rows {
		if rows[i].Count > 0 {
			rows[i].FailureRate = float64(rows[i].Failures) / float64(rows[i].Count)
		}
	}
	return rows
}

func drawTimeChart(rows []stats.Row) *timeChart {
	const w, h, left, bottom, top = 760, 180, 36, 20, 8
	c := &timeChart{W: w, H: h}
	if len(rows) == 0 {
		return c
	}
	n := len(rows)
	var most int64
	for _, r := range rows {
		most = max(most, r.Count)
	}
	step := float64(w-left) / float64(n)
	plot := float64(h - bottom - top)
	for i := range rows {
		r := rows[i]
		x := left + int(float64(i)*step)
		bw := max(1, int(step)-1)
		bh := int(plot * float64(r.Count) / float64(max(most, 1)))
		fh := int(plot * float64(r.Failures) / float64(max(most, 1)))
		y := h - bottom - bh
		c.Bars = append(c.Bars, bar{X: x, Y: y, W: bw, H: bh, Fail: fh, FailY: h - bottom - fh,
			Title: fmt.Sprintf("%s: %d runs, %d failed (%.0f%%)", r.Key, r.Count, r.Failures, 100*r.FailureRate)})
		py := float64(h-bottom) - plot*r.FailureRate
		c.Points += fmt.Sprintf("%.1f,%.1f ", float64(x)+step/2, py)
		if i == 0 || i == n-1 || (n > 8 && i == n/2) {
			c.Labels = append(c.Labels, label{X: x, Y: h - 5, Text: r.Key})
		}
	}
	c.Labels = append(c.Labels, label{X: 2, Y: top + 8, Text: "100%"}, label{X: 2, Y: h - bottom, Text: "0%"})
	return c
}

func drawBars(rows []stats.Row, figure func(stats.Row) (whole, part float64, text string)) *barChart {
	const w, rowH, barMax = 760, 34, 520
	c := &barChart{W: w}
	top := 0.0
	for _, r := range rows {
		v, _, _ := figure(r)
		top = math.Max(top, v)
	}
	for i, r := range rows {
		v, part, text := figure(r)
		l, p := 0, 0
		if top > 0 {
			l = max(1, int(barMax*v/top))
			p = int(barMax * part / top)
		}
		y := i * rowH
		c.Rows = append(c.Rows, barRow{Y: y + 16, Len: l, Fail: p, Key: r.Key, Figure: text, LabelY: y + 12, FigureX: l + 6,
			Link: "/?in=command&mode=full-text&q=" + url.QueryEscape(r.Key), Title: r.Key + ": " + text})
	}
	c.H = len(rows)*rowH + 4
	return c
}
