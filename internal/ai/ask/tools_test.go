package ask

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/ai/llm"
	"github.com/hookd/hookd/internal/ai/llm/llmtest"
	"github.com/hookd/hookd/internal/shelltest"
)

// TestConverse: a model that calls command_output and then answers, in
// each vendor's wire format; the second request carries the output.
func TestConverse(t *testing.T) {
	for _, f := range []struct {
		provider string
		start    func(testing.TB) *llmtest.Server
		base     func(*llmtest.Server) string
	}{
		{llm.OpenAI, llmtest.NewOpenAI, func(s *llmtest.Server) string { return s.URL + "/v1" }},
		{llm.Anthropic, llmtest.NewAnthropic, func(s *llmtest.Server) string { return s.URL }},
		{llm.Ollama, llmtest.NewOllama, func(s *llmtest.Server) string { return s.URL }},
	} {
		t.Run(f.provider, func(t *testing.T) {
			src := testSources(t)
			s := f.start(t)
			s.Push(llmtest.Step{Reply: &llmtest.Reply{Calls: []llmtest.Call{{Name: "command_output", Arguments: `{"ref":"-2"}`}}}},
				llmtest.Step{Reply: &llmtest.Reply{Text: []string{"TestX fails: ", "fix it."}}})
			p, err := llm.New(llm.Config{Provider: f.provider, Model: "m", BaseURL: f.base(s), APIKey: "sk-test-0123456789", Timeout: shelltest.Scale(30 * time.Second)}, nil)
			if err != nil {
				t.Fatal(err)
			}
			var shown []string
			r := &recorder{}
			a, err := StreamTools(t.Context(), p, llm.Request{Messages: []llm.Message{{Role: "user", Content: "why did the tests fail?"}}}, r, time.Now,
				&Toolbox{Sources: src, Root: t.TempDir()}, func(s string) { shown = append(shown, s) })
			if err != nil || a.Answer != "TestX fails: fix it." {
				t.Fatalf("answer %q, %v", a.Answer, err)
			}
			if len(shown) != 1 || shown[0] != "command_output(-2)" {
				t.Errorf("calls shown: %q", shown)
			}
			reqs := s.Requests()
			if len(reqs) != 2 || len(reqs[0].Tools) != 3 {
				t.Fatalf("%d requests, tools %+v", len(reqs), reqs[0].Tools)
			}
			second := reqs[1].Messages
			var result string
			for _, m := range second {
				result += m.Content
				for _, r := range m.Results {
					result += r.Content
				}
			}
			if !strings.Contains(result, "FAIL: TestX") || strings.Contains(result, "hunter2") {
				t.Errorf("the tool's result (redacted) did not go back: %+v", second)
			}
		})
	}
}

type recorder struct{ text, reasoning string }

func (r *recorder) Text(d string) error      { r.text += d; return nil }
func (r *recorder) Reasoning(d string) error { r.reasoning += d; return nil }
func (r *recorder) Close() error             { return nil }

func TestToolCalls(t *testing.T) {
	src := testSources(t)
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "main.go"), []byte("package main\n"), 0o600)
	os.WriteFile(filepath.Join(root, "bin"), []byte("\x7fELF\x00\x01"), 0o600)
	outside := filepath.Join(t.TempDir(), "secret.txt")
	os.WriteFile(outside, []byte("top secret\n"), 0o600)
	os.Symlink(outside, filepath.Join(root, "link"))
	tb := &Toolbox{Sources: src, Root: root}
	for _, c := range []struct{ name, args, want string }{
		{"read_file", `{"path":"main.go"}`, "package main"},
		{"read_file", `{"path":"../x"}`, "error: ../x: not found"},
		{"read_file", `{"path":"link"}`, "is outside the project"},
		{"read_file", `{"path":"` + outside + `"}`, "is outside the project"},
		{"read_file", `{"path":"bin"}`, "is a binary file"},
		{"history_search", `{"query":"make"}`, "exit 1 in /src"},
		{"history_search", `{"query":"make","failed":true}`, "#2 exit 1"},
		{"history_search", `{"query":"nothing-like-it"}`, "no command matches"},
		{"command_output", `{"ref":"2"}`, "password=[REDACTED"},
		{"command_output", `{"ref":"-1"}`, "no output"},
		{"command_output", `{"ref":"99"}`, "error:"},
		{"rm_rf", `{}`, "there is no tool"},
		{"read_file", `not json`, "not a JSON object"},
	} {
		got, _ := tb.Call(t.Context(), llm.ToolCall{Name: c.name, Arguments: []byte(c.args)})
		if !strings.Contains(got, c.want) {
			t.Errorf("%s(%s) = %q; want it to hold %q", c.name, c.args, got, c.want)
		}
		if strings.Contains(got, "top secret") || strings.Contains(got, "hunter2") {
			t.Errorf("%s(%s) leaked: %q", c.name, c.args, got)
		}
	}
}

// TestToolLimit: a model that keeps calling gets told the limit, then is
// stopped.
func TestToolLimit(t *testing.T) {
	s := llmtest.NewOpenAI(t)
	call := llmtest.Reply{Calls: []llmtest.Call{{Name: "history_search", Arguments: `{"query":"x"}`}}}
	for range 10 {
		s.Push(llmtest.Step{Reply: &call})
	}
	p, _ := llm.New(llm.Config{Provider: llm.OpenAI, Model: "m", BaseURL: s.URL + "/v1", APIKey: "sk-test-0123456789"}, nil)
	n := 0
	_, err := StreamTools(t.Context(), p, llm.Request{Messages: []llm.Message{{Role: "user", Content: "q"}}}, &recorder{}, time.Now,
		&Toolbox{Sources: testSources(t), Max: 2}, func(string) { n++ })
	if err == nil || !strings.Contains(err.Error(), "past the limit of 2") || n != 5 {
		t.Errorf("err %v after %d calls", err, n)
	}
}
