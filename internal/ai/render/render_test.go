package render

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/muesli/termenv"

	"github.com/hookd/hookd/internal/sanitize"

	"github.com/hookd/hookd/internal/required"
)

// renderLines renders src (sanitized Markdown) in the dark style, and
// returns the lines, without their SGR sequences.
func renderLines(t *testing.T, width int, src string) (plain, styled []string) {
	t.Helper()
	r, err := newRenderer("dark", width, termenv.TrueColor)
	if err != nil {
		t.Fatal(err)
	}
	styled, err = r.render(src, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range styled {
		plain = append(plain, stripSGR(l))
	}
	return plain, styled
}

func TestLayout(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string // lines, in order, trimmed, spaces collapsed
		not      []string
	}{
		{"heading levels", "### Three\n\nSetext\n===\n", []string{"### Three", "", "# Setext"}, []string{"==="}},
		{"strikethrough", "a ~~b~~ c\n", []string{"a b c"}, []string{"~"}},
		{"nested quote", "> a\n>\n> > b\n", []string{"│ a", "│", "│ │ b"}, []string{">"}},
		{"autolink", "<https://ex.com/a>\n", []string{"https://ex.com/a"}, []string{"<", "("}},
		{"link to itself", "[https://ex.com](https://ex.com)\n", []string{"https://ex.com"}, []string{"("}},
		{"link url", "[x](<http://a b/&#x1b;[2J>)\n", []string{"x (http://a b/&#x1b;[2J)"}, nil},
		{"image", "![a cat](cat.png)\n", []string{"a cat (cat.png)"}, []string{"!"}},
		{"code span entity", "`&amp;` &amp;\n", []string{"&amp; &"}, nil},
		{"escapes", `\*not\* \` + "`x`" + ` a\\b` + "\n", []string{"*not* `x` a\\b"}, nil},
		{"hard break", "one  \ntwo\nthree\n", []string{"one", "two three"}, nil},
		{"ordered start", "7. seven\n8. eight\n", []string{"7. seven", "8. eight"}, nil},
		{"loose list", "- a\n\n  more\n- b\n", []string{"• a", "", "more", "", "• b"}, nil},
		{"tasks", "- [ ] to do\n- [x] done\n", []string{"• [ ] to do", "• [x] done"}, nil},
		{"code label", "```bash\nls\n```\n", []string{"bash", "ls"}, []string{"```"}},
		{"indented code", "    ls -l\n", []string{"ls -l"}, nil},
		{"rule", "---\n", []string{strings.Repeat("─", 36)}, []string{"-"}},
		{"html", "<b>x</b>\n", []string{"<b>x</b>"}, nil},
		{"aligned table", "| l | r | c |\n|:--|--:|:-:|\n| 1 | 2 | 3 |\n| 100 | 200 | 300 |\n",
			[]string{" l   │   r │  c", "─────┼─────┼─────", " 1   │   2 │  3", " 100 │ 200 │ 300"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			plain, _ := renderLines(t, 40, tt.in)
			var got []string
			for _, l := range plain {
				if strings.HasPrefix(tt.name, "aligned") {
					got = append(got, strings.TrimRight(strings.TrimPrefix(l, "  "), " "))
				} else {
					got = append(got, strings.Join(strings.Fields(l), " "))
				}
			}
			if !inOrder(strings.Join(got, "\n"), tt.want) {
				t.Errorf("rendering %q:\n%s\nwant the lines\n%s", tt.in, strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			for _, n := range tt.not {
				if strings.Contains(strings.Join(got, "\n"), n) {
					t.Errorf("rendering %q shows %q:\n%s", tt.in, n, strings.Join(got, "\n"))
				}
			}
		})
	}
}

// TestWidths renders text with wide and combining characters, long words,
// tables and code in narrow widths: no line is wider than the terminal,
// and no character is lost.
func TestWidths(t *testing.T) {
	src := "# 見出し heading\n\n日本語の文章はここで折り返されるべきです。 e\u0301te\u0301 👍🏽 " +
		strings.Repeat("x", 70) + " *終わり*\n\n- 項目 " + strings.Repeat("ü", 50) + "\n  - 入れ子\n\n> 引用 " + strings.Repeat("語", 40) + "\n\n" +
		"| 名前 | value |\n|---|---|\n| 日本 | " + strings.Repeat("word ", 12) + "|\n\n```\n" + strings.Repeat("コード", 20) + "\n```\n"
	for _, width := range []int{12, 20, 30, 41, 80} {
		plain, _ := renderLines(t, width, src)
		var all strings.Builder
		for _, l := range plain {
			if w := strWidth(l); w > width {
				t.Errorf("width %d: line %q is %d wide", width, l, w)
			}
			all.WriteString(l)
		}
		for _, s := range []string{"見出し", "日本語の", "e\u0301te\u0301", "👍🏽", "終わり", "項目", "入れ子", "引用", "名前", "value"} {
			if width >= 30 && !strings.Contains(all.String(), s) {
				t.Errorf("width %d: %q lost:\n%s", width, s, strings.Join(plain, "\n"))
			}
		}
		for _, s := range []string{"x", "ü", "語", "コ", "ド"} {
			want := strings.Count(src, s)
			if got := strings.Count(all.String(), s); got != want {
				t.Errorf("width %d: %q shows %d times; want %d:\n%s", width, s, got, want, strings.Join(plain, "\n"))
			}
		}
	}
}

// TestTable checks that a table's borders line up, whatever the widths of
// its characters.
func TestTable(t *testing.T) {
	plain, _ := renderLines(t, 60, "| a | 名前 | c |\n|---|:-:|--:|\n| 日本語 | x | 👍 |\n| e\u0301 | 中 | 1 |\n")
	col := -1
	for _, l := range plain {
		i := strings.IndexAny(l, "│┼")
		if i < 0 {
			t.Fatalf("row %q has no border:\n%s", l, strings.Join(plain, "\n"))
		}
		if c := strWidth(l[:i]); col >= 0 && c != col {
			t.Errorf("border at column %d, not %d:\n%s", c, col, strings.Join(plain, "\n"))
		} else {
			col = c
		}
	}
}

// TestCodeBlock: a code block is one coloured block, its language shown
// once even when a tall block is drawn in parts.
func TestCodeBlock(t *testing.T) {
	_, styled := renderLines(t, 40, "```sh\nls\necho hi\n```\n")
	if len(styled) != 3 {
		t.Fatalf("code block: %q", styled)
	}
	for _, l := range styled {
		if !strings.Contains(l, "48;2;") {
			t.Errorf("code row %q has no background", l)
		}
	}
	var in strings.Builder
	in.WriteString("```python\n")
	for range 30 {
		in.WriteString("print(1)\n")
	}
	in.WriteString("```\n")
	out := stream(t, Options{Width: 40, Height: 10, Style: "dark"}, in.String())
	screen, _ := show(t, 40, out)
	if n := strings.Count(screen, "python"); n != 1 {
		t.Errorf("the label shows %d times:\n%s", n, screen)
	}
}

// TestAscii: on a terminal without colours the renderer prints no escape
// sequence of its own, and Markdown's inline markers stay.
func TestAscii(t *testing.T) {
	out := stream(t, Options{Width: 60, Style: "dark", Profile: termenv.Ascii}, "# Hi\n\n**bold** *it* ~~no~~ `code` [l](http://x)\n\n| a | b |\n|---|---|\n| 1 | 2 |\n")
	screen, s := show(t, 60, out)
	if s.colour {
		t.Errorf("Ascii output has colours: %q", out)
	}
	for _, want := range []string{"# Hi", "**bold** *it* ~~no~~ `code` l (http://x)", "a │ b"} {
		if !strings.Contains(screen, want) {
			t.Errorf("screen does not show %q:\n%s", want, screen)
		}
	}
}

// TestNoHeavyInit guards the start-up time of hookd, which links this
// package: no dependency whose package initialization costs milliseconds.
func TestNoHeavyInit(t *testing.T) {
	required.Long(t) // runs go list
	goTool := required.Tool(t, "go")
	out, err := exec.Command(goTool, "list", "-deps", ".").Output()
	if err != nil {
		required.Skip(t, fmt.Sprintf("go list: %v", err))
	}
	for _, heavy := range []string{"github.com/alecthomas/chroma", "github.com/charmbracelet/glamour", "github.com/charmbracelet/lipgloss", "github.com/microcosm-cc/bluemonday"} {
		if strings.Contains(string(out), heavy) {
			t.Errorf("answer depends on %s", heavy)
		}
	}
}

// FuzzWriter streams any answer in two pieces: the Writer prints only its
// own sequences, and no rendered line is wider than the terminal.
func FuzzWriter(f *testing.F) {
	for _, s := range []string{hostile, splitAnswer, "# h\n\n- a\n  - b\n\n> q\n\n| a | b |\n|:-|-:|\n| 1 | 2 |\n\n```go\nx\n```\n---\n[l](u) ~~s~~ `c` &amp; &#0; &#x10FFFF; &#99999999;\n"} {
		f.Add(s, uint16(len(s)/2), uint8(30))
	}
	f.Fuzz(func(t *testing.T, in string, cut uint16, width uint8) {
		w := max(int(width), 1)
		c := min(int(cut), len(in))
		out := stream(t, Options{Width: w, Height: 200, Style: "dark"}, in, c)
		show(t, w, out) // fails on a sequence not the Writer's
		r, _ := newRenderer("dark", w, termenv.TrueColor)
		lines, err := r.render(sanitize.Text(in), true)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range lines {
			if n := strWidth(stripSGR(l)); n > w && w >= 8 {
				t.Errorf("width %d: line %q is %d wide", w, stripSGR(l), n)
			}
		}
	})
}
