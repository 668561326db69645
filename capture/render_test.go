package capture

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestRender(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
		full bool
	}{
		{"empty", "", "", false},
		{"plain", "hello\nworld\n", "hello\nworld\n", false},
		{"no final newline", "a\nb", "a\nb", false},
		{"blank lines", "\n\na\n\n", "\n\na\n\n", false},
		{"CRLF", "one\r\ntwo\r\n", "one\ntwo\n", false},
		{"progress bar", "  0%\r 50%\r100%\r\ndone\r\n", "100%\ndone\n", false},
		{"progress bar redrawn shorter", "[#####     ] 50%\r[##########] 100%\r\x1b[Kok\r\n", "ok\n", false},
		{"overwrite keeps the rest", "100%\r50%", "50%%", false},
		{"backspace", "abc\b\bX\n", "aXc\n", false},
		{"backspace past start", "a\b\b\bb", "b", false},
		{"backspace space backspace erases", "abc\b \b\b \b", "a", false},
		{"spaces over text erase", "downloading\r           \rdone", "done", false},
		{"trailing spaces written at the end are kept", "a  \nb\t\n", "a  \nb\t\n", false},
		{"erase to end", "abcdef\r\x1b[3C\x1b[K", "abc", false},
		{"erase to end, explicit 0", "abcdef\x1b[3D\x1b[0K!", "abc!", false},
		{"erase to start", "abcdef\x1b[3D\x1b[1K", "    ef", false},
		{"erase line", "abcdef\x1b[2Kx", "      x", false},
		{"cursor forward pads", "a\x1b[3Cb", "a   b", false},
		{"cursor back", "abc\x1b[2DX", "aXc", false},
		{"cursor to column", "abcdef\x1b[3GX\x1b[GY", "YbXdef", false},
		{"huge cursor moves are capped", "a\x1b[99999999Cb\x1b[99999999Cc", "a" + strings.Repeat(" ", 1023) + "bc", false},
		{"erase characters", "abcdef\r\x1b[2X", "  cdef", false},
		{"delete characters", "abcdef\r\x1b[2P", "cdef", false},
		{"insert characters", "abcdef\r\x1b[2@X", "X abcdef", false},
		{"colours", "\x1b[1;31mred\x1b[0m \x1b[38;5;82mgreen\x1b[m \x1b[38:2::1:2:3mrgb\x1b[0m\n", "red green rgb\n", false},
		{"OSC title and hyperlink", "\x1b]0;title\a\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\\n", "link\n", false},
		{"OSC 133 marks", "\x1b]133;C\aout\n\x1b]133;D;0\a", "out\n", false},
		{"DCS and APC", "a\x1bPq#0;2;0;0;0\x1b\\b\x1b_kitty\x1b\\c", "abc", false},
		{"charset selection", "\x1b(0lqk\x1b(B\x1b)0x", "lqkx", false},
		{"keypad and other two-byte escapes", "\x1b=\x1b>a\x1bcb", "ab", false},
		{"unfinished escapes at the end", "a\x1b", "a", false},
		{"unfinished CSI", "a\x1b[12", "a", false},
		{"unfinished OSC", "a\x1b]0;tit", "a", false},
		{"CAN cancels a sequence", "a\x1b[12\x18b", "ab", false},
		{"control inside CSI acts", "ab\x1b[\r1Cc", "ac", false},
		{"ESC ends an OSC", "a\x1b]0;x\x1b[31mb", "ab", false},
		{"tabs", "a\tb\tc\n\tx\n12345678\ty\n", "a\tb\tc\n\tx\n12345678\ty\n", false},
		{"tab over text moves only", "abcdefghij\r\tX", "abcdefghXj", false},
		{"overwritten tab becomes spaces", "a\tb\rxy", "xy      b", false},
		{"bell, shift in and out dropped", "a\ab\x0ec\x0f", "abc", false},
		{"alternate screen 1049", "before\x1b[?1049h\x1b[Hvim\x1b[?1049l", FullScreenNote, true},
		{"alternate screen 47", "\x1b[?47h", FullScreenNote, true},
		{"alternate screen 1047 among others", "\x1b[?1;1047h", FullScreenNote, true},
		{"other private modes are not full screen", "\x1b[?25l\x1b[?2004hx\x1b[?1049l", "x", false},
		{"invalid UTF-8", "a\xffb\xc3(\xe2\x82", `a\xffb\xc3(\xe2\x82`, false},
		{"valid UTF-8", "héllo → 世界 👍🏽\n", "héllo → 世界 👍🏽\n", false},
		{"C0 and DEL escaped", "a\x00b\x01c\x7f", `a\x00b\x01c\x7f`, false},
		{"C1 controls escaped", "a\u009bb\x9bc", `a\xc2\x9bb\x9bc`, false},
		{"8-bit byte overwrites one column", "\xffabc\rX", `Xabc`, false},
		{"multi-line progress", "a 1%\nb 1%\n\x1b[2Aa 100%\n\x1b[Kb 100%\n", "a 100%\nb 100%\n", false},
		{"cursor up stops at the top", "x\n\x1b[5Ay", "y\n", false},
		{"cursor up and erase below", "1\n2\n3\n\x1b[2A\x1b[Jdone\n", "1\ndone\n", false},
		{"save and restore cursor", "ab\x1b7cd\x1b8X", "abXd", false},
		{"CSI save and restore cursor", "ab\x1b[scd\x1b[uX", "abXd", false},
		{"reverse index", "a\nb\x1bMc", "ac\nb", false},
		{"absolute positioning ignored", "a\x1b[H\x1b[2Jb", "ab", false},
		{"LF keeps no column", "abc\ndef", "abc\ndef", false},
		{"elision marker", "ab\x1b[3\x18\n[… 9 bytes not kept …]\nyz", "ab\n[… 9 bytes not kept …]\nyz", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, full := Render([]byte(tt.in))
			if got != tt.want || full != tt.full {
				t.Errorf("Render(%q) = %q, %v; want %q, %v", tt.in, got, full, tt.want, tt.full)
			}
		})
	}
}

