package chain

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hookd/hookd/internal/recording/runrecord"
	"github.com/hookd/hookd/internal/shellwords"
)

// Options are what a chain runs with.
type Options struct {
	Dir            string // where steps run and file paths are relative to; "" for the current directory
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Shell runs the run steps with -c; "" for $SHELL when it is a
	// POSIX shell (bash, zsh, sh, dash, ksh), else /bin/sh.
	Shell string
	// Hookd is hookd's executable, which ask and expand steps run as
	// `hookd ask QUESTION [ARG…]` and `hookd expand NAME [ARG…]`.
	Hookd string
	Limit int // what is kept of each step's output (see record.Exec)
	// Record is given each finished run step, to be kept in history.
	Record func(runrecord.Command)
	// History is the output of a recorded command (REF: an id or -N),
	// for ${hist.REF.output}.
	History func(ctx context.Context, ref string) (string, error)
	// Env is the run steps' environment (nil: this process's); ask and
	// expand steps, hookd itself, get this process's.
	Env                []string
	Signals            <-chan os.Signal
	TerminalInterrupts bool
}

// Planned is a step as it would run: its text with what is known
// substituted (defaults of unknown ids; the outputs of earlier steps stay
// ${id.name} until they exist), and where its inputs go.
type Planned struct {
	Step    *Step
	Command string   // the command line, question or prompt name
	Inputs  []string // "stdin ← ${greet.text}", "$LOUD ← …", "argument 0 ← …"
	Outputs []string // "text ← stdout"
}

// Plan is what Run would do, for --dry-run. Nothing is run.
func Plan(c *Chain) []Planned {
	var plan []Planned
	for _, s := range c.Steps {
		p := Planned{Step: s}
		lookup := func(r Ref) (string, bool, error) {
			if _, known := byID(c, r.ID); !known && r.ID != "hist" && r.HasDefault {
				return r.Default, true, nil
			}
			return "", false, nil
		}
		p.Command, _ = substitute(s.Text, s.Action == ActRun, lookup)
		for _, a := range sortedArgs(s) {
			from := a.From
			if from == "" {
				from = shellwords.Quote(a.Default)
			}
			p.Command += " " + from
		}
		for _, in := range s.Inputs {
			from := in.From
			if in.HasDefault {
				if from == "" {
					from = fmt.Sprintf("%q", in.Default)
				} else {
					from += fmt.Sprintf(" (default %q)", in.Default)
				}
			}
			switch in.PassAs {
			case Stdin:
				p.Inputs = append(p.Inputs, "stdin ← "+from)
			case Argument:
				p.Inputs = append(p.Inputs, fmt.Sprintf("argument %d ← %s", in.Position, from))
			case Environment:
				p.Inputs = append(p.Inputs, fmt.Sprintf("$%s ← %s", in.Env, from))
			}
		}
		for _, o := range s.Outputs {
			d := o.Source
			switch o.Source {
			case FromFile:
				d += " " + o.Path
			case FromGitCommit:
				d += " files matching " + o.FilePattern
			case FromVariable:
				d = fmt.Sprintf("%q", o.Value)
			}
			if o.Pattern != nil {
				d += fmt.Sprintf(" (pattern %s)", o.Pattern)
			}
			p.Outputs = append(p.Outputs, o.Name+" ← "+d)
		}
		plan = append(plan, p)
	}
	return plan
}

func byID(c *Chain, id string) (*Step, bool) {
	for _, s := range c.Steps {
		if s.ID == id && id != "" {
			return s, true
		}
	}
	return nil, false
}

// sortedArgs are a step's argument inputs in the order of their positions.
func sortedArgs(s *Step) []Input {
	var args []Input
	for _, in := range s.Inputs {
		if in.PassAs == Argument {
			args = append(args, in)
		}
	}
	sort.SliceStable(args, func(i, j int) bool { return args[i].Position < args[j].Position })
	return args
}

