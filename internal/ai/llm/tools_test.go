package llm_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/ai/llm"
	"github.com/hookd/hookd/internal/ai/llm/llmtest"
	"github.com/hookd/hookd/internal/shelltest"
)

var readFile = llm.Tool{Name: "read_file", Description: "Read a file",
	Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)}

// twoCalls is a turn that says something, then calls read_file twice;
// the fakes stream the arguments in fragments (OpenAI, Anthropic).
var twoCalls = llmtest.Reply{Text: []string{"Let me ", "look."}, Calls: []llmtest.Call{
	{Name: "read_file", Arguments: `{"path": "Makefile", "note": "ünïcode ✓"}`},
	{Name: "read_file", Arguments: `{"path": "build.log"}`},
}}

// callIDs are the ids each fake gives twoCalls' calls (Ollama gives none:
// the client makes them up).
var callIDs = map[string][2]string{
	llm.OpenAI:    {"call_llmtest_0", "call_llmtest_1"},
	llm.Anthropic: {"toolu_llmtest_0", "toolu_llmtest_1"},
	llm.Ollama:    {"call_0", "call_1"},
}

func sameJSON(a, b string) bool {
	var x, y any
	return json.Unmarshal([]byte(a), &x) == nil && json.Unmarshal([]byte(b), &y) == nil && reflect.DeepEqual(x, y)
}

func withTools(req llm.Request, tools ...llm.Tool) llm.Request {
	req.Tools = tools
	return req
}

// TestToolCalls: two calls in one turn, after text, their arguments in
// fragments, delivered once each when complete, in order.
func TestToolCalls(t *testing.T) {
	for _, f := range fakes {
		t.Run(f.provider, func(t *testing.T) {
			s := f.start(t)
			s.SetReply(twoCalls)
			p := newProvider(t, f, s, nil)
			evs, res, err := collect(t.Context(), p, withTools(question, readFile))
			if err != nil {
				t.Fatalf("Stream: %v", err)
			}
			var text string
			var calls []llm.ToolCall
			for _, e := range evs {
				switch e.Kind {
				case llm.Text:
					if len(calls) > 0 {
						t.Errorf("text %q after a tool call", e.Text)
					}
					text += e.Text
				case llm.ToolCallEvent:
					calls = append(calls, *e.Call)
				}
			}
			if text != "Let me look." || res.Text != text {
				t.Errorf("text = %q, Result.Text = %q; want %q", text, res.Text, "Let me look.")
			}
			if !reflect.DeepEqual(calls, res.ToolCalls) || len(calls) != 2 {
				t.Fatalf("events' calls = %+v; Result.ToolCalls = %+v; want the same two", calls, res.ToolCalls)
			}
			for i, c := range calls {
				if c.ID != callIDs[f.provider][i] || c.Name != "read_file" || !sameJSON(string(c.Arguments), twoCalls.Calls[i].Arguments) {
					t.Errorf("call %d = %s %s %s; want %s read_file %s", i, c.ID, c.Name, c.Arguments, callIDs[f.provider][i], twoCalls.Calls[i].Arguments)
				}
			}
			wantStop := map[string]string{llm.OpenAI: "tool_calls", llm.Anthropic: "tool_use", llm.Ollama: "stop"}[f.provider]
			if res.StopReason != wantStop {
				t.Errorf("StopReason = %q; want %q", res.StopReason, wantStop)
			}
			got := s.Last()
			if len(got.Tools) != 1 || got.Tools[0].Name != "read_file" || got.Tools[0].Description != "Read a file" ||
				!sameJSON(string(got.Tools[0].Parameters), string(readFile.Parameters)) {
				t.Errorf("the server received tools %+v", got.Tools)
			}
		})
	}
}

// TestToolCallsNoArguments: a call with no arguments has "{}".
func TestToolCallsNoArguments(t *testing.T) {
	for _, f := range fakes {
		t.Run(f.provider, func(t *testing.T) {
			s := f.start(t)
			s.SetReply(llmtest.Reply{Calls: []llmtest.Call{{Name: "pwd"}}})
			p := newProvider(t, f, s, nil)
			_, res, err := collect(t.Context(), p, withTools(question, llm.Tool{Name: "pwd"}))
			if err != nil || len(res.ToolCalls) != 1 || string(res.ToolCalls[0].Arguments) != "{}" {
				t.Errorf("Stream = %+v, %v; want one call of pwd with {}", res.ToolCalls, err)
			}
			if !strings.Contains(string(s.Last().Body), `"properties":{}`) {
				t.Errorf("a tool with no parameters was sent without an empty object schema: %s", s.Last().Body)
			}
		})
	}
}

