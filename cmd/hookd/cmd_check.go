package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/hookd/hookd/analyze"
	"github.com/hookd/hookd/internal/recording/agenthook"
	"github.com/hookd/hookd/internal/sanitize"
	"github.com/hookd/hookd/internal/shellwords"
)

// cmdCheck rates a command before it runs, by the risk rules that label
// fixes (analyze.Assess), for a coding agent's pre-tool hook: exit 0, 1
// or 2 for low, medium or high.
func cmdCheck(fs *pflag.FlagSet) runFunc {
	asJSON := fs.Bool("json", false, "print one JSON object: command, level, exit, reasons (level, part, why)")
	hook := fs.String("hook", "", "read the command from `AGENT`'s pre-tool hook payload on stdin and answer as its hook (claude-code: PreToolUse; asks the user before a medium or high command, exits 0)")
	fs.SetInterspersed(false)
	return func(ctx context.Context, e *env, args []string) error {
		if *hook != "" {
			if *hook != "claude-code" {
				return usagef("--hook: claude-code is the agent whose pre-tool hook hookd answers, not %q", sanitize.Line(*hook))
			}
			if len(args) > 0 {
				return usagef("--hook reads the command from stdin: no arguments")
			}
			return checkHook(e)
		}
		if len(args) == 0 {
			return usagef("give the command after --: hookd check -- 'curl … | sh', or its words")
		}
		line := args[0]
		if len(args) > 1 {
			line = shellwords.Join(args...)
		}
		a := analyze.Assess(line)
		code := riskExit(a.Level)
		if *asJSON {
			enc := json.NewEncoder(e.stdout)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(struct {
				Command string `json:"command"`
				analyze.Assessment
				Exit int `json:"exit"`
			}{line, a, code}); err != nil {
				return err
			}
		} else {
			io.WriteString(e.stdout, assessText(line, a))
		}
		if code != 0 {
			return exitCode{code: code}
		}
		return nil
	}
}

// riskExit is hookd check's exit status for a level.
func riskExit(level string) int {
	switch level {
	case analyze.RiskHigh:
		return 2
	case analyze.RiskMedium:
		return 1
	}
	return 0
}

// assessText is an assessment as hookd check prints it: the level and
// the command, then each reason on a line of its own.
func assessText(line string, a analyze.Assessment) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n", a.Level, sanitize.Line(line))
	for _, r := range a.Reasons {
		fmt.Fprintf(&b, "  %s: %s: %s\n", r.Level, sanitize.Line(r.Part), sanitize.Line(r.Why))
	}
	return b.String()
}

// checkHook answers Claude Code's PreToolUse hook: nothing (the tool runs
// as Claude Code's own permissions say) for a low command, another tool
// or a payload it cannot read; for a medium or high one, ask the user,
// with the reasons.
func checkHook(e *env) error {
	payload, err := io.ReadAll(io.LimitReader(e.stdin, agenthook.MaxPayload))
	if err != nil {
		return nil
	}
	cmd, ok := agenthook.PreToolCommand(payload)
	if !ok {
		return nil
	}
	a := analyze.Assess(cmd)
	if a.Level == analyze.RiskLow {
		return nil
	}
	whys := make([]string, 0, len(a.Reasons))
	for _, r := range a.Reasons {
		whys = append(whys, sanitize.Line(r.Why))
	}
	_, err = e.stdout.Write(agenthook.PreToolAsk(fmt.Sprintf("hookd check: %s risk: %s", a.Level, strings.Join(whys, "; "))))
	return err
}