// substitute replaces the references in text by lookup's values; one it
// does not know stays as it is. For a shell command line (shell), each
// value is quoted for where the shell's parser shows it stands (see
// shellSites): in a plain word as one single-quoted word, inside quotes by
// closing them around it, so that a value is always data and never shell
// syntax. A reference anywhere else is an error (Check reports it first).
func substitute(text string, shell bool, lookup func(Ref) (string, bool, error)) (string, error) {
	refs := Refs(text)
	if len(refs) == 0 {
		return text, nil
	}
	var sites []site
	if shell {
		var err error
		if sites, err = shellSites(text); err != nil {
			return text, fmt.Errorf("the command line does not parse: %v", err)
		}
	}
	var b strings.Builder
	var errs []error
	prev := 0
	for k, r := range refs {
		b.WriteString(text[prev:r.Start])
		prev = r.End
		v, ok, err := lookup(r)
		switch {
		case err != nil:
			errs = append(errs, err)
			b.WriteString(text[r.Start:r.End])
		case !ok:
			b.WriteString(text[r.Start:r.End])
		case !shell:
			b.WriteString(v)
		case sites[k].problem != "":
			errs = append(errs, fmt.Errorf("%s: %s: pass it as an input (environment or stdin)", r, sites[k].problem))
			b.WriteString(text[r.Start:r.End])
		case sites[k].quote == 0:
			b.WriteString(shellwords.Quote(v))
		default:
			q := sites[k].quote
			b.WriteByte(q)
			b.WriteString(shellwords.Quote(v))
			b.WriteByte(q)
		}
	}
	b.WriteString(text[prev:])
	return b.String(), errors.Join(errs...)
}

// StepError is a step that failed.
type StepError struct {
	Step   *Step
	Status int // its exit status; 1 when it could not be run
	Err    error
}

func (e *StepError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %v", e.Step.Name(), e.Err)
	}
	return fmt.Sprintf("%s exited with status %d", e.Step.Name(), e.Status)
}

// Run runs the steps in order, each with a header line on Stderr and its
// output passed through. It stops at the first step that fails, unless
// that step has continue_on_error; the error is then a *StepError with
// its status. The chain must have passed Check.
func Run(ctx context.Context, c *Chain, opt Options) error {
	if opt.Dir == "" {
		opt.Dir, _ = os.Getwd()
	}
	if opt.Shell == "" {
		opt.Shell = shell()
	}
	values := map[string]map[string]string{} // id → output → value
	why := map[string]string{}               // id → why it has no values
	for _, s := range c.Steps {
		if err := ctx.Err(); err != nil {
			return err
		}
		lookup := func(r Ref) (string, bool, error) {
			if ref, ok := r.Hist(); ok {
				var v string
				err := errors.New("no history")
				if opt.History != nil {
					v, err = opt.History(ctx, ref)
				}
				if err == nil {
					return strings.TrimRight(v, "\n"), true, nil
				}
				if r.HasDefault {
					return r.Default, true, nil
				}
				return "", false, fmt.Errorf("%s: %v", r, err)
			}
			if v, ok := values[r.ID][r.Name]; ok {
				return v, true, nil
			}
			if r.HasDefault {
				return r.Default, true, nil
			}
			reason := why[r.ID]
			if reason == "" {
				reason = "no value"
			}
			return "", false, fmt.Errorf("%s: %s", r, reason)
		}
		status, out, err := runStep(ctx, c, s, opt, lookup)
		if s.ID != "" {
			values[s.ID] = out
			if err != nil {
				why[s.ID] = fmt.Sprintf("%s failed", s.Name())
			}
			for _, o := range s.Outputs {
				if _, ok := out[o.Name]; !ok && why[s.ID] == "" {
					why[s.ID] = fmt.Sprintf("%s gave no %s", s.Name(), o.Name)
				}
			}
		}
		if err == nil {
			continue
		}
		if status == 0 {
			status = 1
		}
		se := &StepError{Step: s, Status: status}
		if !errors.Is(err, errStatus) {
			se.Err = err
		}
		if s.ContinueOnError {
			fmt.Fprintf(opt.Stderr, "hookd chain: %v; continuing (continue_on_error)\n", se)
			continue
		}
		return se
	}
	return nil
}

var errStatus = errors.New("exit status")