// TestToolCallsInvalidArguments: arguments that are not a JSON object end
// nothing: the call is delivered with Invalid set and "{}" as arguments
// (to be answered with a tool error), the text and the valid call kept.
func TestToolCallsInvalidArguments(t *testing.T) {
	for _, f := range fakes {
		for _, args := range []string{`{"path": "Make`, `["Makefile"]`} {
			t.Run(f.provider+" "+args, func(t *testing.T) {
				s := f.start(t)
				s.SetReply(llmtest.Reply{Text: []string{"partial"}, Calls: []llmtest.Call{
					{Name: "read_file", Arguments: `{"path": "ok"}`}, {Name: "read_file", Arguments: args}}})
				p := newProvider(t, f, s, nil)
				_, res, err := collect(t.Context(), p, withTools(question, readFile))
				if err != nil {
					t.Errorf("Stream error = %v; want none", err)
				}
				if res.Text != "partial" || len(res.ToolCalls) != 2 || res.ToolCalls[0].Invalid != "" ||
					res.ToolCalls[1].Invalid != llm.InvalidArguments || string(res.ToolCalls[1].Arguments) != "{}" {
					t.Errorf("Result = %q, %+v; want the text, the valid call and the invalid one", res.Text, res.ToolCalls)
				}
			})
		}
	}
}

// TestToolRoundTrip: the first request gets calls, the second sends them
// back with their results (in each vendor's shape) and gets text.
func TestToolRoundTrip(t *testing.T) {
	for _, f := range fakes {
		t.Run(f.provider, func(t *testing.T) {
			s := f.start(t)
			s.Push(llmtest.Step{Reply: &twoCalls}, llmtest.Step{Reply: &llmtest.Reply{Text: []string{"Run ", "make -j1"}}})
			p := newProvider(t, f, s, nil)
			req := llm.Request{Tools: []llm.Tool{readFile}, Messages: []llm.Message{{Role: "user", Content: "why did make fail?"}}}
			_, res, err := collect(t.Context(), p, req)
			if err != nil || len(res.ToolCalls) != 2 {
				t.Fatalf("first turn = %+v, %v", res, err)
			}
			req.Messages = append(req.Messages, llm.Message{Role: "assistant", Content: res.Text, ToolCalls: res.ToolCalls})
			for _, c := range res.ToolCalls {
				req.Messages = append(req.Messages, llm.Message{Role: "tool", ToolCallID: c.ID, Content: "contents of " + c.ID})
			}
			_, res2, err := collect(t.Context(), p, req)
			if err != nil || res2.Text != "Run make -j1" || len(res2.ToolCalls) != 0 {
				t.Fatalf("second turn = %+v, %v", res2, err)
			}
			msgs := s.Requests()[1].Messages
			ids := callIDs[f.provider]
			wantCalls := []llmtest.Call{{ID: ids[0], Name: "read_file"}, {ID: ids[1], Name: "read_file"}}
			if len(msgs) < 3 || msgs[1].Role != "assistant" || msgs[1].Content != "Let me look." || len(msgs[1].ToolCalls) != 2 {
				t.Fatalf("second request's messages = %+v", msgs)
			}
			for i, c := range msgs[1].ToolCalls {
				if c.ID != wantCalls[i].ID && f.provider != llm.Ollama || c.Name != "read_file" || !sameJSON(c.Arguments, twoCalls.Calls[i].Arguments) {
					t.Errorf("call sent back = %+v; want %+v with %s", c, wantCalls[i], twoCalls.Calls[i].Arguments)
				}
			}
			var want []llmtest.Message
			switch f.provider {
			case llm.OpenAI:
				want = []llmtest.Message{{Role: "tool", ToolCallID: ids[0], Content: "contents of " + ids[0]},
					{Role: "tool", ToolCallID: ids[1], Content: "contents of " + ids[1]}}
			case llm.Ollama:
				want = []llmtest.Message{{Role: "tool", ToolName: "read_file", Content: "contents of " + ids[0]},
					{Role: "tool", ToolName: "read_file", Content: "contents of " + ids[1]}}
			case llm.Anthropic: // both results in one user message
				want = []llmtest.Message{{Role: "user", Results: []llmtest.Result{
					{ToolUseID: ids[0], Content: "contents of " + ids[0]}, {ToolUseID: ids[1], Content: "contents of " + ids[1]}}}}
			}
			if !reflect.DeepEqual(msgs[2:], want) {
				t.Errorf("results sent = %+v; want %+v", msgs[2:], want)
			}
			body := string(s.Requests()[1].Body)
			wire := map[string]string{llm.OpenAI: `"arguments":"{\"path\": \"build.log\"}"`, llm.Ollama: `"arguments":{"path":"build.log"}`,
				llm.Anthropic: `"input":{"path":"build.log"}`}[f.provider]
			if !strings.Contains(body, wire) {
				t.Errorf("the arguments were not sent back as %s:\n%s", wire, body)
			}
		})
	}
}

