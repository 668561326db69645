package ui

import "testing"

// TestPromptLine: the shell's prompt line is drawn plain (colours and
// readline's markers dropped), hostile sequences escaped, within a row.
func TestPromptLine(t *testing.T) {
	for _, c := range []struct {
		line string
		cols int
		want string
	}{
		{"\x01\x1b[1;34m\x02~/src\x01\x1b[0m\x02 P> ls", 80, "~/src P> ls"},
		{"P> echo \x1b]52;c;aGk=\x07x", 80, "P> echo x"},
		{"P> \u202eevil", 80, `P> \u202eevil`},
		{"P> 0123456789", 8, "P> 0123"},
	} {
		if got := promptLine(c.line, c.cols); got != c.want {
			t.Errorf("promptLine(%q, %d) = %q; want %q", c.line, c.cols, got, c.want)
		}
	}
}
