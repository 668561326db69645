package render

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/muesli/termenv"
	"github.com/rivo/uniseg"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"

	"github.com/hookd/hookd/internal/sanitize"
)

// palette is the colours of a style, as #rrggbb, converted to the
// terminal's profile when they are printed.
type palette struct {
	text    string // paragraphs, list markers, table cells
	heading string
	code    string // code spans and code blocks
	codeBg  string
	label   string // a code block's language
	link    string // a link's text
	url     string
	quote   string // a block quote's bar
	rule    string // thematic breaks, table borders
}

var palettes = map[string]palette{
	"dark": {
		text: "#d0d0d0", heading: "#5fafff", code: "#ff8787", codeBg: "#303030",
		label: "#8a8a8a", link: "#00af87", url: "#5f87af", quote: "#808080", rule: "#585858",
	},
	"light": {
		text: "#262626", heading: "#005fd7", code: "#d70000", codeBg: "#e4e4e4",
		label: "#6c6c6c", link: "#008700", url: "#005f87", quote: "#8a8a8a", rule: "#bcbcbc",
	},
}

// attr is a set of SGR attributes.
type attr uint8

const (
	bold attr = 1 << iota
	italic
	underline
	strike
)

// style is how a piece of rendered text looks; the zero style is the
// terminal's own.
type style struct {
	attrs  attr
	fg, bg string // colours of the palette, or ""
}

// renderer turns a block of sanitized Markdown into terminal lines: goldmark
// parses it, and the AST is laid out here (markdown.go). What comes out
// holds no escape sequence but the renderer's own colours.
type renderer struct {
	md      parser.Parser
	width   int
	pal     palette
	profile termenv.Profile
	seqs    map[style]string // SGR sequences made so far
}

func newRenderer(name string, width int, profile termenv.Profile) (*renderer, error) {
	pal, ok := palettes[name]
	if !ok {
		return nil, fmt.Errorf("render: unknown style %q (want plain, dark or light)", name)
	}
	return &renderer{md: newParser(true), width: width, pal: pal, profile: profile, seqs: map[style]string{}}, nil
}

// margin is the blank columns left on each side of the rendering.
func (r *renderer) margin() int {
	if r.width < 24 {
		return 0
	}
	return 2
}

// render returns the lines of src (sanitized Markdown), without blank lines
// before or after, each line safe to print: only SGR sequences, none of
// them from src. With label false, a fenced code block src begins with
// does not show its language: src is the continuation of a block whose
// first part showed it.
func (r *renderer) render(src string, label bool) (lines []string, err error) {
	defer func() {
		if p := recover(); p != nil {
			lines, err = nil, fmt.Errorf("render answer: %v", p)
		}
	}()
	if strings.IndexByte(src, '\t') >= 0 {
		// The Writer expands tabs as lines come; a tab would take columns
		// the layout does not count.
		ls := strings.Split(src, "\n")
		for i, l := range ls {
			ls[i] = expandTabs(l, 0)
		}
		src = strings.Join(ls, "\n")
	}
	b := []byte(src)
	doc := r.md.Parse(text.NewReader(b))
	wk := &walk{r: r, src: b, label: label, ascii: r.profile == termenv.Ascii}
	m := r.margin()
	laid := wk.blocks(doc, max(r.width-2*m, 1), false)
	for len(laid) > 0 && len(laid[0]) == 0 {
		laid = laid[1:]
	}
	for len(laid) > 0 && len(laid[len(laid)-1]) == 0 {
		laid = laid[:len(laid)-1]
	}
	indent := strings.Repeat(" ", m)
	lines = make([]string, len(laid))
	for i, l := range laid {
		if len(l) > 0 {
			lines[i] = filterRendered(indent + r.line(l))
		}
	}
	return lines, nil
}

