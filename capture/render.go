package capture

import (
	"strings"
	"unicode/utf8"
)

// FullScreenNote is the text [Render] returns for the output of a
// full-screen program.
const FullScreenNote = "[full-screen program: output not kept]\n"

// WithheldNote is the text kept for the output of a command that printed a
// secret (see [WithholdMark]).
const WithheldNote = "[hookd printed a secret (a recovery phrase): output not kept]\n"

// Render turns the raw bytes one command wrote to its terminal into the
// plain text the user saw. It is total: any input gives valid UTF-8
// containing no control characters other than newline and tab.
//
// What it does with the bytes:
//   - Printable text is written at the cursor, overwriting what is there:
//     a carriage return followed by new text (a progress bar) keeps only
//     the final state of the line, and backspace moves the cursor back.
//     A space written over earlier text erases it (so "\b \b" deletes),
//     and erased cells at the end of a line are trimmed.
//   - Newline (LF, and VT and FF, as on a terminal) starts a new line at
//     column 0, as with the terminal's usual ONLCR translation, so output
//     captured from a pipe renders the same. CRLF gives a plain newline.
//   - A tab moves to the next multiple of 8 and is kept as a tab.
//   - CSI sequences that edit within a line are applied: cursor forward,
//     back and to a column (C, D, G, a, `), erase in line (K 0/1/2),
//     erase, delete and insert characters (X, P, @). Cursor up and down
//     (A, B, E, F, ESC M, ESC D, ESC E), erase below (J 0) and save and
//     restore cursor (ESC 7/8, CSI s/u) act on the last 200 lines, which is
//     enough for the multi-line progress displays of package managers and
//     build tools. Absolute positioning (CUP) and clearing the screen are
//     ignored: text once shown is kept.
//   - All other escape sequences are stripped: SGR colours, other CSI
//     sequences, OSC (titles, hyperlinks, OSC 133 marks), DCS, SOS, PM,
//     APC, charset selection and other two-byte escapes. CAN and SUB
//     cancel a sequence, as on a terminal; BEL, SO and SI are dropped.
//   - Switching to the alternate screen (CSI ?1049h, ?1047h or ?47h) marks
//     the output as a full-screen program's: Render then returns
//     [FullScreenNote] and fullScreen true.
//
// Escaping rule: valid UTF-8 is kept as it is, except control characters.
// Every other byte (invalid UTF-8, C0 controls not listed above, DEL, and
// the bytes of UTF-8-encoded C1 controls U+0080 to U+009F) is shown as
// \xNN with two lower-case hex digits, counting as one column. The escape
// is for showing, not reversible: a literal backslash is not doubled, so
// that plain text comes out unchanged.
//
// Columns are counted one per code point; East Asian wide characters and
// combining marks are not measured, which only matters when a program
// moves the cursor over them.
//
// Render keeps a line model (the last lines and a cursor) rather than a
// full-screen terminal emulator. A VT emulator library was considered and
// not chosen: it needs a screen size and wraps long lines into rows (which
// would then need joining back), keeps a cell grid with attributes for
// every row of scrollback, and must have its replies to terminal queries
// drained; and all of that would serve only full-screen programs, whose
// output hookd does not store. The line model is O(n) in time, and its
// memory is bounded by the output's size plus the padding that cursor
// moves create, which is capped at column 1024.
func Render(raw []byte) (text string, fullScreen bool) {
	return render(raw, false)
}

// RenderRecorded is [Render] for output that reached no terminal: a coding
// agent's command, recorded from what its tool gave. A switch to the
// alternate screen switched nothing there, so it is stripped like any
// other mode change, and the text around it is kept: it is never a reason
// to drop the output.
func RenderRecorded(raw []byte) string {
	text, _ := render(raw, true)
	return text
}

func render(raw []byte, recorded bool) (text string, fullScreen bool) {
	text, _, fullScreen = renderColours(raw, recorded, false)
	return text, fullScreen
}

