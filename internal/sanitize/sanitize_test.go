package sanitize

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestLine(t *testing.T) {
	tests := []struct{ in, want string }{
		{"ls -l", "ls -l"},
		{"a\nb\tc", `a\nb\tc`},
		{"\x1b]0;title\x07", `\e]0;title\x07`},
		{"\x9b2J", `\x9b2J`},
		{"caf\xe9", `caf\xe9`},
		{"café ☕", "café ☕"},
		{"rm -rf /tmp/x\u202e\u2066txt.exe", `rm -rf /tmp/x\u202e\u2066txt.exe`},
		{"ls\u200b -l", `ls\u200b -l`},
		{"a\u2028b\u2029c", `a\u2028b\u2029c`},
		{"\ufeffecho", `\ufeffecho`},
		{"x\u2069\u2067\u2068y", `x\u2069\u2067\u2068y`},
		{"\u200e\u200f\u202a\u202b\u202c\u202d", `\u200e\u200f\u202a\u202b\u202c\u202d`},
		{"a\u206ab\U000e0041c", `a\u206ab\U000e0041c`},
	}
	for _, tt := range tests {
		if got := Line(tt.in); got != tt.want {
			t.Errorf("Line(%q) = %q; want %q", tt.in, got, tt.want)
		}
	}
}

func TestText(t *testing.T) {
	in := "line 1\n\tline 2\x1b[31m red\u202e\n"
	want := "line 1\n\tline 2\\e[31m red\\u202e\n"
	if got := Text(in); got != want {
		t.Errorf("Text(%q) = %q; want %q", in, got, want)
	}
}

func FuzzLine(f *testing.F) {
	f.Add("ls\x1b[2J\u202e\n")
	f.Fuzz(func(t *testing.T, s string) {
		out := Line(s)
		for _, r := range out {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || Hidden(r) || r == 0xfffd && !containsReplacement(s) {
				t.Fatalf("Line(%q) = %q holds %U", s, out, r)
			}
		}
	})
}

func containsReplacement(s string) bool {
	for _, r := range s {
		if r == 0xfffd {
			// A real U+FFFD in valid input is kept as it is.
			return true
		}
	}
	return false
}

// TestInvisibleCharacters (issue 20, item 13): the characters that passed
// unescaped: blank-rendering fillers, variation selectors, invisible
// format characters. Above U+FFFF the escape is \U and eight digits, so
// that it cannot run into the text after it.
func TestInvisibleCharacters(t *testing.T) {
	for r, want := range map[rune]string{
		0x3164: `\u3164`, 0x115f: `\u115f`, 0x1160: `\u1160`, 0xffa0: `\uffa0`, 0x034f: `\u034f`,
		0x17b4: `\u17b4`, 0x17b5: `\u17b5`, 0x180e: `\u180e`, 0xfe00: `\ufe00`, 0xfe0f: `\ufe0f`,
		0x1d173: `\U0001d173`, 0x1d17a: `\U0001d17a`,
	} {
		if got := Line("a" + string(r) + "1"); got != "a"+want+"1" {
			t.Errorf("U+%04X: %q; want %q", r, got, "a"+want+"1")
		}
	}
	for _, ok := range []string{"한국어", "ｱｲｳ", "ខ្មែរ", "ᠮᠣᠩᠭᠣᠯ", "𝄞"} {
		if got := Line(ok); got != ok {
			t.Errorf("%q became %q", ok, got)
		}
	}
}

// TestJSON: the characters that hide or reorder text leave as \u escapes
// (surrogate pairs above U+FFFF) and decode to the same strings; plain
// text and other characters pass as they are.
func TestJSON(t *testing.T) {
	in := map[string]string{"command": "ls \u202eexe.txt\u200b \U000e0041 \u0085 日本語 ✓ \u00e9", "plain": "echo hi"}
	var b bytes.Buffer
	if err := json.NewEncoder(JSON(&b)).Encode(in); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, r := range []rune{0x202e, 0x200b, 0xe0041, 0x85} {
		if strings.ContainsRune(out, r) {
			t.Errorf("%q holds U+%04X raw", out, r)
		}
	}
	for _, want := range []string{`\u202e`, `\u200b`, `\udb40\udc41`, `\u0085`, "日本語 ✓ \u00e9"} {
		if !strings.Contains(out, want) {
			t.Errorf("%q lacks %q", out, want)
		}
	}
	var back map[string]string
	if err := json.Unmarshal(b.Bytes(), &back); err != nil || back["command"] != in["command"] || back["plain"] != in["plain"] {
		t.Errorf("decodes to %q, %v; want %q", back, err, in)
	}
}
