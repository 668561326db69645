package analyze_test

import (
	"testing"

	"github.com/hookd/hookd/analyze"
	"github.com/hookd/hookd/analyze/analyzetest"
)

// TestRestates: a root cause that only says the error above it again is
// marked (the prompt's lines leave it out); one with a near name, a cause
// or a reason of its own is not (issue 32 item 9).
func TestRestates(t *testing.T) {
	for _, tc := range []struct {
		cmd, out string
		env      func(*analyzetest.Facts)
		restates bool
	}{
		{"ls nosuchfile", "ls: cannot access 'nosuchfile': No such file or directory\n", nil, true},
		{"cat nosuchfile", "cat: nosuchfile: No such file or directory\n", nil, true},
		{"deploy --prod", "deploy: unknown option --prod\n", nil, true},
		{"rm data/cache.db", "rm: cannot remove 'data/cache.db': Permission denied\n", userWithoutSudo, true},
		// A reason of its own.
		{"touch /srv/imm/x", "touch: cannot touch '/srv/imm/x': Operation not permitted\n", nil, false},
		// A near name.
		{"cd srcc", "bash: cd: srcc: No such file or directory\n", files("/w/src/"), false},
		// Nothing shown above: the cause is all there is.
		{"ls nosuchfile", "", nil, false},
	} {
		facts := baseFacts()
		if tc.env != nil {
			tc.env(facts)
		}
		r := analyze.Analyze(t.Context(), analyze.Input{Command: tc.cmd, ExitCode: 1, Output: tc.out, Cwd: "/w", Shell: "bash", Env: facts})
		if r.Restates != tc.restates {
			t.Errorf("%s: Restates = %v; want %v (cause %q)", tc.cmd, r.Restates, tc.restates, r.RootCause)
		}
	}
}
