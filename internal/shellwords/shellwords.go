// Package shellwords owns hookd's shell words: every command hookd offers,
// prints or keys is split into words and built back from words here, so
// that a name read from a repository, a history or another machine is
// always one word of the command and never code.
package shellwords

import "strings"

// Quote returns s as one single-quoted shell word, for bash, zsh, fish
// and POSIX sh alike: nothing inside it is expanded.
func Quote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// QuoteWord is Quote where s needs it: a word of letters, digits and
// -_./=:,+@% is left as it is (a path, a branch), so that what is shown
// reads as one would type it.
func QuoteWord(s string) string {
	if s == "" {
		return "''"
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-_./=:,+@%", c) >= 0) {
			return Quote(s)
		}
	}
	return s
}
