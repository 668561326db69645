package analyze

import (
	"context"
	"strings"
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
		return found(SyntaxError, 0.75, "The pattern "+shellQuoteShort(pattern)+" is not a valid regular expression for "+c.Name()+"; -F searches for it as text.",
			fix(cmd, 0.75, "Search for the text itself (-F: no regular expression)."))
	}
	return nil
}

// shellQuoteShort quotes a pattern for a message, cut to 40 bytes.
func shellQuoteShort(s string) string {
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return "'" + s + "'"
}
