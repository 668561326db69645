package render

import "strings"

// fence is the opening of a fenced code block: its character (` or ~) and
// how many of them, or the zero value outside one.
type fence struct {
	char byte
	n    int
}

func (f fence) open() bool { return f.n > 0 }

// closer returns a line that closes f.
func (f fence) closer() string { return strings.Repeat(string(f.char), f.n) }

// openFence reports whether line opens a fenced code block. Indentation,
// list markers and quote markers before the fence are allowed: the line is
// only a hint of where a block ends, and the Markdown parser, given the
// whole block, decides what it is.
func openFence(line string) (fence, bool) {
	s := stripContainers(line)
	n := run(s)
	if n < 3 || (s[0] != '`' && s[0] != '~') {
		return fence{}, false
	}
	if s[0] == '`' && strings.IndexByte(s[n:], '`') >= 0 {
		return fence{}, false // an inline code span
	}
	return fence{char: s[0], n: n}, true
}

// closes reports whether line closes f.
func (f fence) closes(line string) bool {
	if !f.open() {
		return false
	}
	s := strings.TrimLeft(line, " >")
	n := run(s)
	return n >= f.n && s[0] == f.char && strings.TrimSpace(s[n:]) == ""
}

// run returns how many times s repeats its first byte at its start.
func run(s string) int {
	n := 0
	for n < len(s) && s[n] == s[0] {
		n++
	}
	return n
}

// stripContainers drops the indentation and the quote and list markers
// line begins with.
func stripContainers(line string) string {
	s := line
	for {
		s = strings.TrimLeft(s, " ")
		switch {
		case strings.HasPrefix(s, ">"):
			s = s[1:]
		case len(s) > 1 && strings.ContainsRune("-*+", rune(s[0])) && s[1] == ' ':
			s = s[2:]
		default:
			i := 0
			for i < len(s) && i < 9 && s[i] >= '0' && s[i] <= '9' {
				i++
			}
			if i > 0 && i+1 < len(s) && (s[i] == '.' || s[i] == ')') && s[i+1] == ' ' {
				s = s[i+2:]
				continue
			}
			return s
		}
	}
}
