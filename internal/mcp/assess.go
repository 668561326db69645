package mcp

import (
	"context"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hookd/hookd/analyze"
)

// AssessIn are assess_command's arguments.
type AssessIn struct {
	Command string `json:"command" jsonschema:"the shell command line to rate, as it would be run (bash syntax)"`
}

// AssessOut is assess_command's result: hookd check --json's.
type AssessOut struct {
	Command string `json:"command"`
	Level   string `json:"level" jsonschema:"low, medium or high"`
	// Exit is hookd check's exit status for the level: 0, 1 or 2.
	Exit    int            `json:"exit"`
	Reasons []AssessReason `json:"reasons" jsonschema:"the parts of the command that raised the level, highest first"`
}

// AssessReason is one part of a command and why it is risky.
type AssessReason struct {
	Level string `json:"level"`
	Part  string `json:"part" jsonschema:"the part of the command rated"`
	Why   string `json:"why"`
}

// maxAssess bounds the command assess_command rates, in bytes.
const maxAssess = 64 << 10

func (t *tools) assess(_ context.Context, _ *sdk.CallToolRequest, in AssessIn) (*sdk.CallToolResult, AssessOut, error) {
	out := AssessOut{Reasons: []AssessReason{}}
	switch {
	case strings.TrimSpace(in.Command) == "":
		return nil, out, badArg("command is required: the shell command line to rate")
	case len(in.Command) > maxAssess:
		return nil, out, badArg("command is %d bytes: at most %d are rated", len(in.Command), maxAssess)
	}
	a := analyze.Assess(in.Command)
	out.Command, out.Level = t.line(in.Command), a.Level
	switch a.Level {
	case analyze.RiskHigh:
		out.Exit = 2
	case analyze.RiskMedium:
		out.Exit = 1
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n", out.Level, out.Command)
	for _, r := range a.Reasons {
		rr := AssessReason{Level: r.Level, Part: t.line(r.Part), Why: t.line(r.Why)}
		out.Reasons = append(out.Reasons, rr)
		fmt.Fprintf(&b, "  %s: %s: %s\n", rr.Level, rr.Part, rr.Why)
	}
	if a.Level != analyze.RiskLow {
		b.WriteString("Ask the user before running it, and tell them why.\n")
	}
	return text(b.String()), out, nil
}