func renderColours(raw []byte, recorded, colours bool) (text string, cs Colours, fullScreen bool) {
	var r renderer
	r.recorded = recorded
	r.colours = colours
	r.rows = [][]cell{nil}
	r.out.Grow(len(raw) + len(raw)/16)
	if !r.run(raw) {
		return FullScreenNote, nil, true
	}
	// Blank lines below the cursor are where the prompt goes, not output.
	last := len(r.rows) - 1
	for last > r.row && isBlank(r.rows[last]) {
		last--
	}
	for i, line := range r.rows[:last+1] {
		// The last line kept ends in a newline if one followed it.
		r.emit(line, i < last || (last < len(r.rows)-1 && !isBlank(line)))
	}
	return r.out.String(), r.runs, false
}

// A cell is one column of a line: a printable rune with the index of its
// SGR state (see renderer.attrs) in the bits above attrShift, or one of the
// negative values below.
type cell int32

const (
	attrShift = 21 // a rune takes 21 bits
	runeMask  = 1<<attrShift - 1
	maxAttrs  = 1 << (31 - attrShift) // SGR states one output can show; later ones are shown plain
)

const (
	blank   cell = -1 // never written or erased; a space unless trailing
	tabCell cell = -2 // a tab
	tabFill cell = -3 // a column a tab passed over
	// escBase-b is byte b, shown escaped.
	escBase cell = -256
)

const (
	window     = 200  // lines that cursor moves can reach
	maxMoveCol = 1024 // cursor moves go no further right than this, or the line's end
	maxParam   = 1 << 16
)

type renderer struct {
	out      strings.Builder
	rows     [][]cell // the last lines; rows[row] is the cursor's
	free     [][]cell // emitted rows, for reuse
	flushed  int      // lines emitted before rows[0]
	row, col int
	saveRow  int // absolute line of the saved cursor
	saveCol  int
	// recorded: the output reached no terminal (RenderRecorded), so an
	// alternate screen switch is no full-screen program.
	recorded bool

	// The colours, when kept (RenderColoured): the SGR state printable
	// text is written in (attr, an index into attrs shifted by attrShift),
	// the states seen, and the runs emitted so far.
	colours bool
	state   sgrState
	attr    cell
	attrs   []string // each state's SGR parameters
	attrIdx map[sgrState]cell
	runs    Colours
	runAt   int  // the offset of the last run
	runAttr cell // the state the emitted text is in
}

// run renders raw into r; it returns false on a switch to the alternate
// screen.
func (r *renderer) run(raw []byte) bool {
	for i := 0; i < len(raw); {
		b := raw[i]
		switch {
		case b >= 0x20 && b < 0x7f:
			line := r.rows[r.row]
			if r.col == len(line) { // appending: take the whole printable run
				j := i
				for j < len(raw) && raw[j] >= 0x20 && raw[j] < 0x7f {
					line = append(line, cell(raw[j])|r.attr)
					j++
				}
				r.rows[r.row] = line
				r.col = len(line)
				i = j
				continue
			}
			r.put(cell(b))
			i++
		case b == 0x1b:
			var ok bool
			if i, ok = r.escape(raw, i); !ok {
				return false
			}
		case b < 0x20:
			r.control(b)
			i++
		case b == 0x7f:
			r.put(escBase - cell(b))
			i++
		default:
			c, n := utf8.DecodeRune(raw[i:])
			switch {
			case c == utf8.RuneError && n == 1:
				r.put(escBase - cell(b))
			case c < 0xa0: // a C1 control
				for _, x := range raw[i : i+n] {
					r.put(escBase - cell(x))
				}
			default:
				r.put(cell(c))
			}
			i += n
		}
	}
	return true
}

// control applies a C0 control character other than ESC.
func (r *renderer) control(b byte) {
	switch b {
	case '\n', '\v', '\f':
		r.down(1)
		r.col = 0
	case '\r':
		r.col = 0
	case '\b':
		r.col = max(r.col-1, 0)
	case '\t':
		r.tab()
	case 0x07, 0x0e, 0x0f, 0x18, 0x1a: // BEL, SO, SI, CAN, SUB
	default:
		r.put(escBase - cell(b))
	}
}

// put writes c at the cursor and moves the cursor right.
func (r *renderer) put(c cell) {
	line := r.rows[r.row]
	if r.col < len(line) {
		if c == ' ' {
			c = blank
		} else if c >= 0 {
			c |= r.attr
		}
		line[r.col] = c
	} else {
		if c >= 0 {
			c |= r.attr
		}
		for len(line) < r.col {
			line = append(line, blank)
		}
		line = append(line, c)
		r.rows[r.row] = line
	}
	r.col++
}

