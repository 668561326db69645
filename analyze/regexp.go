package analyze

import (
	"regexp"
	"sync"
)

// lazyRegexp is a regular expression compiled on first use. The rules hold
// some two hundred patterns, and compiling them all at start-up would cost
// every hookd suggest run several milliseconds, most of them for patterns
// the failure at hand never reaches.
type lazyRegexp struct {
	src  string
	once sync.Once
	re   *regexp.Regexp
}

// allRegexps lists every pattern, so that a test can compile them all.
var allRegexps []*lazyRegexp

// lazy declares a pattern; it must be called at package initialisation
// only (allRegexps is not locked).
func lazy(src string) *lazyRegexp {
	l := &lazyRegexp{src: src}
	allRegexps = append(allRegexps, l)
	return l
}

func (l *lazyRegexp) get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.src) })
	return l.re
}

// MatchString is regexp.Regexp.MatchString.
func (l *lazyRegexp) MatchString(s string) bool { return l.get().MatchString(s) }

// FindStringSubmatch is regexp.Regexp.FindStringSubmatch.
func (l *lazyRegexp) FindStringSubmatch(s string) []string { return l.get().FindStringSubmatch(s) }

// FindAllStringSubmatch is regexp.Regexp.FindAllStringSubmatch.
func (l *lazyRegexp) FindAllStringSubmatch(s string, n int) [][]string {
	return l.get().FindAllStringSubmatch(s, n)
}

// ReplaceAllString is regexp.Regexp.ReplaceAllString.
func (l *lazyRegexp) ReplaceAllString(s, repl string) string {
	return l.get().ReplaceAllString(s, repl)
}
