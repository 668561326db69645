package ask

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/hookd/hookd/internal/ai/promptblock"
	"github.com/hookd/hookd/internal/ai/skill"
	"github.com/hookd/hookd/internal/ai/template"
)

// Builtins are the names of the template's built-in variables, as the
// documentation lists them.
var Builtins = []string{"_SCREEN", "_LAST", "_LLM_PREPEND", "_CWD", "_GIT", "_OS", "_SHELL"}

// ScreenCommands is how many of the session's recent commands $_SCREEN
// holds at most (fewer when the budget is spent first).
const ScreenCommands = 50

// Tokens estimates the tokens of text (see promptblock.Tokens).
func Tokens(text string) int { return promptblock.Tokens(text) }

// system writes the system prompt: the built-in one followed by the
// matched skills, or the user's template expanded. A template that brings
// in fenced data ($_SCREEN, $_LAST), or a question that carries context,
// gets the built-in note that fenced data is data appended: the user's
// template cannot know the fence's token.
func system(ctx context.Context, src Sources, in Input, p *Prompt, boundary string, budget int, withContext bool) (string, error) {
	matched := skill.Match(in.Skills, in.Question)
	p.Skills = matched
	for _, s := range matched {
		p.Notes = append(p.Notes, fmt.Sprintf("skill %s matched (%s)", s.Name, s.Source))
	}
	prepend := skill.Prepend(matched)
	if in.Template == "" {
		s := SystemPrompt(in.Env, boundary, withContext)
		if prepend != "" {
			s += "\n" + prepend + "\n"
		}
		return s, nil
	}
	fenced := false
	vars := template.Vars{User: in.Variables, Builtin: map[string]template.Builtin{
		"_LLM_PREPEND": func() (string, error) { return prepend, nil },
		"_CWD":         func() (string, error) { return in.Env.Cwd, nil },
		"_OS":          func() (string, error) { return in.Env.OS, nil },
		"_SHELL":       func() (string, error) { return in.Env.Shell, nil },
		"_GIT":         func() (string, error) { return Git(ctx, in.Env.Cwd), nil },
		"_SCREEN": func() (string, error) {
			fenced = true
			return screen(ctx, src, budget, boundary, p)
		},
		"_LAST": func() (string, error) {
			fenced = true
			return last(ctx, src, budget, boundary, p)
		},
	}}
	s, res, err := template.Expand(in.Template, vars)
	if err != nil {
		return "", err
	}
	for _, u := range res.Unknown {
		p.Notes = append(p.Notes, fmt.Sprintf("the template's $%s is not a variable (built in: $%s); left as it is", u, strings.Join(Builtins, ", $")))
	}
	if fenced || withContext {
		s = strings.TrimRight(s, "\n") + "\n\n" + promptblock.DataNote(boundary)
	}
	return s, nil
}

// screen is $_SCREEN: the session's recent commands with their outputs,
// newest last, as many as fit budget.
func screen(ctx context.Context, src Sources, budget int, boundary string, p *Prompt) (string, error) {
	es, err := src.Reader.Recent(ctx, ScreenCommands)
	if err != nil || len(es) == 0 {
		return "(no commands in this shell session yet)", nil
	}
	cmds := make([]promptblock.Command, 0, len(es))
	for i, en := range es {
		c, _ := Block(ctx, src, en, i == len(es)-1)
		cmds = append(cmds, c)
	}
	b := promptblock.Render(cmds, budget, boundary)
	for _, n := range b.Notes {
		p.Notes = append(p.Notes, "$_SCREEN: "+n)
	}
	return strings.TrimRight(b.Text, "\n"), nil
}

// last is $_LAST: the previous command's context block.
func last(ctx context.Context, src Sources, budget int, boundary string, p *Prompt) (string, error) {
	en, err := src.Reader.Entry(ctx, "-1")
	if err != nil {
		return "(no previous command in this shell session)", nil
	}
	c, note := Block(ctx, src, en, true)
	if note != "" {
		p.Notes = append(p.Notes, "$_LAST: "+note)
	}
	b := promptblock.Render([]promptblock.Command{c}, budget, boundary)
	return strings.TrimRight(b.Text, "\n"), nil
}

// Git is $_GIT: the branch and the changed files of the repository dir is
// in, short ("" outside one, or when git is missing or slow).
func Git(ctx context.Context, dir string) string {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "-C", dir, "status", "--porcelain=v1", "--branch", "--untracked-files=normal")
	cmd.Env = append(cmd.Environ(), "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C")
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return gitSummary(out, 20)
}

// gitSummary reads `git status --porcelain=v1 --branch`: "branch main
// (ahead 1)", then up to max changed files.
func gitSummary(out []byte, maxFiles int) string {
	var b strings.Builder
	sc := bufio.NewScanner(bytes.NewReader(out))
	n := 0
	for sc.Scan() {
		line := sc.Text()
		if br, ok := strings.CutPrefix(line, "## "); ok {
			name, rest, _ := strings.Cut(br, "...")
			if i := strings.Index(rest, " ["); i >= 0 {
				name += " (" + strings.Trim(rest[i+1:], "[]") + ")"
			}
			name = strings.TrimPrefix(name, "No commits yet on ")
			fmt.Fprintf(&b, "branch %s\n", name)
			continue
		}
		n++
		if n <= maxFiles {
			fmt.Fprintf(&b, "%s\n", line)
		}
	}
	switch {
	case n == 0:
		b.WriteString("clean\n")
	case n > maxFiles:
		fmt.Fprintf(&b, "… and %d more changed files\n", n-maxFiles)
	}
	return strings.TrimRight(b.String(), "\n")
}
