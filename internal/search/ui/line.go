package ui

import (
	"unicode"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/hookd/hookd/internal/sanitize"
)

// line is the query being typed, with a cursor: the editing keys of a
// shell's line editor (Left, Right, Home/Ctrl-A, End/Ctrl-E, Backspace,
// Delete, Ctrl-W, Alt-Backspace, Ctrl-U, Ctrl-K) and pasted text. (Bubbles'
// text input would do, but brings a clipboard package whose initialiser
// looks up xclip and xsel on PATH in every hookd command.)
type line struct {
	r   []rune
	pos int
}

func (l *line) String() string { return string(l.r) }

func (l *line) set(s string) {
	l.r = []rune(s)
	l.pos = len(l.r)
}

func (l *line) insert(s string) {
	var ins []rune
	for _, r := range s {
		if r == '\n' || r == '\r' || r == '\t' {
			r = ' '
		}
		if unicode.IsControl(r) {
			continue
		}
		ins = append(ins, r)
	}
	l.r = append(l.r[:l.pos], append(ins, l.r[l.pos:]...)...)
	l.pos += len(ins)
}

// key applies an editing key and reports whether it was one.
func (l *line) key(k tea.KeyPressMsg) bool {
	switch k.String() {
	case "left", "ctrl+b":
		l.pos = max(0, l.pos-1)
	case "right":
		l.pos = min(len(l.r), l.pos+1)
	case "home", "ctrl+a":
		l.pos = 0
	case "end", "ctrl+e":
		l.pos = len(l.r)
	case "alt+left", "alt+b":
		l.pos = l.wordStart()
	case "alt+right", "alt+f":
		for l.pos < len(l.r) && l.r[l.pos] == ' ' {
			l.pos++
		}
		for l.pos < len(l.r) && l.r[l.pos] != ' ' {
			l.pos++
		}
	case "backspace", "ctrl+h":
		if l.pos > 0 {
			l.r = append(l.r[:l.pos-1], l.r[l.pos:]...)
			l.pos--
		}
	case "delete":
		if l.pos < len(l.r) {
			l.r = append(l.r[:l.pos], l.r[l.pos+1:]...)
		}
	case "ctrl+w", "alt+backspace":
		s := l.wordStart()
		l.r = append(l.r[:s], l.r[l.pos:]...)
		l.pos = s
	case "ctrl+u":
		l.r = l.r[l.pos:]
		l.pos = 0
	case "ctrl+k":
		l.r = l.r[:l.pos]
	default:
		if k.Text == "" || k.Mod&(tea.ModCtrl|tea.ModAlt) != 0 {
			return false
		}
		l.insert(k.Text)
	}
	return true
}

// wordStart is where the word before the cursor starts.
func (l *line) wordStart() int {
	i := l.pos
	for i > 0 && l.r[i-1] == ' ' {
		i--
	}
	for i > 0 && l.r[i-1] != ' ' {
		i--
	}
	return i
}

// view renders the line in at most w columns, the cursor shown in reverse
// video, scrolled so that the cursor shows.
func (l *line) view(w int, placeholder string) string {
	if len(l.r) == 0 {
		return stSel.Render(" ") + stDim.Render(ansi.Truncate(placeholder, max(0, w-1), "…"))
	}
	before := sanitize.Line(string(l.r[:l.pos]))
	at, after := " ", ""
	if l.pos < len(l.r) {
		at = sanitize.Line(string(l.r[l.pos]))
		after = sanitize.Line(string(l.r[l.pos+1:]))
	}
	// Keep the cursor in view: cut the start when the text before it is
	// too wide.
	if bw := ansi.StringWidth(before); bw > w-2 {
		before = "…" + ansi.TruncateLeft(before, bw-(w-3), "")
	}
	s := before + stSel.Render(at) + after
	return ansi.Truncate(s, w, "…")
}
