// Package agenthook speaks the coding agents' own formats: the hook payload
// Claude Code hands `hookd agent-hook claude-code` for each command its
// Bash tool ran (ClaudeCode), and the setup snippets each agent expects to
// find hookd's MCP server and hook in (MCPConfig, HookConfig). It reads
// and writes text only: recording is the caller's (package recorder).
package agenthook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Call is one command a coding agent ran, as its hook told it.
type Call struct {
	// SessionKey is the agent's own session id (Claude Code's
	// session_id): the agent's commands of one session go to one hookd
	// session.
	SessionKey string
	Command    string
	Cwd        string
	// Exit is the shell's $? as well as it is known: 0 for a success,
	// the status a failure names ("Exit code 2"), 1 for a failure that
	// names none, 130 for a command interrupted.
	Exit int
	// Stdout and Stderr are what the agent kept of each; Output is the
	// text of a failure, where the agent gives the two together.
	Stdout, Stderr, Output string
	// Apart says that Stdout and Stderr were given apart (a success).
	Apart bool
	// Start and End: End is when the hook ran, Start that less the
	// duration the agent gave (End when it gave none).
	Start, End time.Time
	// Background is a command the agent started in the background: its
	// output is not in the payload.
	Background bool
	// Intent is what the agent said the command was for (Claude Code's
	// description of a Bash call); "" when it said nothing.
	Intent string
}

// Prompt is what the user asked a coding agent, as its hook told it: the
// commands the agent runs next in the session are its answer.
type Prompt struct {
	SessionKey string
	Text       string
	At         time.Time
}

// Event is what one hook payload tells: exactly one of Call and Prompt is
// set.
type Event struct {
	Call   *Call
	Prompt *Prompt
}

// ErrIgnored wraps the reason a payload records nothing (not JSON, not a
// Bash call, another event): the hook says so in the log and exits 0.
var ErrIgnored = errors.New("ignored")

func ignored(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrIgnored, fmt.Sprintf(format, a...))
}

// claudePayload is the part of a PostToolUse or PostToolUseFailure hook
// input hookd reads (Claude Code's hooks reference; the Agent SDK's
// PostToolUseHookInput and PostToolUseFailureHookInput types).
type claudePayload struct {
	SessionID     string          `json:"session_id"`
	Cwd           string          `json:"cwd"`
	HookEventName string          `json:"hook_event_name"`
	ToolName      string          `json:"tool_name"`
	ToolInput     json.RawMessage `json:"tool_input"`
	ToolResponse  json.RawMessage `json:"tool_response"`
	// PostToolUseFailure: the error as the model saw it, and whether the
	// user interrupted the tool.
	Error       *string  `json:"error"`
	IsInterrupt bool     `json:"is_interrupt"`
	DurationMS  *float64 `json:"duration_ms"`
	// UserPromptSubmit: what the user typed.
	Prompt *string `json:"prompt"`
}

type bashInput struct {
	Command         string `json:"command"`
	RunInBackground bool   `json:"run_in_background"`
	Description     string `json:"description"`
}

type bashResponse struct {
	Stdout      string `json:"stdout"`
	Stderr      string `json:"stderr"`
	Interrupted bool   `json:"interrupted"`
	// Not in every version: a status, when one is given, is believed.
	ExitCode  *int    `json:"exit_code"`
	ExitCode2 *int    `json:"exitCode"`
	TaskID    *string `json:"backgroundTaskId"`
}

// MaxPayload bounds a hook payload read from stdin: more is not a Bash
// call's (Claude Code itself keeps a command's output far smaller).
const MaxPayload = 64 << 20

// ClaudeCode reads a Claude Code hook payload: a PostToolUse or
// PostToolUseFailure event of its Bash tool (a Call), or a
// UserPromptSubmit (a Prompt). Anything else is an error wrapping
// ErrIgnored that says what it was.
func ClaudeCode(payload []byte, now time.Time) (Event, error) {
	// Older versions sent no event name: a tool_response says which.
	return claudeEvent(payload, now, "PostToolUse", "PostToolUseFailure", "")
}

