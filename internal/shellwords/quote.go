package shellwords

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// Quote returns s as one single-quoted word that any POSIX sh (dash among
// them), bash and zsh read back as exactly s, whatever bytes it holds. It
// is for text that a POSIX sh runs (a chain's run steps, a hook command
// run by sh -c) and for the values filled into hookd's shell scripts. s
// must not contain a NUL byte, which no shell word can hold.
func Quote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// QuoteWord returns s as one word of a command line for bash and zsh, the
// shells a fix is offered to: as it is where nothing in it is special (a
// path, a branch, a flag: it reads as one would type it), else quoted so
// that nothing in it is expanded — no substitution, no glob, no tilde, no
// history expansion (!), no assignment or reserved word where a command
// name goes. What is not printable is written $'…' (bash and zsh read it;
// a POSIX sh does not: use Quote for dash). A NUL byte, which no word can
// hold, gives Quote's form, which no shell reads back as s either.
func QuoteWord(s string) string {
	if bare(s) {
		return s
	}
	if !printable(s) {
		if q, err := syntax.Quote(s, syntax.LangBash); err == nil {
			return q
		}
		return Quote(s)
	}
	if !strings.Contains(s, "'") {
		return "'" + s + "'"
	}
	if !strings.ContainsAny(s, "\"\\`$!") {
		return `"` + s + `"`
	}
	return Quote(s)
}

// Join returns words as one command line, each through QuoteWord.
func Join(words ...string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = QuoteWord(w)
	}
	return strings.Join(q, " ")
}

// bare reports whether s reads as itself as a word of a command line.
func bare(s string) bool {
	if s == "" || syntax.IsKeyword(s) {
		return false
	}
	ident := true // s so far could be a variable name: NAME=… assigns
	for i, r := range s {
		switch {
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '_' || r >= '0' && r <= '9' && i > 0:
		case r == '=':
			if ident { // =cmd (zsh) or NAME=value (an assignment)
				return false
			}
		case strings.ContainsRune("-./:,+@%", r) || r >= '0' && r <= '9':
			ident = false
		case r >= utf8.RuneSelf && r != utf8.RuneError && unicode.IsPrint(r):
			ident = false
		default:
			return false
		}
	}
	return true
}

// printable reports whether s is valid UTF-8 of printable characters
// (spaces, tabs and newlines are not).
func printable(s string) bool {
	for _, r := range s {
		if r == utf8.RuneError || !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}

// Tilde writes p under home as ~/… (home itself as ~), for reading: the
// rest is not quoted (HomePath is for a command line).
func Tilde(p, home string) string {
	if home != "" && home != "/" {
		if p == home {
			return "~"
		}
		if rest, ok := strings.CutPrefix(p, home+"/"); ok {
			return "~/" + rest
		}
	}
	return p
}

// HomePath writes p as one word of a command line: ~/ for the home
// directory (left unquoted, so that the shell expands it), the rest
// through QuoteWord.
func HomePath(p, home string) string {
	t := Tilde(p, home)
	if t == "~" {
		return "~"
	}
	if rest, ok := strings.CutPrefix(t, "~/"); ok && t != p {
		return "~/" + QuoteWord(rest)
	}
	return QuotePath(p)
}

// QuotePath is QuoteWord for a path given to a command as an operand: a
// relative one that starts with "-" is written ./-… so that the command
// never reads it as options (a file named -rf or --output=x).
func QuotePath(p string) string {
	if strings.HasPrefix(p, "-") {
		p = "./" + p
	}
	return QuoteWord(p)
}
