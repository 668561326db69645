package stats

import (
	"fmt"
	"github.com/hookd/hookd/internal/ui/units"
	"io"
	"strings"
	"time"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/sanitize"
	"github.com/hookd/hookd/internal/shellwords"
	"github.com/hookd/hookd/internal/ui/style"
	"github.com/rivo/uniseg"
)

// Terminal says how a report is drawn on a terminal.
type Terminal struct {
	// Width is the terminal's columns (0: 80).
	Width int
	// Palette colours the text; the zero Palette draws plain text, which
	// says all the colours do (NO_COLOR, a pipe).
	Palette style.Palette
	// Home is shown as ~ in directories.
	Home string
}

func (t Terminal) width() int {
	if t.Width <= 0 {
		return 80
	}
	return max(t.Width, 40)
}

// The table's fixed columns: runs, failure rate, total, median and lost
// time, each right-aligned, then the two sparklines and the key.
const (
	numCols  = "%7s %6s %7s %7s %7s "
	numWidth = 7 + 1 + 6 + 1 + 7 + 1 + 7 + 1 + 7 + 1
	minKey   = 20
)

// Buckets is the number of buckets a table drawn at width columns has
// room for in each of its two sparklines (0: none fit): what to ask of
// Query.Buckets. The two sparklines share at most half the room the
// figures leave, so that a wide terminal shows more of the command lines
// rather than only longer sparklines.
func (t Terminal) Buckets() int {
	room := t.width() - numWidth - 2
	n := min(room/4, (room-minKey)/2)
	switch {
	case n < 6:
		return 0
	case n > 52:
		return 52 // a year's weeks
	}
	return n
}

// sparks are a sparkline's levels, lowest first.
var sparks = []rune("▁▂▃▄▅▆▇█")

// Sparkline draws vals, one character each, scaled to top (the largest
// of vals when top is 0): a space for 0, ▁ to █ for the rest.
func Sparkline(vals []int64, top int64) string {
	if top <= 0 {
		for _, v := range vals {
			top = max(top, v)
		}
	}
	var b strings.Builder
	for _, v := range vals {
		if v <= 0 || top <= 0 {
			b.WriteByte(' ')
			continue
		}
		i := int((v*int64(len(sparks)) - 1) / top)
		b.WriteRune(sparks[min(max(i, 0), len(sparks)-1)])
	}
	return b.String()
}

func percent(r float64) string {
	switch {
	case r == 0:
		return "0%"
	case r < 0.001:
		return "<0.1%"
	}
	return fmt.Sprintf("%.1f%%", 100*r)
}

// fit cuts s to at most w columns, with … where it was cut, and pads it
// to w when pad.
func fit(s string, w int, pad bool) string {
	if uniseg.StringWidth(s) > w {
		var b strings.Builder
		n := 0
		g := uniseg.NewGraphemes(s)
		for g.Next() {
			cw := g.Width()
			if n+cw > w-1 {
				break
			}
			b.WriteString(g.Str())
			n += cw
		}
		s = b.String() + "…"
	}
	if pad {
		s += strings.Repeat(" ", max(w-uniseg.StringWidth(s), 0))
	}
	return s
}

// KeyText is how a group's key reads: the text sanitized to one line,
// the home directory as ~, and a name for the empty key.
func (t Terminal) KeyText(by, key string) string {
	if key == "" {
		switch by {
		case history.ByAuthor:
			return "you"
		case history.ByRepo:
			return "(no work tree noted)"
		}
		return "(none)"
	}
	if by == history.ByDir || by == history.ByRepo {
		key = shellwords.Tilde(key, t.Home)
	}
	return sanitize.Line(key)
}

var byNames = map[string]string{
	history.ByCommand: "command", history.ByProgram: "program", history.ByDir: "directory",
	history.ByRepo: "repository", history.ByDay: "day", history.ByWeek: "week",
	history.ByHost: "host", history.ByAuthor: "author",
}

