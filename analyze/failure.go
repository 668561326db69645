package analyze

import (
	"context"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/hookd/hookd/capture"
	"github.com/hookd/hookd/internal/shellwords"
	"mvdan.cc/sh/v3/syntax"
)

// Failure is an Input prepared for rules: the output cleaned of terminal
// escapes, the command line split into simple commands, and Facts never nil.
type Failure struct {
	Input
	// Output is Input.Output without terminal escape sequences, with
	// carriage-return overwrites resolved, and capped in size.
	Output string
	// Calls are the simple commands of the command line, in source order.
	Calls []Call
	// Env is Input.Env, or a stand-in that knows nothing.
	Env Facts

	lower string // strings.ToLower(Output)
}

// Call is one simple command of a command line.
type Call struct {
	// Args are the command's words with quotes removed where the word is a
	// literal; the wrappers in front of the program (sudo, env, timeout,
	// nice, xargs, …: see shellwords.WrapperOf) are skipped.
	Args []string
	// Raw are the same words as typed.
	Raw []string
	// Sudo reports that the command runs through sudo, doas or pkexec.
	Sudo bool
	// Nested reports a command inside a command or process substitution.
	Nested bool
	// Redirs are the command's redirections.
	Redirs []Redir

	start, end []int // byte offsets in the command line of each word
	span       [2]int
	// wrapped is the call with its wrappers' words (xargs -0 echo), when
	// wrappers were skipped: a wrapper's own option error names a word
	// the program's call does not hold.
	wrapped *Call
}

// Redir is an output or input redirection of a command.
type Redir struct {
	Op     string // ">", ">>", "<", "&>", …
	Target string // the file, unquoted where literal
	FD     string // the file descriptor before the operator, if any ("2" in 2>err)

	span [2]int // byte offsets of the whole redirection in the command line
}

// Name returns the base name of the command, or "".
func (c *Call) Name() string {
	if c == nil || len(c.Args) == 0 {
		return ""
	}
	return filepath.Base(c.Args[0])
}

// Arg returns the i-th word, or "" when there is none.
func (c *Call) Arg(i int) string {
	if c == nil || i < 0 || i >= len(c.Args) {
		return ""
	}
	return c.Args[i]
}

// maxOutput bounds the output that rules look at; the head and the tail of a
// long output are kept, as errors are usually at one end or the other.
const (
	maxOutput  = 16 << 10
	outputHead = 4 << 10
)

func newFailure(in Input) *Failure {
	f := &Failure{Input: in, Env: in.Env}
	if f.Env == nil {
		f.Env = noFacts{}
	}
	if len(in.Command) > 16<<10 {
		f.Input.Command = in.Command[:16<<10]
	}
	f.Output = cleanOutput(in.Output)
	f.lower = strings.ToLower(f.Output)
	f.Calls = parseCalls(f.Input.Command, in.Shell)
	return f
}

// cleanOutput turns the output into the text the terminal showed (escape
// sequences applied or dropped, carriage returns and backspaces resolved:
// see capture.Render), after capping its size. Output hookd captured is
// rendered already; this is for output from elsewhere (--output-file, a
// terminal's scrollback).
func cleanOutput(s string) string {
	if len(s) > maxOutput {
		s = s[:outputHead] + "\n" + s[len(s)-(maxOutput-outputHead):]
	}
	if strings.IndexByte(s, 0x1b) < 0 && strings.IndexByte(s, '\r') < 0 && strings.IndexByte(s, '\b') < 0 && utf8.ValidString(s) {
		return s
	}
	text, _ := capture.Render([]byte(s))
	return text
}

// parseCalls splits a command line into simple commands. A line the parser
// rejects is split on blanks, as one command.
func parseCalls(cmd, shell string) []Call {
	file, err := shellwords.Parse(cmd, shell)
	if err != nil {
		return fieldsCall(cmd)
	}
	var calls []Call
	var stack []syntax.Node
	nested := 0
	syntax.Walk(file, func(n syntax.Node) bool {
		if n == nil {
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			switch top.(type) {
			case *syntax.CmdSubst, *syntax.ProcSubst:
				nested--
			}
			return true
		}
		stack = append(stack, n)
		switch n := n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			nested++
		case *syntax.Stmt:
			switch x := n.Cmd.(type) {
			case *syntax.CallExpr:
				if len(x.Args) == 0 {
					break
				}
				if c, ok := newCall(cmd, x, n.Redirs); ok {
					c.Nested = nested > 0
					calls = append(calls, c)
				}
			case *syntax.DeclClause, *syntax.TestClause, *syntax.LetClause:
				// export, [[ ]] and let: their words as typed.
				s, e := int(x.Pos().Offset()), int(x.End().Offset())
				if s < 0 || e > len(cmd) || s >= e {
					break
				}
				for _, c := range fieldsCall(cmd[s:e]) {
					c.shift(s)
					c.Nested = nested > 0
					calls = append(calls, c)
				}
			}
		}
		return true
	})
	sort.SliceStable(calls, func(i, j int) bool { return calls[i].span[0] < calls[j].span[0] })
	return calls
}

