// Package textdiff compares two texts line by line and writes the
// differences as hunks with context, the way `diff -u` does.
package textdiff

import (
	"fmt"
	"strings"
)

// Op is what a line of a hunk does: kept, removed (only in the old text)
// or added (only in the new one).
type Op byte

const (
	Keep   Op = ' '
	Remove Op = '-'
	Add    Op = '+'
)

// Line is one line of a hunk.
type Line struct {
	Op   Op
	Text string
}

// Hunk is a stretch of differences with the lines around them. Lines are
// counted from 1; a count of 0 starts after the line before.
type Hunk struct {
	OldStart, OldCount int
	NewStart, NewCount int
	Lines              []Line
}

// maxCells bounds the table of the exact comparison (old lines × new
// lines, after the common start and end are set aside): larger middles are
// shown as all removed, then all added.
const maxCells = 4 << 20

// Lines splits a text into lines (a last line without a newline counts).
func Lines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// Diff returns the hunks that turn old into new, with context lines of
// unchanged text around each change; none when they are equal. Exact is
// false when the texts were too far apart to compare line by line (their
// differing middle is then shown whole).
func Diff(old, new []string, context int) (hunks []Hunk, exact bool) {
	ops, exact := script(old, new)
	return group(ops, context), exact
}

// script is the whole edit, line by line.
func script(a, b []string) ([]Line, bool) {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var out []Line
	for _, l := range a[:pre] {
		out = append(out, Line{Keep, l})
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	exact := true
	if len(ma)*len(mb) <= maxCells {
		out = append(out, lcs(ma, mb)...)
	} else {
		exact = false
		for _, l := range ma {
			out = append(out, Line{Remove, l})
		}
		for _, l := range mb {
			out = append(out, Line{Add, l})
		}
	}
	for _, l := range a[len(a)-suf:] {
		out = append(out, Line{Keep, l})
	}
	return out, exact
}

// lcs edits a into b through their longest common subsequence; removals
// come before additions where both fit.
func lcs(a, b []string) []Line {
	n, m := len(a), len(b)
	if n == 0 || m == 0 {
		var out []Line
		for _, l := range a {
			out = append(out, Line{Remove, l})
		}
		for _, l := range b {
			out = append(out, Line{Add, l})
		}
		return out
	}
	// t[i][j]: the common length of a[i:] and b[j:].
	t := make([]int32, (n+1)*(m+1))
	at := func(i, j int) int32 { return t[i*(m+1)+j] }
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			v := max(at(i+1, j), at(i, j+1))
			if a[i] == b[j] {
				v = at(i+1, j+1) + 1
			}
			t[i*(m+1)+j] = v
		}
	}
	var out []Line
	i, j := 0, 0
	for i < n && j < m {
		switch {
		case a[i] == b[j]:
			out = append(out, Line{Keep, a[i]})
			i++
			j++
		case at(i+1, j) >= at(i, j+1):
			out = append(out, Line{Remove, a[i]})
			i++
		default:
			out = append(out, Line{Add, b[j]})
			j++
		}
	}
	for ; i < n; i++ {
		out = append(out, Line{Remove, a[i]})
	}
	for ; j < m; j++ {
		out = append(out, Line{Add, b[j]})
	}
	return out
}

// group cuts the edit into hunks: each change with up to context kept
// lines before and after, hunks closer than that merged.
func group(ops []Line, context int) []Hunk {
	var hunks []Hunk
	oldNo, newNo := 1, 1 // line numbers of ops[k]
	type pos struct{ k, old, new int }
	var at []pos
	for k, l := range ops {
		at = append(at, pos{k, oldNo, newNo})
		if l.Op != Add {
			oldNo++
		}
		if l.Op != Remove {
			newNo++
		}
	}
	k := 0
	for k < len(ops) {
		for k < len(ops) && ops[k].Op == Keep {
			k++
		}
		if k == len(ops) {
			break
		}
		start := max(k-context, 0)
		end := k // one past the last line of the hunk
		for end < len(ops) {
			if ops[end].Op != Keep {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].Op == Keep {
				run++
			}
			if run == len(ops) || run-end > 2*context {
				end = min(end+context, len(ops))
				break
			}
			end = run
		}
		h := Hunk{OldStart: at[start].old, NewStart: at[start].new, Lines: append([]Line(nil), ops[start:end]...)}
		for _, l := range h.Lines {
			if l.Op != Add {
				h.OldCount++
			}
			if l.Op != Remove {
				h.NewCount++
			}
		}
		if h.OldCount == 0 {
			h.OldStart--
		}
		if h.NewCount == 0 {
			h.NewStart--
		}
		hunks = append(hunks, h)
		k = end
	}
	return hunks
}

// Header is a hunk's "@@ -a,b +c,d @@" line.
func (h Hunk) Header() string {
	return fmt.Sprintf("@@ -%s +%s @@", span(h.OldStart, h.OldCount), span(h.NewStart, h.NewCount))
}

func span(start, count int) string {
	if count == 1 {
		return fmt.Sprint(start)
	}
	return fmt.Sprintf("%d,%d", start, count)
}
