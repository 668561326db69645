package capture

import (
	"testing"
)

func TestRenderColoured(t *testing.T) {
	for _, c := range []struct{ name, raw, text, coloured string }{
		{"plain", "a b\n", "a b\n", "a b\n"},
		{"ls", "\x1b[0m\x1b[01;34mdir\x1b[0m  file\n", "dir  file\n", "\x1b[0;1;34mdir\x1b[0m  file\n"},
		{"grep", "x \x1b[01;31m\x1b[Kerr\x1b[m\x1b[K y\n", "x err y\n", "x \x1b[0;1;31merr\x1b[0m y\n"},
		{"256 and rgb", "\x1b[38;5;208ma\x1b[48;2;1;2;3mb\x1b[39;49mc", "abc", "\x1b[0;38;5;208ma\x1b[0;38;5;208;48;2;1;2;3mb\x1b[0mc"},
		{"overwritten", "\x1b[31mred\r\x1b[32mgr\x1b[0m\n", "grd\n", "\x1b[0;32mgr\x1b[0;31md\x1b[0m\n"},
		{"across lines", "\x1b[1ma\nb\x1b[22m\n", "a\nb\n", "\x1b[0;1ma\x1b[0m\n\x1b[0;1mb\x1b[0m\n"},
		{"hostile", "\x1b]0;title\x07\x1b]8;;http://x\x1b\\l\x1b]8;;\x1b\\\x1b[2J\x1b[31;1mok\x1b[0m\x1bP1$qq\x1b\\", "lok", "l\x1b[0;1;31mok\x1b[0m"},
	} {
		t.Run(c.name, func(t *testing.T) {
			text, cs, full := RenderColoured([]byte(c.raw), false)
			if full || text != c.text {
				t.Fatalf("text %q (full %v), want %q", text, full, c.text)
			}
			if plain, _ := Render([]byte(c.raw)); plain != text {
				t.Errorf("Render gives %q, RenderColoured %q", plain, text)
			}
			want := c.coloured
			if want == "" {
				want = c.text
			}
			if got := cs.Apply(text); got != want {
				t.Errorf("coloured %q, want %q (colours %q)", got, want, cs)
			}
		})
	}
}

func TestColoursRemap(t *testing.T) {
	raw := "\x1b[32mok\x1b[0m token=abc\x1b[1mdef\x1b[0m \x1b[31mend\x1b[0m\n"
	text, cs, _ := RenderColoured([]byte(raw), false)
	edited := "ok token=[X] end\n"
	got := cs.Remap(text, edited, "[X]").Apply(edited)
	if want := "\x1b[0;32mok\x1b[0m token=\x1b[0;1m[X]\x1b[0m \x1b[0;31mend\x1b[0m\n"; got != want {
		t.Errorf("remapped %q, want %q", got, want)
	}
	if cs.Remap(text, "something else", "[X]") != nil {
		t.Error("colours kept for a text that is no edit of the original")
	}
	for _, bad := range []string{"x 1\n", "1 1", "1 \x1b]0;t\x07\n", "-1 1\n"} {
		if got := Colours(bad).Apply("abc"); got != "abc" {
			t.Errorf("invalid colours %q applied: %q", bad, got)
		}
	}
}