// shift moves a call's offsets by n bytes.
func (c *Call) shift(n int) {
	for i := range c.start {
		c.start[i] += n
		c.end[i] += n
	}
	c.span[0] += n
	c.span[1] += n
}

// fieldsCall is the fallback for command lines that do not parse.
func fieldsCall(cmd string) []Call {
	var c Call
	i := 0
	for _, w := range strings.Fields(cmd) {
		j := strings.Index(cmd[i:], w) + i
		c.Args = append(c.Args, w)
		c.Raw = append(c.Raw, w)
		c.start = append(c.start, j)
		c.end = append(c.end, j+len(w))
		i = j + len(w)
	}
	if len(c.Args) == 0 {
		return nil
	}
	c.span = [2]int{c.start[0], c.end[len(c.end)-1]}
	return []Call{c}
}

// newCall is one simple command (shellwords): its words as the rules
// take them (Word.Arg), the wrappers in front of the program set apart.
func newCall(src string, ce *syntax.CallExpr, redirs []*syntax.Redirect) (Call, bool) {
	ws, ok := shellwords.CallWords(ce, src)
	if !ok || len(ws) == 0 {
		return Call{}, false
	}
	var c Call
	for _, w := range ws {
		c.Args = append(c.Args, w.Arg())
		c.Raw = append(c.Raw, w.Raw)
		c.start = append(c.start, w.Start)
		c.end = append(c.end, w.End)
	}
	c.span = [2]int{c.start[0], c.end[len(c.end)-1]}
	if len(ce.Assigns) > 0 {
		if s := int(ce.Assigns[0].Pos().Offset()); s >= 0 && s < c.span[0] {
			c.span[0] = s
		}
	}
	for _, r := range redirs {
		if r.Word == nil {
			continue
		}
		t := shellwords.Eval(r.Word, src)
		if t.Start < 0 || t.End > len(src) || t.Start > t.End {
			continue
		}
		rd := Redir{Op: r.Op.String(), Target: t.Arg(), span: [2]int{int(r.Pos().Offset()), t.End}}
		if r.N != nil {
			rd.FD = r.N.Value
		}
		c.Redirs = append(c.Redirs, rd)
	}
	u := shellwords.Unwrap(shellwords.Values(ws))
	c.Sudo = u.Privileged
	n := u.Prog
	if n > 0 {
		full := c
		c.wrapped = &full
	}
	c.Args, c.Raw, c.start, c.end = c.Args[n:], c.Raw[n:], c.start[n:], c.end[n:]
	return c, true
}

// wrapperCall returns the call of the wrapper in front of c whose words
// hold word i of c.wrapped (timeout's --signal in `timeout --signal=KILL 1
// make`): from that wrapper on, the program's words included.
func (c *Call) wrapperCall(i int) *Call {
	w := c.wrapped
	if w == nil || i >= len(w.Args)-len(c.Args) {
		return nil
	}
	for k := i - 1; k >= 0; k-- {
		if _, ok := shellwords.WrapperOf(filepath.Base(w.Args[k])); ok {
			return &Call{Args: w.Args[k:], Raw: w.Raw[k:], start: w.start[k:], end: w.end[k:],
				span: [2]int{w.start[k], w.span[1]}, Sudo: c.Sudo, Redirs: c.Redirs}
		}
	}
	return nil
}

// main returns the command whose failure is most likely reported: the last
// one at top level.
func (f *Failure) main() *Call {
	for i := len(f.Calls) - 1; i >= 0; i-- {
		if !f.Calls[i].Nested {
			return &f.Calls[i]
		}
	}
	return nil
}

// call returns the last command named one of names, or nil.
func (f *Failure) call(names ...string) *Call {
	for i := len(f.Calls) - 1; i >= 0; i-- {
		n := f.Calls[i].Name()
		for _, want := range names {
			if n == want {
				return &f.Calls[i]
			}
		}
	}
	return nil
}

// sub returns the first argument that is not an option (the subcommand of
// git, npm, go, …), skipping the global options that take a value.
func (c *Call) sub() string {
	i := c.subIndex()
	if i < 0 {
		return ""
	}
	return c.Args[i]
}

