package analyze_test

import (
	"context"
	"testing"

	"github.com/hookd/hookd/analyze"
	"github.com/hookd/hookd/analyze/analyzetest"
)

// manPage adds a gzipped manual page, in groff as Debian ships them.
func manPage(name, groff string) func(*analyzetest.Facts) {
	return manPageAt("/usr/share/man/man1/"+name+".1.gz", groff)
}

// both applies two adjustments.
func both(a, b func(*analyzetest.Facts)) func(*analyzetest.Facts) {
	return func(f *analyzetest.Facts) { a(f); b(f) }
}

// TestUnknownOption: a mistyped long option, in each family's wording (the
// outputs are the tools' own, recorded on Debian 12), corrected from the
// tool's proposals, the usage it printed, or its manual page.
func TestUnknownOption(t *testing.T) {
	lsMan := manPage("ls", ".TP\n\\fB\\-a\\fR, \\fB\\-\\-all\\fR\ndo not ignore entries starting with .\n.TP\n\\fB\\-A\\fR, \\fB\\-\\-almost\\-all\\fR\n.TP\n\\fB\\-\\-color\\fR[=\\fI\\,WHEN\\/\\fR]\ncolor the output WHEN\n")
	runCases(t, []ruleCase{
		{name: "GNU, from the manual", cmd: "ls --colr", exit: 2, env: lsMan,
			out:  "ls: unrecognized option '--colr'\nTry 'ls --help' for more information.\n",
			want: "ls --color", typ: "syntax_error", cause: "ls has no option --colr; did you mean --color?"},
		{name: "GNU, the value kept, grep's manual", cmd: "grep --colr=always foo f.txt", exit: 2,
			env:  manPage("grep", ".TP\n.BR \\-\\^\\-color [ =\\fIWHEN\\fP \"], \" \\-\\^\\-colour [ =\\fIWHEN\\fP ]\n.TP\n.BR \\-i \", \" \\-\\^\\-ignore\\-case\n"),
			out:  "grep: unrecognized option '--colr=always'\nUsage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n",
			want: "grep --color=always foo f.txt"},
		{name: "GNU, the start of a long option", cmd: "df --humn", exit: 1,
			env:  manPage("df", ".TP\n\\fB\\-h\\fR, \\fB\\-\\-human\\-readable\\fR\nprint sizes in powers of 1024\n.TP\n\\fB\\-H\\fR, \\fB\\-\\-si\\fR\n"),
			out:  "df: unrecognized option '--humn'\nTry 'df --help' for more information.\n",
			want: "df --human-readable"},
		{name: "GNU, ambiguous: the tool's possibilities", cmd: "ls --al", exit: 2,
			out:  "ls: option '--al' is ambiguous; possibilities: '--all' '--almost-all'\nTry 'ls --help' for more information.\n",
			want: "ls --all", also: "ls --almost-all"},
		{name: "nothing near: no fix", cmd: "ls --xyzzy", exit: 2, env: lsMan,
			out:  "ls: unrecognized option '--xyzzy'\nTry 'ls --help' for more information.\n",
			want: "", cause: "ls has no option --xyzzy; ls --help lists the ones it has"},
		{name: "no manual: no fix", cmd: "sort --reverce f.txt", exit: 2,
			out:  "sort: unrecognized option '--reverce'\nTry 'sort --help' for more information.\n",
			want: ""},
		{name: "cobra without a manual: the help its message names", cmd: "docker run --rmm alpine", exit: 125,
			env: func(f *analyzetest.Facts) {
				f.Helps = map[string]string{"docker run --help": "Usage:  docker run [OPTIONS] IMAGE\n\nOptions:\n      --read-only   Mount read only\n      --rm          Remove the container\n  -t, --tty         Allocate a TTY\n"}
			},
			out:  "unknown flag: --rmm\n\nUsage:  docker run [OPTIONS] IMAGE [COMMAND] [ARG...]\n\nRun 'docker run --help' for more information\n",
			want: "docker run --rm alpine", cause: "docker run has no option --rmm; did you mean --rm?"},
		{name: "kubectl's -h", cmd: "kubectl get pods --namespce x", exit: 1,
			env: func(f *analyzetest.Facts) {
				f.Helps = map[string]string{"kubectl get -h": "Options:\n    -n, --namespace='': the namespace\n    -o, --output='': format\n"}
			},
			out:  "error: unknown flag: --namespce\nSee 'kubectl get -h' for help and examples\n",
			want: "kubectl get pods --namespace x"},
		{name: "help named for another program: not asked", cmd: "docker run --rmm alpine", exit: 125,
			env: func(f *analyzetest.Facts) {
				f.Helps = map[string]string{"evil run --help": "--rm\n", "docker evil --help": "--rm\n"}
			},
			out:  "unknown flag: --rmm\nRun 'evil run --help' or 'docker evil --help' for more information\n",
			want: ""},
		{name: "a path typed: not asked", cmd: "./docker run --rmm alpine", exit: 125,
			env: func(f *analyzetest.Facts) {
				f.Helps = map[string]string{"./docker run --help": "--rm\n", "docker run --help": "--rm\n"}
			},
			out:  "unknown flag: --rmm\nRun './docker run --help' for more information\n",
			want: ""},
		{name: "--version, listed nowhere", cmd: "perl --versoin", exit: 29,
			out:  "Unrecognized switch: --versoin  (-h will show valid options).\n",
			want: "perl --version"},
		{name: "git log, the subcommand's manual", cmd: "git log --grpah", exit: 128,
			env:  manPage("git-log", "\\fB\\-\\-graph\\fR\n.RS 4\nDraw a text-based graphical representation\n.RE\n\\fB\\-\\-oneline\\fR\n"),
			out:  "fatal: unrecognized argument: --grpah\n",
			want: "git log --graph", cause: "git log has no option --grpah"},
		{name: "git diff", cmd: "git diff --stats", exit: 129,
			env:  manPage("git-diff", "\\fB\\-\\-stat\\fR[=<width>[,<name\\-width>[,<count>]]]\n.RS 4\n"),
			out:  "error: invalid option: --stats\n",
			want: "git diff --stat"},
		{name: "curl", cmd: "curl --silnt http://example.com", exit: 2,
			env:  manPage("curl", ".IP \"-s, --silent\"\nSilent or quiet mode.\n.IP \"--max-time <fraction of seconds>\"\n"),
			out:  "curl: option --silnt: is unknown\ncurl: try 'curl --help' or 'curl --manual' for more information\n",
			want: "curl --silent http://example.com"},
		{name: "argparse, from its usage", cmd: "python3 a.py --outptu x", exit: 2,
			out:  "usage: a.py [-h] [--verbose] [--output OUTPUT]\na.py: error: unrecognized arguments: --outptu x\n",
			want: "python3 a.py --output x", cause: "a.py has no option --outptu"},
		{name: "Go's flag package, one dash", cmd: "./tool -verbos", exit: 2,
			env:  files("/w/tool"),
			out:  "flag provided but not defined: -verbos\nUsage of ./tool:\n  -config string\n    \tthe file\n  -verbose\n    \tsay more\n",
			want: "./tool -verbose"},
		{name: "Go's flag package, typed with two dashes", cmd: "./tool --confg x", exit: 2,
			env:  files("/w/tool"),
			out:  "flag provided but not defined: -confg\nUsage of ./tool:\n  -config string\n    \tthe file\n  -verbose\n    \tsay more\n",
			want: "./tool --config x"},
		{name: "cobra, from its Flags", cmd: "app get --namspace x", exit: 1,
			out:  "Error: unknown flag: --namspace\nUsage:\n  app get [flags]\n\nFlags:\n  -h, --help               help for get\n  -n, --namespace string   the namespace\n",
			want: "app get --namespace x"},
		{name: "clap's tip", cmd: "cargo build --relese", exit: 2,
			out:  "error: unexpected argument '--relese' found\n\n  tip: a similar argument exists: '--release'\n\nUsage: cargo build [OPTIONS]\n\nFor more information, try '--help'.\n",
			want: "cargo build --release"},
		{name: "Maven, from its usage", cmd: "mvn -v --quite", exit: 1,
			out:  "Unable to parse command line options: Unrecognized option: --quite\n\nusage: mvn [options] [<goal(s)>] [<phase(s)>]\n\nOptions:\n -o,--offline                           Work offline\n -q,--quiet                             Quiet output - only show errors\n",
			want: "mvn -v --quiet"},
		{name: "javac, one dash, from its manual (pandoc's groff)", cmd: "javac -sourc 8 X.java", exit: 2,
			env:  manPage("javac", ".TP\n.B \\f[CB]\\-source\\f[R] \\f[I]release\\f[R]\nSpecifies the version of source code accepted.\n.TP\n.B \\f[CB]\\-verbose\\f[R]\n"),
			out:  "error: invalid flag: -sourc\nUsage: javac <options> <source files>\nuse --help for a list of possible options\n",
			want: "javac -source 8 X.java"},
		{name: "git's own usage, --[no-] options", cmd: "git status --shrot", exit: 129,
			out:  "error: unknown option `shrot'\nusage: git status [<options>] [--] [<pathspec>...]\n\n    -v, --[no-]verbose    be verbose\n    -s, --[no-]short      show status concisely\n",
			want: "git status --short", cause: "git status has no option --shrot; did you mean --short?"},
		{name: "nothing near: said so", cmd: "git status --xyzzy", exit: 129,
			out:  "error: unknown option `xyzzy'\nusage: git status [<options>] [--] [<pathspec>...]\n\n    -s, --[no-]short      show status concisely\n",
			want: "", cause: "git status has no option --xyzzy"},
		{name: "a long option is not a short one", cmd: "tool --vv", exit: 2,
			env:  both(files("/w/tool"), manPage("tool", "\\fB\\-v\\fR, \\fB\\-\\-verbose\\fR\n")),
			out:  "tool: unrecognized option '--vv'\n",
			want: ""},
	})
}

