// Package termhtml draws a terminal's text as HTML: an output's SGR colours
// and attributes as spans with classes (Stylesheet draws them), every other
// character escaped, and controls, escape sequences it does not draw and
// invisible or bidirectional characters (sanitize.Hidden) shown by their
// code, inert. hookd serve's pages and hookd export's HTML page both draw
// outputs with it.
package termhtml

import (
	"fmt"
	"html/template"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hookd/hookd/internal/sanitize"
)

// hookd renders outputs to HTML itself rather than through a terminal
// emulator such as Buildkite's terminal-to-html: hookd stores an output
// already rendered the way the terminal showed it (package capture applied
// the carriage returns, cursor moves and erasures), so what is left to draw
// is text and colours (SGR). The renderer is linear in the text, allocates
// nothing at start-up, gives colours as classes (a strict Content Security
// Policy forbids style attributes) and shows bidirectional and other
// invisible controls as visible escapes rather than passing them to the
// browser (README, dependencies; docs/benchmarks.md §23).

// sgr is the state of the colours and attributes: what a span carries.
type sgr struct {
	fg, bg                    int // 0: default; 1+n: colour n of 256
	bold, faint, italic       bool
	underline, inverse, cross bool
}

func (a sgr) classes() string {
	var c []string
	if a.fg > 0 {
		c = append(c, "f"+strconv.Itoa(a.fg-1))
	}
	if a.bg > 0 {
		c = append(c, "b"+strconv.Itoa(a.bg-1))
	}
	for _, f := range []struct {
		on   bool
		name string
	}{{a.bold, "bo"}, {a.faint, "fa"}, {a.italic, "it"}, {a.underline, "un"}, {a.inverse, "in"}, {a.cross, "st"}} {
		if f.on {
			c = append(c, f.name)
		}
	}
	return strings.Join(c, " ")
}

// apply reads the parameters of one SGR sequence (CSI … m).
func (a sgr) apply(params string) sgr {
	ps := strings.FieldsFunc(params, func(r rune) bool { return r == ';' || r == ':' })
	if len(ps) == 0 {
		return sgr{}
	}
	num := func(i int) int {
		if i >= len(ps) {
			return -1
		}
		n, err := strconv.Atoi(ps[i])
		if err != nil {
			return -1
		}
		return n
	}
	for i := 0; i < len(ps); i++ {
		n := num(i)
		switch {
		case n == 0:
			a = sgr{}
		case n == 1:
			a.bold = true
		case n == 2:
			a.faint = true
		case n == 3:
			a.italic = true
		case n == 4:
			a.underline = true
		case n == 7:
			a.inverse = true
		case n == 9:
			a.cross = true
		case n == 22:
			a.bold, a.faint = false, false
		case n == 23:
			a.italic = false
		case n == 24:
			a.underline = false
		case n == 27:
			a.inverse = false
		case n == 29:
			a.cross = false
		case n >= 30 && n <= 37:
			a.fg = n - 30 + 1
		case n == 39:
			a.fg = 0
		case n >= 40 && n <= 47:
			a.bg = n - 40 + 1
		case n == 49:
			a.bg = 0
		case n >= 90 && n <= 97:
			a.fg = n - 90 + 8 + 1
		case n >= 100 && n <= 107:
			a.bg = n - 100 + 8 + 1
		case n == 38 || n == 48:
			c := -1
			switch num(i + 1) {
			case 5:
				c = num(i + 2)
				i += 2
			case 2:
				c = rgb256(num(i+2), num(i+3), num(i+4))
				i += 4
			}
			if c >= 0 && c < 256 {
				if n == 38 {
					a.fg = c + 1
				} else {
					a.bg = c + 1
				}
			}
		}
	}
	return a
}

// rgb256 is the colour of the 256 nearest a 24-bit one (the 6×6×6 cube).
func rgb256(r, g, b int) int {
	if r < 0 || g < 0 || b < 0 || r > 255 || g > 255 || b > 255 {
		return -1
	}
	q := func(v int) int {
		if v < 48 {
			return 0
		}
		return min(5, (v-35)/40)
	}
	return 16 + 36*q(r) + 6*q(g) + q(b)
}

// renderer writes text as HTML, carrying the colours from one part of an
// output to the next.
type renderer struct {
	b    strings.Builder
	cur  sgr
	open bool
	// plain: no colours; an escape sequence is shown by its code too
	// (a command line, a directory, a variable's value).
	plain bool
}

func (w *renderer) setState(a sgr) {
	if a == w.cur {
		return
	}
	if w.open {
		w.b.WriteString("</span>")
		w.open = false
	}
	w.cur = a
	if c := a.classes(); c != "" {
		w.b.WriteString(`<span class="`)
		w.b.WriteString(c)
		w.b.WriteString(`">`)
		w.open = true
	}
}

// escaped writes a character shown by its code, in a span of its own.
func (w *renderer) escaped(code string) {
	w.b.WriteString(`<span class="esc">`)
	w.b.WriteString(code)
	w.b.WriteString(`</span>`)
}