// line returns the text of l with the SGR sequences of its styles, its
// trailing blank unstyled end dropped: a line does not wrap if the
// terminal has become narrower.
func (r *renderer) line(l line) string {
	for len(l) > 0 {
		p := &l[len(l)-1]
		if p.st.bg != "" || p.st.attrs&(underline|strike) != 0 {
			break
		}
		t := strings.TrimRight(p.text, " ")
		if t != "" {
			l = append(l[:len(l)-1:len(l)-1], piece{text: t, st: p.st})
			break
		}
		l = l[:len(l)-1]
	}
	var b strings.Builder
	cur := ""
	for _, p := range l {
		if p.text == "" {
			continue
		}
		if s := r.seq(p.st); s != cur {
			if cur != "" {
				b.WriteString(sgrReset)
			}
			b.WriteString(s)
			cur = s
		}
		b.WriteString(p.text)
	}
	if cur != "" {
		b.WriteString(sgrReset)
	}
	return b.String()
}

// seq returns the SGR sequence that sets st, or "" for the terminal's own
// style, or on a terminal without colours (termenv.Ascii).
func (r *renderer) seq(st style) string {
	if st == (style{}) || r.profile == termenv.Ascii {
		return ""
	}
	if s, ok := r.seqs[st]; ok {
		return s
	}
	var codes []string
	for _, a := range []struct {
		a    attr
		code string
	}{{bold, "1"}, {italic, "3"}, {underline, "4"}, {strike, "9"}} {
		if st.attrs&a.a != 0 {
			codes = append(codes, a.code)
		}
	}
	if st.fg != "" {
		if c := r.profile.Color(st.fg); c != nil && c.Sequence(false) != "" {
			codes = append(codes, c.Sequence(false))
		}
	}
	if st.bg != "" {
		if c := r.profile.Color(st.bg); c != nil && c.Sequence(true) != "" {
			codes = append(codes, c.Sequence(true))
		}
	}
	s := ""
	if len(codes) > 0 {
		s = "\x1b[" + strings.Join(codes, ";") + "m"
	}
	r.seqs[st] = s
	return s
}

func safeRune(r rune) bool {
	return r >= 0x20 && r != 0x7f && (r < 0x80 || r >= 0xa0) && utf8.ValidRune(r) && !sanitize.Hidden(r)
}

// sgrLen returns the length of the SGR sequence (ESC [ params m) s begins
// with, or 0.
func sgrLen(s string) int {
	if len(s) < 3 || s[0] != 0x1b || s[1] != '[' {
		return 0
	}
	for i := 2; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9', c == ';', c == ':':
		case c == 'm':
			return i + 1
		default:
			return 0
		}
	}
	return 0
}

// filterRendered keeps the SGR sequences of a rendered line and passes
// everything between them through sanitize.Text, so that no other escape
// sequence, control or hidden character can reach the terminal, whatever
// the renderer makes of the text: a last check, as the text it is given is
// sanitized already.
func filterRendered(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	start := 0
	for i := 0; i < len(s); {
		if n := sgrLen(s[i:]); n > 0 {
			b.WriteString(sanitize.Text(s[start:i]))
			b.WriteString(s[i : i+n])
			i += n
			start = i
			continue
		}
		i++
	}
	b.WriteString(sanitize.Text(s[start:]))
	return strings.ReplaceAll(b.String(), "\t", "    ")
}

// stripSGR returns s without its SGR sequences.
func stripSGR(s string) string {
	if !strings.Contains(s, "\x1b") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if n := sgrLen(s[i:]); n > 0 {
			i += n
			continue
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// strWidth returns the columns s takes on a terminal.
func strWidth(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf || s[i] < 0x20 {
			return uniseg.StringWidth(s)
		}
	}
	return len(s)
}

// advance moves a cursor at column x of a terminal width columns wide past
// text (no control characters but tabs), and returns the new column and how
// many times the text wrapped onto a new row. A terminal that reaches the
// last column wraps only when the next character comes.
func advance(x, width int, text string) (int, int) {
	wraps := 0
	state := -1
	for text != "" {
		var cluster string
		var w int
		cluster, text, w, state = uniseg.FirstGraphemeClusterInString(text, state)
		if cluster == "\t" {
			w = 8 - x%8
			if x+w > width {
				w = width - x
			}
		}
		if w > 0 && x+w > width {
			wraps++
			x = 0
		}
		x += w
	}
	return x, wraps
}

// rows returns how many terminal rows a rendered line takes.
func rows(line string, width int) int {
	_, wraps := advance(0, width, stripSGR(line))
	return 1 + wraps
}