// TestOptionFixTrust: an option corrected within a typo from the tool's own
// words (its usage, its proposals) is trusted as a subcommand corrected is;
// a proposal further away stays marked as the output's.
func TestOptionFixTrust(t *testing.T) {
	for _, tc := range []struct {
		cmd, out, fix string
		untrusted     bool
	}{
		{"python3 a.py --outptu x", "usage: a.py [-h] [--verbose] [--output OUTPUT]\na.py: error: unrecognized arguments: --outptu x\n", "python3 a.py --output x", false},
		{"ls --al", "ls: option '--al' is ambiguous; possibilities: '--all' '--almost-all'\n", "ls --all", false},
		{"ls --al", "ls: option '--al' is ambiguous; possibilities: '--all' '--almost-all'\n", "ls --almost-all", true},
	} {
		in := analyze.Input{Command: tc.cmd, ExitCode: 2, Output: tc.out, Cwd: "/w", Shell: "bash", Env: baseFacts()}
		r := analyze.Analyze(context.Background(), in)
		fx, ok := fixFor(r, tc.fix)
		switch {
		case !ok:
			t.Errorf("%s: no fix %q among %+v", tc.cmd, tc.fix, r.Fixes)
		case fx.Untrusted != tc.untrusted:
			t.Errorf("%s: fix %q untrusted = %v; want %v", tc.cmd, fx.Command, fx.Untrusted, tc.untrusted)
		}
	}
}
