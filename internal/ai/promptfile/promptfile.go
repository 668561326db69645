// Package promptfile reads prompt files: Markdown with optional YAML
// frontmatter (description, argument-hint, model, allowed-tools, kept as
// data), found by name in the project's .hookd/commands/, the user's
// $XDG_CONFIG_HOME/hookd/commands/ and Claude Code's .claude/commands/
// (the project's, then ~/.claude/commands/), so that existing Claude Code
// command files work as they are.
//
// Expand substitutes arguments as Claude Code does ($ARGUMENTS,
// $ARGUMENTS[N] from 0, $N from 1) and expands `@path` (a file of the
// project) and “!`cmd` “ (a command's output, when the Allowlist lets it
// run), as Claude Code's command files work, into a Result that
// marshals to `hookd expand --json`'s result.
package promptfile

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hookd/hookd/internal/ai/frontmatter"
	"github.com/hookd/hookd/internal/ai/project"
)

// Place is a directory prompt files are looked up in.
type Place struct {
	Dir string `json:"dir"`
	// Kind is project (.hookd/commands), user ($XDG_CONFIG_HOME/hookd/commands),
	// claude (a project's .claude/commands) or claude-user (~/.claude/commands).
	Kind string `json:"kind"`
	// Project is the directory that holds a project's place (the one
	// with .hookd or .claude in it): its files must resolve inside it.
	// "" for the user's own places.
	Project string `json:"-"`
}

// Places are where prompt files are looked up, and the project they
// expand in.
type Places struct {
	// Root is the project's root: `@path` is relative to it, and
	// ``!`cmd` `` runs in it.
	Root string
	// Dirs are searched in order; the first file of a name shadows the
	// others.
	Dirs []Place
	// Ignored are a project's folders passed over: owned by another user,
	// or in a directory anyone may write to (project.Unsafe).
	Ignored []project.Ignored
}

// PlacesFor returns the places for cwd: the project's .hookd/commands
// from cwd up to the repository root or home (nearest first; project.Dirs),
// userDir (the user's $XDG_CONFIG_HOME/hookd/commands), the project's
// .claude/commands walking up likewise, and home's .claude/commands. A
// project's folder that another user owns, or that sits in a directory
// anyone may write to, is left out and listed in Ignored.
func PlacesFor(cwd, userDir, home string) Places {
	p := Places{Root: project.Root(cwd)}
	dirs := project.Dirs(cwd, home)
	seen := map[string]bool{}
	add := func(dir, kind, proj string) {
		if dir == "" || seen[dir] {
			return
		}
		seen[dir] = true
		if proj != "" {
			for _, f := range []string{filepath.Dir(dir), dir} {
				if why := project.Unsafe(f); why != "" {
					p.Ignored = append(p.Ignored, project.Ignored{Path: f, Why: why})
					return
				}
			}
		}
		p.Dirs = append(p.Dirs, Place{Dir: dir, Kind: kind, Project: proj})
	}
	for _, d := range dirs {
		add(filepath.Join(d, ".hookd", "commands"), "project", d)
	}
	add(userDir, "user", "")
	for _, d := range dirs {
		add(filepath.Join(d, ".claude", "commands"), "claude", d)
	}
	if home != "" {
		add(filepath.Join(home, ".claude", "commands"), "claude-user", "")
	}
	return p
}

// File is a prompt file found in a Place.
type File struct {
	// Name is how it is called: its path under the place, without .md
	// (dir/name; dir/index.md is dir).
	Name         string `json:"name"`
	Path         string `json:"path"`
	Place        Place  `json:"place"`
	Description  string `json:"description,omitempty"`
	ArgumentHint string `json:"argument_hint,omitempty"`
	// ShadowedBy is the path of the file of the same name that wins, ""
	// for the one that does.
	ShadowedBy string `json:"shadowed_by,omitempty"`
	// Warning says what is wrong with the file's frontmatter.
	Warning string `json:"warning,omitempty"`
}

// Summary is the file's argument hint and description, as a listing
// shows them: "[file]  Review a file".
func (f File) Summary() string {
	if f.ArgumentHint == "" {
		return f.Description
	}
	return strings.TrimSpace(f.ArgumentHint + "  " + f.Description)
}

