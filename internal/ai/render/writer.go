package render

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/muesli/termenv"

	"github.com/hookd/hookd/internal/sanitize"
)

// Options says how a Writer prints.
type Options struct {
	// Width is the terminal's width in columns, the wrap width (80 when 0).
	Width int
	// Height is the terminal's height in rows (24 when 0). A block of the
	// answer is redrawn in place only while it fits: a taller one is
	// rendered in parts.
	Height int
	// Style is "plain" (output piped, NO_COLOR, --raw: the Markdown as it
	// is, sanitized, with no escape sequence at all), "dark" (the default)
	// or "light" (colours for a dark or a light background).
	Style string
	// Profile is the colours the terminal shows (termenv.TrueColor, the
	// zero value, termenv.ANSI256, termenv.ANSI or termenv.Ascii).
	Profile termenv.Profile
	// Reasoning is "dim" (the default: the model's reasoning is shown
	// dimmed, before the answer) or "hide".
	Reasoning string
}

// Fixed sequences: the only escape sequences a Writer makes itself.
const (
	sgrDim    = "\x1b[2m"
	sgrNormal = "\x1b[22m"
	sgrReset  = "\x1b[0m"
	eraseDown = "\x1b[J"
)

func cursorUp(n int) string { return fmt.Sprintf("\x1b[%dA", n) }

// A Writer prints an answer as it streams, safely: whatever the model
// wrote is sanitized (package sanitize) before it reaches the terminal or
// the Markdown parser, and only the Writer's own sequences (colours,
// cursor up, erase below) are printed.
//
// Each piece of text is printed at once, as it came (inside a fenced code
// block, dimmed). When a line of the answer is complete, the block it
// belongs to (the lines since the last blank line) is drawn again in its
// place, rendered: headings, lists, emphasis, links, quotes and tables as
// they complete; a fenced code block is rendered (one colour, its language
// as a label) when it closes. In the plain style the text is printed as it
// comes and nothing is redrawn.
//
// A Writer is not safe for concurrent use.
type Writer struct {
	out    io.Writer
	o      Options
	r      *renderer // nil in the plain style
	err    error     // the first error, returned from then on
	buf    []byte    // what one call prints, written at once
	answer decoder
	think  decoder

	answered bool // the answer has begun
	thought  bool // reasoning was printed
	thinkEOL bool // the reasoning printed ends a line
	plainEOL bool // plain: the answer printed ends a line (or is empty)

	// The block being drawn: lines since the last commit. Rows above the
	// commit point are never touched again.
	block  []string // complete lines (sanitized, tabs expanded)
	line   []byte   // the line being received
	rows   int      // terminal rows the block's complete lines take
	x      int      // cursor column on the line being received
	wraps  int      // rows the line being received has wrapped onto
	spill  bool     // the line being received is too tall to redraw: printed as it is
	gap    bool     // a blank line is owed before the next block
	opened bool     // the current block has begun (and its gap is printed)

	fence   fence  // the fenced code block the block is in, if any
	opener  string // the fence's opening line
	chunked bool   // part of the fenced block is committed already
}

// NewWriter returns a Writer that prints to out.
func NewWriter(out io.Writer, o Options) *Writer {
	if o.Width <= 0 {
		o.Width = 80
	}
	if o.Height <= 0 {
		o.Height = 24
	}
	if o.Style == "" {
		o.Style = "dark"
	}
	w := &Writer{out: out, o: o, plainEOL: true}
	switch {
	case o.Reasoning != "" && o.Reasoning != "dim" && o.Reasoning != "hide":
		w.err = fmt.Errorf("render: unknown reasoning display %q (want dim or hide)", o.Reasoning)
	case o.Style == "plain":
	case o.Style == "dark" || o.Style == "light":
		w.r, w.err = newRenderer(o.Style, o.Width, o.Profile)
	default:
		w.err = fmt.Errorf("render: unknown style %q (want plain, dark or light)", o.Style)
	}
	return w
}

// Text prints the next piece of the answer.
func (w *Writer) Text(delta string) error {
	if w.err != nil {
		return w.err
	}
	s := w.answer.feed(delta)
	if s == "" {
		return nil
	}
	w.beginAnswer()
	w.text(s)
	return w.flush()
}

// Reasoning prints the next piece of the model's reasoning, dimmed (in the
// plain style, as it is), or nothing when Options.Reasoning is "hide".
// Reasoning that comes once the answer has begun is not shown: it would
// split the answer.
func (w *Writer) Reasoning(delta string) error {
	if w.err != nil {
		return w.err
	}
	if w.o.Reasoning == "hide" || w.answered {
		return nil
	}
	w.reasoning(w.think.feed(delta))
	return w.flush()
}

