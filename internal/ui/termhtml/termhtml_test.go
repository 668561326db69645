package termhtml

import (
	"fmt"
	"html"
	"regexp"
	"strings"
	"testing"
)

func TestRender(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain <b>&\"'\n", "plain &lt;b&gt;&amp;&#34;&#39;\n"},
		{"\x1b[31mred\x1b[0m", `<span class="f1">red</span>`},
		{"\x1b[1;32mbold green\x1b[22m green", `<span class="f2 bo">bold green</span><span class="f2"> green</span>`},
		{"\x1b[38;5;208morange\x1b[39m", `<span class="f208">orange</span>`},
		{"\x1b[38;2;255;0;0mtrue red\x1b[m", `<span class="f196">true red</span>`},
		{"\x1b[97;44mwhite on blue\x1b[0m", `<span class="f15 b4">white on blue</span>`},
		{"\x1b]8;;http://evil\x07link\x1b]8;;\x07", `<span class="esc">\e]8;;http://evil\x07</span>link<span class="esc">\e]8;;\x07</span>`},
		{"\x1b[2Jcleared", `<span class="esc">\e[2J</span>cleared`},
		{"\x1b]0;<b>\x1b\\", `<span class="esc">\e]0;&lt;b&gt;\e\</span>`},
		{"lone \x1b", `lone <span class="esc">\e</span>`},
		{"bell\x07 nul\x00", `bell<span class="esc">\x07</span> nul<span class="esc">\x00</span>`},
		{"rtl \u202eevil\u202c", `rtl <span class="esc">\u202e</span>evil<span class="esc">\u202c</span>`},
		{"zw\u200bsp \u2067iso\u2069", `zw<span class="esc">\u200b</span>sp <span class="esc">\u2067</span>iso<span class="esc">\u2069</span>`},
		{"c1 \u009b31m", `c1 <span class="esc">\u009b</span>31m`},
		{"bad \xff utf8", `bad <span class="esc">\xff</span> utf8`},
		{"unclosed \x1b[31mred", `unclosed <span class="f1">red</span>`},
		{"naïve 日本", "naïve 日本"},
	} {
		if got := string(Render(c.in)); got != c.want {
			t.Errorf("Render(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if got := string(Inert("\x1b[31mred")); got != `<span class="esc">\e</span>[31mred` {
		t.Errorf("Inert kept a colour: %q", got)
	}
}

// TestParts: a long output is cut into parts at line ends; rendered part
// by part (each starting in the colours the text before left), it is the
// whole output.
func TestParts(t *testing.T) {
	var b strings.Builder
	for i := 0; b.Len() < 10<<20; i++ {
		if i%20000 == 0 {
			b.WriteString("\x1b[33m")
		}
		fmt.Fprintf(&b, "line %d of a long build log <x>\n", i)
		if i%20000 == 15000 {
			b.WriteString("\x1b[0m")
		}
	}
	text := b.String()
	starts := Parts(text)
	if len(starts) < 30 {
		t.Fatalf("%d parts for 10 MB", len(starts))
	}
	var all strings.Builder
	carried := 0
	for n := range starts {
		if n > 0 && text[starts[n]-1] != '\n' {
			t.Errorf("part %d starts within a line", n)
		}
		p := string(RenderPart(text, starts, n))
		before := text[:starts[n]]
		on := strings.LastIndex(before, "\x1b[33m") > strings.LastIndex(before, "\x1b[0m")
		if on != strings.HasPrefix(p, `<span class="f3">`) && !strings.HasPrefix(text[starts[n]:], "\x1b[33m") {
			t.Errorf("part %d: in colour %v, but it starts %q", n, on, p[:min(len(p), 40)])
		}
		carried += map[bool]int{true: 1}[strings.LastIndex(before, "\x1b[33m") > strings.LastIndex(before, "\x1b[0m")]
		all.WriteString(p)
	}
	if carried == 0 {
		t.Fatal("no part starts in colour: the test checks nothing")
	}
	tags := regexp.MustCompile(`<[^>]*>`)
	plain := regexp.MustCompile("\x1b\\[[0-9;]*m").ReplaceAllString(text, "")
	if got := html.UnescapeString(tags.ReplaceAllString(all.String(), "")); got != plain {
		t.Errorf("the parts together are not the output (%d bytes, want %d)", len(got), len(plain))
	}

}

// BenchmarkRender: 10 MB of coloured output rendered whole (the page
// renders 64 KB at a time; README compares terminal-to-html on the same
// input).
func BenchmarkRender(b *testing.B) {
	big := strings.Repeat("line of output \x1b[32mok\x1b[0m with words 1234567890\n", 10<<20/50)
	b.SetBytes(int64(len(big)))
	for b.Loop() {
		Render(big)
	}
}
