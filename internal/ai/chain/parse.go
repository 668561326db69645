// Package chain reads, checks and runs chains: YAML files of steps that
// pass their outputs on to later steps. A step has an optional
// id and one action (run a shell command, ask an LLM, expand a prompt
// file); its declared outputs (stdout, a file, the files its git commit
// added or changed, a fixed value, each optionally narrowed by a regexp)
// become ${id.name}, which later steps take as inputs (on stdin, as an
// argument or in an environment variable) or inline in their text.
// The whole file is checked before anything runs, every problem reported
// at once with its step, field and line.
package chain

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"

	"github.com/hookd/hookd/internal/shellwords"
	"github.com/hookd/hookd/internal/yamlpos"
)

// Actions a step may have, exactly one of.
const (
	ActRun    = "run"
	ActAsk    = "ask"
	ActExpand = "expand"
)

// Output sources.
const (
	FromStdout    = "stdout"
	FromFile      = "file"
	FromGitCommit = "git_commit"
	FromVariable  = "variable"
)

// Ways an input is passed.
const (
	Stdin       = "stdin"
	Argument    = "argument"
	Environment = "environment"
)

// Chain is a parsed chain file.
type Chain struct {
	File  string
	Steps []*Step
}

// Step is one step of a chain.
type Step struct {
	N               int    // its place, from 1
	ID              string // "" when it has none
	Line            int
	Action          string // Run, Ask or Expand
	Text            string // the command line, question or prompt name
	Inputs          []Input
	Outputs         []Output
	ContinueOnError bool
}

// Name is how messages name the step: "step 2 (shout)".
func (s *Step) Name() string {
	if s.ID != "" {
		return fmt.Sprintf("step %d (%s)", s.N, s.ID)
	}
	return fmt.Sprintf("step %d", s.N)
}

// Input is a value a step takes.
type Input struct {
	Name       string
	From       string // text with ${…} references; "" when only Default
	Default    string
	HasDefault bool
	PassAs     string // Stdin, Argument or Environment
	Position   int    // Argument's
	Env        string // Environment's variable
	Line       int
}

// Output is a value a step makes.
type Output struct {
	Name        string
	Source      string // FromStdout, FromFile, FromGitCommit or FromVariable
	Path        string // FromFile's
	FilePattern string // FromGitCommit's
	Value       string // FromVariable's
	Pattern     *regexp.Regexp
	Line        int
}

// Problem is one thing wrong with a chain file.
type Problem struct {
	File         string
	Line, Column int    // 0 when unknown
	Step         string // "step 2 (shout)"; "" for the file as a whole
	Field        string // such as inputs.text.from
	Msg          string
}

// String is the problem as FILE:LINE:COLUMN: STEP: FIELD: MESSAGE
// (yamlpos.Message: the configuration's warnings read the same).
func (p Problem) String() string {
	return yamlpos.Message(p.File, p.Line, p.Column, p.Step, p.Field, p.Msg)
}

// Problems is every problem found in a file, in the order of its lines.
type Problems []Problem

func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// parser state: the file and the problems found so far.
type reader struct {
	file     string
	problems Problems
}

func (r *reader) add(n ast.Node, step *Step, field, format string, a ...any) {
	p := Problem{File: r.file, Field: field, Msg: fmt.Sprintf(format, a...)}
	if step != nil {
		p.Step = step.Name()
	}
	p.Line, p.Column = yamlpos.Node(n)
	r.problems = append(r.problems, p)
}