// tab moves the cursor to the next tab stop, keeping a tab in the line
// when the cursor is at its end.
func (r *renderer) tab() {
	stop := (r.col/8 + 1) * 8
	line := r.rows[r.row]
	if r.col == len(line) {
		line = append(line, tabCell)
		for len(line) < stop {
			line = append(line, tabFill)
		}
		r.rows[r.row] = line
	}
	r.col = stop
}

// down moves the cursor n lines down, adding lines at the bottom.
func (r *renderer) down(n int) {
	for ; n > 0; n-- {
		r.row++
		if r.row < len(r.rows) {
			continue
		}
		var line []cell
		if k := len(r.free); k > 0 {
			line, r.free = r.free[k-1][:0], r.free[:k-1]
		}
		r.rows = append(r.rows, line)
		if len(r.rows) > window {
			r.emit(r.rows[0], true)
			r.free = append(r.free, r.rows[0])
			r.rows[0] = nil
			r.rows = r.rows[1:]
			r.flushed++
			r.row--
		}
	}
}

// moveTo moves the cursor to column c of the current line, no further
// right than the line's end or maxMoveCol.
func (r *renderer) moveTo(c int) {
	r.col = max(min(c, max(len(r.rows[r.row]), maxMoveCol, r.col)), 0)
}

// isBlank reports whether line shows nothing.
func isBlank(line []cell) bool {
	for _, c := range line {
		if c != blank && c != tabFill {
			return false
		}
	}
	return true
}

// emit writes line to the output, without its trailing blanks.
func (r *renderer) emit(line []cell, newline bool) {
	end := len(line)
	for end > 0 && (line[end-1] == blank || line[end-1] == tabFill) {
		end--
	}
	inTab := false
	for _, c := range line[:end] {
		switch {
		case c >= 0:
			if a := c &^ runeMask; a != r.runAttr && r.colours {
				r.run1(a)
			}
			r.out.WriteRune(rune(c & runeMask))
		case c == blank:
			r.out.WriteByte(' ')
		case c == tabCell:
			r.out.WriteByte('\t')
		case c == tabFill:
			if !inTab {
				r.out.WriteByte(' ')
			}
		default:
			const hex = "0123456789abcdef"
			x := byte(escBase - c)
			r.out.Write([]byte{'\\', 'x', hex[x>>4], hex[x&15]})
		}
		inTab = c == tabCell || (c == tabFill && inTab)
	}
	if r.runAttr != 0 { // each line ends in the default state
		r.run1(0)
	}
	if newline {
		r.out.WriteByte('\n')
	}
}

// escape handles the escape sequence at raw[i] (an ESC) and returns the
// index after it; ok is false on a switch to the alternate screen.
func (r *renderer) escape(raw []byte, i int) (next int, ok bool) {
	if i+1 == len(raw) {
		return i + 1, true
	}
	switch b := raw[i+1]; {
	case b == '[':
		return r.csi(raw, i+2)
	case b == ']' || b == 'P' || b == 'X' || b == '^' || b == '_':
		return skipString(raw, i+2, b == ']'), true
	case b >= 0x20 && b <= 0x2f: // intermediates, then a final byte
		j := i + 2
		for j < len(raw) && raw[j] >= 0x20 && raw[j] <= 0x2f {
			j++
		}
		if j < len(raw) && raw[j] >= 0x30 && raw[j] <= 0x7e {
			j++
		}
		return j, true
	case b == '7':
		r.saveRow, r.saveCol = r.flushed+r.row, r.col
	case b == '8':
		r.restore()
	case b == 'D':
		r.down(1)
	case b == 'E':
		r.down(1)
		r.col = 0
	case b == 'M':
		r.row = max(r.row-1, 0)
	case b >= 0x30 && b <= 0x7e:
	default: // a control or a non-ASCII byte ends the escape; handle it normally
		return i + 1, true
	}
	return i + 2, true
}

// restore moves the cursor to where it was saved, as far as the window
// allows.
func (r *renderer) restore() {
	r.row = min(max(r.saveRow-r.flushed, 0), len(r.rows)-1)
	r.moveTo(r.saveCol)
}

