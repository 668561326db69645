package analyze_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/hookd/hookd/analyze"
	"github.com/hookd/hookd/analyze/analyzetest"
)

// ruleCase is one row of a rule table: a failure, the environment it
// happened in, and what Analyze should say.
type ruleCase struct {
	name  string
	cmd   string
	exit  int
	out   string
	env   func(*analyzetest.Facts) // adjusts the base environment; may be nil
	shell string
	want  string // the first fix; "" means no fix at all
	typ   string // the error type, when checked
	cause string // a substring of the root cause (any case), when checked
	also  string // another fix that must be among the three, when checked
}

// baseExes is the PATH of the test machine, a small Debian system.
var baseExes = strings.Fields(`ls cat grep git python3 pip pip3 npm node docker make go gcc g++
	tar unzip gunzip gzip bzip2 xz apt apt-get dpkg mkdir cp mv rm rmdir ln touch chmod chown
	sed awk find head tail less wc sort curl wget ssh scp java javac mvn cargo rustc ip ss
	systemctl service journalctl which echo printf env bash sh zsh kill ps du df clear npx
	nm su ssh-keygen`)

// baseFacts returns the environment every case starts from: root on a
// Debian machine, in the directory /w.
func baseFacts() *analyzetest.Facts {
	return &analyzetest.Facts{
		Exes:  baseExes,
		Shell: strings.Fields("cd echo export source alias type test [ pwd set unset read exit"),
		Root:  true,
		Files: map[string]string{"/w/": ""},
	}
}

// exes puts programs on the PATH of the environment.
func exes(names ...string) func(*analyzetest.Facts) {
	return func(f *analyzetest.Facts) {
		f.Exes = append(slices.Clip(f.Exes), names...)
	}
}

// files adds files to the environment.
func files(paths ...string) func(*analyzetest.Facts) {
	return func(f *analyzetest.Facts) {
		for _, p := range paths {
			f.Files[p] = ""
		}
	}
}

func runCases(t *testing.T, cases []ruleCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			facts := baseFacts()
			if tc.env != nil {
				tc.env(facts)
			}
			shell := tc.shell
			if shell == "" {
				shell = "bash"
			}
			exit := tc.exit
			if exit == 0 {
				exit = 1
			}
			in := analyze.Input{Command: tc.cmd, ExitCode: exit, Output: tc.out, Cwd: "/w", Shell: shell, Env: facts}
			r := analyze.Analyze(context.Background(), in)
			got := ""
			if len(r.Fixes) > 0 {
				got = r.Fixes[0].Command
			}
			if got != tc.want {
				t.Errorf("Analyze(%q) first fix = %q; want %q\nroot cause: %s\nfixes: %+v", tc.cmd, got, tc.want, r.RootCause, r.Fixes)
			}
			if tc.typ != "" && r.ErrorType != tc.typ {
				t.Errorf("Analyze(%q) error type = %q; want %q", tc.cmd, r.ErrorType, tc.typ)
			}
			if tc.cause != "" && !strings.Contains(strings.ToLower(r.RootCause), strings.ToLower(tc.cause)) {
				t.Errorf("Analyze(%q) root cause = %q; want it to mention %q", tc.cmd, r.RootCause, tc.cause)
			}
			if tc.also != "" {
				ok := false
				for _, f := range r.Fixes {
					ok = ok || f.Command == tc.also
				}
				if !ok {
					t.Errorf("Analyze(%q) fixes = %+v; want %q among them", tc.cmd, r.Fixes, tc.also)
				}
			}
		})
	}
}

// fixFor returns the fix of r whose command is cmd.
func fixFor(r analyze.Result, cmd string) (analyze.Fix, bool) {
	for _, fx := range r.Fixes {
		if fx.Command == cmd {
			return fx, true
		}
	}
	return analyze.Fix{}, false
}
