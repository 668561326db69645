package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/hookd/hookd/config"
	"github.com/hookd/hookd/ctxcmd"
	"github.com/hookd/hookd/project"
	"github.com/hookd/hookd/sanitize"
	"github.com/hookd/hookd/skill"
	"github.com/hookd/hookd/trust"
)

// userContext is what the user set up for questions asked here: the
// config's ask section, the project's .hookd.yml over it (its commands
// only when trusted), the profile, the skills and the template.
type userContext struct {
	settings project.Settings
	skills   []skill.Skill
	template string
}

// userContext reads the settings for a question asked in cwd; what is
// wrong in the project's file or the skill files is said on stderr.
func (e *env) userContext(cwd, profile string) (userContext, error) {
	var uc userContext
	var proj *project.Project
	if path, ok := project.Find(cwd); ok {
		p, warns := project.Load(path, trust.Store{Dir: e.paths.Trust})
		for _, w := range warns {
			fmt.Fprintf(e.stderr, "hookd: warning: %s\n", w)
		}
		proj = &p
	}
	st, err := project.Select(e.config().Ask, proj, cwd, profile)
	if err != nil {
		return uc, err
	}
	uc.settings = st
	uc.template = st.Template
	if uc.template == "" {
		if b, err := os.ReadFile(e.paths.Template); err == nil {
			uc.template = string(b)
		}
	}
	uc.skills = skill.FromConfig(st.Skills, "config")
	files, warns := skill.LoadDir(e.paths.Skills)
	for _, w := range warns {
		fmt.Fprintf(e.stderr, "hookd: warning: %s\n", w)
	}
	uc.skills = append(uc.skills, files...)
	return uc, nil
}

// runContext runs the context commands (the settings', then --exec's) in
// cwd, all at once, and returns their results; an on_failure: fail
// command that failed is the error. The commands of an untrusted project
// file are not run: one line names them. (--dry-run runs them too: their
// output is part of what would be sent.)
func (e *env) runContext(ctx context.Context, uc userContext, execs []string, cwd string, confirm bool) ([]ctxcmd.Result, error) {
	st := uc.settings
	if len(st.Skipped) > 0 {
		var names []string
		for _, c := range st.Skipped {
			names = append(names, ctxcmd.SpecOf(c.ContextCommand, c.Source).Label())
		}
		fmt.Fprintf(e.stderr, "hookd: %s is not trusted: its context commands (%s) were not run; `hookd allow %s` lets them run\n",
			sanitize.Line(st.Untrusted), sanitize.Line(strings.Join(names, ", ")), sanitize.Line(st.Untrusted))
	}
	var specs []ctxcmd.Spec
	for _, c := range st.Commands {
		specs = append(specs, ctxcmd.SpecOf(c.ContextCommand, c.Source))
	}
	for _, x := range execs {
		specs = append(specs, ctxcmd.SpecOf(config.ContextCommand{Command: x, OnFailure: config.OnFailureWarn,
			Timeout: config.Duration(config.DefaultContextTimeout)}, project.ExecSource))
	}
	if len(specs) == 0 {
		return nil, nil
	}
	opt := ctxcmd.Options{Dir: cwd, Shell: os.Getenv("SHELL")}
	if confirm {
		opt.Confirm = e.confirmContext()
	}
	rs := ctxcmd.Run(ctx, specs, opt)
	return rs, ctxcmd.Failed(rs)
}

// confirmContext asks on the terminal before each context command.
// Commands run at once, so the questions come first, one at a time.
func (e *env) confirmContext() func(name, command string) bool {
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

// printSkills lists the skills: name, pattern, where, and the first line
// of what each adds.
func printSkills(e *env, skills []skill.Skill) error {
	if len(skills) == 0 {
		fmt.Fprintf(e.stdout, "no skills: add ask.skills to %s, or skill files to %s\n", e.paths.Config, e.paths.Skills)
		return nil
	}
	for _, s := range skills {
		first, _, _ := strings.Cut(strings.TrimSpace(s.Prepend), "\n")
		desc := s.Description
		if desc == "" {
			desc = first
		}
		fmt.Fprintf(e.stdout, "%s  /%s/  %s\n    %s\n", e.out.String(sanitize.Line(s.Name)).Bold(), sanitize.Line(strings.TrimPrefix(s.Pattern.String(), "(?i)")),
			e.out.String(sanitize.Line(s.Source)).Faint(), sanitize.Line(desc))
	}
	return nil
}
