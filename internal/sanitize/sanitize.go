// Package sanitize makes text that hookd did not write safe to print on a
// terminal: command lines and outputs from the history, fixes, and
// an LLM's answers. Nothing it returns can move the cursor, change the
// terminal's state, or read differently from what it is: control
// characters, invalid UTF-8, and the invisible and bidirectional formatting
// characters that can make a command look like another are shown escaped.
package sanitize

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Line makes s safe to print on one terminal line: control characters,
// newlines included, invalid UTF-8 and invisible or bidirectional
// formatting characters are shown escaped (\n, \e, \x07, \u202e).
func Line(s string) string { return clean(s, false) }

// Text is Line that keeps newlines and tabs.
func Text(s string) string { return clean(s, true) }

// Hidden reports whether r is a character that changes how the text
// around it reads without showing itself: bidirectional embeddings,
// overrides and isolates, zero-width characters, the line and paragraph
// separators, the byte-order mark, the soft hyphen, fillers that render
// blank (Hangul), variation selectors and invisible format characters.
func Hidden(r rune) bool {
	switch {
	case r == 0xad, // soft hyphen
		r == 0x034f,                  // combining grapheme joiner
		r == 0x061c,                  // Arabic letter mark
		r == 0x115f || r == 0x1160,   // Hangul choseong and jungseong fillers
		r == 0x17b4 || r == 0x17b5,   // Khmer inherent vowels
		r == 0x3164 || r == 0xffa0,   // Hangul filler, halfwidth Hangul filler
		r >= 0xfe00 && r <= 0xfe0f,   // variation selectors
		r >= 0x1d173 && r <= 0x1d17a, // musical symbol format characters
		r == 0x180e,                  // Mongolian vowel separator
		r >= 0x200b && r <= 0x200f,   // zero-width space, (non-)joiner, LRM, RLM
		r >= 0x2028 && r <= 0x202e,   // line/paragraph separators, embeddings, overrides
		r >= 0x2060 && r <= 0x206f,   // word joiner, invisible operators, isolates, deprecated format characters
		r == 0xfeff,                  // byte-order mark, zero-width no-break space
		r >= 0xe0000 && r <= 0xe007f: // tags, which can hide text from a reader
		return true
	}
	return false
}

func clean(s string, keepLines bool) string {
	if isPlain(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case keepLines && (r == '\n' || r == '\t'):
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == 0x1b:
			b.WriteString(`\e`)
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			fmt.Fprintf(&b, `\x%02x`, r)
		case Hidden(r) && r > 0xffff:
			fmt.Fprintf(&b, `\U%08x`, r)
		case Hidden(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// isPlain reports whether s is printable ASCII, the common case, which is
// returned as it is.
func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

// JSON returns a writer that passes JSON text on to w with the characters
// that JSON leaves raw and a terminal or a reader could be fooled by (the
// Hidden ones, C1 controls, and U+2028/U+2029 where the encoder left them)
// written as \u escapes, which decode to the same strings. Each Write must
// hold whole JSON values (as json.Encoder writes them): an escape is only
// right inside a string, and these characters appear nowhere else in JSON.
func JSON(w io.Writer) io.Writer { return jsonWriter{w} }

type jsonWriter struct{ w io.Writer }

func (j jsonWriter) Write(p []byte) (int, error) {
	if isPlain(string(p)) {
		return j.w.Write(p)
	}
	out := make([]byte, 0, len(p)+32)
	for i := 0; i < len(p); {
		r, size := utf8.DecodeRune(p[i:])
		switch {
		case size > 1 && (Hidden(r) || r >= 0x80 && r < 0xa0):
			if r > 0xffff {
				hi, lo := utf16.EncodeRune(r)
				out = fmt.Appendf(out, `\u%04x\u%04x`, hi, lo)
			} else {
				out = fmt.Appendf(out, `\u%04x`, r)
			}
		default:
			out = append(out, p[i:i+size]...)
		}
		i += size
	}
	if _, err := j.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}