// Parse reads a chain file. The error, when not nil, is Problems: what
// is wrong with its YAML or its shape. Check finds the rest.
func Parse(file string, data []byte) (*Chain, error) {
	r := &reader{file: file}
	c := &Chain{File: file}
	f, err := parser.ParseBytes(data, 0)
	if err != nil {
		p := Problem{File: file}
		p.Msg, p.Line, p.Column, _ = yamlpos.Error(err)
		return nil, Problems{p}
	}
	var body ast.Node
	if len(f.Docs) > 0 {
		body = unwrap(f.Docs[0].Body)
	}
	if len(f.Docs) > 1 {
		r.add(f.Docs[1].Body, nil, "", "more than one YAML document: a chain is one")
	}
	kvs, ok := pairs(body)
	if body == nil || !ok {
		r.add(body, nil, "", "a chain is a mapping with a list of steps: steps: [- run: CMD, …]")
		return nil, r.problems
	}
	var steps ast.Node
	for _, kv := range kvs {
		switch k := key(kv); k {
		case "steps":
			steps = unwrap(kv.Value)
		default:
			r.add(kv.Key, nil, k, "unknown field (a chain has steps)")
		}
	}
	seq, ok := steps.(*ast.SequenceNode)
	if !ok {
		r.add(body, nil, "steps", "want a list of steps")
		return nil, r.problems
	}
	for i, n := range seq.Values {
		if s := r.step(i+1, unwrap(n)); s != nil {
			c.Steps = append(c.Steps, s)
		}
	}
	if len(seq.Values) == 0 {
		r.add(seq, nil, "steps", "no steps")
	}
	if len(r.problems) > 0 {
		return c, r.sorted()
	}
	return c, nil
}

func (r *reader) sorted() Problems {
	sort.SliceStable(r.problems, func(i, j int) bool { return r.problems[i].Line < r.problems[j].Line })
	return r.problems
}