// skipString returns the index after the control string (OSC, DCS, …)
// whose content starts at raw[j]: after its ST (ESC \), or BEL for OSC.
// CAN and SUB cancel it; an ESC not followed by \ ends it and starts a new
// sequence.
func skipString(raw []byte, j int, bel bool) int {
	for ; j < len(raw); j++ {
		switch raw[j] {
		case 0x07:
			if bel {
				return j + 1
			}
		case 0x18, 0x1a:
			return j + 1
		case 0x1b:
			if j+1 < len(raw) && raw[j+1] == '\\' {
				return j + 2
			}
			return j
		}
	}
	return j
}

// csi handles the CSI sequence whose parameters start at raw[j].
func (r *renderer) csi(raw []byte, j int) (next int, ok bool) {
	var (
		params  [16]int
		n       int // parameters seen
		private byte
		inter   bool
	)
	if j < len(raw) && raw[j] >= 0x3c && raw[j] <= 0x3f {
		private = raw[j]
		j++
	}
	for ; j < len(raw); j++ {
		b := raw[j]
		switch {
		case b >= '0' && b <= '9':
			if n == 0 {
				n = 1
			}
			if p := &params[n-1]; *p < maxParam {
				*p = *p*10 + int(b-'0')
			}
		case b == ';' || b == ':':
			if n == 0 {
				n = 1
			}
			if n < len(params) {
				n++
			}
		case b >= 0x3c && b <= 0x3f: // misplaced private marker: ignore the sequence
			inter = true
		case b >= 0x20 && b <= 0x2f:
			inter = true
		case b >= 0x40 && b <= 0x7e:
			if inter {
				return j + 1, true
			}
			if private != 0 {
				if private == '?' && b == 'h' && !r.recorded {
					for _, p := range params[:n] {
						if p == 1049 || p == 1047 || p == 47 {
							return j + 1, false
						}
					}
				}
				return j + 1, true
			}
			r.apply(b, params[:max(n, 1)])
			return j + 1, true
		case b == 0x18 || b == 0x1a:
			return j + 1, true
		case b == 0x1b || b >= 0x7f:
			return j, true
		default: // a C0 control inside the sequence acts at once
			r.control(b)
		}
	}
	return j, true
}

// apply carries out CSI final byte f with parameters p (at least one;
// zero means the default).
func (r *renderer) apply(f byte, p []int) {
	n := max(p[0], 1)
	line := r.rows[r.row]
	switch f {
	case 'A':
		r.row = max(r.row-n, 0)
	case 'B':
		r.row = min(r.row+n, len(r.rows)-1)
	case 'E':
		r.row = min(r.row+n, len(r.rows)-1)
		r.col = 0
	case 'F':
		r.row = max(r.row-n, 0)
		r.col = 0
	case 'C', 'a':
		r.moveTo(r.col + n)
	case 'D':
		r.col = max(r.col-n, 0)
	case 'G', '`':
		r.moveTo(n - 1)
	case 'K':
		switch p[0] {
		case 0:
			r.rows[r.row] = line[:min(r.col, len(line))]
		case 1:
			for k := 0; k <= r.col && k < len(line); k++ {
				line[k] = blank
			}
		case 2:
			r.rows[r.row] = line[:0]
		}
	case 'J':
		if p[0] == 0 {
			r.rows[r.row] = line[:min(r.col, len(line))]
			for k := r.row + 1; k < len(r.rows); k++ {
				r.rows[k] = r.rows[k][:0]
			}
		}
	case 'X':
		for k := r.col; k < r.col+n && k < len(line); k++ {
			line[k] = blank
		}
	case 'P':
		if r.col < len(line) {
			k := min(n, len(line)-r.col)
			r.rows[r.row] = append(line[:r.col], line[r.col+k:]...)
		}
	case '@': // insert blanks; cells pushed past the line's end (or column 1024) are lost
		if old := len(line); r.col < old {
			size := min(old+n, max(old, maxMoveCol))
			k := min(n, size-r.col)
			for len(line) < size {
				line = append(line, blank)
			}
			copy(line[r.col+k:], line[r.col:old])
			for x := r.col; x < r.col+k; x++ {
				line[x] = blank
			}
			r.rows[r.row] = line
		}
	case 'm':
		if r.colours {
			r.sgr(p)
		}
	case 's':
		r.saveRow, r.saveCol = r.flushed+r.row, r.col
	case 'u':
		r.restore()
	}
}
