package analyze

import (
	"regexp"
	"strings"
	"sync"
)

// lazyRegexp is a regular expression compiled on first use. The rules hold
// some two hundred patterns, and compiling them all at start-up would cost
// every hookd suggest run several milliseconds, most of them for patterns
// the failure at hand never reaches. A pattern is a constant (its source),
// so declaring one costs nothing either: a hookd command that never
// analyses a failure does not pay for them.
type lazyRegexp string

// compiled holds the patterns compiled so far, by source.
var compiled sync.Map // string → *regexp.Regexp

func (l lazyRegexp) get() *regexp.Regexp {
	if re, ok := compiled.Load(string(l)); ok {
		return re.(*regexp.Regexp)
	}
	re, _ := compiled.LoadOrStore(string(l), regexp.MustCompile(string(l)))
	return re.(*regexp.Regexp)
}

// absentFrom reports whether s lacks a text that every match of the pattern
// holds (regexpNeed, generated from the patterns by TestRegexpNeeds): then
// nothing matches, and the pattern need not be compiled. Most patterns
// look for words most outputs lack, and compiling those that a failure
// reached cost hookd suggest 2 ms of its 10.
func (l lazyRegexp) absentFrom(s string) bool {
	need := regexpNeed(string(l))
	return need != "" && !holdsNeed(s, need)
}

// needFold starts a need whose texts are matched ignoring ASCII case.
const needFold = '\x01'

// holdsNeed reports whether s holds one of need's texts (separated by NUL;
// lower-case and matched ignoring ASCII case after a leading needFold).
func holdsNeed(s, need string) bool {
	fold := need[0] == needFold
	if fold {
		need = need[1:]
	}
	for need != "" {
		var text string
		text, need, _ = strings.Cut(need, "\x00")
		if fold && containsFoldASCII(s, text) || !fold && strings.Contains(s, text) {
			return true
		}
	}
	return false
}

// containsFoldASCII reports whether s holds lower (lower-case ASCII) in
// any ASCII case, without copying s: each place its first letter stands,
// in either case, is compared on.
func containsFoldASCII(s, lower string) bool {
	if strings.ContainsAny(lower, "sk") && (strings.Contains(s, "ſ") || strings.Contains(s, "\u212A")) {
		return true // ſ and the Kelvin sign fold to s and k: the regexp decides
	}
	first := lower[:1]
	if c := lower[0]; 'a' <= c && c <= 'z' {
		first += string(c - 'a' + 'A')
	}
	for i := 0; i+len(lower) <= len(s); i++ {
		j := strings.IndexAny(s[i:len(s)-len(lower)+1], first)
		if j < 0 {
			return false
		}
		i += j
		if strings.EqualFold(s[i+1:i+len(lower)], lower[1:]) {
			return true
		}
	}
	return false
}

// MatchString is regexp.Regexp.MatchString.
func (l lazyRegexp) MatchString(s string) bool { return !l.absentFrom(s) && l.get().MatchString(s) }

// FindStringSubmatch is regexp.Regexp.FindStringSubmatch.
func (l lazyRegexp) FindStringSubmatch(s string) []string {
	if l.absentFrom(s) {
		return nil
	}
	return l.get().FindStringSubmatch(s)
}

// FindAllStringSubmatch is regexp.Regexp.FindAllStringSubmatch.
func (l lazyRegexp) FindAllStringSubmatch(s string, n int) [][]string {
	if l.absentFrom(s) {
		return nil
	}
	return l.get().FindAllStringSubmatch(s, n)
}

// ReplaceAllString is regexp.Regexp.ReplaceAllString.
func (l lazyRegexp) ReplaceAllString(s, repl string) string {
	if l.absentFrom(s) {
		return s
	}
	return l.get().ReplaceAllString(s, repl)
}

// ReplaceAllStringFunc is regexp.Regexp.ReplaceAllStringFunc.
func (l lazyRegexp) ReplaceAllStringFunc(s string, repl func(string) string) string {
	if l.absentFrom(s) {
		return s
	}
	return l.get().ReplaceAllStringFunc(s, repl)
}
