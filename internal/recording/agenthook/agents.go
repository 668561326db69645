package agenthook

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Hooked are the coding agents `hookd agent-hook` reads the payloads of,
// in the order help lists them.
var Hooked = []string{"claude-code", "codex", "gemini", "opencode", "copilot"}

// Parse reads the hook payload of agent (one of Hooked): a Call, a Prompt,
// or an error wrapping ErrIgnored that says why it is neither.
func Parse(agent string, payload []byte, now time.Time) (Event, error) {
	switch agent {
	case "claude-code":
		return ClaudeCode(payload, now)
	case "codex":
		return Codex(payload, now)
	case "gemini":
		return Gemini(payload, now)
	case "opencode":
		return Opencode(payload, now)
	case "copilot":
		return Copilot(payload, now)
	}
	return Event{}, ignored("no hook for %q", agent)
}

// Codex reads a Codex hook payload. Codex's hooks take Claude Code's wire
// format (developers.openai.com/codex/hooks: the common fields session_id,
// turn_id, transcript_path, cwd, hook_event_name, model; PostToolUse adds
// tool_name, tool_use_id, tool_input and tool_response; UserPromptSubmit
// adds prompt), its shell tool being "Bash" with tool_input.command. Its
// tool_response is what the model was shown: a string, which for a shell
// command starts with "Exit code: N" (codex-rs's exec output format: the
// status, "Wall time: S seconds", then "Output:" and the text).
func Codex(payload []byte, now time.Time) (Event, error) {
	ev, err := claudeEvent(payload, now, "PostToolUse")
	if c := ev.Call; c != nil && !c.Apart && c.Output != "" {
		c.Exit, c.Output, c.Start = codexOutput(c.Output, now)
	}
	return ev, err
}

// codexOutput reads Codex's exec output text: the status and wall time
// lines before "Output:", then the output.
func codexOutput(s string, now time.Time) (exit int, out string, start time.Time) {
	start = now
	rest := s
	for {
		line, after, ok := strings.Cut(rest, "\n")
		switch {
		case strings.HasPrefix(line, "Exit code: "):
			if v, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(line, "Exit code: "))); err == nil {
				exit = v
			}
		case strings.HasPrefix(line, "Wall time: "):
			f := strings.Fields(strings.TrimPrefix(line, "Wall time: "))
			if len(f) > 0 {
				if v, err := strconv.ParseFloat(f[0], 64); err == nil && v > 0 {
					start = now.Add(-time.Duration(v * float64(time.Second)))
				}
			}
		case strings.HasPrefix(line, "Total output lines: ") || strings.HasPrefix(line, "Original token count: ") || strings.HasPrefix(line, "Chunk ID: ") || strings.HasPrefix(line, "Process exited with code "):
			if v, ok2 := strings.CutPrefix(line, "Process exited with code "); ok2 {
				if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil {
					exit = n
				}
			}
		case line == "Output:":
			return exit, after, start
		default:
			return 0, s, now // not the exec format: the text as it is
		}
		if !ok {
			return 0, s, now
		}
		rest = after
	}
}

// geminiPayload is the part of a Gemini CLI hook input hookd reads (Gemini
// CLI's hooks reference, docs/hooks/reference.md: the base fields
// session_id, transcript_path, cwd, hook_event_name, timestamp; AfterTool
// adds tool_name, tool_input and tool_response {llmContent, returnDisplay,
// error}; BeforeAgent adds prompt).
type geminiPayload struct {
	SessionID     string          `json:"session_id"`
	Cwd           string          `json:"cwd"`
	HookEventName string          `json:"hook_event_name"`
	ToolName      string          `json:"tool_name"`
	ToolInput     json.RawMessage `json:"tool_input"`
	ToolResponse  *struct {
		LLMContent    json.RawMessage `json:"llmContent"`
		ReturnDisplay json.RawMessage `json:"returnDisplay"`
		Error         *struct {
			Message string `json:"message"`
		} `json:"error"`
	} `json:"tool_response"`
	Prompt *string `json:"prompt"`
}

