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
		// Names a cloned repository may hold leave the quote as names.
		{name: "a file named $(…)", cmd: "grep 'foo $(reboot)", exit: 2, env: files("/w/$(reboot)"), out: eof, want: "grep 'foo' '$(reboot)'"},
		{name: "a file named ;id", cmd: "grep 'foo ;id", exit: 2, env: files("/w/;id"), out: eof, want: "grep 'foo' ';id'"},
		{name: "a file named like an option: nothing", cmd: "grep 'foo -rf", exit: 2, env: files("/w/-rf"), out: eof, want: ""},
	})
}

// TestCloseBrackets: an awk or jq program left with a bracket open (their
// output on this machine: mawk 1.3.4, jq 1.6) is closed at its end.
func TestCloseBrackets(t *testing.T) {
	jqEnd := "jq: error: syntax error, unexpected $end (Unix shell quoting issues?) at <top-level>, line 1:\n.items[      \njq: 1 compile error\n"
	runCases(t, []ruleCase{
		{name: "awk", cmd: "awk -F, '{print $1' data.csv", exit: 2, out: "awk: line 2: missing } near end of file\n", want: "awk -F, '{print $1}' data.csv", typ: "syntax_error"},
		{name: "jq", cmd: "jq '.items[' data.json", exit: 3, out: jqEnd, want: "jq '.items[]' data.json"},
		{name: "jq, nested, after --arg", cmd: "jq --arg k v '.items | map(.x' data.json", exit: 3,
			out:  "jq: error: syntax error, unexpected $end, expecting ';' or ')' (Unix shell quoting issues?) at <top-level>, line 1:\n.items | map(.x             \njq: 1 compile error\n",
			want: "jq --arg k v '.items | map(.x)' data.json"},
		{name: "a bracket inside a string is text", cmd: `jq '"[" + .a' data.json`, exit: 3, out: jqEnd, want: ""},
		{name: "closed one it did not open: nothing", cmd: "jq '.a]' data.json", exit: 3, out: jqEnd, want: ""},
	})
}
