package analyze

import (
	"context"
	"fmt"
	"strings"

	"github.com/hookd/hookd/internal/shellwords"
)

// A search tool (grep and its kin, ripgrep, ag) refused its pattern as a
// regular expression and the pattern holds a character regular expressions
// give a meaning ('(' in a function name, '[' in an array's index, a
// trailing backslash): the user most often meant the text itself, which
// -F searches for. -E or -P typed alone gives way to -F (grep takes one
// matcher).

// regexErrorKeys are the tools' wordings (GNU grep, ripgrep's regex crate,
// ag's PCRE), each printed on this machine; lower case.
var regexErrorKeys = []string{
	"unmatched ( or \\(", "unmatched [", "unmatched ) or \\)", "invalid regular expression", "invalid preceding regular expression",
	"trailing backslash", "regex parse error", "failed to compile regex", "unmatched parentheses", "missing )", "missing terminating ]",
}

// fixedStringTools take -F for a pattern that is text.
var fixedStringTools = map[string]bool{"grep": true, "egrep": true, "rg": true, "ag": true, "zgrep": true}

func ruleRegexAsText(ctx context.Context, f *Failure) *Finding {
	if !f.has(regexErrorKeys...) {
		return nil
	}
	for ci := len(f.Calls) - 1; ci >= 0; ci-- {
		c := &f.Calls[ci]
		if !fixedStringTools[c.Name()] {
			continue
		}
		matcher, pattern := -1, ""
		for j := 1; j < len(c.Args); j++ {
			a := c.Args[j]
			switch {
			case a == "-F" || a == "--fixed-strings":
				return nil // already text: another cause
			case a == "-E" || a == "-P" || a == "--extended-regexp" || a == "--perl-regexp":
				matcher = j
			case a == "-e" && j+1 < len(c.Args) && pattern == "":
				pattern = c.Args[j+1]
			case !strings.HasPrefix(a, "-") && pattern == "":
				pattern = a
			}
			if pattern != "" {
				break // the options that matter come before the pattern
			}
		}
		if !strings.ContainsAny(pattern, "()[]{}\\*+?|") {
			return nil
		}
		cmd := ""
		if matcher >= 0 {
			cmd = f.replaceWord(c, matcher, "-F")
		} else {
			cmd = f.replaceWords(c, 1, 1, "-F")
		}
		return found(SyntaxError, 0.75, "The pattern "+shortPattern(pattern)+" is not a valid regular expression for "+c.Name()+"; -F searches for it as text.",
			fix(cmd, 0.75, "Search for the text itself (-F: no regular expression)."))
	}
	return nil
}

// shortPattern is a pattern for a message: cut to 40 bytes, quoted as a
// word of a command line.
func shortPattern(s string) string {
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return shellwords.Quote(s)
}

// A program given to awk or jq on the command line that ends with a
// bracket still open (awk: "missing } near end of file", jq: "unexpected
// $end"): the closing brackets are added at its end, innermost first.
func ruleCloseBrackets(ctx context.Context, f *Failure) *Finding {
	if !f.has("missing } near end of file", "missing ) near end of file", "unexpected $end", "unexpected end of file") {
		return nil
	}
	for ci := len(f.Calls) - 1; ci >= 0; ci-- {
		c := &f.Calls[ci]
		name := c.Name()
		if name != "jq" && name != "awk" && name != "gawk" && name != "mawk" {
			continue
		}
		for j := 1; j < len(c.Args); j++ {
			a := c.Args[j]
			if strings.HasPrefix(a, "-") && len(a) > 1 {
				switch a {
				case "-f", "--from-file":
					return nil // the program is in a file
				case "-F", "-v":
					j++ // awk's option and its value
				case "--arg", "--argjson":
					j += 2 // jq's name and value
				}
				continue
			}
			closers := openBrackets(a)
			if closers == "" {
				return nil
			}
			return found(SyntaxError, 0.7, fmt.Sprintf("%s's program ends with %q still open.", name, closers),
				fix(f.putWord(c, j, a+closers), 0.7, "Close the program's brackets (%s).", closers))
		}
	}
	return nil
}

// openBrackets returns the brackets that close what program leaves open,
// innermost first, outside its double-quoted strings; "" when it closes
// everything or closes one it did not open.
func openBrackets(program string) string {
	var stack []byte
	inStr := false
	for i := 0; i < len(program); i++ {
		ch := program[i]
		switch {
		case inStr && ch == '\\':
			i++
		case ch == '"':
			inStr = !inStr
		case inStr:
		case ch == '{' || ch == '[' || ch == '(':
			stack = append(stack, map[byte]byte{'{': '}', '[': ']', '(': ')'}[ch])
		case ch == '}' || ch == ']' || ch == ')':
			if len(stack) == 0 || stack[len(stack)-1] != ch {
				return ""
			}
			stack = stack[:len(stack)-1]
		}
	}
	if inStr {
		return ""
	}
	out := make([]byte, len(stack))
	for i := range stack {
		out[i] = stack[len(stack)-1-i]
	}
	return string(out)
}