// Close prints what is held back (the last line, rendered; the end of a
// code block the model left open) and leaves the cursor at the start of a
// line with the terminal's attributes reset. It does not close the
// underlying writer.
func (w *Writer) Close() error {
	if w.err != nil {
		return w.err
	}
	if w.o.Reasoning != "hide" && !w.answered {
		w.reasoning(w.think.flush())
	}
	if s := w.answer.flush(); s != "" {
		w.beginAnswer()
		w.text(s)
	}
	w.endReasoning()
	switch {
	case w.r == nil:
		if !w.plainEOL {
			w.buf = append(w.buf, '\n')
			w.plainEOL = true
		}
	default:
		if len(w.line) > 0 || w.spill {
			w.endLine()
		}
		if w.fence.open() && len(w.block) > 0 {
			// A code block the model left open.
			w.redraw()
		}
		w.fence = fence{}
		w.commit()
	}
	return w.flush()
}

func (w *Writer) flush() error {
	if len(w.buf) == 0 || w.err != nil {
		w.buf = w.buf[:0]
		return w.err
	}
	_, err := w.out.Write(w.buf)
	w.buf = w.buf[:0]
	if err != nil {
		w.err = fmt.Errorf("write answer: %w", err)
	}
	return w.err
}

func (w *Writer) reasoning(s string) {
	if s == "" {
		return
	}
	w.thought = true
	if w.r != nil {
		w.buf = append(w.buf, sgrDim...)
	}
	w.buf = append(w.buf, s...)
	if w.r != nil {
		w.buf = append(w.buf, sgrNormal...)
	}
	w.thinkEOL = s[len(s)-1] == '\n'
}

// endReasoning ends the reasoning's last line, once, and owes the answer a
// blank line before it.
func (w *Writer) endReasoning() {
	if !w.thought {
		return
	}
	if !w.thinkEOL {
		w.buf = append(w.buf, '\n')
	}
	w.thought = false
	w.gap = true
}

func (w *Writer) beginAnswer() {
	if w.answered {
		return
	}
	w.answered = true
	if w.o.Reasoning != "hide" {
		w.reasoning(w.think.flush())
	}
	w.endReasoning()
	if w.r == nil && w.gap {
		w.buf = append(w.buf, '\n')
		w.gap = false
	}
}

// text prints sanitized answer text.
func (w *Writer) text(s string) {
	if w.r == nil {
		w.buf = append(w.buf, s...)
		w.plainEOL = s[len(s)-1] == '\n'
		return
	}
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			w.raw(s)
			return
		}
		w.raw(s[:i])
		w.endLine()
		s = s[i+1:]
	}
}

// raw prints a piece of the line being received as it is: at once, before
// it can be rendered.
func (w *Writer) raw(s string) {
	if s == "" {
		return
	}
	if !w.opened {
		w.opened = true
		if w.gap {
			w.buf = append(w.buf, '\n')
			w.gap = false
		}
	}
	if strings.IndexByte(s, '\t') >= 0 {
		s = expandTabs(s, utf8.RuneCount(w.line))
	}
	w.line = append(w.line, s...)
	w.print(s)
	if !w.spill && w.rows+w.wraps+1 > w.maxRows() {
		// The block no longer fits on the screen: it is drawn, and left,
		// and the line goes on below it.
		if len(w.block) > 0 {
			w.redraw()
			w.commit()
			w.opened = true
			w.print(string(w.line))
		}
		// A line taller than the screen is left as it is printed.
		w.spill = w.wraps+1 > w.maxRows()
	}
}

// print prints s, a piece of the line being received, as it is, and moves
// the cursor past it.
func (w *Writer) print(s string) {
	if w.fence.open() {
		w.buf = append(w.buf, sgrDim...)
		w.buf = append(w.buf, s...)
		w.buf = append(w.buf, sgrNormal...)
	} else {
		w.buf = append(w.buf, s...)
	}
	var wraps int
	w.x, wraps = advance(w.x, w.o.Width, s)
	w.wraps += wraps
}

// maxRows is how many rows a block may take and still be redrawn: all of
// it must be on the screen.
func (w *Writer) maxRows() int { return max(w.o.Height-2, 4) }