// TestAnthropicToolResultsThenText: a user's text after tool results goes
// in the results' user message (the API wants turns to alternate).
func TestAnthropicToolResultsThenText(t *testing.T) {
	req := llm.Request{Messages: []llm.Message{{Role: "user", Content: "q"},
		{Role: "assistant", ToolCalls: []llm.ToolCall{{ID: "toolu_1", Name: "pwd"}}},
		{Role: "tool", ToolCallID: "toolu_1", Content: "/tmp"}, {Role: "user", Content: "and?"}}}
	sent, err := llm.DryRun(t.Context(), llm.Config{Provider: llm.Anthropic, Model: "m", BaseURL: "http://127.0.0.1:1"}, req)
	if err != nil {
		t.Fatal(err)
	}
	var body struct{ Messages []json.RawMessage }
	json.Unmarshal(sent.Body, &body)
	want := []string{`{"role":"user","content":"q"}`,
		`{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"pwd","input":{}}]}`,
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"/tmp"},{"type":"text","text":"and?"}]}`}
	if len(body.Messages) != len(want) {
		t.Fatalf("messages = %s", sent.Body)
	}
	for i, m := range body.Messages {
		if string(m) != want[i] {
			t.Errorf("message %d = %s; want %s", i, m, want[i])
		}
	}
}

var fixSchema = &llm.Schema{Name: "fix", Description: "the fix",
	JSON: json.RawMessage(`{"type":"object","properties":{"command":{"type":"string"}},"required":["command"],"additionalProperties":false}`)}

// TestSchema: structured output in each vendor's way, the answer's JSON
// in Result.Text.
func TestSchema(t *testing.T) {
	answer := []string{`{"command": `, `"make -j1"}`}
	for _, f := range fakes {
		t.Run(f.provider, func(t *testing.T) {
			s := f.start(t)
			s.SetReply(llmtest.Reply{Text: answer})
			p := newProvider(t, f, s, nil)
			req := question
			req.Schema = fixSchema
			evs, res, err := collect(t.Context(), p, req)
			if err != nil || res.Text != strings.Join(answer, "") || len(res.ToolCalls) != 0 {
				t.Fatalf("Stream = %+v, %v; want the JSON as text, no tool call", res, err)
			}
			if len(evs) < 2 || evs[0].Kind != llm.Text {
				t.Errorf("events = %+v; want the answer streamed as text", evs)
			}
			got := s.Last()
			switch f.provider {
			case llm.OpenAI:
				want := `{"type":"json_schema","json_schema":{"name":"fix","description":"the fix","schema":` + string(fixSchema.JSON) + `,"strict":true}}`
				if string(got.ResponseFormat) != want {
					t.Errorf("response_format = %s; want %s", got.ResponseFormat, want)
				}
			case llm.Anthropic:
				if string(got.ToolChoice) != `{"type":"tool","name":"fix"}` || len(got.Tools) != 1 || got.Tools[0].Name != "fix" ||
					string(got.Tools[0].Parameters) != string(fixSchema.JSON) {
					t.Errorf("tool_choice = %s, tools = %+v; want the forced tool fix with the schema", got.ToolChoice, got.Tools)
				}
			case llm.Ollama:
				if string(got.Format) != string(fixSchema.JSON) {
					t.Errorf("format = %s; want the schema", got.Format)
				}
			}
		})
	}
}

// TestSchemaWithTools: Anthropic's forced tool sits beside the real ones,
// which the others send unchanged.
func TestSchemaWithTools(t *testing.T) {
	for _, f := range fakes {
		t.Run(f.provider, func(t *testing.T) {
			s := f.start(t)
			s.SetReply(llmtest.Reply{Text: []string{`{"command": "ls"}`}})
			req := withTools(question, readFile)
			req.Schema = fixSchema
			_, res, err := collect(t.Context(), newProvider(t, f, s, nil), req)
			if err != nil || res.Text != `{"command": "ls"}` {
				t.Fatalf("Stream = %+v, %v", res, err)
			}
			n := map[string]int{llm.Anthropic: 2}[f.provider]
			if n == 0 {
				n = 1
			}
			if got := s.Last().Tools; len(got) != n || got[0].Name != "read_file" {
				t.Errorf("tools sent = %+v", got)
			}
		})
	}
}

func TestSupports(t *testing.T) {
	for _, name := range []string{llm.OpenAI, llm.Anthropic, llm.Ollama, llm.Command} {
		p, err := llm.New(llm.Config{Provider: name, Command: "cat"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := llm.Features{Tools: name != llm.Command, Schema: name != llm.Command}
		if got := p.Supports(); got != want {
			t.Errorf("%s: Supports() = %+v; want %+v", name, got, want)
		}
	}
}

// TestCommandSchema: the command is asked, in its prompt, for JSON
// matching the schema; tools are ignored.
func TestCommandSchema(t *testing.T) {
	p, err := llm.New(llm.Config{Provider: llm.Command, Command: "cat", Timeout: shelltest.Scale(30 * time.Second)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	req := llm.Request{Messages: []llm.Message{{Role: "user", Content: "fix it"}}, Schema: fixSchema, Tools: []llm.Tool{readFile}}
	_, res, err := collect(t.Context(), p, req)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"fix it\n\nAnswer with only a JSON value matching this JSON Schema", "It is the fix.", `"additionalProperties": false`} {
		if !strings.Contains(res.Text, want) {
			t.Errorf("prompt lacks %q:\n%s", want, res.Text)
		}
	}
	if strings.Contains(res.Text, "read_file") || len(res.ToolCalls) != 0 {
		t.Errorf("the command was given the tools:\n%s", res.Text)
	}
}

// TestDryRunTools: DryRun shows the tools and the schema, in the body as
// sent and named in the summary; for a command, that the tools are not
// sent.
func TestDryRunTools(t *testing.T) {
	req := withTools(question, readFile)
	req.Schema = fixSchema
	for _, f := range fakes {
		t.Run(f.provider, func(t *testing.T) {
			s := f.start(t)
			sent, err := llm.DryRun(t.Context(), llm.Config{Provider: f.provider, Model: "m", BaseURL: f.base(s)}, req)
			if err != nil {
				t.Fatal(err)
			}
			text := sent.String()
			for _, want := range []string{"tools: read_file\n", "schema: fix\n", `"read_file"`, `"additionalProperties": false`} {
				if !strings.Contains(text, want) {
					t.Errorf("DryRun's text lacks %q:\n%s", want, text)
				}
			}
		})
	}
	sent, err := llm.DryRun(t.Context(), llm.Config{Provider: llm.Command, Command: "llm"}, req)
	if err != nil {
		t.Fatal(err)
	}
	if text := sent.String(); !strings.Contains(text, "tools: read_file (not sent: provider command has no tool calls)") ||
		!strings.Contains(text, "schema: fix") || !strings.Contains(text, "Answer with only a JSON value") {
		t.Errorf("DryRun's text:\n%s", text)
	}
}

// TestCommandSchemaSentence: a schema described as a sentence ("The
// analysis of …") reads as one in the prompt: "It is the analysis of …",
// not "It is The analysis" (issue 32).
func TestCommandSchemaSentence(t *testing.T) {
	p, err := llm.New(llm.Config{Provider: llm.Command, Command: "cat", Timeout: shelltest.Scale(30 * time.Second)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sc := *fixSchema
	sc.Description = "The analysis of a failed shell command."
	_, res, err := collect(t.Context(), p, llm.Request{Messages: []llm.Message{{Role: "user", Content: "fix it"}}, Schema: &sc})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Text, "It is the analysis of a failed shell command.") {
		t.Errorf("prompt:\n%s", res.Text)
	}
}