// claudeEvent reads a payload in Claude Code's shape (Claude Code's, or
// Codex's): a UserPromptSubmit, or a call of one of events.
func claudeEvent(payload []byte, now time.Time, events ...string) (Event, error) {
	var p claudePayload
	if err := unmarshal(payload, &p); err != nil {
		return Event{}, err
	}
	if p.HookEventName == "UserPromptSubmit" {
		return promptEvent(p.SessionID, p.Prompt, now)
	}
	if !slices.Contains(events, p.HookEventName) {
		return Event{}, ignored("event %q is not %s or UserPromptSubmit", p.HookEventName, strings.Join(slices.DeleteFunc(slices.Clone(events), func(e string) bool { return e == "" }), ", "))
	}
	c, err := claudeCall(p, now)
	if err != nil {
		return Event{}, err
	}
	return Event{Call: &c}, nil
}

// unmarshal reads a payload into p, an error wrapping ErrIgnored when it
// is not a JSON object of the right shape.
func unmarshal(payload []byte, p any) error {
	if err := json.Unmarshal(payload, p); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) || len(bytes.TrimSpace(payload)) == 0 {
			return ignored("the payload is not JSON (%d bytes)", len(payload))
		}
		return ignored("the payload is not a hook event's: %v", err)
	}
	return nil
}

// promptEvent is the Prompt of a prompt hook's payload.
func promptEvent(session string, prompt *string, now time.Time) (Event, error) {
	if prompt == nil || strings.TrimSpace(*prompt) == "" {
		return Event{}, ignored("a prompt event without a prompt")
	}
	return Event{Prompt: &Prompt{SessionKey: session, Text: *prompt, At: now}}, nil
}

// claudeCall reads the Bash call of a PostToolUse or PostToolUseFailure
// payload (Claude Code's, or another agent's in the same shape).
func claudeCall(p claudePayload, now time.Time) (Call, error) {
	if p.ToolName != "Bash" {
		return Call{}, ignored("tool %q is not Bash", p.ToolName)
	}
	var in bashInput
	if err := json.Unmarshal(p.ToolInput, &in); err != nil || strings.TrimSpace(in.Command) == "" {
		return Call{}, ignored("a Bash call without a command")
	}
	c := Call{SessionKey: p.SessionID, Command: in.Command, Cwd: p.Cwd, End: now, Start: now, Background: in.RunInBackground,
		Intent: strings.TrimSpace(in.Description)}
	if p.DurationMS != nil && *p.DurationMS > 0 {
		c.Start = now.Add(-time.Duration(*p.DurationMS * float64(time.Millisecond)))
	}
	failure := p.HookEventName == "PostToolUseFailure" || p.HookEventName == "" && p.Error != nil && len(p.ToolResponse) == 0
	if failure {
		msg := ""
		if p.Error != nil {
			msg = *p.Error
		}
		c.Exit, c.Output = failureStatus(msg)
		if p.IsInterrupt {
			c.Exit = 130
		}
		return c, nil
	}
	var r bashResponse
	if len(p.ToolResponse) > 0 {
		if err := json.Unmarshal(p.ToolResponse, &r); err != nil {
			// A string: some versions give the output as it was shown.
			var s string
			if json.Unmarshal(p.ToolResponse, &s) != nil {
				return Call{}, ignored("tool_response is neither an object nor a string")
			}
			c.Output = s
			return c, nil
		}
	}
	c.Stdout, c.Stderr, c.Apart = r.Stdout, r.Stderr, true
	switch {
	case r.ExitCode != nil:
		c.Exit = *r.ExitCode
	case r.ExitCode2 != nil:
		c.Exit = *r.ExitCode2
	}
	if r.Interrupted {
		c.Exit = 130
	}
	if r.TaskID != nil {
		c.Background = true
	}
	return c, nil
}

// failureStatus reads the status from a failure's error text: Claude Code
// words a Bash failure "Exit code N" on its first line, followed by what
// the command printed.
func failureStatus(msg string) (int, string) {
	first, rest, _ := strings.Cut(msg, "\n")
	s := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(first), "Error:"))
	if n, ok := strings.CutPrefix(s, "Exit code "); ok {
		if v, err := strconv.Atoi(strings.TrimSpace(n)); err == nil {
			return v, rest
		}
	}
	if n, ok := strings.CutPrefix(s, "Command exited with non-zero status code "); ok {
		if v, err := strconv.Atoi(strings.TrimSpace(n)); err == nil {
			return v, rest
		}
	}
	return 1, msg
}
