package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/hookd/hookd/internal/ai/contextcmd"
	"github.com/hookd/hookd/internal/ai/project"
	"github.com/hookd/hookd/internal/ai/skill"
	"github.com/hookd/hookd/internal/sanitize"
	"github.com/hookd/hookd/internal/ui/style"
)

// question reads what shapes a question asked in cwd (project.ForQuestion);
// what is wrong in the project's file or the skill files is said on stderr.
func (e *env) question(cwd, profile string) (project.Question, error) {
	q, warns, err := project.ForQuestion(e.config().Ask, cwd, profile,
		project.Places{Trust: e.paths.Trust, Skills: e.paths.Skills, Template: e.paths.Template})
	for _, w := range warns {
		fmt.Fprintf(e.stderr, "hookd: warning: %s\n", sanitize.Line(w.String()))
	}
	return q, err
}

// runContext runs the context commands (the settings', then --exec's) in
// cwd, all at once, and returns their results; an on_failure: fail
// command that failed is the error. The commands of an untrusted project
// file are not run: one line names them. (--dry-run runs them too: their
// output is part of what would be sent.)
func (e *env) runContext(ctx context.Context, q project.Question, execs []string, cwd string, confirm bool) ([]contextcmd.Result, error) {
	if note := q.SkippedNote(); note != "" {
		fmt.Fprintf(e.stderr, "hookd: %s\n", sanitize.Line(note))
	}
	specs := q.Specs(execs)
	if len(specs) == 0 {
		return nil, nil
	}
	opt := contextcmd.Options{Dir: cwd, Shell: os.Getenv("SHELL"), Env: e.commandEnv()}
	if confirm {
		opt.Confirm = confirmOnTTY()
	}
	rs := contextcmd.Run(ctx, specs, opt)
	return rs, contextcmd.Failed(rs)
}

// confirmOnTTY asks on the terminal before each context command (they run
// at once, so the questions come first, one at a time).
func confirmOnTTY() func(name, command string) bool {
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return func(string, string) bool { return false }
	}
	in := bufio.NewReader(tty)
	return func(name, command string) bool {
		fmt.Fprintf(tty, "hookd: run context command %s: %s ? [y/N] ", sanitize.Line(name), sanitize.Line(command))
		line, _ := in.ReadString('\n')
		return strings.HasPrefix(strings.ToLower(strings.TrimSpace(line)), "y")
	}
}

// printSkills lists the skills: name, pattern, where, and the description
// or the first line of what each adds.
func printSkills(e *env, skills []skill.Skill) error {
	if len(skills) == 0 {
		fmt.Fprintf(e.stdout, "no skills: add ask.skills to %s, or skill files to %s\n", e.paths.Config, e.paths.Skills)
		return nil
	}
	for _, s := range skills {
		desc := s.Description
		if desc == "" {
			desc, _, _ = strings.Cut(strings.TrimSpace(s.Prepend), "\n")
		}
		fmt.Fprintf(e.stdout, "%s  /%s/  %s\n    %s\n", e.palette.Render(style.Label, sanitize.Line(s.Name)), sanitize.Line(strings.TrimPrefix(s.Pattern.String(), "(?i)")),
			e.palette.Render(style.Dim, sanitize.Line(s.Source)), sanitize.Line(desc))
	}
	return nil
}
