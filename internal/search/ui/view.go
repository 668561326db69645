package ui

import (
	"fmt"
	"github.com/hookd/hookd/internal/ui/units"
	"path/filepath"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/hookd/hookd/internal/sanitize"
	"github.com/hookd/hookd/internal/search"
	"github.com/hookd/hookd/internal/ui/style"
)

// The view's styles are the palette's (internal/ui/style), as every
// terminal view's: lipgloss takes a style.Style as it is.
var (
	stSel     = lip(style.Selected)
	stMatch   = lip(style.Match)
	stFail    = lip(style.Danger)
	stOK      = lip(style.Success)
	stDim     = lip(style.Dim)
	stBar     = lip(style.Rule)
	stHitLine = lip(style.Selected)
	stWarn    = lip(style.Caution)
)

// lip is s for lipgloss.
func lip(s style.Style) lipgloss.Style {
	st := lipgloss.NewStyle().Bold(s.Bold).Faint(s.Faint).Reverse(s.Reverse)
	if s.Color != "" {
		st = st.Foreground(lipgloss.Color(s.Color))
	}
	return st
}

// wide is the width from which the preview sits beside the list.
const wide = 90

func (m *model) View() tea.View {
	if m.quitting {
		// The last frame is empty: the lines used are cleared, and the
		// prompt is left as it was. Full screen, it stays on the
		// alternate screen, which Bubble Tea leaves last: leaving it
		// here would have its last move (to the bottom of the view, a
		// line down) land on the prompt's screen.
		v := tea.NewView("")
		v.AltScreen = m.o.FullScreen
		v.DisableBracketedPasteMode = true
		return v
	}
	v := tea.NewView(m.render())
	v.AltScreen = m.o.FullScreen
	// Bracketed paste is left as the shell's line editor set it (a paste
	// still comes as one, where it is on): Bubble Tea would turn it on,
	// and off on the way out, and the line the search returns to would
	// then take a pasted newline as Enter.
	v.DisableBracketedPasteMode = true
	return v
}

// bodyRows is the number of lines between the query line and the hint.
func (m *model) bodyRows() int { return max(1, m.height-2) }

// listRows is the number of commands shown.
func (m *model) listRows() int {
	if m.width >= wide {
		return m.bodyRows()
	}
	return max(1, m.bodyRows()/2)
}

// previewRows is the number of output lines shown.
func (m *model) previewRows() int {
	if m.width >= wide {
		return max(1, m.bodyRows()-1)
	}
	return max(1, m.bodyRows()-m.listRows()-1)
}

func (m *model) render() string {
	w := max(m.width, 20)
	lines := make([]string, 0, m.height)
	lines = append(lines, m.queryLine(w))
	list := m.listLines()
	var prev []string
	if w >= wide {
		lw := w * 55 / 100
		pw := w - lw - 3
		prev = m.previewLines(pw)
		for i := range m.bodyRows() {
			l, p := "", ""
			if i < len(list) {
				l = list[i]
			}
			if i < len(prev) {
				p = prev[i]
			}
			lines = append(lines, fit(l, lw)+stDim.Render(" │ ")+p)
		}
	} else {
		for i := range m.listRows() {
			l := ""
			if i < len(list) {
				l = list[i]
			}
			lines = append(lines, l)
		}
		lines = append(lines, m.previewLines(w)...)
	}
	for len(lines) < m.height-1 {
		lines = append(lines, "")
	}
	lines = lines[:m.height-1]
	lines = append(lines, m.hintLine(w))
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, w, "")
	}
	return strings.Join(lines, "\n")
}

// fit pads or cuts s to exactly w columns.
func fit(s string, w int) string {
	sw := ansi.StringWidth(s)
	if sw > w {
		return ansi.Truncate(s, w, "…")
	}
	return s + strings.Repeat(" ", w-sw)
}

func (m *model) queryLine(w int) string {
	var tags []string
	tags = append(tags, m.q.Scope.String())
	if m.q.Mode != search.Fuzzy {
		tags = append(tags, m.q.Mode.String())
	}
	if m.q.Failed {
		tags = append(tags, stFail.Render("failed"))
	}
	right := strings.Join(tags, " · ")
	if m.loaded {
		right += fmt.Sprintf("  %d", len(m.res))
	} else {
		right += "  …"
	}
	right = stBar.Render(right)
	rw := ansi.StringWidth(right)
	const placeholder = "search commands and what they printed"
	if w-rw-2 < 14 {
		return fit("› "+m.input.view(w-2, placeholder), w)
	}
	return fit("› "+m.input.view(w-rw-3, placeholder), w-rw-1) + " " + right
}

func (m *model) hintLine(w int) string {
	if m.status != "" {
		return stWarn.Render(sanitize.Line(m.status))
	}
	if m.err != nil {
		return stFail.Render(sanitize.Line(m.err.Error()))
	}
	enter := "enter: put on the line"
	if m.o.EnterRuns {
		enter = "enter: run"
	}
	return stDim.Render(enter + " · tab: edit · ^R scope · ^F failed · ^S mode · ^O pager · ^D delete · esc")
}

