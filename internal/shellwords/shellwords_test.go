package shellwords

import (
	"os/exec"
	"slices"
	"testing"
	"unicode/utf8"

	"github.com/hookd/hookd/internal/shellwords/shellwordstest"
)

// hostile are names a repository, a tool's output or another machine can
// hold, each of which must stay one word: the property tests' and more.
var hostile = append([]string{"${IFS}", "~", "~/x", "!!", "^a^b", "#x", "a=b", "=ls", "if", "}", "\\", "é", "日本",
	"\x1b[31m", "\xff", ""}, shellwordstest.Hostile...)

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
			calls, err := shellwordstest.Calls(line)
			if err != nil || len(calls) != 1 || !slices.Contains(calls[0], w) {
				t.Errorf("%q (from %q) parses to %q, %v", line, w, calls, err)
			}
		}
	}
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

func TestIsName(t *testing.T) {
	for in, want := range map[string]bool{
		"PATH": true, "_x1": true, "VIRTUAL_ENV": true, "a": true,
		"": false, "1A": false, "A-B": false, "A;touch${IFS}pwned;B": false, "A B": false, "A=B": false,
		"É": false, "A\n": false, "$(id)": false,
	} {
		if got := IsName(in); got != want {
			t.Errorf("IsName(%q) = %v, want %v", in, got, want)
		}
	}
}
