package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookd/hookd/internal/shellwords"
)

// TestAgentWhyByPrompt: Claude Code's UserPromptSubmit, PreToolUse and
// PostToolUse(Failure) payloads (fixtures of the documented shapes),
// through the real hookd agent-hook, give history --by-prompt each command
// under the prompt of its turn with the description Claude gave it; show
// and the JSON say both; prompts are redacted; agents.keep_prompts: false
// keeps none.
func TestAgentWhyByPrompt(t *testing.T) {
	fixtures := "../../internal/recording/agenthook/testdata/claude-code/"
	payload := func(name string) string {
		b, err := os.ReadFile(fixtures + name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	second := strings.Replace(payload("user_prompt.json"), "Why does the build fail? Fix it and run the tests.",
		`Deploy it with token ghp_0123456789abcdefghijABCDEFGHIJ012345`, 1)
	sequence := []string{payload("user_prompt.json"), payload("pre_tool_use.json"), payload("success.json"),
		payload("failure.json"), second, payload("interrupted.json")}
	h := newHome(t)
	for _, p := range sequence {
		if out := hookdStdin(t, h, p, "agent-hook", "claude-code"); out != "" {
			t.Errorf("agent-hook printed %q", out)
		}
	}
	out := hookd(t, h, "history", "--author", "claude-code", "--by-prompt")
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	// A prompt's line starts with ▸ and ends with the prompt; a command's
	// ends with the command, the intent's line under it with ↳ and the
	// description.
	want := []string{"▸ Why does the build fail? Fix it and run the tests.", "go build ./... && echo built", "↳ Build the project",
		"go test ./...", "↳ Run the tests", "▸ Deploy it with token [REDACTED]", "sleep 600", "↳ Wait"}
	if len(lines) != len(want) {
		t.Fatalf("history --by-prompt:\n%s\nwant %d lines", out, len(want))
	}
	for i, w := range want {
		prompt, isPrompt := strings.CutPrefix(w, "▸ ")
		if !strings.HasSuffix(lines[i], prompt) || isPrompt != strings.HasPrefix(lines[i], "▸ ") {
			t.Errorf("line %d = %q; want %q", i, lines[i], w)
		}
	}
	if strings.Contains(out, "ghp_") {
		t.Errorf("a secret in a prompt was kept:\n%s", out)
	}
	show := hookd(t, h, "show", "--author", "claude-code", "-3")
	if !strings.Contains(show, "intent    Build the project\n") || !strings.Contains(show, "prompt    Why does the build fail?") {
		t.Errorf("show -3:\n%s", show)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(hookd(t, h, "show", "--json", "--author", "claude-code", "-1")), &m); err != nil ||
		m["intent"] != "Wait" || m["prompt"] != "Deploy it with token [REDACTED]" || m["prompt_at"] == nil {
		t.Errorf("show --json -1 = %v (%v)", m, err)
	}
	// hookd out: the intent above the output on a terminal (script gives
	// it one), the output alone through a pipe.
	if out := hookd(t, h, "out", "--author", "claude-code", "-3"); strings.Contains(out, "Build the project") {
		t.Errorf("out -3 through a pipe has the intent: %q", out)
	}
	tty := exec.Command("script", "-qec", shellwords.Quote(hookdBin)+" out --author claude-code -3", "/dev/null")
	tty.Env, tty.Dir = h.Env, h.Dir
	if out, err := tty.CombinedOutput(); err != nil || !strings.Contains(string(out), "# Build the project") || !strings.Contains(string(out), "built") {
		t.Errorf("out -3 on a terminal: %q, %v; want the intent, then the output", out, err)
	}
	if _, _, err := hookdRun(h, nil, "history", "--by-prompt"); exitStatus(err) != 2 {
		t.Errorf("history --by-prompt without --author: %v; want a usage error", err)
	}

	// agents.keep_prompts: false: no prompt is kept, the intents are.
	h = newHome(t)
	cfg := h.Path(".config", "hookd", "config.yaml")
	os.MkdirAll(filepath.Dir(cfg), 0o700)
	os.WriteFile(cfg, []byte("agents:\n  keep_prompts: false\n"), 0o600)
	for _, p := range sequence {
		hookdStdin(t, h, p, "agent-hook", "claude-code")
	}
	out = hookd(t, h, "history", "--author", "claude-code", "--by-prompt")
	if strings.Contains(out, "Why does the build") || strings.Contains(out, "Deploy") || !strings.HasPrefix(out, "▸ (no prompt kept)") ||
		!strings.Contains(out, "↳ Build the project") {
		t.Errorf("keep_prompts false: history --by-prompt:\n%s", out)
	}
}