// List returns every prompt file in every place, sorted by name and, for
// one name, in the order of the places (the first wins).
func (p Places) List() []File {
	var files []File
	winner := map[string]string{}
	for _, pl := range p.Dirs {
		var here []File
		filepath.WalkDir(pl.Dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(d.Name(), ".md") {
				return nil
			}
			rel, _ := filepath.Rel(pl.Dir, path)
			name := strings.TrimSuffix(filepath.ToSlash(rel), ".md")
			if n, ok := strings.CutSuffix(name, "/index"); ok {
				name = n
			}
			f := File{Name: name, Path: path, Place: pl}
			if why := p.Refuse(path); why != "" {
				f.Warning = why
			} else if data, err := readCapped(path, maxPrompt); err == nil {
				doc, ferr := frontmatter.Parse(data)
				f.Description, _ = doc.String("description")
				f.ArgumentHint = doc.Text("argument-hint")
				if ferr != nil {
					f.Warning = ferr.Error()
				}
			} else {
				f.Warning = err.Error()
			}
			here = append(here, f)
			return nil
		})
		for i := range here {
			if w, ok := winner[here[i].Name]; ok {
				here[i].ShadowedBy = w
			} else {
				winner[here[i].Name] = here[i].Path
			}
		}
		files = append(files, here...)
	}
	sort.SliceStable(files, func(i, j int) bool { return files[i].Name < files[j].Name })
	return files
}

// Refuse says why the prompt file at path is not read: it lies in a
// project's place and resolves (links followed) outside that project;
// "" when it may be read.
func (p Places) Refuse(path string) string {
	a := abs(path)
	for _, pl := range p.Dirs {
		if pl.Project == "" || !project.Within(filepath.Clean(path), filepath.Clean(pl.Dir)) {
			continue
		}
		root, err := filepath.EvalSymlinks(pl.Project)
		if err != nil {
			root = pl.Project
		}
		if !project.Within(a, root) {
			return fmt.Sprintf("%s leads to %s, outside its project %s: not read", path, a, pl.Project)
		}
	}
	return ""
}

// Find returns the file that name stands for: `/name`, `name` or
// `dir/name` looked up in the places (NAME.md, then NAME/index.md, in
// each), or a path to a file (one ending in .md, or starting with ./, ../
// or /, that exists). searched lists what was tried, for an error.
func (p Places) Find(name, cwd string) (path string, searched []string, ok bool) {
	if strings.HasSuffix(name, ".md") || strings.HasPrefix(name, "./") || strings.HasPrefix(name, "../") || filepath.IsAbs(name) {
		q := name
		if !filepath.IsAbs(q) {
			q = filepath.Join(cwd, q)
		}
		if fi, err := os.Stat(q); err == nil && fi.Mode().IsRegular() {
			return q, []string{q}, true
		}
		if strings.Contains(strings.TrimPrefix(name, "/"), "/") && strings.HasSuffix(name, ".md") || strings.HasPrefix(name, ".") {
			return "", []string{q}, false
		}
	}
	n := strings.TrimPrefix(strings.TrimSuffix(name, ".md"), "/")
	if !validName(n) {
		return "", searched, false
	}
	for _, pl := range p.Dirs {
		for _, c := range []string{filepath.Join(pl.Dir, filepath.FromSlash(n)+".md"), filepath.Join(pl.Dir, filepath.FromSlash(n), "index.md")} {
			searched = append(searched, c)
			if fi, err := os.Stat(c); err == nil && fi.Mode().IsRegular() {
				return c, searched, true
			}
		}
	}
	return "", searched, false
}

// validName is a name of letters, digits, -, _, . and / between parts.
func validName(n string) bool {
	if n == "" {
		return false
	}
	for _, part := range strings.Split(n, "/") {
		if part == "" || part == "." || part == ".." || strings.HasPrefix(part, ".") {
			return false
		}
		for _, r := range part {
			if !(r == '-' || r == '_' || r == '.' || r == ':' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
				return false
			}
		}
	}
	return true
}

// IsName says whether s is a prompt file's name (name or dir/name, no
// leading /), not a path.
func IsName(s string) bool { return validName(s) && !strings.HasSuffix(s, ".md") }
