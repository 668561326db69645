package agenthook

import (
	"encoding/json"
	"fmt"
)

// A PreToolUse hook (Claude Code's hooks reference, "PreToolUse": the
// payload on stdin holds tool_name and tool_input; the hook answers on
// stdout with hookSpecificOutput.permissionDecision "allow", "deny" or
// "ask" and a permissionDecisionReason, shown to the user with "ask")
// runs before the agent's tool: `hookd check --hook claude-code` reads the
// Bash command from it and asks the user before a risky one runs.

// PreToolCommand returns the shell command of a PreToolUse payload of
// Claude Code's Bash tool; ok is false for another tool or a payload that
// holds no command.
func PreToolCommand(payload []byte) (cmd string, ok bool) {
	var p struct {
		ToolName  string `json:"tool_name"`
		ToolInput struct {
			Command string `json:"command"`
		} `json:"tool_input"`
	}
	if json.Unmarshal(payload, &p) != nil || p.ToolName != "Bash" || p.ToolInput.Command == "" {
		return "", false
	}
	return p.ToolInput.Command, true
}

// PreToolAsk is the answer of a PreToolUse hook that asks the user before
// the tool runs, saying why.
func PreToolAsk(why string) []byte {
	b, _ := json.Marshal(map[string]any{"hookSpecificOutput": map[string]any{
		"hookEventName":            "PreToolUse",
		"permissionDecision":       "ask",
		"permissionDecisionReason": why,
	}})
	return fmt.Appendf(b, "\n")
}
