package llmtest_test

import (
	"encoding/json"
	"fmt"
	"github.com/hookd/hookd/internal/required"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hookd/hookd/internal/ai/llm/llmtest"
)

// sdkOut is what sdkcheck/check.mjs prints.
type sdkOut struct {
	Text, Reasoning string
	Usage           *struct{ Input, Output int }
	Helper          *struct {
		Text, Reasoning, Signature, Finish string
		Usage                              *struct{ Input, Output int }
		Calls                              []sdkCall
	}
	Calls  []sdkCall // tools: from the raw stream
	After  string    // tools: the answer to the second turn
	JSON   string    // schema: the answer, parsed and printed again
	Models []string
	Error  *struct {
		Status  int
		Message string
		Type    string
	}
}

// sdkCall is a tool call as an SDK read it, the arguments parsed and
// printed again with JSON.stringify.
type sdkCall struct{ ID, Name, Arguments string }

// runSDK runs the official SDK of provider against baseURL (check.mjs's
// chat mode; see runSDKMode).
func runSDK(t *testing.T, provider, baseURL string) sdkOut {
	t.Helper()
	return runSDKMode(t, provider, baseURL, "chat")
}

// runSDKMode runs check.mjs's mode (chat, tools or schema) with the
// official SDK of provider against baseURL. It skips when
// node or sdkcheck/node_modules is missing, unless REQUIRE_SDKCHECK=1
// (CI runs npm ci in sdkcheck first).
func runSDKMode(t *testing.T, provider, baseURL, mode string) sdkOut {
	t.Helper()
	dir, _ := filepath.Abs("sdkcheck")
	_, err := os.Stat(filepath.Join(dir, "node_modules"))
	node, nerr := exec.LookPath("node")
	if err != nil || nerr != nil {
		required.Skip(t, fmt.Sprintf("node (%v) or %s/node_modules (%v) is missing: run npm ci there", nerr, dir, err), "REQUIRE_SDKCHECK")
	}
	cmd := exec.CommandContext(t.Context(), node, "check.mjs", provider, baseURL, mode)
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

// TestSDKToolCalls checks that the official SDKs read the fakes' tool-call
// streams (OpenAI: deltas by index, the arguments in fragments; Anthropic:
// tool_use blocks, input_json_delta fragments) as the calls scripted, in
// the raw stream and with the accumulating helper, which checks that each
// call is whole; and that the fakes decode the SDKs' second turn, which
// sends the calls and their results back.
func TestSDKToolCalls(t *testing.T) {
	calls := []llmtest.Call{
		{Name: "read_file", Arguments: `{"path": "Makefile", "note": "ünïcode ✓"}`},
		{Name: "read_file", Arguments: `{"path": "build.log"}`},
	}
	want := []sdkCall{
		{Name: "read_file", Arguments: `{"path":"Makefile","note":"ünïcode ✓"}`},
		{Name: "read_file", Arguments: `{"path":"build.log"}`},
	}
	for _, tt := range []struct {
		provider, finish, idPrefix string
		new                        func(testing.TB) *llmtest.Server
		base                       func(*llmtest.Server) string
	}{
		{"openai", "tool_calls", "call_", llmtest.NewOpenAI, func(s *llmtest.Server) string { return s.URL + "/v1" }},
		{"anthropic", "tool_use", "toolu_", llmtest.NewAnthropic, func(s *llmtest.Server) string { return s.URL }},
	} {
		t.Run(tt.provider, func(t *testing.T) {
			s := tt.new(t)
			turn := &llmtest.Reply{Text: []string{"Let me ", "look."}, Calls: calls}
			s.Push(llmtest.Step{Reply: turn}, llmtest.Step{Reply: turn},
				llmtest.Step{Reply: &llmtest.Reply{Text: []string{"Run ", "make -j1"}}})
			got := runSDKMode(t, tt.provider, tt.base(s), "tools")
			if got.Error != nil {
				t.Fatalf("the SDK failed: %+v", *got.Error)
			}
			for _, cs := range [][]sdkCall{got.Calls, got.Helper.Calls} {
				if len(cs) != len(want) {
					t.Fatalf("SDK calls = %+v; want %+v", cs, want)
				}
				for i, c := range cs {
					if c.Name != want[i].Name || c.Arguments != want[i].Arguments || !strings.HasPrefix(c.ID, tt.idPrefix) {
						t.Errorf("SDK call %d = %+v; want %+v with an id %s…", i, c, want[i], tt.idPrefix)
					}
				}
			}
			if got.Text != "Let me look." || got.Helper.Text != "Let me look." || got.Helper.Finish != tt.finish {
				t.Errorf("SDK text = %q, helper %q, finish %q; want %q, %q", got.Text, got.Helper.Text, got.Helper.Finish, "Let me look.", tt.finish)
			}
			if got.After != "Run make -j1" {
				t.Errorf("SDK second turn = %q", got.After)
			}
			reqs := s.Requests()
			if len(reqs) != 3 || len(reqs[0].Tools) != 1 || reqs[0].Tools[0].Name != "read_file" || len(reqs[0].Tools[0].Parameters) == 0 {
				t.Fatalf("the fake decoded the SDK's tools as %+v", reqs)
			}
			msgs := reqs[2].Messages
			if len(msgs) < 3 || msgs[1].Role != "assistant" || len(msgs[1].ToolCalls) != 2 || msgs[1].ToolCalls[0].ID != got.Helper.Calls[0].ID {
				t.Fatalf("the fake decoded the SDK's second turn as %+v", msgs)
			}
			var ids []string
			switch tt.provider {
			case "openai": // one tool message a result
				for _, m := range msgs[2:] {
					if m.Role == "tool" && m.Content == "result of "+m.ToolCallID {
						ids = append(ids, m.ToolCallID)
					}
				}
			case "anthropic": // one user message of tool_result blocks
				if len(msgs) == 3 && msgs[2].Role == "user" {
					for _, r := range msgs[2].Results {
						if r.Content == "result of "+r.ToolUseID {
							ids = append(ids, r.ToolUseID)
						}
					}
				}
			}
			if len(ids) != 2 || ids[0] != got.Helper.Calls[0].ID || ids[1] != got.Helper.Calls[1].ID {
				t.Errorf("the fake decoded the SDK's tool results as %+v", msgs[2:])
			}
		})
	}
}

// TestSDKSchema checks structured output through the SDKs: OpenAI's
// response_format answered with the JSON as text, Anthropic's forced tool
// answered with a call of it (the fake turns the text into its input).
func TestSDKSchema(t *testing.T) {
	answer := []string{`{"command": "make`, ` -j1", "why": "a race"}`}
	const want = `{"command":"make -j1","why":"a race"}`
	t.Run("openai", func(t *testing.T) {
		s := llmtest.NewOpenAI(t)
		s.SetReply(llmtest.Reply{Text: answer})
		got := runSDKMode(t, "openai", s.URL+"/v1", "schema")
		if got.Error != nil || got.JSON != want || got.Helper.Finish != "stop" {
			t.Errorf("SDK = %+v, %+v; want %s", got, got.Error, want)
		}
		var rf struct {
			Type       string
			JSONSchema struct {
				Name   string
				Strict bool
			} `json:"json_schema"`
		}
		if json.Unmarshal(s.Last().ResponseFormat, &rf) != nil || rf.Type != "json_schema" || rf.JSONSchema.Name != "fix" || !rf.JSONSchema.Strict {
			t.Errorf("the fake recorded response_format %s", s.Last().ResponseFormat)
		}
	})
	t.Run("anthropic", func(t *testing.T) {
		s := llmtest.NewAnthropic(t)
		s.SetReply(llmtest.Reply{Text: answer})
		got := runSDKMode(t, "anthropic", s.URL, "schema")
		if got.Error != nil || got.JSON != want || got.Helper.Finish != "tool_use" || len(got.Helper.Calls) != 1 || got.Helper.Calls[0].Name != "fix" {
			t.Errorf("SDK = %+v, %+v; want a call of fix with %s", got, got.Error, want)
		}
		if tc := string(s.Last().ToolChoice); !strings.Contains(tc, `"fix"`) {
			t.Errorf("the fake recorded tool_choice %s", tc)
		}
	})
}
