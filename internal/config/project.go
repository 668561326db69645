package config

import (
	"os"
	"path"
	"path/filepath"
	"strings"
)

// ProjectFile is the name of a project's settings file, found in the
// working directory or above it (package project).
const ProjectFile = ".hookd.yml"

// projectFile is what a project's .hookd.yml holds: an ask section.
type projectFile struct {
	Ask Ask `yaml:"ask"`
	// PromptFiles is read only to be refused: a project never extends
	// the prompt files' allowlist.
	PromptFiles any `yaml:"prompt_files"`
}

// LoadProject reads a project's .hookd.yml: an ask section with the
// schema of config.yaml's. As with Load, nothing in it stops hookd: an
// unknown key or a bad value is a Warning (file, line, column) and is
// skipped, and the rest of the file applies; a file that cannot be read or
// parsed gives an empty Ask and one Warning.
//
// prefix, offer, budget and reasoning are the user's alone: a project
// file's are warned about and ignored. A profile's when.cwd pattern that
// is relative is relative to the file's directory (a project cannot know
// where it is checked out); one starting with ~ is warned about and
// ignored, for the same reason.
func LoadProject(file string) (Ask, []Warning) {
	data, err := os.ReadFile(file)
	if err != nil {
		return Ask{}, []Warning{{File: file, Msg: err.Error(), Then: "ignoring the file"}}
	}
	return ParseProject(file, data)
}

// ParseProject is LoadProject on the file's content, read by the caller
// (who checks the trust of the very same bytes).
func ParseProject(file string, data []byte) (Ask, []Warning) {
	const giveUp = "ignoring the file"
	src, w := parse(file, data)
	if w != nil {
		w.Then = giveUp
		return Ask{}, []Warning{*w}
	}
	f, warns, ok := decode(src, func() projectFile { return projectFile{} }, false)
	if !ok {
		warns[len(warns)-1].Then = giveUp
		return Ask{}, warns
	}
	a := f.Ask
	if w := src.at("$.prompt_files", "only the user's config.yaml extends the prompt files' allowlist", "ignored"); w.Line > 0 {
		warns = append(warns, w)
	}
	for _, key := range []string{"prefix", "offer", "budget", "reasoning"} {
		if w := src.at("$.ask."+key, "only the user's config.yaml sets this", "ignored"); w.Line > 0 {
			warns = append(warns, w)
		}
	}
	a.Prefix, a.Offer, a.Budget, a.Reasoning = "", false, 0, ""
	dir := filepath.Dir(file)
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	for name, p := range a.Profiles {
		g := string(p.When.Cwd)
		switch {
		case g == "" || path.IsAbs(g):
		case g == "~" || strings.HasPrefix(g, "~/"):
			w := src.at("$.ask.profiles."+name+".when.cwd", "a project's pattern is relative to its directory, or absolute; ~ is for the user's config", "ignored")
			w.Key = "ask.profiles." + name + ".when.cwd"
			warns = append(warns, w)
			p.When.Cwd = ""
		default:
			p.When.Cwd = Glob(joinGlob(dir, g))
		}
		a.Profiles[name] = p
	}
	return a, inOrder(warns)
}

// joinGlob joins dir and a relative pattern, keeping a final / (which
// Match reads as /**).
func joinGlob(dir, g string) string {
	j := filepath.Join(dir, g)
	if strings.HasSuffix(g, "/") && !strings.HasSuffix(j, "/") {
		j += "/"
	}
	return j
}

// Match reports whether dir (an absolute path, cleaned first) matches the
// pattern, the way git's includeIf "gitdir:" does: path.Match on the whole
// path (* and ? do not cross a /), except that a pattern ending in /** —
// or in /, which stands for /** — matches the directory before it and
// every directory below. ** anywhere else is a *. The empty pattern
// matches nothing.
func (g Glob) Match(dir string) bool {
	p := string(g)
	if p == "" {
		return false
	}
	dir = path.Clean(filepath.ToSlash(dir))
	if strings.HasSuffix(p, "/") {
		p += "**"
	}
	if base, ok := strings.CutSuffix(p, "/**"); ok {
		if base == "" {
			return true
		}
		for d := dir; ; d = path.Dir(d) {
			if ok, _ := path.Match(base, d); ok {
				return true
			}
			if d == "/" || d == "." {
				return false
			}
		}
	}
	ok, _ := path.Match(p, dir)
	return ok
}
