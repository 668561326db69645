package capture

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// ColourStream is the stream an output's colours are stored in, beside
// the plain text (stream ""): see [Colours].
const ColourStream = "sgr"

// Colours are the SGR colours and attributes of a rendered output, kept
// apart from its plain text: the text stays what every reader, the search
// index and the redactor see, and the colours can only ever add SGR
// sequences to it (Apply), never text or another control sequence.
//
// The encoding is ASCII, one run a line: the byte offset where the run
// starts, counted from the previous run's start, a space, and the
// parameters of the SGR sequence that draws the run, normalized (the whole
// state, starting from the default: "" is the default, "1;31" bold red).
// Offsets are in the plain text (after redaction). Anything else makes
// the whole value invalid, and the text is shown plain.
type Colours []byte

// RenderColoured is [Render] (or [RenderRecorded], for recorded output)
// that keeps the colours too: nil when the output showed none.
func RenderColoured(raw []byte, recorded bool) (text string, cs Colours, fullScreen bool) {
	return renderColours(raw, recorded, true)
}

// sgrState is a normalized SGR state: the attributes on, and the
// parameters of the foreground and background colours ("31", "38;5;208",
// "38;2;1;2;3"; "": the default).
type sgrState struct {
	flags  uint8 // bit i: attrCodes[i] on
	fg, bg string
}

// attrCodes are the attributes kept, by their SGR parameter; concealed
// text (8) is shown, not hidden.
var attrCodes = [...]int{1, 2, 3, 4, 5, 7, 9}

func (s sgrState) params() string {
	var b strings.Builder
	for i, c := range attrCodes {
		if s.flags&(1<<i) != 0 {
			if b.Len() > 0 {
				b.WriteByte(';')
			}
			b.WriteString(strconv.Itoa(c))
		}
	}
	for _, c := range []string{s.fg, s.bg} {
		if c != "" {
			if b.Len() > 0 {
				b.WriteByte(';')
			}
			b.WriteString(c)
		}
	}
	return b.String()
}

// sgr applies the parameters of an SGR sequence (CSI … m) to the state.
func (r *renderer) sgr(p []int) {
	s := r.state
	flag := func(code int, on bool) {
		for i, c := range attrCodes {
			if c == code {
				if on {
					s.flags |= 1 << i
				} else {
					s.flags &^= 1 << i
				}
			}
		}
	}
	for i := 0; i < len(p); i++ {
		switch n := p[i]; {
		case n == 0:
			s = sgrState{}
		case n >= 1 && n <= 9:
			flag(n, true)
		case n == 22:
			flag(1, false)
			flag(2, false)
		case n >= 23 && n <= 29:
			flag(n-20, false)
		case n >= 30 && n <= 37, n >= 90 && n <= 97:
			s.fg = strconv.Itoa(n)
		case n == 39:
			s.fg = ""
		case n >= 40 && n <= 47, n >= 100 && n <= 107:
			s.bg = strconv.Itoa(n)
		case n == 49:
			s.bg = ""
		case n == 38 || n == 48:
			c, used := extColour(p[i+1:])
			i += used
			if c == "" {
				continue
			}
			if n == 38 {
				s.fg = "38;" + c
			} else {
				s.bg = "48;" + c
			}
		}
	}
	r.state = s
	if s == (sgrState{}) {
		r.attr = 0
		return
	}
	a, ok := r.attrIdx[s]
	if !ok {
		if r.attrIdx == nil {
			r.attrIdx = map[sgrState]cell{}
			r.attrs = []string{""}
		}
		if len(r.attrs) >= maxAttrs {
			r.attr = 0
			return
		}
		a = cell(len(r.attrs)) << attrShift
		r.attrs = append(r.attrs, s.params())
		r.attrIdx[s] = a
	}
	r.attr = a
}

// extColour reads an extended colour's parameters (after 38 or 48): "5;N"
// or "2;R;G;B"; used is how many it took.
func extColour(p []int) (c string, used int) {
	switch {
	case len(p) >= 2 && p[0] == 5:
		if p[1] > 255 {
			return "", 2
		}
		return "5;" + strconv.Itoa(p[1]), 2
	case len(p) >= 4 && p[0] == 2:
		if p[1] > 255 || p[2] > 255 || p[3] > 255 {
			return "", 4
		}
		return "2;" + strconv.Itoa(p[1]) + ";" + strconv.Itoa(p[2]) + ";" + strconv.Itoa(p[3]), 4
	}
	return "", len(p)
}

// run1 starts a run in state a at the end of the text emitted so far.
func (r *renderer) run1(a cell) {
	off := r.out.Len()
	r.runs = strconv.AppendInt(r.runs, int64(off-r.runAt), 10)
	r.runs = append(r.runs, ' ')
	r.runs = append(r.runs, r.attrs[a>>attrShift]...)
	r.runs = append(r.runs, '\n')
	r.runAt, r.runAttr = off, a
}

// A run is where the colours change: from byte Off on, the text is drawn
// with the SGR parameters SGR.
type run struct {
	Off int
	SGR string
}

