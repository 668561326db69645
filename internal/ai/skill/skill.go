// Package skill holds the skills of `hookd ask`: instructions
// added to the prompt's $_LLM_PREPEND when a regular expression matches
// the question, case-insensitively. Skills come from the config's
// `ask.skills` (and a project's `.hookd.yml`) and from Markdown files in
// $XDG_CONFIG_HOME/hookd/skills/, whose frontmatter holds the pattern and
// whose body is the text added.
package skill

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/hookd/hookd/internal/ai/frontmatter"
	"github.com/hookd/hookd/internal/config"
)

// Skill is one skill.
type Skill struct {
	// Name is the file's name without .md, or "skills[N]" for one from
	// a config file.
	Name string
	// Description is the frontmatter's description ("" for none).
	Description string
	// Pattern matches the question, case-insensitively.
	Pattern *regexp.Regexp
	// Prepend is the text added to $_LLM_PREPEND.
	Prepend string
	// Source is where the skill is written: a file, with the line for a
	// skill file's pattern.
	Source string
}

// FromConfig returns the skills of a config file's ask section, read from
// file (for Source).
func FromConfig(skills []config.Skill, file string) []Skill {
	out := make([]Skill, 0, len(skills))
	for i, s := range skills {
		if s.Pattern.Regexp == nil {
			continue
		}
		re, err := insensitive(s.Pattern.String())
		if err != nil {
			continue // config compiled it already: cannot happen
		}
		out = append(out, Skill{Name: fmt.Sprintf("skills[%d]", i), Pattern: re, Prepend: s.LLMPrepend, Source: file})
	}
	return out
}

// LoadDir reads the skill files (*.md) in dir, in the order of their
// names. A file without a valid pattern is skipped with a warning that
// names it and the line; a missing dir is no skills.
func LoadDir(dir string) ([]Skill, []config.Warning) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, []config.Warning{{File: dir, Msg: err.Error(), Then: "no skill files"}}
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".md") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	var out []Skill
	var warns []config.Warning
	for _, n := range names {
		s, w := loadFile(filepath.Join(dir, n))
		if w != nil {
			warns = append(warns, *w)
			continue
		}
		out = append(out, s)
	}
	return out, warns
}

// maxFile bounds a skill file: it goes into every question it matches.
const maxFile = 64 << 10

func loadFile(path string) (Skill, *config.Warning) {
	skip := func(line int, msg string) (Skill, *config.Warning) {
		return Skill{}, &config.Warning{File: path, Line: line, Key: "pattern", Msg: msg, Then: "skill skipped"}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return skip(0, err.Error())
	}
	if len(data) > maxFile {
		return skip(0, fmt.Sprintf("the file is %d bytes, more than the %d a skill may have", len(data), maxFile))
	}
	d, err := frontmatter.Parse(data)
	var fe *frontmatter.Error
	if errors.As(err, &fe) {
		return skip(fe.Line, fe.Msg)
	}
	pat, ok := d.String("pattern")
	if !ok || pat == "" {
		return skip(d.Line("pattern"), "a skill file needs a pattern in its frontmatter (---\\npattern: 'regex'\\n---)")
	}
	re, err := insensitive(pat)
	if err != nil {
		return skip(d.Line("pattern"), err.Error())
	}
	desc, _ := d.String("description")
	src := path
	if l := d.Line("pattern"); l > 0 {
		src = fmt.Sprintf("%s:%d", path, l)
	}
	return Skill{Name: strings.TrimSuffix(filepath.Base(path), ".md"), Description: desc, Pattern: re,
		Prepend: strings.TrimSpace(d.Body), Source: src}, nil
}

func insensitive(pattern string) (*regexp.Regexp, error) {
	return regexp.Compile("(?i)" + pattern)
}

// Match returns the skills whose pattern matches question, in order.
func Match(skills []Skill, question string) []Skill {
	var out []Skill
	for _, s := range skills {
		if s.Pattern.MatchString(question) {
			out = append(out, s)
		}
	}
	return out
}

// Prepend is the value of $_LLM_PREPEND for the matched skills: their
// texts in order, a blank line between.
func Prepend(matched []Skill) string {
	parts := make([]string, 0, len(matched))
	for _, s := range matched {
		if t := strings.TrimSpace(s.Prepend); t != "" {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, "\n\n")
}