// endLine handles the end of the line being received.
func (w *Writer) endLine() {
	line := string(w.line)
	w.line = w.line[:0]
	if w.spill {
		w.buf = append(w.buf, '\n')
		w.x, w.wraps, w.spill = 0, 0, false
		if f, ok := openFence(line); ok && !w.fence.open() {
			w.fence, w.opener = f, line
		} else if w.fence.closes(line) {
			w.fence = fence{}
		}
		w.commit()
		return
	}
	switch {
	case w.fence.open():
		w.block = append(w.block, line)
		if w.fence.closes(line) {
			w.fence = fence{}
			w.redraw()
			w.commit()
			w.gap = true
			return
		}
		w.buf = append(w.buf, '\n')
		w.rows += 1 + w.wraps
		w.x, w.wraps = 0, 0
		if w.rows+1 > w.maxRows() {
			w.redraw()
			w.commit()
		}
	case strings.TrimSpace(line) == "":
		// A blank line ends the block.
		w.erase(w.wraps)
		if len(w.block) > 0 {
			w.redraw()
			w.commit()
			w.gap = true
		} else if w.opened {
			w.opened = false
		}
	default:
		f, isFence := openFence(line)
		w.block = append(w.block, line)
		if isFence {
			// Shown dimmed, like the code to come, until it closes.
			w.fence, w.opener = f, line
			w.erase(w.wraps)
			w.buf = append(w.buf, sgrDim...)
			w.buf = append(w.buf, line...)
			w.buf = append(w.buf, sgrNormal...)
			w.buf = append(w.buf, '\n')
			_, wraps := advance(0, w.o.Width, line)
			w.rows += 1 + wraps
			return
		}
		w.redraw()
		if w.rows+1 > w.maxRows() {
			w.commit()
		}
	}
}

// erase moves the cursor up n rows, to the first column, and clears the
// screen below.
func (w *Writer) erase(n int) {
	w.buf = append(w.buf, '\r')
	if n > 0 {
		w.buf = append(w.buf, cursorUp(n)...)
	}
	w.buf = append(w.buf, eraseDown...)
	w.x, w.wraps = 0, 0
}

// redraw replaces the block on the screen with its rendering.
func (w *Writer) redraw() {
	var src strings.Builder
	if w.chunked {
		src.WriteString(w.opener)
		src.WriteByte('\n')
	}
	for _, l := range w.block {
		src.WriteString(l)
		src.WriteByte('\n')
	}
	if w.fence.open() {
		src.WriteString(w.fence.closer())
		src.WriteByte('\n')
	}
	// What came with this piece shows before the rendering.
	w.flush()
	lines, err := w.r.render(src.String(), !w.chunked)
	if err != nil {
		// Keep the text as it came, and say why once it is printed.
		w.err = err
		lines = w.block
	}
	w.erase(w.rows + w.wraps)
	w.rows = 0
	for _, l := range lines {
		w.buf = append(w.buf, l...)
		w.buf = append(w.buf, '\n')
		w.rows += rows(l, w.o.Width)
	}
}

// commit leaves what is drawn as it is: the next block starts below it.
// Within a fenced code block, the next part is rendered as code too.
func (w *Writer) commit() {
	w.block = w.block[:0]
	w.rows = 0
	w.opened = false
	w.chunked = w.fence.open()
}

// expandTabs replaces the tabs of s with spaces, to the next multiple of 4
// columns (Markdown's tab stop) from col, the column s starts at.
func expandTabs(s string, col int) string {
	var b strings.Builder
	for _, r := range s {
		if r == '\t' {
			n := 4 - col%4
			b.WriteString("    "[:n])
			col += n
			continue
		}
		b.WriteRune(r)
		col++
	}
	return b.String()
}

// decoder sanitizes a stream given in pieces: it holds back the end of a
// piece that may be the start of a UTF-8 sequence or of a CR LF pair, so
// that the result does not depend on where the stream was cut.
type decoder struct{ held string }

func (d *decoder) feed(delta string) string {
	s := delta
	if d.held != "" {
		s = d.held + delta
	}
	cut := len(s) - incompleteTail(s)
	if cut > 0 && s[cut-1] == '\r' {
		cut--
	}
	d.held = s[cut:]
	return clean(s[:cut])
}

func (d *decoder) flush() string {
	s := d.held
	d.held = ""
	return clean(s)
}

// clean sanitizes s, a line ending CR LF counting as a newline.
func clean(s string) string {
	if strings.IndexByte(s, '\r') >= 0 {
		s = strings.ReplaceAll(s, "\r\n", "\n")
	}
	return sanitize.Text(s)
}

// incompleteTail returns the length of the end of s that begins a UTF-8
// sequence more bytes would complete.
func incompleteTail(s string) int {
	for i := len(s) - 1; i >= 0 && i >= len(s)-utf8.UTFMax+1; i-- {
		c := s[i]
		if c < utf8.RuneSelf {
			return 0
		}
		if utf8.RuneStart(c) {
			if utf8.FullRuneInString(s[i:]) {
				return 0
			}
			return len(s) - i
		}
	}
	return 0
}