func (c *Call) subIndex() int {
	withArg := map[string]bool{"-C": true, "-c": true, "--git-dir": true, "--work-tree": true, "-f": true, "--file": true, "-H": true, "--host": true, "--context": true, "--prefix": true, "--workspace": true, "-w": true, "--manifest-path": true}
	for i := 1; i < len(c.Args); i++ {
		a := c.Args[i]
		if strings.HasPrefix(a, "-") {
			if withArg[a] && c.Name() != "make" {
				i++
			}
			continue
		}
		return i
	}
	return -1
}

// has reports whether the output contains any of subs, ignoring case.
func (f *Failure) has(subs ...string) bool {
	for _, s := range subs {
		if strings.Contains(f.lower, strings.ToLower(s)) {
			return true
		}
	}
	return false
}

// find returns the submatches of re's first match in the output, or nil.
func (f *Failure) find(re lazyRegexp) []string {
	return re.FindStringSubmatch(f.Output)
}

// replaceWords returns the command line with words i to j-1 of c replaced
// by text (i == j inserts text before word i; i == len(c.Args) appends).
func (f *Failure) replaceWords(c *Call, i, j int, text string) string {
	cmd := f.Input.Command
	if c == nil || i < 0 || j < i || j > len(c.Args) || len(c.Args) == 0 {
		return ""
	}
	switch {
	case i == len(c.Args):
		at := c.end[len(c.end)-1]
		return cmd[:at] + " " + text + cmd[at:]
	case i == j:
		at := c.start[i]
		return cmd[:at] + text + " " + cmd[at:]
	}
	s, e := c.start[i], c.end[j-1]
	if text == "" {
		// Drop the blank before the removed words as well.
		for s > 0 && (cmd[s-1] == ' ' || cmd[s-1] == '\t') {
			s--
		}
	}
	return cmd[:s] + text + cmd[e:]
}

// replaceWord returns the command line with word i of c replaced by text,
// shell text as it is (a flag, a word as the user typed it). A word from
// anywhere else (a file, a branch, a tool's output) goes in through
// putWord.
func (f *Failure) replaceWord(c *Call, i int, text string) string {
	return f.replaceWords(c, i, i+1, text)
}

// putWord returns the command line with word i of c replaced by word,
// quoted for the shell: it stays one word whatever it holds. A word that
// starts with "-" never takes the place of one that does not (a branch
// named -fCmain, a target named --orphan=x): the program would read it as
// options, so there is no such fix ("").
func (f *Failure) putWord(c *Call, i int, word string) string {
	if c == nil || i < 0 || i >= len(c.Args) || strings.HasPrefix(word, "-") && !strings.HasPrefix(c.Args[i], "-") {
		return ""
	}
	return f.replaceWords(c, i, i+1, shellwords.QuoteWord(word))
}

// prefixed returns the command line with text put before c, wrappers
// included: prefixed(c, "sudo") turns "a | b" into "a | sudo b".
func (f *Failure) prefixed(c *Call, text string) string {
	if c == nil {
		return ""
	}
	cmd := f.Input.Command
	return cmd[:c.span[0]] + text + " " + cmd[c.span[0]:]
}

// callText returns the text of c as typed, wrappers included.
func (f *Failure) callText(c *Call) string {
	if c == nil {
		return ""
	}
	cmd := f.Input.Command
	e := c.end[len(c.end)-1]
	return cmd[c.span[0]:e]
}

// argsText returns the text of c's words from i on, as typed.
func (f *Failure) argsText(c *Call, i int) string {
	if c == nil || i >= len(c.Args) {
		return ""
	}
	return f.Input.Command[c.start[i]:c.end[len(c.end)-1]]
}

// path resolves p against the failure's directory.
func (f *Failure) path(p string) string {
	if filepath.IsAbs(p) || f.Cwd == "" {
		return p
	}
	return filepath.Join(f.Cwd, p)
}

// exists reports whether p exists, according to the facts.
func (f *Failure) exists(ctx context.Context, p string) bool {
	_, err := f.Env.Stat(ctx, f.path(p))
	return err == nil
}

// isDir reports whether p is a directory, according to the facts.
func (f *Failure) isDir(ctx context.Context, p string) bool {
	e, err := f.Env.Stat(ctx, f.path(p))
	return err == nil && e.Dir
}

// isFile reports whether p is a file other than a directory.
func (f *Failure) isFile(ctx context.Context, p string) bool {
	e, err := f.Env.Stat(ctx, f.path(p))
	return err == nil && !e.Dir
}
