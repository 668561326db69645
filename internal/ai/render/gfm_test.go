package render

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/muesli/termenv"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
)

// TestGFMAsGoldmark renders GitHub-flavoured Markdown with this package's
// tables, strikethrough and task items (gfm.go) and with goldmark's
// extension package, which hookd no longer links (its initialisers cost
// every hookd command, docs/benchmarks.md §34): the terminal lines must
// be the same.
func TestGFMAsGoldmark(t *testing.T) {
	theirs := goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.TaskList)).Parser()
	srcs := []string{
		"| a | b |\n|---|---|\n| 1 | 2 |\n",
		"| a | 名前 | c |\n|---|:-:|--:|\n| 日本語 | x | 👍 |\n| e\u0301 | 中 | 1 |\n",
		"a | b\n:-|-:\n1 | 2\n3\n",
		"intro line\n| a | b |\n|---|---|\n| 1 | 2 |\n\nafter\n",
		"| a | b |\n|---|---|\n| only one |\n| 1 | 2 | 3 |\n",
		"| a | b |\n|---|\n| 1 | 2 |\n",
		"| a \\| b | c |\n|---|---|\n| `x \\| y` | **z** |\n",
		"| a |\n| --- |\n",
		"|a|b|\n|-|-|\n|~~s~~|[l](http://x)|\n",
		"| a | b |\n|---|-x-|\n| 1 | 2 |\n",
		"- | a | b |\n  |---|---|\n  | 1 | 2 |\n",
		"> | q | r |\n> |:-:|:-|\n> | 1 | 2 |\n",
		"a ~~b~~ c ~d~ ~~~e~~~ f~~g~~h\n",
		"~~not closed\n",
		"~~a *b* c~~ and **~~d~~**\n",
		"- [ ] to do\n- [x] done\n- [X] DONE\n- [y] no\n- [ ]no space\n- [ ]\n",
		"1. [ ] first\n2. [x] second\n\n   para\n",
		"- a [ ] not first\n- > [ ] in a quote\n",
		"- item\n\n  [ ] second paragraph\n",
		"* [x] loose\n\n* [ ] list\n",
		"text [ ] not an item\n",
		"a|b\n-|-\nc|d\n",
		"| a | b |\n|---|---|\n| | |\n|\n| x |\n# heading\n",
		"| a\t| b |\n| ---\t| --- |\n| 1 \\\\| 2 |\n",
		"| a | b |  \n|---|---|  \n| `c` | <b>d</b> |\n- list\n",
		"|   |\n|---|\n| x |\n",
		"| a |\n|:--:|\n| ~~x~~. y~~z~~w (~~p~~) |\n",
		"[link]: http://example.com\n| a | b |\n|---|---|\n| [link] | 2 |\n",
		"```\n| a | b |\n|---|---|\n```\n    | a | b |\n    |---|---|\n",
		"| a | b |\n|---|---|\n| `c` \\| d | e |\n| `` f | g `` | h |\n",
		"~~~\n~~code~~\n~~~\n`~~span~~` ~~**b**~~ ~ ~~ ~a ~~\n",
		// Found by the random strings below: a row's last pipe after a
		// backslash, a paragraph line ending in a backslash before a table.
		" \n|bc\\|\n|--",
		"[]||\\\n:*\n|-\t\n\\abc|\tax- [* ~~\nbc\n-",
	}
	// And strings made of what these constructs are made of.
	r := rand.New(rand.NewPCG(35, 1))
	parts := []string{"|", "|", "|", "-", "--", ":", " ", " ", "~", "~~", "[", "]", "x", "\\", "`", "*", "\n", "\n", "- ", "a", "bc", "\t", "> "}
	for range 20000 {
		var b strings.Builder
		for range 2 + r.IntN(30) {
			b.WriteString(parts[r.IntN(len(parts))])
		}
		srcs = append(srcs, b.String())
	}
	for _, src := range srcs {
		for _, width := range []int{80, 12} {
			mine, err := newRenderer("dark", width, termenv.TrueColor)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := newRenderer("dark", width, termenv.TrueColor)
			want.md = theirs
			got, err1 := mine.render(src, true)
			exp, err2 := want.render(src, true)
			if err1 != nil || err2 != nil || !slices.Equal(got, exp) {
				t.Errorf("%q at width %d:\n%s\nwant (goldmark's extension):\n%s", src, width,
					strings.Join(got, "\n"), strings.Join(exp, "\n"))
			}
		}
	}
}