// Gemini reads a Gemini CLI hook payload: AfterTool of its shell tool
// run_shell_command (tool_input: command, description, dir_path,
// is_background), or BeforeAgent (the prompt). The shell tool's
// llmContent is "Output: TEXT" followed by "Error: …", "Exit Code: N",
// "Signal: …", "Background PIDs: …" and "Process Group PGID: N" lines as
// they apply (packages/core/src/tools/shell.ts); a cancelled command's
// starts "Command was cancelled", a backgrounded one's "Command moved to
// background".
func Gemini(payload []byte, now time.Time) (Event, error) {
	var p geminiPayload
	if err := unmarshal(payload, &p); err != nil {
		return Event{}, err
	}
	switch p.HookEventName {
	case "BeforeAgent":
		return promptEvent(p.SessionID, p.Prompt, now)
	case "AfterTool":
	default:
		return Event{}, ignored("event %q is not AfterTool or BeforeAgent", p.HookEventName)
	}
	if p.ToolName != "run_shell_command" {
		return Event{}, ignored("tool %q is not run_shell_command", p.ToolName)
	}
	var in struct {
		Command     string `json:"command"`
		Description string `json:"description"`
		DirPath     string `json:"dir_path"`
		Directory   string `json:"directory"`
		Background  bool   `json:"is_background"`
	}
	if err := json.Unmarshal(p.ToolInput, &in); err != nil || strings.TrimSpace(in.Command) == "" {
		return Event{}, ignored("a shell call without a command")
	}
	c := Call{SessionKey: p.SessionID, Command: in.Command, Cwd: p.Cwd, Start: now, End: now,
		Background: in.Background, Intent: strings.TrimSpace(in.Description)}
	if d := in.DirPath + in.Directory; d != "" {
		if strings.HasPrefix(d, "/") {
			c.Cwd = d
		} else if c.Cwd != "" {
			c.Cwd = strings.TrimSuffix(c.Cwd, "/") + "/" + d
		}
	}
	if p.ToolResponse == nil {
		return Event{Call: &c}, nil
	}
	var llm string
	if json.Unmarshal(p.ToolResponse.LLMContent, &llm) != nil {
		json.Unmarshal(p.ToolResponse.ReturnDisplay, &llm)
	}
	c.Exit, c.Output = geminiOutput(llm)
	if strings.HasPrefix(llm, "Command moved to background") {
		c.Background, c.Output = true, ""
	}
	if c.Exit == 0 && p.ToolResponse.Error != nil {
		c.Exit = 1
	}
	return Event{Call: &c}, nil
}

// geminiOutput reads the shell tool's llmContent: the status and the
// output, the lines after it that are not output taken off.
func geminiOutput(s string) (int, string) {
	if strings.HasPrefix(s, "Command was cancelled") || strings.HasPrefix(s, "Command was automatically cancelled") {
		_, out, _ := strings.Cut(s, "output before it was cancelled:\n")
		return 130, out
	}
	out, ok := strings.CutPrefix(s, "Output: ")
	if !ok {
		return 0, s
	}
	exit := 0
	seen := map[string]bool{} // each line comes once: a second is output
	for {
		i := strings.LastIndexByte(out, '\n')
		if i < 0 {
			break
		}
		line := out[i+1:]
		key, _, _ := strings.Cut(line, ":")
		if seen[key] {
			return exit, emptyOut(out)
		}
		seen[key] = true
		switch {
		case strings.HasPrefix(line, "Exit Code: "):
			v, err := strconv.Atoi(strings.TrimPrefix(line, "Exit Code: "))
			if err != nil {
				return exit, emptyOut(out)
			}
			exit = v
		case strings.HasPrefix(line, "Signal: "):
			if exit == 0 {
				exit = 128 + 15
			}
		case strings.HasPrefix(line, "Error: "):
			if exit == 0 {
				exit = 1
			}
		case strings.HasPrefix(line, "Background PIDs: "), strings.HasPrefix(line, "Process Group PGID: "):
		default:
			return exit, emptyOut(out)
		}
		out = out[:i]
	}
	return exit, emptyOut(out)
}

func emptyOut(s string) string {
	if s == "(empty)" {
		return ""
	}
	if !strings.HasSuffix(s, "\n") && s != "" {
		s += "\n"
	}
	return s
}

// opencodePayload is what hookd's opencode plugin (OpencodePlugin) sends:
// the inputs of opencode's tool.execute.before/after hooks for its bash
// tool (input {tool, sessionID, callID, args}, output {title, output,
// metadata}; bash's args {command, description, workdir}, its metadata
// {output, exit, description}), and of chat.message (the prompt).
type opencodePayload struct {
	Event      string `json:"event"`
	SessionID  string `json:"sessionID"`
	Tool       string `json:"tool"`
	Cwd        string `json:"cwd"`
	DurationMS int64  `json:"duration_ms"`
	Args       struct {
		Command     string `json:"command"`
		Description string `json:"description"`
		Workdir     string `json:"workdir"`
	} `json:"args"`
	Output   *string `json:"output"`
	Metadata struct {
		Output *string `json:"output"`
		Exit   *int    `json:"exit"`
	} `json:"metadata"`
	Prompt *string `json:"prompt"`
}