// write renders s (a part of an output, which starts in the state w
// ended the last part in).
func (w *renderer) write(s string) {
	if w.cur.classes() != "" && !w.open {
		st := w.cur
		w.cur = sgr{}
		w.setState(st)
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == 0x1b:
			n, params, final := csi(s[i:])
			if w.plain {
				n = 0
			}
			switch {
			case final == 'm' && !w.plain:
				w.setState(w.cur.apply(params))
			case n == 0: // a lone ESC
				w.escaped(`\e`)
				n = 1
			default: // any other sequence is shown, not acted on
				w.escaped(template.HTMLEscapeString(sanitize.Line(s[i : i+n])))
			}
			i += n
			continue
		case c == '&':
			w.b.WriteString("&amp;")
		case c == '<':
			w.b.WriteString("&lt;")
		case c == '>':
			w.b.WriteString("&gt;")
		case c == '"':
			w.b.WriteString("&#34;")
		case c == '\'':
			w.b.WriteString("&#39;")
		case c == '\n' || c == '\t':
			w.b.WriteByte(c)
		case c < 0x20 || c == 0x7f:
			w.escaped(fmt.Sprintf(`\x%02x`, c))
		case c < utf8.RuneSelf:
			w.b.WriteByte(c)
		default:
			r, n := utf8.DecodeRuneInString(s[i:])
			switch {
			case r == utf8.RuneError && n <= 1:
				w.escaped(fmt.Sprintf(`\x%02x`, c))
			case r >= 0x80 && r <= 0x9f:
				w.escaped(fmt.Sprintf(`\u%04x`, r))
			case sanitize.Hidden(r):
				w.escaped(fmt.Sprintf(`\u%04x`, r))
			default:
				w.b.WriteString(s[i : i+n])
			}
			i += n
			continue
		}
		i++
	}
}

// html ends the open span and returns what was written, which the
// renderer escaped itself.
func (w *renderer) html() template.HTML {
	if w.open {
		w.b.WriteString("</span>")
		w.open = false
	}
	out := template.HTML(w.b.String()) // escaped by write
	w.b.Reset()
	return out
}

// csi returns the length of the escape sequence at the start of s, and for
// a CSI sequence its parameters and final byte; 0 when s starts no
// complete sequence.
func csi(s string) (n int, params string, final byte) {
	if len(s) < 2 {
		return 0, "", 0
	}
	switch s[1] {
	case '[':
		for i := 2; i < len(s); i++ {
			c := s[i]
			if c >= 0x40 && c <= 0x7e {
				return i + 1, s[2:i], c
			}
			if c < 0x20 || c > 0x7e {
				return 0, "", 0
			}
		}
	case ']', 'P', '_', '^', 'X':
		for i := 2; i < len(s); i++ {
			if s[i] == 0x07 {
				return i + 1, "", 0
			}
			if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\' {
				return i + 2, "", 0
			}
		}
	default:
		if s[1] >= 0x20 && s[1] <= 0x7e {
			return 2, "", 0
		}
	}
	return 0, "", 0
}

// Render renders a whole text (an output, a command line) as HTML
// with its colours, every character escaped or shown by its code.
func Render(s string) template.HTML {
	var w renderer
	w.write(s)
	return w.html()
}

// Inert renders text that has no colours (a command line, a directory,
// a line of a diff): every character escaped, every control and
// invisible character shown by its code.
func Inert(s string) template.HTML {
	w := renderer{plain: true}
	w.write(s)
	return w.html()
}

// PartSize is how much of an output one part holds (Parts): a page paints
// the first at once, the next ones as the reader scrolls.
const PartSize = 64 << 10

// Parts cuts text into parts of about PartSize bytes, at line ends where
// there is one, and returns their starts.
func Parts(text string) []int {
	starts := []int{0}
	for at := 0; len(text)-at > PartSize; {
		end := at + PartSize
		if nl := strings.LastIndexByte(text[at:end], '\n'); nl > 0 {
			end = at + nl + 1
		} else {
			for end < len(text) && !utf8.RuneStart(text[end]) {
				end++
			}
		}
		starts = append(starts, end)
		at = end
	}
	return starts
}

// RenderPart renders part n of text (as Parts cut it), starting in the
// colours the text before it left.
func RenderPart(text string, starts []int, n int) template.HTML {
	var w renderer
	from, to := starts[n], len(text)
	if n+1 < len(starts) {
		to = starts[n+1]
	}
	// The state the text before left: only its SGR sequences matter.
	for i := 0; i < from; {
		j := strings.IndexByte(text[i:from], 0x1b)
		if j < 0 {
			break
		}
		k, params, final := csi(text[i+j : from])
		if final == 'm' {
			w.cur = w.cur.apply(params)
		}
		i += j + max(k, 1)
	}
	w.write(text[from:to])
	return w.html()
}

// The palette: the sixteen colours, the 6×6×6 cube and the greys of the
// 256.
var base16 = [16]string{"#000000", "#cd3131", "#0dbc79", "#b5a000", "#2472c8", "#bc3fbc", "#11a8cd", "#b0b0b0",
	"#666666", "#f14c4c", "#23d18b", "#d5c000", "#3b8eea", "#d670d6", "#29b8db", "#e5e5e5"}

// Stylesheet is the CSS of the classes Render writes: fN and bN (colour N
// of 256 as text and background), bo, fa, it, un, in, st (bold, faint,
// italic, underline, inverse, struck) and esc (a character shown by its
// code).
func Stylesheet() string {
	var b strings.Builder
	b.WriteString(".bo{font-weight:bold}.fa{opacity:.7}.it{font-style:italic}.un{text-decoration:underline}" +
		".st{text-decoration:line-through}.in{filter:invert(100%)}\n" +
		".esc{color:#111;background:#ffb300;border-radius:2px;font-size:smaller;padding:0 1px}\n")
	levels := [6]int{0, 95, 135, 175, 215, 255}
	for i := 0; i < 256; i++ {
		var c string
		switch {
		case i < 16:
			c = base16[i]
		case i < 232:
			n := i - 16
			c = fmt.Sprintf("#%02x%02x%02x", levels[n/36], levels[n/6%6], levels[n%6])
		default:
			v := 8 + 10*(i-232)
			c = fmt.Sprintf("#%02x%02x%02x", v, v, v)
		}
		fmt.Fprintf(&b, ".f%d{color:%s}.b%d{background:%s}\n", i, c, i, c)
	}
	return b.String()
}
