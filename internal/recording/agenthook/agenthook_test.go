package agenthook

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func fixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "claude-code", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestClaudeCode(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	c, err := claudeCallOf(fixture(t, "success.json"), now)
	if err != nil {
		t.Fatal(err)
	}
	want := Call{SessionKey: "9ecf22fa-edf8-4332-ae85-b6d5456eda64", Command: "go build ./... && echo built", Cwd: "/home/u/src/app",
		Stdout: "built\n", Stderr: "go: downloading golang.org/x/sys v0.49.0\n", Apart: true,
		Start: now.Add(-1532 * time.Millisecond), End: now, Intent: "Build the project"}
	if c != want {
		t.Errorf("success = %+v\nwant      %+v", c, want)
	}
	c, err = claudeCallOf(fixture(t, "failure.json"), now)
	if err != nil || c.Exit != 1 || c.Command != "go test ./..." || !strings.HasPrefix(c.Output, "--- FAIL: TestParse") ||
		strings.Contains(c.Output, "Exit code") || c.Apart || c.End.Sub(c.Start) != 2210*time.Millisecond {
		t.Errorf("failure = %+v, %v; want exit 1, the output without its status line, 2.21 s", c, err)
	}
	c, err = claudeCallOf(fixture(t, "interrupted.json"), now)
	if err != nil || c.Exit != 130 || c.Start != now {
		t.Errorf("interrupted = %+v, %v; want exit 130, no duration", c, err)
	}
	c, err = claudeCallOf(fixture(t, "background.json"), now)
	if err != nil || !c.Background || c.Exit != 0 {
		t.Errorf("background = %+v, %v", c, err)
	}
	for name, why := range map[string]string{"not_bash.json": `tool "Write" is not Bash`, "pre_tool_use.json": `event "PreToolUse"`, "prompt_empty.json": "without a prompt",
		"not_json.txt": "not JSON"} {
		_, err := ClaudeCode(fixture(t, name), now)
		if !errors.Is(err, ErrIgnored) || !strings.Contains(err.Error(), why) {
			t.Errorf("%s: %v; want ignored: %s", name, err, why)
		}
	}
	for _, bad := range []string{"", "[1,2]", `{"tool_name": "Bash", "tool_input": {}}`, `{"tool_name": "Bash", "tool_input": "ls"}`, "null"} {
		if _, err := ClaudeCode([]byte(bad), now); !errors.Is(err, ErrIgnored) {
			t.Errorf("ClaudeCode(%q) = %v; want ignored", bad, err)
		}
	}
}

// claudeCallOf is the Call of a Claude Code payload that must be one.
func claudeCallOf(payload []byte, now time.Time) (Call, error) {
	ev, err := ClaudeCode(payload, now)
	if err != nil {
		return Call{}, err
	}
	if ev.Call == nil {
		return Call{}, errors.New("not a call")
	}
	return *ev.Call, nil
}

// The UserPromptSubmit payload as Claude Code's hooks reference documents
// it (code.claude.com/docs/en/hooks#userpromptsubmit-input: the common
// fields session_id, transcript_path, cwd, permission_mode,
// hook_event_name, and prompt), in testdata/claude-code/user_prompt.json.
func TestClaudeCodePrompt(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	ev, err := ClaudeCode(fixture(t, "user_prompt.json"), now)
	if err != nil || ev.Prompt == nil || ev.Call != nil {
		t.Fatalf("ClaudeCode(user_prompt.json) = %+v, %v; want a prompt", ev, err)
	}
	want := Prompt{SessionKey: "9ecf22fa-edf8-4332-ae85-b6d5456eda64", Text: "Why does the build fail? Fix it and run the tests.", At: now}
	if *ev.Prompt != want {
		t.Errorf("prompt = %+v; want %+v", *ev.Prompt, want)
	}
}

func TestFailureStatus(t *testing.T) {
	for msg, want := range map[string]int{"Exit code 2\nmake: *** [all] Error 2": 2, "Error: Exit code 127": 127,
		"Command exited with non-zero status code 3": 3, "Permission denied": 1, "": 1} {
		if got, _ := failureStatus(msg); got != want {
			t.Errorf("failureStatus(%q) = %d; want %d", msg, got, want)
		}
	}
}

func TestSetup(t *testing.T) {
	bin := "/opt/my tools/hookd"
	for _, a := range Agents {
		s, err := MCPConfig(a, bin)
		if err != nil || s.Where == "" {
			t.Fatalf("MCPConfig(%s) = %+v, %v", a, s, err)
		}
		switch a {
		case "claude-code":
			if s.Text != "claude mcp add --scope user hookd -- '/opt/my tools/hookd' mcp\n" {
				t.Errorf("claude-code: %q", s.Text)
			}
		case "codex":
			if s.Text != "[mcp_servers.hookd]\ncommand = \"/opt/my tools/hookd\"\nargs = [\"mcp\"]\n" {
				t.Errorf("codex: %q", s.Text)
			}
		default:
			var v struct {
				MCPServers map[string]struct {
					Command string
					Args    []string
				} `json:"mcpServers"`
			}
			if err := json.Unmarshal([]byte(s.Text), &v); err != nil || v.MCPServers["hookd"].Command != bin || strings.Join(v.MCPServers["hookd"].Args, " ") != "mcp" {
				t.Errorf("%s: %q (%v)", a, s.Text, err)
			}
		}
	}
	if _, err := MCPConfig("vim", bin); err == nil {
		t.Error("an unknown agent has a config")
	}
	s, err := HookConfig("claude-code", bin, Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Hooks map[string][]struct {
			Matcher string
			Hooks   []struct {
				Type, Command string
				Async         bool
			}
		}
	}
	if err := json.Unmarshal([]byte(s.Text), &v); err != nil {
		t.Fatalf("hook config is not JSON: %v\n%s", err, s.Text)
	}
	for _, ev := range []string{"PostToolUse", "PostToolUseFailure"} {
		m := v.Hooks[ev]
		if len(m) != 1 || m[0].Matcher != "Bash" || len(m[0].Hooks) != 1 || m[0].Hooks[0].Type != "command" ||
			m[0].Hooks[0].Command != "'/opt/my tools/hookd' agent-hook claude-code" || !m[0].Hooks[0].Async {
			t.Errorf("%s: %+v", ev, m)
		}
	}
	if m := v.Hooks["UserPromptSubmit"]; len(m) != 1 || m[0].Matcher != "" || len(m[0].Hooks) != 1 ||
		m[0].Hooks[0].Command != "'/opt/my tools/hookd' agent-hook claude-code" || !m[0].Hooks[0].Async {
		t.Errorf("UserPromptSubmit: %+v", m)
	}
	if _, err := HookConfig("vim", bin, Hooks{}); err == nil {
		t.Error("vim has a hook config")
	}
}