// Render draws rep: a heading with the totals, the table (a sparkline of
// the runs and one of the failures over the period, the failures scaled
// to the runs, when the width has room), and the flaky commands apart.
func (t Terminal) Render(w io.Writer, rep Report) error {
	p := t.Palette
	width := t.width()
	var b strings.Builder
	period := "the whole history"
	if !rep.Since.IsZero() {
		period = "since " + rep.Since.Format("2006-01-02")
	}
	head := fmt.Sprintf("By %s, %s: %d runs, %s failed, %s lost to failures", byNames[rep.By], period,
		rep.Totals.Count, percent(rep.Totals.FailureRate), units.Duration(rep.Totals.Lost))
	b.WriteString(p.Render(style.Label, fit(head, width, false)) + "\n")
	if len(rep.Rows) == 0 {
		b.WriteString("No commands recorded in that period.\n")
		_, err := io.WriteString(w, b.String())
		return err
	}
	n := len(firstSeries(rep.Rows))
	timeKeys := rep.By == history.ByDay || rep.By == history.ByWeek
	spark := n
	if timeKeys {
		// A day's runs fall in one bucket: a bar of its runs (and one of
		// its failures) against the busiest row's says more.
		spark = t.Buckets()
	}
	keyW := width - numWidth
	if spark > 0 {
		keyW -= 2*spark + 2
	}
	hdr := fmt.Sprintf(numCols, "RUNS", "FAIL", "TOTAL", "MEDIAN", "LOST")
	if spark > 0 {
		hdr += fit("ACTIVITY", spark, true) + " " + fit("FAILURES", spark, true) + " "
	}
	hdr += strings.ToUpper(byNames[rep.By])
	b.WriteString(p.Render(style.Dim, strings.TrimRight(fit(hdr, width, false), " ")) + "\n")
	var most int64
	for _, r := range rep.Rows {
		most = max(most, r.Count)
	}
	for _, r := range rep.Rows {
		fail := fmt.Sprintf("%6s", percent(r.FailureRate))
		lost := fmt.Sprintf("%7s", units.Duration(r.Lost))
		if r.Failures > 0 {
			fail = p.Render(style.Caution, fail)
			lost = p.Render(style.Caution, lost)
		}
		b.WriteString(fmt.Sprintf("%7d %s %7s %7s %s ", r.Count, fail, units.Duration(r.Total), units.Duration(r.Median), lost))
		if spark > 0 {
			var act, bad string
			if timeKeys {
				act, bad = bar(r.Count, most, spark), bar(r.Failures, most, spark)
			} else {
				top := int64(0)
				for _, v := range r.Activity {
					top = max(top, v)
				}
				act, bad = Sparkline(r.Activity, top), Sparkline(r.Failing, top)
			}
			b.WriteString(p.Render(style.Success, fit(act, spark, true)) + " " + p.Render(style.Danger, fit(bad, spark, true)) + " ")
		}
		key := t.KeyText(rep.By, r.Key)
		if r.Flaky {
			key += " (flaky)"
		}
		b.WriteString(strings.TrimRight(fit(key, max(keyW, 8), false), " ") + "\n")
	}
	if rep.Totals.Groups > int64(len(rep.Rows)) {
		b.WriteString(p.Render(style.Dim, fmt.Sprintf("… and %d more (-n)", rep.Totals.Groups-int64(len(rep.Rows)))) + "\n")
	}
	if len(rep.Flaky) > 0 {
		b.WriteString("\n" + p.Render(style.Label, fit("Flaky: failed and worked in the same directory with nothing recorded changed between", width, false)) + "\n")
		for _, f := range rep.Flaky {
			left := fmt.Sprintf("%3d flips %5d runs %4d failed  ", f.Flips, f.Count, f.Failures)
			right := fmt.Sprintf("  hookd diff %d %d", f.LastFailed, f.LastOK)
			where := "  " + shellwords.Tilde(sanitize.Line(f.Cwd), t.Home)
			room := width - uniseg.StringWidth(left) - uniseg.StringWidth(right)
			cmd := sanitize.Line(f.Command)
			if room-uniseg.StringWidth(cmd) < uniseg.StringWidth(where) {
				where = fit(where, max(room-min(uniseg.StringWidth(cmd), room/2), 4), false)
			}
			cmd = fit(cmd, max(room-uniseg.StringWidth(where), 8), false)
			b.WriteString(p.Render(style.Caution, left) + p.Render(style.Command, cmd) + p.Render(style.Dim, where+right) + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func firstSeries(rows []Row) []int64 {
	if len(rows) == 0 {
		return nil
	}
	return rows[0].Activity
}

// eighths are a bar's last, partial cell.
var eighths = []rune(" ▏▎▍▌▋▊▉")

// bar draws v against top in w cells of eighths.
func bar(v, top int64, w int) string {
	if top <= 0 || v <= 0 {
		return ""
	}
	e := max(int(v*int64(w)*8/top), 1)
	return strings.Repeat("█", e/8) + strings.TrimRight(string(eighths[e%8]), " ")
}

// heat are a calendar's cells from no run to the busiest days.
var heat = []string{"·", "░", "▒", "▓", "█"}

// RenderCalendar draws cal as GitHub draws a year of contributions: a
// column per week (Monday on top), a cell per day from · (no run) through
// ░ ▒ ▓ to █ (the busiest quarter), months named above; the most recent
// weeks when the width holds fewer.
func (t Terminal) RenderCalendar(w io.Writer, cal Calendar) error {
	p := t.Palette
	if len(cal.Days) == 0 {
		_, err := io.WriteString(w, "No days in that period.\n")
		return err
	}
	// Weeks, each from Monday: the first one padded before its first day.
	first := cal.Days[0].Date
	lead := (int(first.Weekday()) + 6) % 7
	cells := make([]*Day, lead, lead+len(cal.Days))
	for i := range cal.Days {
		cells = append(cells, &cal.Days[i])
	}
	weeks := (len(cells) + 6) / 7
	cw := 2
	if 4+weeks*2 > t.width() {
		cw = 1
	}
	shown := min(weeks, (t.width()-4)/cw)
	from := weeks - shown
	level := func(d *Day) int {
		if d == nil || d.Count == 0 || cal.Max == 0 {
			return 0
		}
		return 1 + int((d.Count*4-1)/cal.Max)
	}
	var b strings.Builder
	b.WriteString(p.Render(style.Label, fmt.Sprintf("%d runs from %s to %s, %d on the busiest day",
		cal.Total, cal.Days[0].Date.Format("2006-01-02"), cal.Days[len(cal.Days)-1].Date.Format("2006-01-02"), cal.Max)) + "\n")
	// Month names over the week in which the month starts (the first
	// week's month only when it does not crowd the next one's).
	months := []rune(strings.Repeat(" ", 4+shown*cw+4))
	end := 0
	for wk := from; wk < weeks; wk++ {
		var day *Day
		for d := 0; d < 7 && day == nil; d++ {
			if i := wk*7 + d; i < len(cells) {
				day = cells[i]
			}
		}
		if day == nil || wk > from && day.Date.Day() > 7 {
			continue
		}
		at := 4 + (wk-from)*cw
		name := []rune(day.Date.Format("Jan"))
		if wk == from && day.Date.Day() > 7 {
			// A month begun before the first week: named only when
			// the next month's name is not within reach.
			if next := day.Date.AddDate(0, 1, 1-day.Date.Day()); next.Sub(day.Date) < time.Duration(len(name)+1)*7*24*time.Hour/time.Duration(cw) {
				continue
			}
		}
		if at >= end && at+len(name) <= len(months) {
			copy(months[at:], name)
			end = at + len(name) + 1
		}
	}
	b.WriteString(p.Render(style.Dim, strings.TrimRight(string(months), " ")) + "\n")
	names := []string{"Mon", "", "Wed", "", "Fri", "", "Sun"}
	for d := 0; d < 7; d++ {
		var row strings.Builder
		for wk := from; wk < weeks; wk++ {
			i := wk*7 + d
			cell := " "
			if i < len(cells) && cells[i] != nil {
				l := level(cells[i])
				cell = heat[l]
				if l == 0 {
					cell = p.Render(style.Dim, cell)
				} else {
					cell = p.Render(style.Success, cell)
				}
			}
			row.WriteString(cell + strings.Repeat(" ", cw-1))
		}
		b.WriteString(fmt.Sprintf("%-4s", names[d]) + strings.TrimRight(row.String(), " ") + "\n")
	}
	b.WriteString(p.Render(style.Dim, fmt.Sprintf("    less %s more (· none; █ %d+ runs a day)",
		strings.Join(heat, " "), max((cal.Max*3)/4+1, 1))) + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}
