package render

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/rivo/uniseg"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/util"

	"github.com/hookd/hookd/internal/sanitize"
)

// piece is a run of text in one style, or a hard line break.
type piece struct {
	text string
	st   style
	brk  bool
}

// line is a laid-out line: pieces no wider together than the width they
// were laid out for. A blank line is empty.
type line []piece

func (l line) width() int {
	w := 0
	for _, p := range l {
		w += strWidth(p.text)
	}
	return w
}

// walk lays out the AST goldmark makes of a block of the answer.
type walk struct {
	r     *renderer
	src   []byte
	label bool // a fenced code block shows its language
	ascii bool // the terminal shows no styles: inline markers stay
}

func (w *walk) base() style { return style{fg: w.r.pal.text} }

// blocks lays out the blocks in parent, a blank line between two, in
// width columns. In a tight list item (tight), they follow each other.
func (w *walk) blocks(parent ast.Node, width int, tight bool) []line {
	var out []line
	for n := parent.FirstChild(); n != nil; n = n.NextSibling() {
		ls := w.block(n, width)
		if len(ls) == 0 {
			continue
		}
		if len(out) > 0 && !tight {
			out = append(out, nil)
		}
		out = append(out, ls...)
	}
	return out
}

func (w *walk) block(n ast.Node, width int) []line {
	pal := &w.r.pal
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		return wrap(w.inline(n, w.base(), nil), width)
	case *ast.Heading:
		// A terminal has one size of text: the marker says the level.
		st := style{attrs: bold, fg: pal.heading}
		ps := []piece{{text: strings.Repeat("#", n.Level) + " ", st: st}}
		return wrap(w.inline(n, st, ps), width)
	case *ast.ThematicBreak:
		return []line{{{text: strings.Repeat("─", width), st: style{fg: pal.rule}}}}
	case *ast.FencedCodeBlock:
		lang := ""
		if w.label {
			lang = decodeText(n.Language(w.src))
		}
		return w.code(n, lang, width)
	case *ast.CodeBlock:
		return w.code(n, "", width)
	case *ast.Blockquote:
		bar := piece{text: "│ ", st: style{fg: pal.quote}}
		inner := w.blocks(n, max(width-2, 1), false)
		if len(inner) == 0 {
			inner = []line{nil}
		}
		for i, l := range inner {
			inner[i] = append(line{bar}, l...)
		}
		return inner
	case *ast.List:
		return w.list(n, width)
	case *east.Table:
		return w.table(n, width)
	case *ast.HTMLBlock:
		// Shown as it is written.
		var out []line
		for _, l := range w.rawLines(n) {
			out = append(out, wrap([]piece{{text: l, st: w.base()}}, width)...)
		}
		if n.HasClosure() {
			l := strings.TrimRight(string(n.ClosureLine.Value(w.src)), "\n")
			out = append(out, wrap([]piece{{text: l, st: w.base()}}, width)...)
		}
		return out
	}
	if n.Type() == ast.TypeBlock && n.FirstChild() != nil && n.FirstChild().Type() == ast.TypeInline {
		return wrap(w.inline(n, w.base(), nil), width)
	}
	return w.blocks(n, width, false)
}

// rawLines returns the lines of a block as they are written.
func (w *walk) rawLines(n ast.Node) []string {
	var out []string
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		out = append(out, strings.TrimRight(string(seg.Value(w.src)), "\n"))
	}
	return out
}

// list lays out a list: each item's marker, and its blocks indented past
// the marker.
func (w *walk) list(l *ast.List, width int) []line {
	var out []line
	num := l.Start
	for item := l.FirstChild(); item != nil; item = item.NextSibling() {
		marker := "• "
		if l.IsOrdered() {
			marker = strconv.Itoa(num) + string(l.Marker) + " "
			num++
		}
		mw := strWidth(marker)
		inner := w.blocks(item, max(width-mw, 1), l.IsTight)
		if len(inner) == 0 {
			inner = []line{nil}
		}
		if len(out) > 0 && !l.IsTight {
			out = append(out, nil)
		}
		pad := piece{text: strings.Repeat(" ", mw)}
		for i, il := range inner {
			switch {
			case i == 0:
				out = append(out, append(line{{text: marker, st: w.base()}}, il...))
			case len(il) == 0:
				out = append(out, nil)
			default:
				out = append(out, append(line{pad}, il...))
			}
		}
	}
	return out
}

