package shelltest

import (
	"strings"
	"testing"
)

// TestScreenIncremental: the screen fed piece by piece as output arrives
// (a sequence cut between two reads included) is the screen fed at once;
// a resize applies where it happened in the output.
func TestScreenIncremental(t *testing.T) {
	out := []byte("line one\r\nline two\x1b[1;6HONE\x1b[2;1H\x1b[2Kreplaced\r\n")
	whole := &screen{cols: 20, rows: 4}
	want := whole.text(out)
	sc := &screen{cols: 20, rows: 4}
	for i := 1; i <= len(out); i += 3 {
		sc.text(out[:i])
	}
	if got := sc.text(out); got != want {
		t.Errorf("fed piece by piece:\n%q\nat once:\n%q", got, want)
	}
	if !strings.HasPrefix(want, "line ONE\nreplaced\n") {
		t.Errorf("screen = %q", want)
	}
	// Narrowed to 5 columns after the first line: what comes after wraps
	// at 5.
	r := &screen{cols: 20, rows: 4}
	r.resize(len("abcdefgh\r\n"), 5, 4)
	if got := r.text([]byte("abcdefgh\r\n0123456789")); !strings.Contains(got, "01234\n56789") {
		t.Errorf("after the resize: %q; want the rest wrapped at 5 columns", got)
	}
	whole.close()
	sc.close()
	r.close()
}
