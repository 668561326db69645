package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/ai/promptblock"
	"github.com/hookd/hookd/internal/recording/recall"
)

// AgentSessionIn are agent_session's arguments.
type AgentSessionIn struct {
	Author string `json:"author,omitempty" jsonschema:"the agent as hookd records it (claude-code, codex, gemini, …); default: the calling agent, known by the name its MCP client gives"`
	Limit  int    `json:"limit,omitempty" jsonschema:"how many of its last commands (default 10, at most 50)"`
}

// SessionCommand is a command of the agent's session with its output.
type SessionCommand struct {
	Info
	// Output is what it printed, cut to its share of the call's size
	// (head, tail and the lines that look like errors).
	Output string `json:"output"`
	// Missing says why there is no output.
	Missing string `json:"missing,omitempty"`
	// Cut says the output was cut; command_output gives the rest.
	Cut bool `json:"cut,omitempty"`
}

// AgentSessionOut is agent_session's result.
type AgentSessionOut struct {
	Author   string           `json:"author"`
	Session  string           `json:"session"`
	Commands []SessionCommand `json:"commands" jsonschema:"oldest first: the last one is the most recent"`
	Note     string           `json:"note,omitempty"`
}

// clientAuthor is the author hookd records an MCP client's agent under,
// from the name its client gives ("" when it is none hookd knows).
func clientAuthor(req *sdk.CallToolRequest) string {
	if req == nil || req.Session == nil {
		return ""
	}
	ip := req.Session.InitializeParams()
	if ip == nil || ip.ClientInfo == nil {
		return ""
	}
	name := strings.ToLower(ip.ClientInfo.Name)
	for _, a := range []struct{ in, author string }{
		{"claude", "claude-code"}, {"codex", "codex"}, {"gemini", "gemini"}, {"opencode", "opencode"},
		{"copilot", "copilot"}, {"cursor", "cursor"},
	} {
		if strings.Contains(name, a.in) {
			return a.author
		}
	}
	return ""
}

func (t *tools) agentSession(ctx context.Context, req *sdk.CallToolRequest, in AgentSessionIn) (*sdk.CallToolResult, AgentSessionOut, error) {
	out := AgentSessionOut{Commands: []SessionCommand{}}
	n, note, err := limit(in.Limit, defaultRecent, maxRecent)
	if err != nil {
		return nil, out, err
	}
	out.Author = in.Author
	if out.Author == "" {
		if out.Author = clientAuthor(req); out.Author == "" {
			return nil, out, badArg("which agent? give author (claude-code, codex, gemini, …): this client's name is not one hookd records commands under")
		}
	}
	share := maxText / n
	err = t.call(ctx, func(s *history.Store) error {
		sess, es, err := lastOf(ctx, s, out.Author, n)
		if err != nil {
			return err
		}
		out.Session = sess
		rd := t.o.Reader(s)
		for _, en := range es {
			c := SessionCommand{Info: t.command(en)}
			o, err := rd.Output(ctx, en, "", 0)
			var no *recall.NoOutput
			switch {
			case errors.As(err, &no):
				c.Missing = t.line(no.Reason)
			case err != nil:
				return err
			default:
				body := t.clean(string(o.Text))
				if len(body) > share {
					body, _ = promptblock.Excerpt(body, share/4)
					if len(body) > share {
						body = clipLine(body, share)
					}
					c.Cut = true
				}
				c.Output = body
			}
			out.Commands = append(out.Commands, c)
		}
		return nil
	})
	if err != nil {
		return nil, out, err
	}
	out.Note = note
	var b strings.Builder
	if out.Session == "" {
		fmt.Fprintf(&b, "No command of %s is recorded (its hook records them: see hookd agent-hook, or hookd record --author %s).\n", t.line(out.Author), t.line(out.Author))
	} else {
		fmt.Fprintf(&b, "The last %d commands of %s's most recent session (%s), oldest first, with what they printed:\n", len(out.Commands), t.line(out.Author), out.Session)
	}
	// Fenced, as command_context's outputs: what a command printed
	// cannot pass for instructions.
	var bodies []string
	for _, c := range out.Commands {
		bodies = append(bodies, c.Output)
	}
	begin, end := promptblock.Fence("output", promptblock.NewBoundary(bodies...))
	for _, c := range out.Commands {
		b.WriteString(summary(c.Info) + "\n")
		switch {
		case c.Missing != "":
			fmt.Fprintf(&b, "  (no output: %s)\n", c.Missing)
		case c.Output != "":
			fmt.Fprintf(&b, "%s\n%s\n%s\n", begin, strings.TrimSuffix(c.Output, "\n"), end)
			if c.Cut {
				fmt.Fprintf(&b, "  (cut: command_output %d gives the rest)\n", c.ID)
			}
		}
	}
	if note != "" {
		fmt.Fprintf(&b, "[%s]\n", note)
	}
	return text(b.String()), out, nil
}
