package answer

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/glamour"
	"github.com/muesli/termenv"
	"github.com/rivo/uniseg"

	"github.com/hookd/hookd/sanitize"
)

// renderer turns a block of sanitized Markdown into terminal lines with
// glamour, and makes sure that what comes out holds no escape sequence but
// glamour's own colours.
type renderer struct {
	tr    *glamour.TermRenderer
	width int
}

func newRenderer(style string, width int, profile termenv.Profile) (*renderer, error) {
	tr, err := glamour.NewTermRenderer(
		glamour.WithStandardStyle(style),
		glamour.WithWordWrap(width),
		glamour.WithColorProfile(profile),
	)
	if err != nil {
		return nil, fmt.Errorf("answer style %q: %w", style, err)
	}
	return &renderer{tr: tr, width: width}, nil
}

// render returns the lines glamour makes of src (sanitized Markdown), less
// the blank lines glamour puts before and after a document, each line safe
// to print: only SGR sequences, none of them from src.
func (r *renderer) render(src string) ([]string, error) {
	out, err := r.tr.Render(defuseRefs(src))
	if err != nil {
		return nil, fmt.Errorf("render answer: %w", err)
	}
	lines := strings.Split(filterRendered(out), "\n")
	for len(lines) > 0 && isBlank(lines[0]) {
		lines = lines[1:]
	}
	for len(lines) > 0 && isBlank(lines[len(lines)-1]) {
		lines = lines[:len(lines)-1]
	}
	for i, l := range lines {
		lines[i] = trimPadding(l)
	}
	return lines, nil
}

// numRef matches an HTML numeric character reference, which Markdown
// decodes: &#27; would put an ESC in glamour's output although the text
// handed to it holds none.
var numRef = regexp.MustCompile(`&#(?:[0-9]{1,8}|[xX][0-9a-fA-F]{1,8});`)

// defuseRefs makes the numeric character references of src that stand for
// a control, hidden or invalid character show as they are written
// (&amp;#x1b; renders as &#x1b;).
func defuseRefs(src string) string {
	if !strings.Contains(src, "&#") {
		return src
	}
	return numRef.ReplaceAllStringFunc(src, func(ref string) string {
		digits, base := ref[2:len(ref)-1], 10
		if digits[0] == 'x' || digits[0] == 'X' {
			digits, base = digits[1:], 16
		}
		n, err := strconv.ParseUint(digits, base, 32)
		if err == nil && n != 0 && safeRune(rune(n)) {
			return ref
		}
		return "&amp;" + ref[1:]
	})
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

// filterRendered keeps the SGR sequences of glamour's output and passes
// everything between them through sanitize.Text, so that no other escape
// sequence, control or hidden character can reach the terminal, whatever
// glamour or the styles it uses make of the text.
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

func isBlank(line string) bool { return strings.TrimSpace(stripSGR(line)) == "" }

// trimPadding drops the spaces glamour pads a line with up to the wrap
// width, so that a line does not wrap if the terminal has become narrower.
// Lines with a background colour keep them: there, they show.
func trimPadding(line string) string {
	if strings.Contains(line, "48;") {
		return line
	}
	end, styled := 0, false
	for i := 0; i < len(line); {
		if n := sgrLen(line[i:]); n > 0 {
			styled = true
			i += n
			continue
		}
		_, size := utf8.DecodeRuneInString(line[i:])
		if line[i] != ' ' {
			end = i + size
		}
		i += size
	}
	if styled {
		return line[:end] + sgrReset
	}
	return line[:end]
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
