package mcp

import (
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// addMore adds the tools, resources and prompts that came after the first
// four tools: assess_command, search_output, diff_output, agent_session,
// the command and failures resources, the explain_last_failure and
// what_changed prompts.
func addMore(s *sdk.Server, t *tools, readOnly *sdk.ToolAnnotations) {
	sdk.AddTool(s, &sdk.Tool{Name: "assess_command", Title: "Rate a command's risk before running it",
		Description: "Rate a shell command line before running it, by the risk rules hookd labels its fixes with (the same answer as `hookd check`): low, medium or high, with the parts of the command that raised it and why (deletes / or the home directory, pipes a download into a shell, git push --force, sudo, code run from a string, …). The command is parsed as a shell parses it, not matched as text. Nothing is run. Ask the user before running a medium or high command.",
		Annotations: readOnly}, t.assess)
	sdk.AddTool(s, &sdk.Tool{Name: "search_output", Title: "Search what commands printed",
		Description: "Search the lines of what recorded commands printed: words (query: every word on the line, any case) or a regular expression (regex: RE2 syntax, case-insensitive), with context_lines around each match, newest command first, grep -n style (N: match, N- context). Filters: author, session, cwd, since, failed. A call is bounded (2 s, 64 MiB read, limit matching lines): complete says whether every output that could match was read, and the note how to narrow the search when not.",
		Annotations: readOnly}, t.searchOutput)
	sdk.AddTool(s, &sdk.Tool{Name: "diff_output", Title: "Diff a command's output against another run",
		Description: "How a run's output differs from the last time the same command worked (or from another run: against), as a unified diff, with what changed in its context since (directory, git branch, environment), as `hookd diff` says it. Use it when something that used to work fails.",
		Annotations: readOnly}, t.diffOutput)
	sdk.AddTool(s, &sdk.Tool{Name: "agent_session", Title: "Your own earlier commands",
		Description: "The commands you (the calling coding agent) ran in your most recent session that hookd recorded, oldest first, each with what it printed (cut to fit, fenced). Use it to see again what an earlier command of yours printed without running it again.",
		Annotations: readOnly}, t.agentSession)
	s.AddResourceTemplate(&sdk.ResourceTemplate{Name: "command", Title: "A recorded command with its output",
		URITemplate: commandURI + "{id}", MIMEType: "text/plain",
		Description: "A recorded command by id, with its status, directory and output (a long output as its head, tail and error lines), as command_output gives it."}, t.commandResource)
	s.AddResource(&sdk.Resource{Name: "failures", Title: "The user's recent failures", URI: failuresURI, MIMEType: "text/plain",
		Description: "The user's last failed commands, newest first, with their ids."}, t.failuresResource)
	idArg := []*sdk.PromptArgument{{Name: "id", Description: "a command's id (default: the user's last failed command)"}}
	s.AddPrompt(&sdk.Prompt{Name: "explain_last_failure", Title: "Explain my last failure", Arguments: idArg,
		Description: "Why the user's last failed command (or the command id) failed, and how to fix it, from its recorded output."}, t.explainPrompt)
	s.AddPrompt(&sdk.Prompt{Name: "what_changed", Title: "What changed since it worked", Arguments: idArg,
		Description: "What changed since the user's last failed command (or the command id) last worked: its context and its output, diffed."}, t.whatChangedPrompt)
}