// TestRenderRecorded: output that reached no terminal keeps its text
// through alternate screen switches, which Render takes for a full-screen
// program's.
func TestRenderRecorded(t *testing.T) {
	raw := []byte("before\n\x1b[?1049h\x1b[2J\x1b[Hhidden \x1b[1mtext\x1b[0m\n\x1b[?47h\x1b[?1047hmore\n\x1b[?1049lafter\n")
	if got, want := RenderRecorded(raw), "before\nhidden text\nmore\nafter\n"; got != want {
		t.Errorf("RenderRecorded = %q; want %q", got, want)
	}
	if got, full := Render(raw); !full || got != FullScreenNote {
		t.Errorf("Render = %q, %v; want the full-screen note", got, full)
	}
}

func TestRenderManyLines(t *testing.T) {
	// More lines than the window, with cursor moves reaching back.
	var in, want strings.Builder
	for i := range 1000 {
		in.WriteString("line\r\x1b[Kline ")
		in.WriteString(strings.Repeat("x", i%7))
		in.WriteString("\r\n")
		want.WriteString("line " + strings.Repeat("x", i%7) + "\n")
	}
	in.WriteString("\x1b[999A\x1b[K")
	got, _ := Render([]byte(in.String()))
	w := want.String()
	lines := strings.SplitAfter(w, "\n")
	lines[1001-window] = "\n" // the top of the window was erased
	w = strings.Join(lines, "")
	if got != w {
		t.Errorf("Render of 1000 lines: got %d bytes, want %d", len(got), len(w))
	}
}

// checkText fails unless s is valid UTF-8 with no controls other than
// newline and tab.
func checkText(t *testing.T, in []byte, s string) {
	t.Helper()
	if !utf8.ValidString(s) {
		t.Fatalf("Render(%q) = %q: not valid UTF-8", in, s)
	}
	for _, r := range s {
		if (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x7f && r < 0xa0) {
			t.Fatalf("Render(%q) = %q: contains control %U", in, s, r)
		}
	}
}

// plainText reports whether in holds only printable UTF-8, newlines and
// tabs.
func plainText(in []byte) bool {
	if !utf8.Valid(in) {
		return false
	}
	for _, r := range string(in) {
		if (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x7f && r < 0xa0) {
			return false
		}
	}
	return true
}

func FuzzRender(f *testing.F) {
	for _, s := range []string{
		"", "hello\n", "a\tb\n", "10%\r100%\n", "ab\bc", "\x1b[31mred\x1b[0m",
		"\x1b[?1049h", "\x1b]0;t\a", "\xff\xfe", "\x1b[5A\x1b[J", "x\x1b[9999@y",
		"世界\t👍\n", "\x1b7\x1b8\x1b[s\x1b[u", "\x1bP\x1b\\",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		got, full := Render(in)
		if full {
			if got != FullScreenNote {
				t.Fatalf("Render(%q) = %q, true; want the note", in, got)
			}
			return
		}
		checkText(t, in, got)
		if plainText(in) && got != string(in) {
			t.Fatalf("Render(%q) = %q; want the input unchanged", in, got)
		}
		if bytes.IndexByte(in, 0x1b) < 0 && len(got) > 8*len(in)+8 {
			t.Fatalf("Render(%q): %d bytes out of %d", in, len(got), len(in))
		}
	})
}
