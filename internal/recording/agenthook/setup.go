package agenthook

import (
	"encoding/json"
	"fmt"
	"github.com/hookd/hookd/internal/shellwords"
	"strings"
)

// Agents are the coding agents MCPConfig knows, in the order help lists
// them.
var Agents = []string{"claude-code", "codex", "gemini", "cursor"}

// Snippet is a piece of an agent's configuration: Text to run or paste,
// and Where it goes, for the user (a comment's worth).
type Snippet struct {
	Text  string
	Where string
}

// MCPConfig returns what agent expects to find hookd's MCP server by,
// bin being the hookd to run: Claude Code's `claude mcp add` command line,
// Codex's [mcp_servers.hookd] TOML table, the mcpServers JSON of Gemini
// CLI and Cursor.
func MCPConfig(agent, bin string) (Snippet, error) {
	switch agent {
	case "claude-code":
		return Snippet{Text: fmt.Sprintf("claude mcp add --scope user hookd -- %s mcp\n", shellwords.QuoteWord(bin)),
			Where: "run it once: every project of yours gets hookd's tools (--scope project writes .mcp.json instead)"}, nil
	case "codex":
		return Snippet{Text: fmt.Sprintf("[mcp_servers.hookd]\ncommand = %s\nargs = [\"mcp\"]\n", jsonString(bin)),
			Where: "add it to ~/.codex/config.toml (or run: codex mcp add hookd -- " + shellwords.QuoteWord(bin) + " mcp)"}, nil
	case "gemini":
		return Snippet{Text: mcpServersJSON(bin),
			Where: "merge it into ~/.gemini/settings.json (or run: gemini mcp add --scope user hookd " + shellwords.QuoteWord(bin) + " mcp)"}, nil
	case "cursor":
		return Snippet{Text: mcpServersJSON(bin),
			Where: "merge it into ~/.cursor/mcp.json (or .cursor/mcp.json in a project)"}, nil
	}
	return Snippet{}, fmt.Errorf("unknown agent %q: want one of %s", agent, strings.Join(Agents, ", "))
}

// The snippets' JSON, in the order the agents' documentation writes it.
type (
	server struct {
		Command string   `json:"command"`
		Args    []string `json:"args"`
	}
	command struct {
		Type    string `json:"type"`
		Command string `json:"command"`
		Async   bool   `json:"async"`
		Timeout int    `json:"timeout"`
	}
	matcher struct {
		Matcher string    `json:"matcher,omitempty"`
		Hooks   []command `json:"hooks"`
	}
	events struct {
		UserPromptSubmit   []matcher `json:"UserPromptSubmit"`
		PostToolUse        []matcher `json:"PostToolUse"`
		PostToolUseFailure []matcher `json:"PostToolUseFailure"`
	}
)

func mcpServersJSON(bin string) string {
	return indentJSON(map[string]any{"mcpServers": map[string]server{"hookd": {Command: bin, Args: []string{"mcp"}}}})
}

// HookConfig returns the hooks block of Claude Code's settings that
// records each command its Bash tool runs, with its output: after a
// success (PostToolUse) and after a failure (PostToolUseFailure); and
// each prompt the user gives (UserPromptSubmit), which the commands are
// shown under. The hook runs in the background (async) and returns at
// once anyway.
func HookConfig(agent, bin string) (Snippet, error) {
	if agent != "claude-code" {
		return Snippet{}, fmt.Errorf("no hook for %q: only claude-code has one (other tools: hookd record --author NAME -- COMMAND)", agent)
	}
	run := []command{{Type: "command", Command: shellwords.QuoteWord(bin) + " agent-hook claude-code", Async: true, Timeout: 10}}
	hook := []matcher{{Matcher: "Bash", Hooks: run}}
	v := map[string]events{"hooks": {UserPromptSubmit: []matcher{{Hooks: run}}, PostToolUse: hook, PostToolUseFailure: hook}}
	return Snippet{Text: indentJSON(v),
		Where: "merge it into ~/.claude/settings.json (every project) or .claude/settings.json (one project)"}, nil
}

func indentJSON(v any) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	enc.Encode(v)
	return b.String()
}

// jsonString is s as a JSON string, which is also a TOML basic string.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