// code lays out a code block: indented, as one coloured block, its
// language (if lang is not "") on its first row. Lines too long for the
// width are cut.
func (w *walk) code(n ast.Node, lang string, width int) []line {
	pal := &w.r.pal
	st := style{fg: pal.code, bg: pal.codeBg}
	rows := w.rawLines(n)
	for len(rows) > 0 && strings.TrimSpace(rows[len(rows)-1]) == "" {
		rows = rows[:len(rows)-1]
	}
	indent := piece{text: "  "}
	inner := max(width-2, 3) // the block's width, with a column of padding on each side
	bw := strWidth(lang) + 2
	var cut [][]piece
	for _, r := range rows {
		for _, l := range wrap([]piece{{text: r, st: st}}, max(inner-2, 1), keepSpaces) {
			cut = append(cut, l)
			bw = max(bw, line(l).width()+2)
		}
	}
	bw = min(bw, inner)
	var out []line
	if lang != "" {
		ls := style{attrs: italic, fg: pal.label, bg: pal.codeBg}
		for _, l := range wrap([]piece{{text: lang, st: ls}}, max(bw-2, 1)) {
			out = append(out, w.codeRow(indent, l, bw, st))
		}
	}
	for _, l := range cut {
		out = append(out, w.codeRow(indent, l, bw, st))
	}
	if len(out) == 0 {
		out = append(out, w.codeRow(indent, nil, bw, st))
	}
	return out
}

// codeRow is a row of a code block bw columns wide.
func (w *walk) codeRow(indent piece, l line, bw int, st style) line {
	row := line{indent, {text: " ", st: st}}
	row = append(row, l...)
	return append(row, piece{text: strings.Repeat(" ", max(bw-1-l.width(), 1)), st: st})
}

// table lays out a table, its columns aligned, narrowed and their cells
// wrapped if it is wider than width.
func (w *walk) table(t *east.Table, width int) []line {
	var rows [][][]piece
	header := false
	ncol := len(t.Alignments)
	for r := t.FirstChild(); r != nil; r = r.NextSibling() {
		st := w.base()
		if _, ok := r.(*east.TableHeader); ok {
			st.attrs |= bold
			header = len(rows) == 0
		}
		var cells [][]piece
		for c := r.FirstChild(); c != nil; c = c.NextSibling() {
			cells = append(cells, w.inline(c, st, nil))
		}
		ncol = max(ncol, len(cells))
		rows = append(rows, cells)
	}
	if ncol == 0 {
		return nil
	}
	cw := make([]int, ncol)
	for _, cells := range rows {
		for i, c := range cells {
			cw[i] = max(cw[i], line(c).width())
		}
	}
	border := style{fg: w.r.pal.rule}
	// Each column has a space on either side, and a border between two.
	avail := width - 3*ncol + 1
	if avail < ncol {
		// Too narrow for the columns: a row a paragraph.
		var out []line
		for _, cells := range rows {
			var ps []piece
			for i, c := range cells {
				if i > 0 {
					ps = append(ps, piece{text: " │ ", st: border})
				}
				ps = append(ps, c...)
			}
			out = append(out, wrap(ps, width)...)
		}
		return out
	}
	for sum(cw) > avail {
		widest := 0
		for i := range cw {
			if cw[i] > cw[widest] {
				widest = i
			}
		}
		cw[widest]--
	}
	var out []line
	for ri, cells := range rows {
		wrapped := make([][]line, ncol)
		height := 1
		for i := range ncol {
			if i < len(cells) {
				wrapped[i] = wrap(cells[i], cw[i])
			}
			height = max(height, len(wrapped[i]))
		}
		for k := range height {
			var l line
			for i := range ncol {
				if i > 0 {
					l = append(l, piece{text: "│", st: border})
				}
				var cl line
				if k < len(wrapped[i]) {
					cl = wrapped[i][k]
				}
				align := east.AlignNone
				if i < len(t.Alignments) {
					align = t.Alignments[i]
				}
				l = append(l, aligned(cl, cw[i], align)...)
			}
			out = append(out, l)
		}
		if ri == 0 && header {
			var l line
			for i := range ncol {
				if i > 0 {
					l = append(l, piece{text: "┼", st: border})
				}
				l = append(l, piece{text: strings.Repeat("─", cw[i]+2), st: border})
			}
			out = append(out, l)
		}
	}
	return out
}

func sum(v []int) int {
	s := 0
	for _, x := range v {
		s += x
	}
	return s
}

// aligned returns a table cell's line padded to width, a space on either
// side.
func aligned(l line, width int, a east.Alignment) line {
	pad := max(width-l.width(), 0)
	left := 0
	switch a {
	case east.AlignRight:
		left = pad
	case east.AlignCenter:
		left = pad / 2
	}
	out := line{{text: strings.Repeat(" ", left+1)}}
	out = append(out, l...)
	return append(out, piece{text: strings.Repeat(" ", pad-left+1)})
}

