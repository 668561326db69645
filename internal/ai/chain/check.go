package chain

import (
	"fmt"
	"os/exec"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// Ref is one ${id.name} or ${id.name:-default} in a step's text or an
// input's from; ${hist.ID.output} has ID "hist" and Name "ID.output".
type Ref struct {
	Start, End int // where in the text
	ID, Name   string
	Default    string
	HasDefault bool
}

func (r Ref) String() string { return "${" + r.ID + "." + r.Name + "}" }

// Hist reports whether r refers to a recorded command, and which (an id
// or -N).
func (r Ref) Hist() (string, bool) {
	if r.ID != "hist" {
		return "", false
	}
	return strings.TrimSuffix(r.Name, ".output"), true
}

var (
	refRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_-]*)\.([A-Za-z0-9_.-]+)(?::-([^}]*))?\}`)
	})
	histRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^-?[0-9]+\.output$`) })
)

// Refs returns the references in text. A ${NAME} without a dot is the
// shell's and not one.
func Refs(text string) []Ref {
	var refs []Ref
	for _, m := range refRE().FindAllStringSubmatchIndex(text, -1) {
		r := Ref{Start: m[0], End: m[1], ID: text[m[2]:m[3]], Name: text[m[4]:m[5]]}
		if m[6] >= 0 {
			r.Default, r.HasDefault = text[m[6]:m[7]], true
		}
		refs = append(refs, r)
	}
	return refs
}

// Check finds what Parse cannot: references to unknown ids, to later
// steps (and cycles), to outputs a step does not declare; duplicate ids,
// argument positions and variables; git_commit outputs outside a git
// repository (dir is where the chain runs). Every problem is reported.
func Check(c *Chain, dir string) error {
	var ps Problems
	add := func(s *Step, line int, field, format string, a ...any) {
		ps = append(ps, Problem{File: c.File, Line: line, Step: s.Name(), Field: field, Msg: fmt.Sprintf(format, a...)})
	}
	byID := map[string]*Step{}
	for _, s := range c.Steps {
		if s.ID == "" {
			continue
		}
		if first, dup := byID[s.ID]; dup {
			add(s, s.Line, "id", "duplicate id %q (%s has it)", s.ID, first.Name())
			continue
		}
		byID[s.ID] = s
	}
	// deps: the steps each step's references name.
	deps := map[*Step][]*Step{}
	for _, s := range c.Steps {
		for _, text := range texts(s) {
			for _, r := range Refs(text) {
				if t := byID[r.ID]; t != nil {
					deps[s] = append(deps[s], t)
				}
			}
		}
	}
	gitChecked := false
	for _, s := range c.Steps {
		check := func(text string, line int, field string, hasDefault bool) {
			for _, r := range Refs(text) {
				dflt := hasDefault || r.HasDefault
				if _, ok := r.Hist(); ok {
					if !histRE().MatchString(r.Name) {
						add(s, line, field, "%s: want ${hist.ID.output} or ${hist.-N.output}", r)
					}
					continue
				}
				t := byID[r.ID]
				switch {
				case t == nil && !dflt:
					add(s, line, field, "%s: no step has the id %q (give a default: ${%s.%s:-DEFAULT})", r, r.ID, r.ID, r.Name)
				case t == nil:
				case t == s:
					add(s, line, field, "%s: a step cannot take its own output", r)
				case t.N > s.N:
					if path := cycle(deps, t, s); path != nil {
						names := make([]string, len(path))
						for i, p := range path {
							names[i] = p.ID
						}
						add(s, line, field, "%s: cycle %s → %s", r, s.ID, strings.Join(names, " → "))
					} else {
						add(s, line, field, "%s: forward reference: %s runs after this step (steps run in order)", r, t.Name())
					}
				case !hasOutput(t, r.Name) && !dflt:
					add(s, line, field, "%s: %s has no output %q%s", r, t.Name(), r.Name, declared(t))
				}
			}
		}
		check(s.Text, s.Line, s.Action, false)
		for _, m := range shellProblems(s) {
			add(s, s.Line, s.Action, "%s", m)
		}
		positions, envs, stdin := map[int]string{}, map[string]string{}, ""
		for _, in := range s.Inputs {
			field := "inputs." + in.Name
			check(in.From, in.Line, field+".from", in.HasDefault)
			switch in.PassAs {
			case Stdin:
				if stdin != "" {
					add(s, in.Line, field+".pass_as", "inputs %s and %s both want stdin", stdin, in.Name)
				}
				stdin = in.Name
			case Argument:
				if o, dup := positions[in.Position]; dup {
					add(s, in.Line, field+".pass_as", "inputs %s and %s both want argument position %d", o, in.Name, in.Position)
				}
				positions[in.Position] = in.Name
			case Environment:
				if o, dup := envs[in.Env]; dup {
					add(s, in.Line, field+".pass_as", "inputs %s and %s both set %s", o, in.Name, in.Env)
				}
				envs[in.Env] = in.Name
			}
		}
		for _, o := range s.Outputs {
			if o.Source == FromGitCommit && !gitChecked {
				gitChecked = true
				if err := exec.Command("git", "-C", dir, "rev-parse", "--show-toplevel").Run(); err != nil {
					add(s, o.Line, "outputs."+o.Name+".extract_from.git_commit", "%s is not in a git repository", dir)
				}
			}
		}
		if s.ID == "" && len(s.Outputs) > 0 {
			add(s, s.Line, "outputs", "a step with outputs needs an id, for later steps to name them")
		}
	}
	if len(ps) == 0 {
		return nil
	}
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].Line < ps[j].Line })
	return ps
}

// texts are the places a step's references are: its action's text and
// its inputs' from.
func texts(s *Step) []string {
	t := []string{s.Text}
	for _, in := range s.Inputs {
		t = append(t, in.From)
	}
	return t
}

func hasOutput(s *Step, name string) bool {
	for _, o := range s.Outputs {
		if o.Name == name {
			return true
		}
	}
	return false
}

func declared(s *Step) string {
	var names []string
	for _, o := range s.Outputs {
		names = append(names, o.Name)
	}
	if len(names) == 0 {
		return " (it declares none)"
	}
	return " (it has " + strings.Join(names, ", ") + ")"
}

// cycle returns a path of references from "from" back to "to", if any.
func cycle(deps map[*Step][]*Step, from, to *Step) []*Step {
	seen := map[*Step]bool{}
	var walk func(s *Step) []*Step
	walk = func(s *Step) []*Step {
		if s == to {
			return []*Step{s}
		}
		if seen[s] {
			return nil
		}
		seen[s] = true
		for _, d := range deps[s] {
			if p := walk(d); p != nil {
				return append([]*Step{s}, p...)
			}
		}
		return nil
	}
	return walk(from)
}

// Load parses and checks a chain file, every problem of both in one
// Problems, in the order of their lines.
func Load(file string, data []byte, dir string) (*Chain, error) {
	c, err := Parse(file, data)
	if c == nil {
		return nil, err
	}
	var ps Problems
	if err != nil {
		ps = err.(Problems)
	}
	if err := Check(c, dir); err != nil {
		ps = append(ps, err.(Problems)...)
	}
	if len(ps) == 0 {
		return c, nil
	}
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].Line < ps[j].Line })
	return nil, ps
}
