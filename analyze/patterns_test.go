package analyze_test

import (
	"context"
	"strings"
	"testing"

	"github.com/hookd/hookd/analyze"
)

func TestPatterns(t *testing.T) {
	rules, errs := analyze.CompilePatterns([]analyze.Pattern{
		{Name: "tf-init", Command: `^terraform (plan|apply)`, Output: `Please run "(?P<cmd>terraform init)"`,
			ErrorType: analyze.ConfigurationError, Explanation: "The directory is not initialised.",
			Fixes: []analyze.PatternFix{{Command: "{cmd} && {command}", Explanation: "Initialise first."}}},
		{Name: "kubectx", Command: `^kubectl (\S+) .*--context=(\S+)`, Fixes: []analyze.PatternFix{{Command: "kubectl config use-context {2} && kubectl {args}"}}},
		{Name: "no-expr"},
		{Name: "bad-re", Output: "a("},
		{Name: "bad-type", Output: "x", ErrorType: "oops"},
		{Name: "bad-var", Output: "x", Fixes: []analyze.PatternFix{{Command: "echo {3}"}}},
		{Name: "too-many", Output: "x", Fixes: []analyze.PatternFix{{Command: "a"}, {Command: "b"}, {Command: "c"}, {Command: "d"}}},
	})
	if len(rules) != 2 || len(errs) != 5 {
		t.Fatalf("CompilePatterns: %d rules, errors %v; want 2 rules and 5 errors", len(rules), errs)
	}
	for i, want := range []string{"no-expr", "bad-re", "bad-type", "bad-var", "too-many"} {
		if !strings.HasPrefix(errs[i].Error(), want+":") {
			t.Errorf("error %d = %q; want it to name %s", i, errs[i], want)
		}
	}
	a := analyze.Analyzer{Rules: append(analyze.DefaultRules(), rules...)}
	tests := []struct {
		cmd, out, want, typ string
	}{
		{"terraform plan", "Error: Please run \"terraform init\".\n", "terraform init && terraform plan", analyze.ConfigurationError},
		{"terraform plan", "Error: something else\n", "", ""},
		{"kubectl get pods --context=prod", "error: context not found\n", "kubectl config use-context prod && kubectl get pods --context=prod", analyze.Unknown},
	}
	for _, tt := range tests {
		r := a.Analyze(context.Background(), analyze.Input{Command: tt.cmd, ExitCode: 1, Output: tt.out, Cwd: "/w"})
		got := ""
		if len(r.Fixes) > 0 {
			got = r.Fixes[0].Command
		}
		if got != tt.want || (tt.typ != "" && r.ErrorType != tt.typ) {
			t.Errorf("Analyze(%q, %q) = %q (%s); want %q (%s)", tt.cmd, tt.out, got, r.ErrorType, tt.want, tt.typ)
		}
	}
}