// inline appends the pieces of the inline content of n to ps.
func (w *walk) inline(n ast.Node, st style, ps []piece) []piece {
	pal := &w.r.pal
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Text:
			v := c.Segment.Value(w.src)
			if c.IsRaw() {
				ps = append(ps, piece{text: string(v), st: st})
			} else {
				ps = append(ps, piece{text: decodeText(v), st: st})
			}
			if c.HardLineBreak() {
				ps = append(ps, piece{brk: true})
			} else if c.SoftLineBreak() {
				ps = append(ps, piece{text: " ", st: st})
			}
		case *ast.String:
			if c.IsCode() || c.IsRaw() {
				ps = append(ps, piece{text: string(c.Value), st: st})
			} else {
				ps = append(ps, piece{text: decodeText(c.Value), st: st})
			}
		case *ast.CodeSpan:
			var b strings.Builder
			for t := c.FirstChild(); t != nil; t = t.NextSibling() {
				switch t := t.(type) {
				case *ast.Text:
					b.Write(t.Segment.Value(w.src))
				case *ast.String:
					b.Write(t.Value)
				}
			}
			code := strings.ReplaceAll(b.String(), "\n", " ")
			if w.ascii {
				code = "`" + code + "`"
			}
			ps = append(ps, piece{text: code, st: style{attrs: st.attrs &^ underline, fg: pal.code, bg: pal.codeBg}})
		case *ast.Emphasis:
			es := st
			if c.Level >= 2 {
				es.attrs |= bold
			} else {
				es.attrs |= italic
			}
			ps = w.marked(c, es, strings.Repeat("*", c.Level), ps)
		case *east.Strikethrough:
			ss := st
			ss.attrs |= strike
			ps = w.marked(c, ss, "~~", ps)
		case *ast.Link:
			ps = w.link(c, c.Destination, st, ps)
		case *ast.Image:
			ps = w.link(c, c.Destination, st, ps)
		case *ast.AutoLink:
			ps = append(ps, piece{text: string(c.Label(w.src)), st: style{attrs: underline, fg: pal.url}})
		case *ast.RawHTML:
			// Shown as it is written.
			for i := 0; i < c.Segments.Len(); i++ {
				seg := c.Segments.At(i)
				ps = append(ps, piece{text: strings.ReplaceAll(string(seg.Value(w.src)), "\n", " "), st: st})
			}
		case *east.TaskCheckBox:
			box := "[ ] "
			if c.IsChecked {
				box = "[x] "
			}
			ps = append(ps, piece{text: box, st: st})
		default:
			ps = w.inline(c, st, ps)
		}
	}
	return ps
}

// marked appends the pieces of n in style st, between Markdown's markers
// on a terminal that shows no styles.
func (w *walk) marked(n ast.Node, st style, marker string, ps []piece) []piece {
	if w.ascii {
		ps = append(ps, piece{text: marker, st: st})
	}
	ps = w.inline(n, st, ps)
	if w.ascii {
		ps = append(ps, piece{text: marker, st: st})
	}
	return ps
}

// link appends a link's text and, unless the text is the address, the
// address in parentheses: as text to read, never a terminal hyperlink
// (OSC 8), which would hide where it leads.
func (w *walk) link(n ast.Node, dest []byte, st style, ps []piece) []piece {
	pal := &w.r.pal
	start := len(ps)
	ls := st
	ls.fg = pal.link
	ls.attrs |= bold
	ps = w.inline(n, ls, ps)
	var label strings.Builder
	for _, p := range ps[start:] {
		label.WriteString(p.text)
	}
	url := decodeText(dest)
	if url == "" || url == label.String() || url == "mailto:"+label.String() {
		return ps
	}
	if label.Len() > 0 {
		ps = append(ps, piece{text: " (", st: st})
	} else {
		ps = append(ps, piece{text: "(", st: st})
	}
	ps = append(ps, piece{text: url, st: style{attrs: underline, fg: pal.url}})
	return append(ps, piece{text: ")", st: st})
}

// keepSpaces is a wrap option: the text is code, cut where the line is
// full, its spaces kept.
const keepSpaces = true

