package analyze_test

import "testing"

// TestShortOptionCase: a short option rejected by getopt whose other case
// the tool's manual page names (output of base64 and tar run on this
// machine; BSD's libc words it "illegal option").
func TestShortOptionCase(t *testing.T) {
	base64Man := manPage("base64", ".TP\n\\fB\\-d\\fR, \\fB\\-\\-decode\\fR\ndecode data\n.TP\n\\fB\\-i\\fR, \\fB\\-\\-ignore\\-garbage\\fR\nwhen decoding, ignore non\\-alphabet characters\n")
	bad := "base64: invalid option -- 'D'\nTry 'base64 --help' for more information.\n"
	runCases(t, []ruleCase{
		{name: "BSD's -D", cmd: "base64 -D notes.txt", exit: 1, env: base64Man, out: bad, want: "base64 -d notes.txt", typ: "syntax_error"},
		{name: "BSD libc's wording", cmd: "base64 -D notes.txt", exit: 1, env: base64Man,
			out: "base64: illegal option -- D\nusage: base64 [-hvDd] [-b num] [-i in_file] [-o out_file]\n", want: "base64 -d notes.txt"},
		{name: "in a bundle", cmd: "base64 -iD notes.txt", exit: 1, env: base64Man, out: bad, want: "base64 -id notes.txt"},
		{name: "no manual page: nothing offered", cmd: "base64 -D notes.txt", exit: 1, out: bad, want: ""},
		{name: "the page names the letter typed: not a case slip", cmd: "base64 -D notes.txt", exit: 1,
			env: manPage("base64", ".TP\n\\fB\\-d\\fR\ndecode\n.TP\n\\fB\\-D\\fR\nalso\n"), out: bad, want: ""},
		{name: "the other case is no option either", cmd: "base64 -Q notes.txt", exit: 1, env: base64Man,
			out: "base64: invalid option -- 'Q'\nTry 'base64 --help' for more information.\n", want: ""},
		{name: "a word only in the text is no option", cmd: "tar -F x.tar", exit: 2,
			env: manPage("tar", ".SH DESCRIPTION\nthe archive-f is not an option here\n"),
			out: "tar: invalid option -- 'F'\n", want: ""},
	})
}

// TestSedEmptySuffix: BSD's sed -i ” run with GNU's sed (its output on this
// machine, GNU sed 4.9).
func TestSedEmptySuffix(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "BSD's in-place", cmd: "sed -i '' 's/a/b/' notes.txt", exit: 2, out: "sed: can't read s/a/b/: No such file or directory\n", want: "sed -i 's/a/b/' notes.txt", typ: "syntax_error"},
		{name: "a file really missing: not this", cmd: "sed -i 's/a/b/' nots.txt", exit: 2, out: "sed: can't read nots.txt: No such file or directory\n", want: ""},
	})
}