// listLines renders the visible commands, the selected one marked.
func (m *model) listLines() []string {
	rows := m.listRows()
	lw := m.width
	if m.width >= wide {
		lw = m.width * 55 / 100
	}
	var out []string
	for i := m.top; i < len(m.res) && i < m.top+rows; i++ {
		r := m.res[i]
		num := " "
		if i-m.top < 9 {
			num = fmt.Sprint(i - m.top + 1)
		}
		glyph := " "
		if r.ExitCode != 0 {
			glyph = stFail.Render("✗")
		}
		right := age(m.o.Engine.Here().Now, r.StartedAt)
		if r.Count > 1 {
			right = fmt.Sprintf("×%d %s", r.Count, right)
		}
		if why := matchedTag[r.Matched]; why != "" {
			right = why + " " + right
		}
		right = " " + stDim.Render(right)
		cw := max(4, lw-4-ansi.StringWidth(right))
		cmd := highlight(r.Command, r.Positions)
		line := num + glyph + " " + fit(cmd, cw) + right
		if i == m.sel {
			line = stSel.Render(ansi.Strip("▌" + line))
		} else {
			line = " " + line
		}
		out = append(out, line)
	}
	if len(m.res) == 0 {
		msg := "no command matches"
		if !m.loaded {
			msg = "reading the history…"
		}
		out = append(out, stDim.Render("  "+msg))
	}
	return out
}

// matchedTag says in a row why it matched: its command line, its output,
// or both (nothing for the most recent commands, listed without a query).
var matchedTag = map[search.Where]string{
	search.InCommand:                 "⊳cmd",
	search.InOutput:                  "⊳out",
	search.InBoth:                    "⊳cmd+out",
	search.InNote:                    "⊳note",
	search.InCommand | search.InNote: "⊳cmd+note",
	search.InOutput | search.InNote:  "⊳out+note",
	search.InBoth | search.InNote:    "⊳cmd+out+note",
}

// highlight sanitizes cmd for the terminal and marks the runes at pos;
// a command of several lines shows its first, with "⏎…".
func highlight(cmd string, pos []int) string {
	var b strings.Builder
	pi := 0
	for i, r := range []rune(cmd) {
		if r == '\n' {
			b.WriteString(stDim.Render(" ⏎…"))
			break
		}
		s := sanitize.Line(string(r))
		for pi < len(pos) && pos[pi] < i {
			pi++
		}
		if pi < len(pos) && pos[pi] == i {
			s = stMatch.Render(s)
		}
		b.WriteString(s)
	}
	return b.String()
}

// previewLines renders the selected command's facts and its output, from
// the scroll position, the line that matched marked.
func (m *model) previewLines(w int) []string {
	rows := m.previewRows()
	d := m.detail
	if d == nil {
		return nil
	}
	r := m.selected()
	st := stOK.Render(fmt.Sprintf("✓ %d", d.ExitCode))
	switch {
	case !d.StatusKnown():
		st = stDim.Render("status unknown")
	case d.ExitCode != 0:
		st = stFail.Render(fmt.Sprintf("✗ %d", d.ExitCode))
	}
	took := ""
	if d.DurationKnown() {
		took = units.Micros(d.DurationUS)
	}
	when := time.UnixMicro(d.StartedAt).Local().Format("2006-01-02 15:04")
	head := strings.TrimRight(fmt.Sprintf("%s  %s  %s ago (%s)  %s", st, sanitize.Line(shortDir(d.Cwd)), age(m.o.Engine.Here().Now, d.StartedAt), when, took), " ")
	if r != nil && r.Count > 1 {
		head += fmt.Sprintf("  ×%d", r.Count)
	}
	out := []string{ansi.Truncate(head, w, "…")}
	for _, l := range [][2]string{{"why: ", m.why.Intent}, {"asked: ", m.why.Prompt}} {
		if l[1] != "" {
			out = append(out, ansi.Truncate(stDim.Render(l[0]+sanitize.Line(l[1])), w, "…"))
		}
	}
	if m.outNote != "" {
		return append(out, stDim.Render(m.outNote))
	}
	hit := 0
	if r != nil {
		hit = r.LineNo
	}
	for i := m.scroll; i < len(m.outLines) && len(out) <= rows; i++ {
		l := ansi.Truncate(m.outLines[i], w, "…")
		if i+1 == hit {
			l = stHitLine.Render(ansi.Strip(l))
		}
		out = append(out, l)
	}
	if n := len(m.outLines); n > rows && len(out) > 1 {
		end := min(n, m.scroll+rows)
		out[0] = ansi.Truncate(head+stDim.Render(fmt.Sprintf("  [%d-%d/%d]", m.scroll+1, end, n)), w, "…")
	}
	return out
}

func shortDir(d string) string {
	if home := homeDir; home != "" && (d == home || strings.HasPrefix(d, home+"/")) {
		return "~" + strings.TrimPrefix(d, home)
	}
	return filepath.Clean(d)
}

var homeDir string

// age is a short "how long ago": 5s, 3m, 2h, 4d, 3w, 2y.
func age(now time.Time, at int64) string {
	d := now.Sub(time.UnixMicro(at))
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", max(0, int(d.Seconds())))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh", int(d.Hours()))
	case d < 14*24*time.Hour:
		return fmt.Sprintf("%dd", int(d.Hours()/24))
	case d < 365*24*time.Hour:
		return fmt.Sprintf("%dw", int(d.Hours()/24/7))
	}
	return fmt.Sprintf("%dy", int(d.Hours()/24/365))
}
