// Package project finds a project's .hookd.yml, reads it with its trust
// state, and works out the settings a question is asked with: the user's
// ask section, a profile, and the project's section layered over them.
//
// A project file is read whether or not it is trusted: its template,
// variables and skills only shape the prompt. Its context commands run
// only once `hookd allow` has recorded its content (package trust); until
// then Select lists them as Skipped.
package project

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hookd/hookd/internal/ai/trust"
	"github.com/hookd/hookd/internal/config"
)

// UserSource is the Source of the commands from the user's own
// configuration.
const UserSource = "config.yaml"

// ExecSource is the Source of the commands given with hookd ask --exec.
const ExecSource = "--exec"

// Dirs returns the directories Find looks in, nearest first: cwd and its
// parents, up to and including the first that is a work tree's root (holds
// a .git, file or directory) or the home directory. Outside both, it is
// cwd alone: a directory above that neither a repository nor the user
// holds (/tmp, /) is anyone's, and its files shape nothing.
// home "" is the user's home directory.
func Dirs(cwd, home string) []string {
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	if home != "" {
		home = filepath.Clean(home)
	}
	dir, err := filepath.Abs(cwd)
	if err != nil {
		return nil
	}
	var dirs []string
	for {
		dirs = append(dirs, dir)
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil || dir == home {
			return dirs
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return dirs[:1]
		}
		dir = parent
	}
}

// Root returns the project's root for cwd: the repository root that Dirs
// stops at, or cwd itself outside a repository.
func Root(cwd string) string {
	dirs := Dirs(cwd, "")
	if len(dirs) == 0 {
		return cwd
	}
	last := dirs[len(dirs)-1]
	if _, err := os.Lstat(filepath.Join(last, ".git")); err == nil {
		return last
	}
	return dirs[0]
}

// Ignored is a project file or folder hookd did not use, and why.
type Ignored struct {
	Path, Why string
}

// Warning is i as a warning, to be said once.
func (i Ignored) Warning() config.Warning {
	return config.Warning{File: i.Path, Msg: i.Why, Then: "ignored"}
}

