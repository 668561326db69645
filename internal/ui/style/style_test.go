package style

import (
	"bytes"
	"testing"

	"github.com/muesli/termenv"
)

func TestRender(t *testing.T) {
	ansi := New(termenv.NewOutput(&bytes.Buffer{}, termenv.WithProfile(termenv.ANSI)))
	plain := New(termenv.NewOutput(&bytes.Buffer{}, termenv.WithProfile(termenv.Ascii)))
	for _, c := range []struct {
		s    Style
		want string
	}{
		{Command, "\x1b[1mx\x1b[0m"},
		{Dim, "\x1b[2mx\x1b[0m"},
		{Caution, "\x1b[33mx\x1b[0m"},
		{Danger, "\x1b[31;1mx\x1b[0m"},
		{Alert, "\x1b[31mx\x1b[0m"},
		{Success, "\x1b[32mx\x1b[0m"},
		{Removed, "\x1b[31mx\x1b[0m"},
		{Added, "\x1b[32mx\x1b[0m"},
		{Hunk, "\x1b[36mx\x1b[0m"},
		{Style{}, "x"},
	} {
		if got := ansi.Render(c.s, "x"); got != c.want {
			t.Errorf("Render(%+v) = %q; want %q", c.s, got, c.want)
		}
		if got := plain.Render(c.s, "x"); got != "x" {
			t.Errorf("Render(%+v) on a plain output = %q; want the text alone", c.s, got)
		}
	}
	if got := (Palette{}).Render(Danger, "x"); got != "x" {
		t.Errorf("the zero Palette rendered %q; want the text alone", got)
	}
}
