package analyze

import (
	"strings"
	"unicode"
)

// plainWords are the words of a root cause that say nothing of their own:
// the phrasing around the names an error message already gave. Made when
// first needed (nothing is built at a hookd start).
var plainWords = lazyValue[map[string]bool]{make: func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the is are was were be been it its this that there
		of in on to for from with by as at or and but not no nor
		does do did doesn don isn t s
		exist exists existing found failed fails failure error errors
		such file files directory directories command commands program
		unknown unrecognized invalid option options argument arguments
		cannot can could permission denied operation permitted
		missing named called`) {
		m[w] = true
	}
	return m
}}

// restates reports whether cause only says again what output says: every
// word of it but the plain ones (plainWords) is in the output. An empty
// output is never restated: the cause is then all the user has.
func restates(cause, output string) bool {
	if strings.TrimSpace(cause) == "" || strings.TrimSpace(output) == "" {
		return false
	}
	out := strings.ToLower(output)
	words := strings.FieldsFunc(strings.ToLower(cause), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	plain := plainWords.get()
	for _, w := range words {
		if !plain[w] && !strings.Contains(out, w) {
			return false
		}
	}
	return true
}
