package agenthook

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/hookd/hookd/internal/shellwords"
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
)

func mcpServersJSON(bin string) string {
	return indentJSON(map[string]any{"mcpServers": map[string]server{"hookd": {Command: bin, Args: []string{"mcp"}}}})
}

// HookConfig returns what records the commands agent runs, with their
// output, and the prompts it is given, for the user to put in place by
// hand (or hookd agent-hook AGENT --install): Claude Code's and Gemini
// CLI's hooks block (UserPromptSubmit, PostToolUse and PostToolUseFailure
// of Bash; BeforeAgent, AfterTool of run_shell_command), Codex's hook
// tables, opencode's plugin file; with which.Check, Claude Code's
// PreToolUse consent hook too (Hooks).
func HookConfig(agent, bin string, which Hooks) (Snippet, error) {
	if which.Check && !slices.Contains(CheckHooked, agent) {
		return Snippet{}, fmt.Errorf("hookd's consent hook is for %s only: %s's own pre-tool hook can run hookd check -- CMD",
			strings.Join(CheckHooked, ", "), agent)
	}
	path, err := Settings(agent, "~", "")
	if err != nil {
		return Snippet{}, fmt.Errorf("%w (any other tool: hookd record --author NAME -- COMMAND)", err)
	}
	switch agent {
	case "codex":
		return Snippet{Text: codexTables(jsonString(hookCommand(agent, bin))),
			Where: "add it to ~/.codex/config.toml (or run hookd agent-hook codex --install); Codex asks you to trust a new hook once"}, nil
	case "opencode":
		return Snippet{Text: OpencodePlugin(bin), Where: "save it as " + path + " (or run hookd agent-hook opencode --install)"}, nil
	case "copilot":
		return Snippet{Text: CopilotHooks(bin), Where: "save it as " + path + " in your repository (or run hookd agent-hook copilot --install there)"}, nil
	}
	hooks := obj{}
	for _, g := range hookGroups(agent, bin, which.Check) {
		hooks = append(hooks, kv{g.k, []any{g.v}})
	}
	where := "merge it into ~/.claude/settings.json (every project) or .claude/settings.json (one project), or run hookd agent-hook claude-code --install"
	if agent == "gemini" {
		where = "merge it into ~/.gemini/settings.json (every project) or .gemini/settings.json (one project), or run hookd agent-hook gemini --install"
	}
	return Snippet{Text: string(encodeOrdered(obj{{"hooks", hooks}})), Where: where}, nil
}

func indentJSON(v any) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	enc.Encode(v)
	return b.String()
}

// jsonString is s as a JSON string, which is also a TOML basic string
// (<, > and & as they are).
func jsonString(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}