// Lookup returns the nearest .hookd.yml (a regular file, or a link to one
// inside its own directory) in the directories Dirs lists, "" when there
// is none, and the ones it passed over: owned by another user, in a
// directory anyone may write to (Unsafe), or linking outside their
// directory (Outside).
func Lookup(cwd, home string) (path string, ignored []Ignored) {
	for _, dir := range Dirs(cwd, home) {
		p := filepath.Join(dir, config.ProjectFile)
		if _, err := os.Lstat(p); err != nil {
			continue
		}
		if why := cmpOr(Unsafe(p), Outside(p)); why != "" {
			ignored = append(ignored, Ignored{p, why})
			continue
		}
		if IsRegular(p) {
			return p, ignored
		}
	}
	return "", ignored
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// Find returns the .hookd.yml Lookup finds from cwd.
func Find(cwd string) (path string, ok bool) {
	p, _ := Lookup(cwd, "")
	return p, p != ""
}

// Project is a project's .hookd.yml, read.
type Project struct {
	// Path is the file, absolute.
	Path string
	// Ask is its ask section.
	Ask config.Ask
	// State is its trust state: only Allowed runs its commands.
	State trust.State
}

// Trusted reports whether the file's commands may run.
func (p *Project) Trusted() bool { return p != nil && p.State == trust.Allowed }

// maxProjectFile is the largest .hookd.yml read.
const maxProjectFile = 1 << 20

// Load reads the project file at path, once, and checks those very bytes
// against store: what is parsed is what is trusted, however the file
// changes meanwhile. What is wrong in the file comes back as warnings and
// is skipped; a file whose trust cannot be checked is Untrusted, with a
// warning.
func Load(path string, store trust.Store) (Project, []config.Warning) {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	data, err := ReadRegular(path, maxProjectFile)
	if err != nil {
		return Project{Path: path}, []config.Warning{{File: path, Msg: err.Error(), Then: "ignoring the file"}}
	}
	a, warns := config.ParseProject(path, data)
	p := Project{Path: path, Ask: a}
	st, err := store.StateOf(path, data)
	if err != nil {
		warns = append(warns, config.Warning{File: path, Msg: "checking its trust: " + err.Error(), Then: "its commands will not run"})
		st = trust.Untrusted
	}
	p.State = st
	return p, warns
}

// Commands returns every context command the file holds, its section's
// then each profile's (by name), as Select would run them: for hookd
// allow to show what allowing it lets run.
func (p *Project) Commands() []Command {
	cmds := commands(p.Ask.ContextCommands, p.Path, "")
	for _, name := range slices.Sorted(maps.Keys(p.Ask.Profiles)) {
		cmds = append(cmds, commands(p.Ask.Profiles[name].ContextCommands, p.Path, name)...)
	}
	return cmds
}

// Command is a context command and where it came from.
type Command struct {
	config.ContextCommand
	// Source is the file it came from (UserSource for the user's config;
	// a project file's path, with " (profile NAME)" when a profile set
	// it), or ExecSource.
	Source string
	// Profile is the profile that set it ("" for the section's own).
	Profile string
}

func commands(cs []config.ContextCommand, file, profile string) []Command {
	source := file
	if profile != "" {
		source += " (profile " + profile + ")"
	}
	var out []Command
	for _, c := range cs {
		out = append(out, Command{ContextCommand: c, Source: source, Profile: profile})
	}
	return out
}

// Settings are what a question is asked with.
type Settings struct {
	Profile   string // the profile chosen ("" none)
	Template  string // "" is the built-in one
	Variables map[string]string
	Skills    []config.Skill
	// Commands are the context commands to run, in order: the user's
	// config's, then the project's (the caller adds --exec ones).
	Commands []Command
	// Skipped are a project's commands not run because the file is not
	// trusted.
	Skipped []Command
	// Untrusted is the path of the project file when it is not trusted
	// (never allowed, changed since, or denied); "" otherwise.
	Untrusted string
	// UntrustedState says which of those it is.
	UntrustedState trust.State
}

// layer is one file's ask section with the chosen profile applied.
type layer struct {
	template  string
	variables map[string]string
	skills    []config.Skill
	commands  []Command
}

// apply returns the section a with profile p over it (p nil: none): what
// the profile sets replaces the section's own.
func apply(a config.Ask, p *config.Profile, name, source string) layer {
	l := layer{template: a.Template, variables: a.Variables, skills: a.Skills, commands: commands(a.ContextCommands, source, "")}
	if p == nil {
		return l
	}
	if p.Template != "" {
		l.template = p.Template
	}
	if p.Variables != nil {
		l.variables = p.Variables
	}
	if p.Skills != nil {
		l.skills = p.Skills
	}
	if p.ContextCommands != nil {
		l.commands = commands(p.ContextCommands, source, name)
	}
	return l
}

// Select works out the settings for a question asked in cwd, from the
// user's ask section and the project's (proj nil: none).
//
// The profile is the one named by profile, or else the first, in the
// order of their names, whose when.cwd pattern matches cwd
// (config.Glob.Match); a name no file defines is an error that lists
// those defined. Profiles of both files are candidates; on the same name
// the project's wins. A profile is a variant of the section of the file
// that defines it: what it sets (template, variables, skills,
// context_commands) replaces that section's own.
//
// The project's section then layers over the user's: its variables are
// merged in (the project's win on a name), its skills and context
// commands come after the user's, its template replaces the user's when
// it sets one. An untrusted project still gives its template, variables
// and skills (they run nothing); its context commands go to Skipped.
func Select(user config.Ask, proj *Project, cwd, profile string) (Settings, error) {
	type candidate struct {
		p    config.Profile
		proj bool
	}
	profiles := map[string]candidate{}
	for name, p := range user.Profiles {
		profiles[name] = candidate{p, false}
	}
	if proj != nil {
		for name, p := range proj.Ask.Profiles {
			profiles[name] = candidate{p, true}
		}
	}
	names := slices.Sorted(maps.Keys(profiles))
	var chosen *candidate
	if profile != "" {
		c, ok := profiles[profile]
		if !ok {
			if len(names) == 0 {
				return Settings{}, fmt.Errorf("no profile %q: no profiles are defined", profile)
			}
			return Settings{}, fmt.Errorf("no profile %q: the profiles are %s", profile, strings.Join(names, ", "))
		}
		chosen = &c
	} else {
		if abs, err := filepath.Abs(cwd); err == nil {
			cwd = abs
		}
		for _, name := range names {
			if c := profiles[name]; c.p.When.Cwd.Match(cwd) {
				chosen, profile = &c, name
				break
			}
		}
	}
	var userP, projP *config.Profile
	if chosen != nil && chosen.proj {
		projP = &chosen.p
	} else if chosen != nil {
		userP = &chosen.p
	}
	u := apply(user, userP, profile, UserSource)
	s := Settings{Profile: profile, Template: u.template, Variables: map[string]string{}, Commands: u.commands}
	maps.Copy(s.Variables, u.variables)
	s.Skills = append(s.Skills, u.skills...)
	if proj == nil {
		return s, nil
	}
	p := apply(proj.Ask, projP, profile, proj.Path)
	if p.template != "" {
		s.Template = p.template
	}
	maps.Copy(s.Variables, p.variables)
	s.Skills = append(s.Skills, p.skills...)
	if proj.Trusted() {
		s.Commands = append(s.Commands, p.commands...)
	} else {
		s.Skipped = p.commands
		s.Untrusted, s.UntrustedState = proj.Path, proj.State
	}
	return s, nil
}

// Allow trusts the project file at path as it is now, reading it once:
// the commands it returns (Commands) are those of the very bytes trusted.
func Allow(path string, store trust.Store) (Project, []config.Warning, error) {
	data, err := ReadRegular(path, maxProjectFile)
	if err != nil {
		return Project{}, nil, err
	}
	if err := store.AllowContent(path, data); err != nil {
		return Project{}, nil, err
	}
	a, warns := config.ParseProject(path, data)
	return Project{Path: path, Ask: a, State: trust.Allowed}, warns, nil
}

// ReadAsk reads the ask section of the project file at path (a regular
// file only, opened without blocking), its trust unchecked: for what runs
// nothing, such as completing profile names.
func ReadAsk(path string) (config.Ask, []config.Warning) {
	data, err := ReadRegular(path, maxProjectFile)
	if err != nil {
		return config.Ask{}, []config.Warning{{File: path, Msg: err.Error(), Then: "ignoring the file"}}
	}
	return config.ParseProject(path, data)
}