// runStep runs one step and extracts its outputs.
func runStep(ctx context.Context, c *Chain, s *Step, opt Options, lookup func(Ref) (string, bool, error)) (int, map[string]string, error) {
	fail := func(err error) (int, map[string]string, error) {
		fmt.Fprintf(opt.Stderr, "==> [%d/%d] %s\n", s.N, len(c.Steps), s.Name())
		return 1, nil, err
	}
	text, err := substitute(s.Text, s.Action == ActRun, lookup)
	if err != nil {
		return fail(fmt.Errorf("%s: %w", s.Action, err))
	}
	x := runrecord.Exec{Dir: opt.Dir, Stdin: opt.Stdin, Stdout: opt.Stdout, Stderr: opt.Stderr, Limit: opt.Limit,
		Signals: opt.Signals, TerminalInterrupts: opt.TerminalInterrupts}
	var env, args []string
	for _, in := range s.Inputs {
		v, err := substitute(in.From, false, lookup)
		switch {
		case in.From == "" || err != nil && in.HasDefault:
			v = in.Default
		case err != nil:
			return fail(fmt.Errorf("input %s: %w", in.Name, err))
		}
		switch in.PassAs {
		case Stdin:
			if v != "" && !strings.HasSuffix(v, "\n") {
				v += "\n"
			}
			x.Stdin = strings.NewReader(v)
		case Environment:
			env = append(env, in.Env+"="+v)
		}
	}
	for _, a := range sortedArgs(s) {
		for _, in := range s.Inputs {
			if in.Name == a.Name {
				v, err := substitute(in.From, false, lookup)
				if in.From == "" || err != nil {
					v = in.Default
				}
				args = append(args, v)
			}
		}
	}
	base := os.Environ()
	if opt.Env != nil && s.Action == ActRun {
		base = opt.Env
	}
	if env != nil || s.Action == ActRun && opt.Env != nil {
		x.Env = append(base[:len(base):len(base)], env...)
	}
	switch s.Action {
	case ActRun:
		for _, a := range args {
			text += " " + shellwords.Quote(a)
		}
		x.Argv = []string{opt.Shell, "-c", text}
	case ActAsk, ActExpand:
		x.Argv = append([]string{opt.Hookd, s.Action, text}, args...)
	}
	fmt.Fprintf(opt.Stderr, "==> [%d/%d] %s: %s %s\n", s.N, len(c.Steps), s.Name(), s.Action, oneLine(text))
	var before string
	if needsGit(s) {
		before = gitHead(opt.Dir)
	}
	cmd, err := x.Run()
	var start *runrecord.StartError
	if err != nil && !errors.As(err, &start) {
		return 1, nil, err
	}
	if s.Action == ActRun {
		cmd.Text = text
		if opt.Record != nil {
			opt.Record(cmd)
		}
	}
	if cmd.Status != 0 {
		return cmd.Status, nil, errStatus
	}
	out := map[string]string{}
	for _, o := range s.Outputs {
		v, err := extract(o, cmd, opt.Dir, before)
		if err != nil {
			fmt.Fprintf(opt.Stderr, "hookd chain: %s: output %s: %v\n", s.Name(), o.Name, err)
			continue
		}
		out[o.Name] = v
	}
	return 0, out, nil
}

func oneLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}

// extract is an output's value, trailing newlines trimmed as $(…) does.
func extract(o Output, c runrecord.Command, dir, before string) (string, error) {
	var v string
	switch o.Source {
	case FromStdout:
		if c.Stdout != nil {
			v = string(c.Stdout.Bytes())
		}
	case FromFile:
		p := o.Path
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return "", err
		}
		v = string(b)
	case FromVariable:
		v = o.Value
	case FromGitCommit:
		files, err := committed(dir, before, o.FilePattern)
		if err != nil {
			return "", err
		}
		v = strings.Join(files, "\n")
	}
	if o.Pattern != nil {
		m := o.Pattern.FindStringSubmatch(v)
		switch {
		case m == nil:
			return "", fmt.Errorf("pattern %s does not match", o.Pattern)
		case len(m) > 1:
			v = m[1]
		default:
			v = m[0]
		}
	}
	return strings.TrimRight(v, "\n"), nil
}

func needsGit(s *Step) bool {
	for _, o := range s.Outputs {
		if o.Source == FromGitCommit {
			return true
		}
	}
	return false
}

func gitHead(dir string) string {
	out, err := exec.Command("git", "-C", dir, "rev-parse", "-q", "--verify", "HEAD").Output()
	if err != nil {
		return "" // no commit yet
	}
	return strings.TrimSpace(string(out))
}

// committed are the files the commits since before added or changed that
// match pattern (a glob on the path from the repository's root, or on the
// file's name when it has no /), as paths from the root.
func committed(dir, before, pattern string) ([]string, error) {
	after := gitHead(dir)
	if after == "" || after == before {
		return nil, errors.New("the step made no commit")
	}
	rng := after
	if before != "" {
		rng = before + ".." + after
	}
	var stderr bytes.Buffer
	cmd := exec.Command("git", "-C", dir, "log", "--format=", "--name-only", "--diff-filter=AM", rng)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git log: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	var files []string
	seen := map[string]bool{}
	for _, f := range strings.Split(string(out), "\n") {
		if f == "" || seen[f] {
			continue
		}
		seen[f] = true
		name := f
		if !strings.Contains(pattern, "/") {
			name = filepath.Base(f)
		}
		if ok, _ := filepath.Match(pattern, name); ok {
			files = append(files, f)
		}
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("the step's commit has no file matching %s", pattern)
	}
	sort.Strings(files)
	return files, nil
}

// shell is $SHELL when it takes POSIX quoting, else /bin/sh.
func shell() string {
	sh := os.Getenv("SHELL")
	switch filepath.Base(sh) {
	case "bash", "zsh", "sh", "dash", "ksh", "mksh", "yash":
		return sh
	}
	return "/bin/sh"
}
