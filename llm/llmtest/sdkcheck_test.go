package llmtest_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/hookd/hookd/llm/llmtest"
)

// sdkOut is what sdkcheck/check.mjs prints.
type sdkOut struct {
	Text, Reasoning string
	Usage           *struct{ Input, Output int }
	Helper          *struct {
		Text, Reasoning, Signature, Finish string
		Usage                              *struct{ Input, Output int }
	}
	Models []string
	Error  *struct {
		Status  int
		Message string
		Type    string
	}
}

// runSDK runs the official SDK of provider against baseURL. It skips when
// node or sdkcheck/node_modules is missing, unless REQUIRE_SDKCHECK=1
// (CI runs npm ci in sdkcheck first).
func runSDK(t *testing.T, provider, baseURL string) sdkOut {
	t.Helper()
	dir, _ := filepath.Abs("sdkcheck")
	_, err := os.Stat(filepath.Join(dir, "node_modules"))
	node, nerr := exec.LookPath("node")
	if err != nil || nerr != nil {
		if os.Getenv("REQUIRE_SDKCHECK") == "1" {
			t.Fatalf("REQUIRE_SDKCHECK=1 but node (%v) or %s/node_modules (%v) is missing: run npm ci there", nerr, dir, err)
		}
		t.Skip("no node or no sdkcheck/node_modules (npm ci in llm/llmtest/sdkcheck)")
	}
	cmd := exec.CommandContext(t.Context(), node, "check.mjs", provider, baseURL)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "OPENAI_API_KEY=", "ANTHROPIC_API_KEY=", "OPENAI_BASE_URL=", "ANTHROPIC_BASE_URL=")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node check.mjs %s %s: %v\n%s", provider, baseURL, err, out)
	}
	var v sdkOut
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("node check.mjs printed %s: %v", out, err)
	}
	return v
}

func TestSDKOpenAI(t *testing.T) {
	for _, field := range []string{"reasoning_content", "reasoning"} {
		t.Run(field, func(t *testing.T) {
			s := llmtest.NewOpenAI(t)
			s.SetReply(llmtest.Reply{Text: []string{"Run ", "make -j1"}, Reasoning: []string{"The log ", "says…"},
				ReasoningField: field, InputTokens: 42, OutputTokens: 7})
			s.SetModels("gpt-llmtest", "gpt-other")
			got := runSDK(t, "openai", s.URL+"/v1")
			if got.Error != nil {
				t.Fatalf("the SDK failed: %+v", *got.Error)
			}
			if got.Text != "Run make -j1" || got.Reasoning != "The log says…" || got.Usage == nil || *got.Usage != (struct{ Input, Output int }{42, 7}) {
				t.Errorf("SDK stream = %q, %q, %+v; want %q, %q, {42 7}", got.Text, got.Reasoning, got.Usage, "Run make -j1", "The log says…")
			}
			if h := got.Helper; h == nil || h.Text != "Run make -j1" || h.Finish != "stop" || h.Usage == nil || h.Usage.Input != 42 {
				t.Errorf("SDK helper = %+v; want the text, stop and the usage", h)
			}
			if !reflect.DeepEqual(got.Models, []string{"gpt-llmtest", "gpt-other"}) {
				t.Errorf("SDK models = %q", got.Models)
			}
			first := s.Requests()[0]
			if first.Model != "gpt-llmtest" || first.System != "be brief" || len(first.Messages) != 1 ||
				!reflect.DeepEqual(first.Messages[0], llmtest.Message{Role: "user", Content: "why did make fail?"}) || !first.Stream || !first.Usage {
				t.Errorf("the fake decoded the SDK's request as %+v", first)
			}
		})
	}
}

func TestSDKAnthropic(t *testing.T) {
	s := llmtest.NewAnthropic(t)
	s.SetReply(llmtest.Reply{Text: []string{"Run ", "make -j1"}, Reasoning: []string{"The log ", "says…"}, InputTokens: 42, OutputTokens: 7})
	s.SetModels("claude-llmtest")
	got := runSDK(t, "anthropic", s.URL)
	if got.Error != nil {
		t.Fatalf("the SDK failed: %+v", *got.Error)
	}
	if got.Text != "Run make -j1" || got.Reasoning != "The log says…" || got.Usage == nil || *got.Usage != (struct{ Input, Output int }{42, 7}) {
		t.Errorf("SDK stream = %q, %q, %+v; want %q, %q, {42 7}", got.Text, got.Reasoning, got.Usage, "Run make -j1", "The log says…")
	}
	if h := got.Helper; h == nil || h.Text != "Run make -j1" || h.Reasoning != "The log says…" || h.Signature == "" ||
		h.Finish != "end_turn" || h.Usage == nil || h.Usage.Output != 7 {
		t.Errorf("SDK helper = %+v; want the text, the thinking with its signature, end_turn and the usage", h)
	}
	if !reflect.DeepEqual(got.Models, []string{"claude-llmtest"}) {
		t.Errorf("SDK models = %q", got.Models)
	}
	first := s.Requests()[0]
	if first.Model != "claude-llmtest" || first.System != "be brief" || len(first.Messages) != 1 || !first.Stream ||
		(first.Header.Get("X-Api-Key") != "sk-ant-llmtest" && first.Header.Get("Authorization") != "Bearer sk-ant-llmtest") ||
		first.Header.Get("Anthropic-Version") == "" {
		t.Errorf("the fake decoded the SDK's request as %+v", first)
	}
}

// TestSDKErrors checks that the SDKs read the fakes' errors as the
// vendors' own: a status with its message, and Anthropic's error event in
// the middle of a stream.
func TestSDKErrors(t *testing.T) {
	tests := []struct {
		name, provider string
		new            func(testing.TB) *llmtest.Server
		step           llmtest.Step
		key            string
		status         int
		message        string
	}{
		{"openai 401", "openai", llmtest.NewOpenAI, llmtest.Step{}, "sk-other", 401, "Incorrect API key"},
		{"openai 500", "openai", llmtest.NewOpenAI, llmtest.Step{Status: 500, Message: "boom"}, "", 500, "boom"},
		{"openai stream error", "openai", llmtest.NewOpenAI, llmtest.Step{StreamError: "went wrong"}, "", 0, "went wrong"},
		{"anthropic 401", "anthropic", llmtest.NewAnthropic, llmtest.Step{}, "sk-ant-other", 401, "invalid x-api-key"},
		{"anthropic 429", "anthropic", llmtest.NewAnthropic, llmtest.Step{Status: 429, Message: "slow down"}, "", 429, "slow down"},
		{"anthropic stream error", "anthropic", llmtest.NewAnthropic, llmtest.Step{StreamError: "Overloaded"}, "", 0, "Overloaded"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := tt.new(t)
			s.Push(tt.step)
			s.SetKey(tt.key)
			base := s.URL
			if tt.provider == "openai" {
				base += "/v1"
			}
			got := runSDK(t, tt.provider, base)
			if got.Error == nil || got.Error.Status != tt.status || !contains(got.Error.Message, tt.message) {
				t.Errorf("SDK error = %+v; want status %d and %q", got.Error, tt.status, tt.message)
			}
		})
	}
}

func contains(s, sub string) bool {
	return len(sub) == 0 || (len(s) >= len(sub) && (s[:len(sub)] == sub || contains(s[1:], sub)))
}
