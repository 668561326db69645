package render

import (
	"bytes"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// GitHub's tables, strikethrough and task list items, parsed here for
// goldmark's parser into the nodes of goldmark's extension/ast package.
// goldmark's extension package parses them too, but linking it runs its
// package variables in every hookd command (Linkify's regular expressions
// among them, which hookd does not use): 264 KB in 2,049 allocations and
// about 1.3 ms of CPU before main, for the shells' hooks and the agents'
// as much as for hookd ask (docs/benchmarks.md §34).

// newParser is goldmark's CommonMark parser, with GitHub's tables,
// strikethrough and task list items when gfm.
func newParser(gfm bool) parser.Parser {
	opts := []parser.Option{
		parser.WithBlockParsers(parser.DefaultBlockParsers()...),
		parser.WithInlineParsers(parser.DefaultInlineParsers()...),
		parser.WithParagraphTransformers(parser.DefaultParagraphTransformers()...),
	}
	if gfm {
		opts = append(opts,
			parser.WithParagraphTransformers(util.Prioritized(tableTransformer{}, 200)),
			parser.WithInlineParsers(util.Prioritized(strikeParser{}, 500), util.Prioritized(taskParser{}, 0)),
			parser.WithASTTransformers(util.Prioritized(cellPipes{}, 0)))
	}
	return parser.NewParser(opts...)
}

// strikeParser reads ~text~ and ~~text~~ (not three or more tildes).
type strikeParser struct{}

func (strikeParser) Trigger() []byte { return []byte{'~'} }

func (strikeParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	before := block.PrecendingCharacter()
	line, seg := block.PeekLine()
	d := parser.ScanDelimiter(line, before, 1, strikeDelims{})
	if d == nil || d.OriginalLength > 2 || before == '~' {
		return nil
	}
	d.Segment = seg.WithStop(seg.Start + d.OriginalLength)
	block.Advance(d.OriginalLength)
	pc.PushDelimiter(d)
	return d
}

// strikeDelims pairs tildes into east.Strikethrough nodes.
type strikeDelims struct{}

func (strikeDelims) IsDelimiter(b byte) bool                   { return b == '~' }
func (strikeDelims) CanOpenCloser(o, c *parser.Delimiter) bool { return o.Char == c.Char }
func (strikeDelims) OnMatch(int) ast.Node                      { return east.NewStrikethrough() }

// taskParser reads "[ ]" or "[x]" and the spaces after it at the start of
// a list item's first block.
type taskParser struct{}

func (taskParser) Trigger() []byte { return []byte{'['} }

func (taskParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	if parent.HasChildren() || parent.Parent() == nil {
		return nil
	}
	if item, ok := parent.Parent().(*ast.ListItem); !ok || item.FirstChild() != parent {
		return nil
	}
	line, _ := block.PeekLine()
	if len(line) < 3 || line[0] != '[' || line[2] != ']' {
		return nil
	}
	checked := false
	switch line[1] {
	case ' ', '\t':
	case 'x', 'X':
		checked = true
	default:
		return nil
	}
	n := 3
	for n < len(line) && isSpace(line[n]) {
		n++
	}
	block.Advance(n)
	return east.NewTaskCheckBox(checked)
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

// tableTransformer turns a paragraph holding a header row, a delimiter row
// (|---|:-:|--:|) with at least as many cells, and body rows into a table;
// lines before the header stay a paragraph.
type tableTransformer struct{}

func (tableTransformer) Transform(node *ast.Paragraph, reader text.Reader, pc parser.Context) {
	lines := node.Lines()
	src := reader.Source()
	for i := 1; i < lines.Len(); i++ {
		aligns := delimiterRow(src, lines.At(i))
		if aligns == nil {
			continue
		}
		head := cells(src, lines.At(i-1))
		if len(head) > len(aligns) {
			return // as goldmark's extension: a shorter header is padded
		}
		table := east.NewTable()
		table.Alignments = aligns
		table.AppendChild(table, east.NewTableHeader(tableRow(head, aligns)))
		for j := i + 1; j < lines.Len(); j++ {
			table.AppendChild(table, tableRow(cells(src, lines.At(j)), aligns))
		}
		parent := node.Parent()
		if i == 1 {
			parent.ReplaceChild(parent, node, table)
			return
		}
		keep := text.NewSegments()
		for k := range i - 1 {
			l := lines.At(k)
			if k == i-2 && l.Stop > l.Start && src[l.Stop-1] == '\n' {
				// The paragraph's last line ends there: a backslash
				// before its newline is text, not a line break.
				l.Stop--
			}
			keep.Append(l)
		}
		node.SetLines(keep)
		parent.InsertAfter(parent, node, table)
		return
	}
}

// tableRow is a row of len(aligns) cells, the missing ones empty, those
// beyond left out (as GitHub does).
func tableRow(cs []text.Segment, aligns []east.Alignment) *east.TableRow {
	r := east.NewTableRow(aligns)
	for k, a := range aligns {
		c := east.NewTableCell()
		c.Alignment = a
		if k < len(cs) {
			c.Lines().Append(cs[k])
		}
		r.AppendChild(r, c)
	}
	return r
}

// cells splits a row's line at its pipes (not one right after a
// backslash, which is the cell's, except the row's last), without the
// outer ones, each cell without the spaces around it.
func cells(src []byte, seg text.Segment) []text.Segment {
	b := src[seg.Start:seg.Stop]
	end := len(b)
	for end > 0 && isSpace(b[end-1]) {
		end--
	}
	start := 0
	for start < end && isSpace(b[start]) {
		start++
	}
	if start < end && b[start] == '|' {
		start++
	}
	// The last pipe ends the row even after a backslash (as goldmark's
	// extension has it: the backslash is then the cell's text).
	if end > start && b[end-1] == '|' {
		end--
	}
	var out []text.Segment
	from := start
	for i := start; i <= end; i++ {
		if i < end && (b[i] != '|' || i > 0 && b[i-1] == '\\') {
			continue
		}
		if i == end && from == end {
			break // nothing after the last pipe: no cell
		}
		l, r := from, i
		for l < r && isSpace(b[l]) {
			l++
		}
		for r > l && isSpace(b[r-1]) {
			r--
		}
		out = append(out, text.NewSegment(seg.Start+l, seg.Start+r))
		from = i + 1
	}
	return out
}

// delimiterRow returns the columns' alignments a delimiter row gives, or
// nil when seg is not one (each cell :?-+:?, indented less than four
// columns).
func delimiterRow(src []byte, seg text.Segment) []east.Alignment {
	// Indented four columns or more, it is not one.
	col := 0
	for _, c := range src[seg.Start:seg.Stop] {
		if c == ' ' {
			col++
		} else if c == '\t' {
			col += 4 - col%4
		} else {
			break
		}
	}
	if col > 3 {
		return nil
	}
	// Every pipe splits (a backslash makes no cell valid); blank ends
	// before the first and after the last pipe are no cells.
	cols := bytes.Split(src[seg.Start:seg.Stop], []byte{'|'})
	if len(cols) > 0 && len(bytes.TrimSpace(cols[0])) == 0 {
		cols = cols[1:]
	}
	if len(cols) > 0 && len(bytes.TrimSpace(cols[len(cols)-1])) == 0 {
		cols = cols[:len(cols)-1]
	}
	if len(cols) == 0 {
		return nil
	}
	var aligns []east.Alignment
	for _, c := range cols {
		v := bytes.TrimSpace(c)
		left := len(v) > 0 && v[0] == ':'
		right := len(v) > 1 && v[len(v)-1] == ':'
		dashes := v
		if left {
			dashes = dashes[1:]
		}
		if right {
			dashes = dashes[:len(dashes)-1]
		}
		if len(dashes) == 0 {
			return nil
		}
		for _, d := range dashes {
			if d != '-' {
				return nil
			}
		}
		switch {
		case left && right:
			aligns = append(aligns, east.AlignCenter)
		case left:
			aligns = append(aligns, east.AlignLeft)
		case right:
			aligns = append(aligns, east.AlignRight)
		default:
			aligns = append(aligns, east.AlignNone)
		}
	}
	return aligns
}

// cellPipes makes \| in a table cell's code span a plain |, as GitHub
// does (elsewhere in a cell the backslash escapes the pipe already): the
// backslash is cut out of the span's text.
type cellPipes struct{}

func (cellPipes) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	src := reader.Source()
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if _, ok := n.(*ast.CodeSpan); !entering || !ok || !inCell(n) {
			return ast.WalkContinue, nil
		}
		for c := n.FirstChild(); c != nil; {
			next := c.NextSibling()
			if t, ok := c.(*ast.Text); ok {
				splitPipes(n, t, src)
			}
			c = next
		}
		return ast.WalkSkipChildren, nil
	})
}

func inCell(n ast.Node) bool {
	for p := n.Parent(); p != nil; p = p.Parent() {
		if _, ok := p.(*east.TableCell); ok {
			return true
		}
	}
	return false
}

// splitPipes replaces t, a child of span, with texts that leave out the
// backslash of each \| it holds.
func splitPipes(span ast.Node, t *ast.Text, src []byte) {
	seg := t.Segment
	at := seg.Start
	for i := seg.Start; i+1 < seg.Stop; i++ {
		if src[i] != '\\' || src[i+1] != '|' {
			continue
		}
		if i > at {
			span.InsertBefore(span, t, ast.NewTextSegment(text.NewSegment(at, i)))
		}
		at = i + 1
		i++
	}
	if at == seg.Start {
		return
	}
	t.Segment = text.NewSegment(at, seg.Stop)
}