// decode reads the runs, with absolute offsets; ok is false when c is not
// a valid encoding.
func (c Colours) decode() (runs []run, ok bool) {
	s := string(c)
	at := 0
	for s != "" {
		nl := strings.IndexByte(s, '\n')
		if nl < 0 {
			return nil, false
		}
		line := s[:nl]
		s = s[nl+1:]
		sp := strings.IndexByte(line, ' ')
		if sp <= 0 {
			return nil, false
		}
		d, err := strconv.Atoi(line[:sp])
		if err != nil || d < 0 || line[0] == '+' {
			return nil, false
		}
		params := line[sp+1:]
		if strings.Trim(params, "0123456789;") != "" {
			return nil, false
		}
		at += d
		runs = append(runs, run{at, params})
	}
	return runs, true
}

func encode(runs []run) Colours {
	var c Colours
	at := 0
	for _, r := range runs {
		c = strconv.AppendInt(c, int64(r.Off-at), 10)
		c = append(c, ' ')
		c = append(c, r.SGR...)
		c = append(c, '\n')
		at = r.Off
	}
	return c
}

// Apply returns text with its colours as SGR sequences (CSI … m), ending
// in the default state: nothing but SGR sequences is added, whatever c
// holds, and an invalid c gives text unchanged. A run that does not start
// at a character's start moves to the next one; runs past the text's end
// are dropped.
func (c Colours) Apply(text string) string { return c.ApplyFunc(text, nil) }

// ApplyFunc is Apply that passes each stretch of text between the SGR
// sequences through clean (nil: kept as it is), for a reader that must
// make the text safe for a terminal.
func (c Colours) ApplyFunc(text string, clean func(string) string) string {
	if clean == nil {
		clean = func(s string) string { return s }
	}
	runs, ok := c.decode()
	if !ok || len(runs) == 0 {
		return clean(text)
	}
	var b strings.Builder
	b.Grow(len(text) + len(runs)*12)
	prev, cur := 0, ""
	for _, r := range runs {
		at := r.Off
		for at < len(text) && !utf8.RuneStart(text[at]) {
			at++
		}
		if at >= len(text) {
			break
		}
		if at < prev {
			at = prev
		}
		if r.SGR == cur {
			continue
		}
		b.WriteString(clean(text[prev:at]))
		prev = at
		b.WriteString("\x1b[0")
		if r.SGR != "" {
			b.WriteByte(';')
			b.WriteString(r.SGR)
		}
		b.WriteByte('m')
		cur = r.SGR
	}
	b.WriteString(clean(text[prev:]))
	if cur != "" {
		b.WriteString("\x1b[0m")
	}
	return b.String()
}

// Remap moves the colours of orig onto edited, orig with some of its parts
// each replaced by marker (as the redactor does): a run inside a replaced
// part moves to the marker's start, a run after it by the change in
// length. It returns nil when edited cannot be matched with orig so.
func (c Colours) Remap(orig, edited, marker string) Colours {
	if orig == edited || len(c) == 0 {
		return c
	}
	runs, ok := c.decode()
	if !ok || marker == "" {
		return nil
	}
	// The edits, in order: orig[os:oe] became edited[ns:ns+len(marker)].
	type edit struct{ os, oe, ns int }
	var edits []edit
	i, j := 0, 0
	for j < len(edited) {
		k := strings.Index(edited[j:], marker)
		if k < 0 {
			if orig[i:] != edited[j:] {
				return nil
			}
			break
		}
		if i+k > len(orig) || orig[i:i+k] != edited[j:j+k] {
			return nil
		}
		i, j = i+k, j+k
		if strings.HasPrefix(orig[i:], marker) { // a marker the text had
			i, j = i+len(marker), j+len(marker)
			continue
		}
		// The replaced part ends where the text after the marker, as far
		// as a following marker, appears in orig.
		after := edited[j+len(marker):]
		if n := strings.Index(after, marker); n >= 0 {
			after = after[:n]
		}
		after = after[:min(len(after), 64)]
		var e int
		switch {
		case after == "" && j+len(marker) == len(edited):
			e = len(orig)
		case after == "":
			e = min(i+1, len(orig))
		default:
			p := strings.Index(orig[min(i+1, len(orig)):], after)
			if p < 0 {
				return nil
			}
			e = min(i+1, len(orig)) + p
		}
		edits = append(edits, edit{i, e, j})
		i, j = e, j+len(marker)
	}
	out := runs[:0:0]
	shift, k := 0, 0
	for _, r := range runs {
		for k < len(edits) && r.Off >= edits[k].oe {
			shift = edits[k].ns + len(marker) - edits[k].oe
			k++
		}
		off := r.Off + shift
		if k < len(edits) && r.Off >= edits[k].os {
			off = edits[k].ns
		}
		if n := len(out); n > 0 && out[n-1].Off >= off {
			out[n-1].SGR = r.SGR // the later state wins at one offset
			continue
		}
		out = append(out, run{off, r.SGR})
	}
	return encode(out)
}
