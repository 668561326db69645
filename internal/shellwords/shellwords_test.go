package shellwords

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// hostile are names a repository, a tool's output or another machine can
// hold, each of which must stay one word.
var hostile = []string{
	"dev$(touch${IFS}pwned)", "`touch pwned`", "a;touch pwned", "a|touch pwned", "a&&touch pwned",
	"a\ntouch pwned", "it's", `a"b`, "${IFS}", "--orphan=pwn", "-fCmain", "~", "~/x", "!!", "x!y", "^a^b",
	"*", "a b", "#x", "{a,b}", "a=b", "=ls", "if", "}", "\\", "é", "日本", "\x1b[31m", "\xff", "a'b!c$d", "",
}

func TestQuoteWord(t *testing.T) {
	for in, want := range map[string]string{
		"":              "''",
		"main":          "main",
		"feature/x-1.2": "feature/x-1.2",
		"--set=x":       "--set=x",
		"é":             "é",
		"~/src":         `'~/src'`,
		"$HOME":         `'$HOME'`,
		"dev$(touch x)": `'dev$(touch x)'`,
		"it's":          `"it's"`,
		"it's $x":       `'it'\''s $x'`,
		"a b":           "'a b'",
		"`id`":          "'`id`'",
		"x;y":           "'x;y'",
		"x!y":           "'x!y'",
		"k=v":           "'k=v'",
		"=ls":           "'=ls'",
		"if":            "'if'",
		"line\nbreak":   `$'line\nbreak'`,
		"\x1b[31m":      `$'\x1b[31m'`,
	} {
		if got := QuoteWord(in); got != want {
			t.Errorf("QuoteWord(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestPaths(t *testing.T) {
	for _, c := range []struct{ p, home, tilde, word string }{
		{"/h", "/h", "~", "~"},
		{"/h/a b/c", "/h", "~/a b/c", "~/'a b/c'"},
		{"/h/$(x)", "/h", "~/$(x)", "~/'$(x)'"},
		{"/elsewhere", "/h", "/elsewhere", "/elsewhere"},
		{"~/x", "/h", "~/x", "'~/x'"}, // a directory named ~, not the home
		{"-rf", "/h", "-rf", "./-rf"},
		{"/h/x", "/", "/h/x", "/h/x"},
	} {
		if got := Tilde(c.p, c.home); got != c.tilde {
			t.Errorf("Tilde(%q, %q) = %q; want %q", c.p, c.home, got, c.tilde)
		}
		if got := HomePath(c.p, c.home); got != c.word {
			t.Errorf("HomePath(%q, %q) = %q; want %q", c.p, c.home, got, c.word)
		}
	}
}

// TestQuoteParses: every hostile word, quoted, parses (as bash and as zsh
// see it, with mvdan.cc/sh) to one literal word of exactly its value after
// a command name and as the command name: no substitution, no expansion,
// no assignment, no second command.
func TestQuoteParses(t *testing.T) {
	for _, w := range hostile {
		if !utf8.ValidString(w) {
			continue // the parser takes UTF-8 only; the shells read it back below
		}
		for _, line := range []string{"echo " + QuoteWord(w), QuoteWord(w) + " x", Join("git", "switch", w), "echo " + Quote(w)} {
			got, ok := Words(line)
			if !strings.Contains(line, "$'") && !slices.Contains(got, w) {
				ok = false
			}
			if !ok || len(got) != 2 && len(got) != 3 {
				t.Errorf("%q (from %q) parses to %q, %v", line, w, got, ok)
			}
		}
	}
}

// Words parses line as one simple command and returns its words' values,
// ok only when each word is literal: quotes, escapes and nothing else (no
// parameter, command, process or arithmetic substitution, no glob, brace or
// tilde expansion, no assignment, no redirection, no second command).
func Words(line string) ([]string, bool) {
	for _, lang := range []syntax.LangVariant{syntax.LangBash, syntax.LangZsh} {
		f, err := syntax.NewParser(syntax.Variant(lang)).Parse(strings.NewReader(line), "")
		if err != nil || len(f.Stmts) != 1 {
			return nil, false
		}
		st := f.Stmts[0]
		call, ok := st.Cmd.(*syntax.CallExpr)
		if !ok || len(st.Redirs) > 0 || len(call.Assigns) > 0 || st.Background || st.Negated {
			return nil, false
		}
		var out []string
		for _, w := range call.Args {
			v, ok := literal(w)
			if !ok {
				return nil, false
			}
			out = append(out, v)
		}
		if lang == syntax.LangZsh {
			return out, true
		}
	}
	return nil, false
}

func literal(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for i, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			v := p.Value
			if i == 0 && (strings.HasPrefix(v, "~") || strings.HasPrefix(v, "=")) || strings.ContainsAny(v, "*?[{!^") {
				return "", false
			}
			for j := 0; j < len(v); j++ {
				if v[j] == '\\' && j+1 < len(v) {
					j++
					if v[j] == '\n' {
						continue
					}
				}
				b.WriteByte(v[j])
			}
		case *syntax.SglQuoted:
			b.WriteString(p.Value) // $'…' is left escaped: TestQuoteShells reads it back
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok || strings.Contains(l.Value, "!") {
					return "", false
				}
				b.WriteString(strings.NewReplacer(`\\`, `\`, `\"`, `"`, `\$`, `$`, "\\`", "`").Replace(l.Value))
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// TestQuoteShells reads each quoted word back with the real shells: bash
// and zsh for QuoteWord, and dash too for Quote.
func TestQuoteShells(t *testing.T) {
	for _, sh := range []string{"bash", "zsh", "dash", "sh"} {
		if _, err := exec.LookPath(sh); err != nil {
			continue
		}
		for _, w := range hostile {
			qs := []string{Quote(w)}
			if sh == "bash" || sh == "zsh" {
				qs = append(qs, QuoteWord(w))
			}
			for _, q := range qs {
				out, err := exec.Command(sh, "-c", "printf %s "+q).Output()
				if err != nil || string(out) != w {
					t.Errorf("%s: printf %%s %s = %q, %v; want %q", sh, q, out, err, w)
				}
			}
		}
	}
}
