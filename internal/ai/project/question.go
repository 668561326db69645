package project

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/hookd/hookd/internal/ai/contextcmd"
	"github.com/hookd/hookd/internal/ai/skill"
	"github.com/hookd/hookd/internal/ai/trust"
	"github.com/hookd/hookd/internal/config"
)

// Places are where a question's settings are read from, besides the
// config: the trust records, the user's skill files and template file.
type Places struct {
	Trust, Skills, Template string
}

// Question is what a question asked in a directory is shaped by.
type Question struct {
	Settings
	// Skills are the settings' skills, then the user's skill files.
	Skills []skill.Skill
	// Template is the settings' template, or else the template file's
	// ("" is the built-in one).
	Template string
}

// ForQuestion reads the settings for a question asked in cwd: the user's
// ask section, the nearest .hookd.yml over it with its trust state, the
// profile (see Select), the skills and the template. What is wrong in the
// project file or the skill files comes back as warnings.
func ForQuestion(user config.Ask, cwd, profile string, pl Places) (Question, []config.Warning, error) {
	var q Question
	var warns []config.Warning
	var proj *Project
	path, ignored := Lookup(cwd, "")
	for _, i := range ignored {
		warns = append(warns, i.Warning())
	}
	if path != "" {
		p, w := Load(path, trust.Store{Dir: pl.Trust})
		warns = append(warns, w...)
		proj = &p
	}
	st, err := Select(user, proj, cwd, profile)
	if err != nil {
		return q, warns, err
	}
	q.Settings, q.Template = st, st.Template
	if q.Template == "" {
		if b, err := os.ReadFile(pl.Template); err == nil {
			q.Template = string(b)
		}
	}
	q.Skills = skill.FromConfig(st.Skills, "config")
	files, w := skill.LoadDir(pl.Skills)
	q.Skills = append(q.Skills, files...)
	return q, append(warns, w...), nil
}

// Specs are the context commands to run: the settings', then execs (from
// hookd ask --exec), each with the default on_failure and timeout.
func (q Question) Specs(execs []string) []contextcmd.Spec {
	var specs []contextcmd.Spec
	for _, c := range q.Commands {
		specs = append(specs, contextcmd.SpecOf(c.ContextCommand, c.Source))
	}
	for _, x := range execs {
		specs = append(specs, contextcmd.SpecOf(config.ContextCommand{Command: x, OnFailure: config.OnFailureWarn,
			Timeout: config.Duration(config.DefaultContextTimeout)}, ExecSource))
	}
	return specs
}

// SkippedNote is the line that names the untrusted file's commands not
// run and how to allow them ("" when none was skipped).
func (q Question) SkippedNote() string {
	if len(q.Skipped) == 0 {
		return ""
	}
	names := make([]string, 0, len(q.Skipped))
	for _, c := range q.Skipped {
		names = append(names, contextcmd.SpecOf(c.ContextCommand, c.Source).Label())
	}
	// Said as hookd allow --list says it.
	why, then := "is not trusted", "lets them run"
	switch q.UntrustedState {
	case trust.Changed:
		why, then = "changed since it was allowed", "trusts what it says now"
	case trust.Denied:
		why = "is denied"
	}
	return fmt.Sprintf("%s %s: its context commands (%s) were not run; `hookd allow %s` %s",
		q.Untrusted, why, strings.Join(names, ", "), q.Untrusted, then)
}

// Target is the file `hookd allow` or `hookd deny` (verb) is about: arg,
// resolved, or with arg "" the .hookd.yml found from cwd up; the error
// says where it looked. A file that is gone can still be denied.
func Target(cwd, home, arg, verb string) (string, error) {
	if arg != "" {
		p, err := trust.Resolve(arg)
		if errors.Is(err, fs.ErrNotExist) && verb == "deny" {
			return filepath.Abs(arg)
		}
		if err != nil {
			return "", fmt.Errorf("%s: %w", arg, errors.Unwrap(err))
		}
		if verb == "deny" {
			return p, nil
		}
		if !IsRegular(p) {
			return "", fmt.Errorf("%s is not a file", arg)
		}
		if why := Unsafe(p); why != "" {
			return "", fmt.Errorf("%s: %s: not allowed", p, why)
		}
		if why := Outside(p); why != "" && filepath.Base(p) == config.ProjectFile {
			return "", fmt.Errorf("%s: %s: not allowed", p, why)
		}
		return p, nil
	}
	p, ignored := Lookup(cwd, home)
	if p != "" {
		return trust.Resolve(p)
	}
	if len(ignored) > 0 && verb != "deny" {
		i := ignored[0]
		return "", fmt.Errorf("%s: %s: not allowed", i.Path, i.Why)
	}
	if len(ignored) > 0 {
		return trust.Resolve(ignored[0].Path)
	}
	dirs := Dirs(cwd, home)
	where := cwd
	if len(dirs) > 1 {
		where += " and its parents up to " + dirs[len(dirs)-1]
	}
	return "", fmt.Errorf("no %s in %s; name the file: hookd %s FILE", config.ProjectFile, where, verb)
}
