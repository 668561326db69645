package analyze

import (
	"regexp"
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

// MatchString is regexp.Regexp.MatchString.
func (l lazyRegexp) MatchString(s string) bool { return l.get().MatchString(s) }

// FindStringSubmatch is regexp.Regexp.FindStringSubmatch.
func (l lazyRegexp) FindStringSubmatch(s string) []string { return l.get().FindStringSubmatch(s) }

// FindAllStringSubmatch is regexp.Regexp.FindAllStringSubmatch.
func (l lazyRegexp) FindAllStringSubmatch(s string, n int) [][]string {
	return l.get().FindAllStringSubmatch(s, n)
}

// ReplaceAllString is regexp.Regexp.ReplaceAllString.
func (l lazyRegexp) ReplaceAllString(s, repl string) string {
	return l.get().ReplaceAllString(s, repl)
}

// ReplaceAllStringFunc is regexp.Regexp.ReplaceAllStringFunc.
func (l lazyRegexp) ReplaceAllStringFunc(s string, repl func(string) string) string {
	return l.get().ReplaceAllStringFunc(s, repl)
}
