package analyze_test

import "testing"

// TestRegexAsText: a pattern a search tool refused as a regular expression
// is searched for as text (output of grep 3.8 and ripgrep run on this
// machine).
func TestRegexAsText(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "ripgrep, unclosed group", cmd: "rg '(' notes.txt", exit: 2,
			out: "regex parse error:\n    (\n    ^\nerror: unclosed group\n", want: "rg -F '(' notes.txt", typ: "syntax_error"},
		{name: "grep -E gives way to -F", cmd: "grep -E 'f(x' notes.txt", exit: 2,
			out: "grep: Unmatched ( or \\(\n", want: "grep -F 'f(x' notes.txt"},
		{name: "grep, a bracket", cmd: "grep -n 'arr[' notes.txt", exit: 2,
			out: "grep: Invalid regular expression\n", want: "grep -F -n 'arr[' notes.txt"},
		{name: "grep, a trailing backslash", cmd: `grep 'a\' notes.txt`, exit: 2,
			out: "grep: Trailing backslash\n", want: `grep -F 'a\' notes.txt`},
		{name: "already -F: nothing", cmd: "grep -F '(' notes.txt", exit: 2,
			out: "grep: Unmatched ( or \\(\n", want: ""},
		{name: "not a search tool: nothing", cmd: "sed -E 's/(/x/' notes.txt", exit: 1,
			out: "sed: -e expression #1, char 6: Unmatched ( or \\(\n", want: ""},
	})
}