// Opencode reads what hookd's opencode plugin sends: a bash call after it
// ran, or a prompt.
func Opencode(payload []byte, now time.Time) (Event, error) {
	var p opencodePayload
	if err := unmarshal(payload, &p); err != nil {
		return Event{}, err
	}
	switch p.Event {
	case "chat.message":
		return promptEvent(p.SessionID, p.Prompt, now)
	case "tool.execute.after":
	default:
		return Event{}, ignored("event %q is not tool.execute.after or chat.message", p.Event)
	}
	if p.Tool != "bash" {
		return Event{}, ignored("tool %q is not bash", p.Tool)
	}
	if strings.TrimSpace(p.Args.Command) == "" {
		return Event{}, ignored("a bash call without a command")
	}
	c := Call{SessionKey: p.SessionID, Command: p.Args.Command, Cwd: p.Cwd, Start: now, End: now,
		Intent: strings.TrimSpace(p.Args.Description)}
	if p.Args.Workdir != "" {
		c.Cwd = p.Args.Workdir
	}
	if p.DurationMS > 0 {
		c.Start = now.Add(-time.Duration(p.DurationMS) * time.Millisecond)
	}
	switch {
	case p.Metadata.Output != nil:
		c.Output = *p.Metadata.Output
	case p.Output != nil:
		c.Output = *p.Output
	}
	if p.Metadata.Exit != nil {
		c.Exit = *p.Metadata.Exit
	}
	return Event{Call: &c}, nil
}

// copilotPayload is the part of a GitHub Copilot CLI hook input hookd
// reads, in its camelCase format (docs.github.com, Copilot CLI hooks
// reference: the common sessionId, timestamp in ms and cwd; postToolUse
// adds toolName, toolArgs and toolResult {resultType, textResultForLlm};
// userPromptSubmitted adds prompt). toolArgs is an object, or the same as
// a JSON string in older versions.
type copilotPayload struct {
	SessionID  string          `json:"sessionId"`
	Cwd        string          `json:"cwd"`
	ToolName   string          `json:"toolName"`
	ToolArgs   json.RawMessage `json:"toolArgs"`
	ToolResult *struct {
		ResultType       string `json:"resultType"`
		TextResultForLlm string `json:"textResultForLlm"`
	} `json:"toolResult"`
	Prompt *string `json:"prompt"`
}

// exitedRe is the line Copilot CLI's shell tool ends its result with.
// (Compiled when first used: hookd's every command starts without it.)
var exitedRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\n?<exited with exit code (\d+)>\s*$`) })

// Copilot reads a GitHub Copilot CLI hook payload: postToolUse of its bash
// tool (a Call), or userPromptSubmitted (a Prompt). The event is not in
// the payload: a prompt says which it is.
func Copilot(payload []byte, now time.Time) (Event, error) {
	var p copilotPayload
	if err := unmarshal(payload, &p); err != nil {
		return Event{}, err
	}
	if p.Prompt != nil {
		return promptEvent(p.SessionID, p.Prompt, now)
	}
	if p.ToolName != "bash" && p.ToolName != "shell" {
		return Event{}, ignored("tool %q is not bash", p.ToolName)
	}
	raw := p.ToolArgs
	var s string
	if json.Unmarshal(raw, &s) == nil {
		raw = json.RawMessage(s)
	}
	var args struct {
		Command     string `json:"command"`
		Description string `json:"description"`
	}
	if err := json.Unmarshal(raw, &args); err != nil || strings.TrimSpace(args.Command) == "" {
		return Event{}, ignored("a bash call without a command")
	}
	c := Call{SessionKey: p.SessionID, Command: args.Command, Cwd: p.Cwd, Start: now, End: now, Intent: strings.TrimSpace(args.Description)}
	if r := p.ToolResult; r != nil {
		c.Output = r.TextResultForLlm
		if m := exitedRe().FindStringSubmatchIndex(c.Output); m != nil {
			c.Exit, _ = strconv.Atoi(c.Output[m[2]:m[3]])
			c.Output = c.Output[:m[0]]
			if c.Output != "" && !strings.HasSuffix(c.Output, "\n") {
				c.Output += "\n"
			}
		} else if r.ResultType == "failure" {
			c.Exit = 1
		}
	}
	return Event{Call: &c}, nil
}