var (
	idRE   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`) })
	nameRE = idRE
)

func (r *reader) step(n int, node ast.Node) *Step {
	s := &Step{N: n, Line: line(node)}
	kvs, ok := pairs(node)
	if !ok {
		if text, ok := scalar(node); ok && text != "" {
			r.add(node, s, "", "a step is a mapping such as {run: %s}", text)
		} else {
			r.add(node, s, "", "a step is a mapping such as {run: CMD}")
		}
		return nil
	}
	// The id first, so that every message names the step by it.
	for _, kv := range kvs {
		if key(kv) == "id" {
			id, ok := scalar(kv.Value)
			switch {
			case !ok || id == "":
				r.add(kv.Value, s, "id", "want a name")
			case !idRE().MatchString(id):
				r.add(kv.Value, s, "id", "%q is not a valid id (letters, digits, _ and -, not first a digit)", id)
			case id == "hist":
				r.add(kv.Value, s, "id", "hist is reserved for ${hist.ID.output}")
			default:
				s.ID = id
			}
		}
	}
	var actions []string
	for _, kv := range kvs {
		k := key(kv)
		switch k {
		case "id":
		case ActRun, ActAsk, ActExpand:
			actions = append(actions, k)
			text, ok := scalar(kv.Value)
			if !ok || strings.TrimSpace(text) == "" {
				r.add(kv.Value, s, k, "want a non-empty string")
			}
			s.Action, s.Text = k, text
		case "inputs":
			r.inputs(s, kv.Value)
		case "outputs":
			r.outputs(s, kv.Value)
		case "continue_on_error":
			v, ok := scalar(kv.Value)
			b, err := strconv.ParseBool(v)
			if !ok || err != nil {
				r.add(kv.Value, s, k, "want true or false")
			}
			s.ContinueOnError = b
		default:
			r.add(kv.Key, s, k, "unknown field: a step has id, one action (run, ask or expand), inputs, outputs and continue_on_error")
		}
	}
	switch len(actions) {
	case 0:
		r.add(node, s, "", "no action: give one of run, ask or expand")
	case 1:
	default:
		r.add(node, s, "", "%d actions (%s): give exactly one of run, ask or expand", len(actions), strings.Join(actions, ", "))
	}
	return s
}

func (r *reader) inputs(s *Step, node ast.Node) {
	kvs, ok := pairs(unwrap(node))
	if !ok {
		r.add(node, s, "inputs", "want a mapping of names to {from, pass_as, default}")
		return
	}
	for _, kv := range kvs {
		name := key(kv)
		field := "inputs." + name
		in := Input{Name: name, Line: line(kv.Key)}
		if !nameRE().MatchString(name) {
			r.add(kv.Key, s, field, "%q is not a valid name", name)
		}
		fields, ok := pairs(unwrap(kv.Value))
		if !ok {
			r.add(kv.Value, s, field, "want a mapping: {from: \"${id.output}\", pass_as: stdin}")
			continue
		}
		var passAs ast.Node
		for _, f := range fields {
			switch k := key(f); k {
			case "from":
				v, ok := scalar(f.Value)
				if !ok {
					r.add(f.Value, s, field+".from", "want a string such as \"${id.output}\"")
				}
				in.From = v
			case "default":
				v, ok := scalar(f.Value)
				if !ok {
					r.add(f.Value, s, field+".default", "want a string")
				}
				in.Default, in.HasDefault = v, true
			case "pass_as":
				passAs = unwrap(f.Value)
			default:
				r.add(f.Key, s, field+"."+k, "unknown field: an input has from, pass_as and default")
			}
		}
		if passAs == nil {
			r.add(kv.Value, s, field+".pass_as", "missing: say stdin, {argument: {position: N}} or {environment: {name: X}}")
		} else {
			r.passAs(s, field+".pass_as", passAs, &in)
		}
		if in.From == "" && !in.HasDefault {
			r.add(kv.Value, s, field, "needs from or default")
		}
		s.Inputs = append(s.Inputs, in)
	}
}

func (r *reader) passAs(s *Step, field string, n ast.Node, in *Input) {
	if v, ok := scalar(n); ok {
		if v == Stdin {
			in.PassAs = Stdin
		} else {
			r.add(n, s, field, "unknown way %q: stdin, {argument: {position: N}} or {environment: {name: X}}", v)
		}
		return
	}
	kvs, ok := pairs(n)
	if !ok || len(kvs) != 1 {
		r.add(n, s, field, "want stdin, {argument: {position: N}} or {environment: {name: X}}")
		return
	}
	kind := key(kvs[0])
	args, _ := pairs(unwrap(kvs[0].Value))
	get := func(name string) (ast.Node, string, bool) {
		for _, a := range args {
			if key(a) == name {
				v, ok := scalar(a.Value)
				return a.Value, v, ok
			}
		}
		return kvs[0].Value, "", false
	}
	for _, a := range args {
		if k := key(a); !(kind == Argument && k == "position" || kind == Environment && k == "name") {
			r.add(a.Key, s, field+"."+kind+"."+k, "unknown field")
		}
	}
	switch kind {
	case Stdin:
		in.PassAs = Stdin
	case Argument:
		in.PassAs = Argument
		vn, v, ok := get("position")
		p, err := strconv.Atoi(v)
		if !ok || err != nil || p < 0 {
			r.add(vn, s, field+".argument.position", "want a number from 0")
		}
		in.Position = p
	case Environment:
		in.PassAs = Environment
		vn, v, ok := get("name")
		if !ok || !shellwords.IsName(v) {
			r.add(vn, s, field+".environment.name", "want a variable name (letters, digits and _)")
		}
		in.Env = v
	default:
		r.add(kvs[0].Key, s, field, "unknown way %q: stdin, argument or environment", kind)
	}
}

func (r *reader) outputs(s *Step, node ast.Node) {
	kvs, ok := pairs(unwrap(node))
	if !ok {
		r.add(node, s, "outputs", "want a mapping of names to {extract_from, pattern}")
		return
	}
	for _, kv := range kvs {
		name := key(kv)
		field := "outputs." + name
		o := Output{Name: name, Line: line(kv.Key)}
		if !nameRE().MatchString(name) {
			r.add(kv.Key, s, field, "%q is not a valid name", name)
		}
		fields, ok := pairs(unwrap(kv.Value))
		if !ok {
			r.add(kv.Value, s, field, "want a mapping: {extract_from: stdout}")
			continue
		}
		var from ast.Node
		for _, f := range fields {
			switch k := key(f); k {
			case "extract_from":
				from = unwrap(f.Value)
			case "pattern":
				v, ok := scalar(f.Value)
				re, err := regexp.Compile(v)
				if !ok || err != nil {
					r.add(f.Value, s, field+".pattern", "not a regular expression: %v", err)
				}
				o.Pattern = re
			default:
				r.add(f.Key, s, field+"."+k, "unknown field: an output has extract_from and pattern")
			}
		}
		if from == nil {
			r.add(kv.Value, s, field+".extract_from", "missing: stdout, {file: {path: P}}, {git_commit: {file_pattern: G}} or {variable: {value: V}}")
		} else {
			r.source(s, field+".extract_from", from, &o)
		}
		s.Outputs = append(s.Outputs, o)
	}
}

func (r *reader) source(s *Step, field string, n ast.Node, o *Output) {
	if v, ok := scalar(n); ok {
		if v == FromStdout {
			o.Source = FromStdout
		} else {
			r.add(n, s, field, "unknown source %q: stdout, {file: {path: P}}, {git_commit: {file_pattern: G}} or {variable: {value: V}}", v)
		}
		return
	}
	kvs, ok := pairs(n)
	if !ok || len(kvs) != 1 {
		r.add(n, s, field, "want stdout, {file: {path: P}}, {git_commit: {file_pattern: G}} or {variable: {value: V}}")
		return
	}
	kind := key(kvs[0])
	want := map[string]string{FromFile: "path", FromGitCommit: "file_pattern", FromVariable: "value"}[kind]
	if want == "" {
		if kind == FromStdout {
			o.Source = FromStdout
			return
		}
		r.add(kvs[0].Key, s, field, "unknown source %q: stdout, file, git_commit or variable", kind)
		return
	}
	args, _ := pairs(unwrap(kvs[0].Value))
	var val string
	found := false
	for _, a := range args {
		if k := key(a); k != want {
			r.add(a.Key, s, field+"."+kind+"."+k, "unknown field (want %s)", want)
			continue
		}
		v, ok := scalar(a.Value)
		if !ok {
			r.add(a.Value, s, field+"."+kind+"."+want, "want a string")
		}
		val, found = v, true
	}
	if !found || (val == "" && kind != FromVariable) {
		r.add(kvs[0].Value, s, field+"."+kind+"."+want, "missing")
	}
	o.Source = kind
	switch kind {
	case FromFile:
		o.Path = val
	case FromGitCommit:
		o.FilePattern = val
	case FromVariable:
		o.Value = val
	}
}

// unwrap skips anchors, tags and comments around a node.
func unwrap(n ast.Node) ast.Node {
	for {
		switch x := n.(type) {
		case *ast.AnchorNode:
			n = x.Value
		case *ast.TagNode:
			n = x.Value
		case *ast.CommentGroupNode:
			return nil
		default:
			return n
		}
	}
}

// pairs returns a mapping's entries.
func pairs(n ast.Node) ([]*ast.MappingValueNode, bool) {
	switch x := unwrap(n).(type) {
	case *ast.MappingNode:
		return x.Values, true
	case *ast.MappingValueNode:
		return []*ast.MappingValueNode{x}, true
	}
	return nil, false
}

// scalar returns a scalar's text.
func scalar(n ast.Node) (string, bool) {
	switch x := unwrap(n).(type) {
	case *ast.StringNode:
		return x.Value, true
	case *ast.LiteralNode:
		return x.Value.Value, true
	case *ast.NullNode:
		return "", true
	case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode, *ast.InfinityNode, *ast.NanNode:
		return x.GetToken().Value, true
	}
	return "", false
}

func key(kv *ast.MappingValueNode) string {
	if v, ok := scalar(kv.Key); ok {
		return v
	}
	return kv.Key.String()
}

func line(n ast.Node) int {
	l, _ := yamlpos.Node(n)
	return l
}
