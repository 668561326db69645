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

// TestCloseQuote: a quote left open (bash's wording, printed by bash -c on
// this machine) is closed before the last words when they name files here;
// without such words where it ends is a guess, and nothing is offered.
func TestCloseQuote(t *testing.T) {
	eof := "bash: -c: line 1: unexpected EOF while looking for matching `''\n"
	runCases(t, []ruleCase{
		{name: "before the file", cmd: "sed 's/a/b/g notes.txt", exit: 2, env: files("/w/notes.txt"), out: eof, want: "sed 's/a/b/g' notes.txt", typ: "syntax_error"},
		{name: "before two files", cmd: "awk '{print $1} a.txt b.txt", exit: 2, env: files("/w/a.txt", "/w/b.txt"), out: eof, want: "awk '{print $1}' a.txt b.txt"},
		{name: "no file after it: nothing", cmd: `perl -e 'print "hi\n"`, exit: 2, out: eof, want: ""},
		{name: "every quote closed: nothing", cmd: "sed 's/a/b/g' notes.txt", exit: 2, out: eof, want: ""},
	})
}