// wrap lays out pieces in lines no wider than width, cut at spaces (which
// are dropped there), a word wider than the width cut between characters
// (grapheme clusters). With keepSpaces, lines are cut where they are full.
func wrap(ps []piece, width int, verbatim ...bool) []line {
	width = max(width, 1)
	var (
		lines       []line
		cur         line
		curW        int
		space, word line
		spaceW      int
		wordW       int
	)
	newline := func() {
		lines = append(lines, cur)
		cur, curW = nil, 0
	}
	// put adds a run of text to the line, cut between clusters where the
	// line is full.
	put := func(p piece) {
		s := p.text
		if isASCII(s) {
			for curW+len(s) > width {
				n := width - curW
				if n > 0 {
					cur = append(cur, piece{text: s[:n], st: p.st})
					s = s[n:]
				}
				newline()
			}
			if s != "" {
				cur = append(cur, piece{text: s, st: p.st})
				curW += len(s)
			}
			return
		}
		state, from := -1, 0
		for i := 0; i < len(s); {
			cluster, _, cw, st := uniseg.FirstGraphemeClusterInString(s[i:], state)
			state = st
			if curW > 0 && curW+cw > width {
				if i > from {
					cur = append(cur, piece{text: s[from:i], st: p.st})
				}
				newline()
				from = i
			}
			curW += cw
			i += len(cluster)
		}
		if from < len(s) {
			cur = append(cur, piece{text: s[from:], st: p.st})
		}
	}
	if len(verbatim) > 0 && verbatim[0] {
		for _, p := range ps {
			if p.brk {
				newline()
			} else {
				put(p)
			}
		}
		return append(lines, cur)
	}
	// flush adds the word read and the spaces before it.
	flush := func() {
		if curW > 0 && curW+spaceW+wordW > width {
			newline()
		}
		if curW > 0 {
			for _, p := range space {
				put(p)
			}
		}
		for _, p := range word {
			put(p)
		}
		space, word, spaceW, wordW = space[:0], word[:0], 0, 0
	}
	for _, p := range ps {
		if p.brk {
			flush()
			newline()
			continue
		}
		s := p.text
		for s != "" {
			i := strings.IndexByte(s, ' ')
			if i < 0 {
				i = len(s)
			}
			if i > 0 {
				word = append(word, piece{text: s[:i], st: p.st})
				wordW += strWidth(s[:i])
			}
			if i == len(s) {
				break
			}
			if len(word) > 0 {
				flush()
			}
			j := i
			for j < len(s) && s[j] == ' ' {
				j++
			}
			space = append(space, piece{text: s[i:j], st: p.st})
			spaceW += j - i
			s = s[j:]
		}
	}
	flush()
	if len(cur) > 0 || len(lines) == 0 {
		lines = append(lines, cur)
	}
	return lines
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf || s[i] < 0x20 {
			return false
		}
	}
	return true
}

// decodeText returns Markdown text as it reads: backslash escapes and
// character references resolved. A numeric reference to a control, hidden
// or invalid character stays as it is written (&#x1b; shows as &#x1b;),
// and what a named reference stands for is sanitized (&zwnj; shows as
// \u200c).
func decodeText(v []byte) string {
	if bytes.IndexByte(v, '\\') < 0 && bytes.IndexByte(v, '&') < 0 {
		return string(v)
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c == '\\' && i+1 < len(v) && util.IsPunct(v[i+1]) {
			b.WriteByte(v[i+1])
			i++
			continue
		}
		if c == '&' {
			if s, n := reference(v[i:]); n > 0 {
				b.WriteString(s)
				i += n - 1
				continue
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// reference returns what the character reference v begins with stands
// for, and its length, or 0 if v begins with none.
func reference(v []byte) (string, int) {
	end := bytes.IndexByte(v, ';')
	if end < 2 || end > 40 {
		return "", 0
	}
	ref := string(v[:end+1])
	name := ref[1:end]
	if name[0] != '#' {
		for i := 0; i < len(name); i++ {
			if !util.IsAlphaNumeric(name[i]) {
				return "", 0
			}
		}
		e, ok := util.LookUpHTML5EntityByName(name)
		if !ok {
			return "", 0
		}
		return sanitize.Line(string(e.Characters)), len(ref)
	}
	digits, base, limit := name[1:], 10, 7
	if digits != "" && (digits[0] == 'x' || digits[0] == 'X') {
		digits, base, limit = digits[1:], 16, 6
	}
	if digits == "" || len(digits) > limit {
		return "", 0
	}
	n, err := strconv.ParseUint(digits, base, 32)
	if err != nil {
		return "", 0
	}
	if n == 0 || !safeRune(rune(n)) {
		return ref, len(ref)
	}
	return string(rune(n)), len(ref)
}
