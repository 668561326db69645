package sanitize

import "testing"

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
		{"a\u206ab\U000e0041c", `a\u206ab\ue0041c`},
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
