package aifix

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/analyze"
	"github.com/hookd/hookd/internal/ai/llm"
	"github.com/hookd/hookd/internal/ai/llm/llmtest"
	"github.com/hookd/hookd/internal/shelltest"
)

var failure = analyze.Input{Command: "git push", ExitCode: 128, Cwd: "/src", Shell: "bash",
	Output: "fatal: The current branch feature has no upstream branch.\nAWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n"}

var rules = analyze.Result{ErrorType: analyze.ConfigurationError, RootCause: "no upstream branch", Method: analyze.MethodHeuristic,
	Fixes: []analyze.Fix{{Command: "git push --set-upstream origin feature", Risk: "low", Confidence: 0.9}}}

// servers are the providers with structured output, each against its
// fake.
var servers = []struct {
	provider string
	start    func(testing.TB) *llmtest.Server
	base     func(*llmtest.Server) string
}{
	{llm.OpenAI, llmtest.NewOpenAI, func(s *llmtest.Server) string { return s.URL + "/v1" }},
	{llm.Anthropic, llmtest.NewAnthropic, func(s *llmtest.Server) string { return s.URL }},
	{llm.Ollama, llmtest.NewOllama, func(s *llmtest.Server) string { return s.URL }},
}

func provider(t *testing.T, base, name string) llm.Provider {
	p, err := llm.New(llm.Config{Provider: name, Model: "m", BaseURL: base, APIKey: "sk-test-0123456789", Timeout: shelltest.Scale(30 * time.Second), RetryWait: time.Millisecond}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestAnalyzeValid(t *testing.T) {
	answer := `{"root_cause":"the branch feature has no upstream on origin","error_type":"configuration_error","fixes":[` +
		`{"command":"git push -u origin feature","explanation":"push and set the upstream","risk":"low","confidence":0.92},` +
		`{"command":"rm -rf ~/.gitconfig","explanation":"reset git","risk":"low","confidence":0.75}]}`
	for _, sv := range servers {
		t.Run(sv.provider, func(t *testing.T) {
			s := sv.start(t)
			s.SetReply(llmtest.Reply{Text: []string{answer[:40], answer[40:]}})
			req, n := Prepare(failure, rules, "Linux", nil)
			if n == 0 {
				t.Error("the secret in the output was not redacted")
			}
			out := Analyze(t.Context(), provider(t, sv.base(s), sv.provider), req, rules, 0)
			if out.Fallback != "" {
				t.Fatalf("fell back: %s", out.Fallback)
			}
			r := out.Result
			if r.Method != MethodHybrid || r.RootCause != "the branch feature has no upstream on origin" || len(r.Fixes) != 3 {
				t.Fatalf("result %+v", r)
			}
			if r.Fixes[0].Command != "git push -u origin feature" || r.Fixes[1].Command != "rm -rf ~/.gitconfig" || r.Fixes[2].Command != rules.Fixes[0].Command {
				t.Errorf("order %+v", r.Fixes)
			}
			if r.Fixes[1].Risk == analyze.RiskLow {
				t.Errorf("rm -rf kept the model's low risk")
			}
			got := s.Last()
			user := got.Messages[len(got.Messages)-1].Content
			if !strings.Contains(user, "$ git push") || !strings.Contains(user, "no upstream branch") || strings.Contains(user, "wJalrXUtnFEMI") {
				t.Errorf("the server got:\n%s", user)
			}
			switch sv.provider {
			case llm.OpenAI:
				var rf struct {
					Type       string `json:"type"`
					JSONSchema struct {
						Strict bool `json:"strict"`
					} `json:"json_schema"`
				}
				if json.Unmarshal(got.ResponseFormat, &rf) != nil || rf.Type != "json_schema" || !rf.JSONSchema.Strict {
					t.Errorf("response_format = %s", got.ResponseFormat)
				}
			case llm.Anthropic:
				if !strings.Contains(string(got.ToolChoice), `"failure_analysis"`) {
					t.Errorf("tool_choice = %s", got.ToolChoice)
				}
			case llm.Ollama:
				if !strings.Contains(string(got.Format), `"root_cause"`) {
					t.Errorf("format = %s", got.Format)
				}
			}
		})
	}
}

func TestAnalyzeFallbacks(t *testing.T) {
	s := llmtest.NewOpenAI(t)
	p := provider(t, s.URL+"/v1", llm.OpenAI)
	req, _ := Prepare(failure, rules, "", nil)

	s.SetReply(llmtest.Reply{Text: []string{`{"root_cause": "cut off`}})
	out := Analyze(t.Context(), p, req, rules, 0)
	if !strings.Contains(out.Fallback, "not a valid analysis") || out.Result.Method != analyze.MethodHeuristic || out.Result.Fixes[0] != rules.Fixes[0] {
		t.Errorf("invalid JSON: %+v", out)
	}

	// An answer that never ends: only the time limit gets Analyze back.
	s.SetReply(llmtest.Reply{Text: []string{"{", `"root_cause":"x","error_type":"unknown","fixes":[]}`}})
	s.Push(llmtest.Step{StallAfter: 1})
	start := time.Now()
	out = Analyze(t.Context(), p, req, rules, 300*time.Millisecond)
	if el := time.Since(start); el > shelltest.Scale(10*time.Second) || !strings.Contains(out.Fallback, "did not answer within 300ms") || out.Result.Fixes[0] != rules.Fixes[0] {
		t.Errorf("slow answer: after %s, %+v", el, out)
	}

	s.Push(llmtest.Step{Status: 401, Message: "bad key"})
	out = Analyze(t.Context(), p, req, rules, 0)
	if !strings.Contains(out.Fallback, "could not be asked") || out.Result.Method != analyze.MethodHeuristic {
		t.Errorf("error: %+v", out)
	}
}

func TestCommandProvider(t *testing.T) {
	// A command (such as `llm`) that answers JSON in a fenced block: the
	// schema goes in the prompt, the answer is validated all the same.
	p, err := llm.New(llm.Config{Provider: llm.Command, Command: "cat >/dev/null; printf '%s\\n' '```json' '{\"root_cause\":\"r\",\"error_type\":\"unknown\",\"fixes\":[{\"command\":\"ls -la\",\"explanation\":\"look\",\"risk\":\"low\",\"confidence\":0.8}]}' '```'"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	req, _ := Prepare(failure, analyze.Result{}, "", nil)
	out := Analyze(t.Context(), p, req, analyze.Result{}, 5*time.Second)
	if out.Fallback != "" || out.Result.Method != MethodAI || out.Result.Fixes[0].Command != "ls -la" {
		t.Errorf("%+v", out)
	}
}
