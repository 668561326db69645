package mcp

import (
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// addMore adds the tools, resources and prompts that came after the first
// four tools: assess_command, search_output, diff_output, agent_session.
func addMore(s *sdk.Server, t *tools, readOnly *sdk.ToolAnnotations) {
	sdk.AddTool(s, &sdk.Tool{Name: "assess_command", Title: "Rate a command's risk before running it",
		Description: "Rate a shell command line before running it, by the risk rules hookd labels its fixes with (the same answer as `hookd check`): low, medium or high, with the parts of the command that raised it and why (deletes / or the home directory, pipes a download into a shell, git push --force, sudo, code run from a string, …). The command is parsed as a shell parses it, not matched as text. Nothing is run. Ask the user before running a medium or high command.",
		Annotations: readOnly}, t.assess)
}
