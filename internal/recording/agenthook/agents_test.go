package agenthook

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func agentFixture(t *testing.T, agent, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", agent, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The fixtures are in the shapes each agent documents: Codex's hooks
// (developers.openai.com/codex/hooks: Claude Code's wire format plus
// turn_id and model; a shell call's tool_response the exec output text of
// codex-rs), Gemini CLI's (google-gemini/gemini-cli docs/hooks/reference.md:
// AfterTool's tool_response {llmContent, returnDisplay}, llmContent as
// packages/core/src/tools/shell.ts writes it; BeforeAgent's prompt), and
// what hookd's opencode plugin sends of opencode's tool.execute.after and
// chat.message hooks (packages/plugin/src/index.ts: input {tool,
// sessionID, callID, args}, output {title, output, metadata}).
func TestAgents(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	call := func(agent, name string) Call {
		t.Helper()
		ev, err := Parse(agent, agentFixture(t, agent, name), now)
		if err != nil || ev.Call == nil {
			t.Fatalf("%s %s: %+v, %v; want a call", agent, name, ev, err)
		}
		return *ev.Call
	}
	prompt := func(agent, name string) Prompt {
		t.Helper()
		ev, err := Parse(agent, agentFixture(t, agent, name), now)
		if err != nil || ev.Prompt == nil {
			t.Fatalf("%s %s: %+v, %v; want a prompt", agent, name, ev, err)
		}
		return *ev.Prompt
	}
	c := call("codex", "post_tool_use.json")
	if c != (Call{SessionKey: "019a6b2c-7f3e-7a10-9c41-2b8d5e6f7a80", Command: "cargo test", Cwd: "/home/u/src/app", Exit: 101,
		Output: "error[E0425]: cannot find value `x` in this scope\n", Start: now.Add(-3200 * time.Millisecond), End: now}) {
		t.Errorf("codex = %+v", c)
	}
	if p := prompt("codex", "user_prompt.json"); p.Text != "make the tests pass" || p.SessionKey != "019a6b2c-7f3e-7a10-9c41-2b8d5e6f7a80" {
		t.Errorf("codex prompt = %+v", p)
	}
	c = call("gemini", "after_tool.json")
	if c != (Call{SessionKey: "c3f1d2e4-5a6b-4c7d-8e9f-0a1b2c3d4e5f", Command: "npm test", Cwd: "/home/u/src/app/web", Exit: 1,
		Output: "FAIL src/app.test.js\n  expected 2, got 3\n", Start: now, End: now, Intent: "Run the unit tests"}) {
		t.Errorf("gemini = %+v", c)
	}
	if c = call("gemini", "after_tool_ok.json"); c.Exit != 0 || c.Output != "" {
		t.Errorf("gemini success = %+v", c)
	}
	if p := prompt("gemini", "before_agent.json"); p.Text != "why do the web tests fail?" {
		t.Errorf("gemini prompt = %+v", p)
	}
	c = call("opencode", "after.json")
	if c != (Call{SessionKey: "ses_5a1b2c3d4e5fAbCdEf", Command: "go vet ./...", Cwd: "/home/u/src/app", Exit: 1,
		Output: "./main.go:3:2: unused import\n", Start: now.Add(-840 * time.Millisecond), End: now, Intent: "Vet the code"}) {
		t.Errorf("opencode = %+v", c)
	}
	if p := prompt("opencode", "prompt.json"); p.Text != "vet it" {
		t.Errorf("opencode prompt = %+v", p)
	}
	// Copilot CLI (docs.github.com, Copilot CLI hooks reference: the
	// camelCase postToolUse {sessionId, timestamp, cwd, toolName,
	// toolArgs, toolResult {resultType, textResultForLlm}} and
	// userPromptSubmitted {…, prompt}); its shell tool ends its result
	// with "<exited with exit code N>".
	c = call("copilot", "post_tool_use.json")
	if c != (Call{SessionKey: "0f4d1c2e-3b5a-4e6f-9a8b-7c6d5e4f3a2b", Command: "make check", Cwd: "/home/u/src/app", Exit: 2,
		Output: "vet: ok\nlint: 2 problems\n", Start: now, End: now, Intent: "Run the checks"}) {
		t.Errorf("copilot = %+v", c)
	}
	if c = call("copilot", "post_tool_use_string_args.json"); c.Command != "ls" || c.Exit != 1 || c.Intent != "List files" {
		t.Errorf("copilot, toolArgs a string, a failure = %+v", c)
	}
	if p := prompt("copilot", "user_prompt.json"); p.Text != "run the checks" {
		t.Errorf("copilot prompt = %+v", p)
	}
	for _, bad := range []struct{ agent, name, why string }{{"gemini", "before_tool.json", `event "BeforeTool"`},
		{"opencode", "read.json", `tool "read" is not bash`}, {"copilot", "view.json", `tool "view" is not bash`}} {
		if _, err := Parse(bad.agent, agentFixture(t, bad.agent, bad.name), now); !errors.Is(err, ErrIgnored) || !strings.Contains(err.Error(), bad.why) {
			t.Errorf("%s %s: %v; want ignored: %s", bad.agent, bad.name, err, bad.why)
		}
	}
	for _, a := range Hooked {
		for _, bad := range []string{"", "{", "[1]", "null", `{"hook_event_name": 7}`, strings.Repeat("x", 1<<16)} {
			if _, err := Parse(a, []byte(bad), now); !errors.Is(err, ErrIgnored) {
				t.Errorf("%s: Parse(%.20q) = %v; want ignored", a, bad, err)
			}
		}
	}
}

func TestGeminiOutput(t *testing.T) {
	for in, want := range map[string]struct {
		exit int
		out  string
	}{
		"Output: hi\nProcess Group PGID: 9":                            {0, "hi\n"},
		"Output: a\nExit Code: 2\nExit Code: 3\nProcess Group PGID: 1": {3, "a\nExit Code: 2\n"}, // the output's line is kept
		"Output: a\nExit Code: x\nProcess Group PGID: 1":               {0, "a\nExit Code: x\n"},
		"Output: (empty)\nSignal: 15":                                  {143, ""},
		"Command was cancelled by user before it could complete. Below is the output before it was cancelled:\npartial\n": {130, "partial\n"},
		"something else": {0, "something else"},
	} {
		if exit, out := geminiOutput(in); exit != want.exit || out != want.out {
			t.Errorf("geminiOutput(%q) = %d, %q; want %d, %q", in, exit, out, want.exit, want.out)
		}
	}
}
