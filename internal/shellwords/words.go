package shellwords

import (
	"path/filepath"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// This file reads command lines, on mvdan.cc/sh's parser (its syntax
// package only: expand links os/exec, which the analysis must not). A
// word is evaluated once (Eval), and the wrappers in front of a program
// (sudo, env, timeout, nice, xargs, …) are set apart by one table
// (WrapperOf, Unwrap): `sudo -u root make test` runs make, and so does
// `timeout -s KILL 30s make test`, for the analysis, its risk, the
// learned fixes and the key of "it worked before" alike.

// Parse parses a command line for shell ("zsh" or anything else for
// bash); a line zsh's grammar rejects is read as bash.
func Parse(src, shell string) (*syntax.File, error) {
	lang := syntax.LangBash
	if shell == "zsh" {
		lang = syntax.LangZsh
	}
	f, err := syntax.NewParser(syntax.Variant(lang)).Parse(strings.NewReader(src), "")
	if err != nil && lang != syntax.LangBash {
		f, err = syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	}
	return f, err
}

// A Word is one word of a command line, evaluated once.
type Word struct {
	// Raw is the word as typed; Start and End are its byte offsets in
	// the command line.
	Raw        string
	Start, End int
	// Value is what the program gets: quotes and escapes removed ($'…'
	// decoded too). An expansion, which only the running shell can make,
	// stands as a marker: a parameter as $NAME, a command substitution
	// as $(…), a process substitution as <(…), anything else as $?.
	Value string
	// Literal reports a word without expansions: its Value is exactly
	// what the program gets.
	Literal bool
	// Escaped reports a word whose Value decoded a backslash or a $'…'
	// string (a reader that wants the words as typed can refuse it).
	Escaped bool
}

// Arg is the word as a rule takes it: its value when literal, the text
// as typed otherwise (a rule quoting it back must not lose the $).
func (w Word) Arg() string {
	if w.Literal {
		return w.Value
	}
	return w.Raw
}

// Markers for substitutions, whose text nobody sees before they run.
const (
	CmdSubstMark  = "$(…)"
	ProcSubstMark = "<(…)"
)

// Eval evaluates w, a word of src. (mvdan.cc/sh's expand.Literal would do
// it, but its package links os/exec: the few cases are done here.)
func Eval(w *syntax.Word, src string) Word {
	wd := Word{Start: int(w.Pos().Offset()), End: int(w.End().Offset()), Literal: true}
	if wd.Start >= 0 && wd.End <= len(src) && wd.Start <= wd.End {
		wd.Raw = src[wd.Start:wd.End]
	}
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			wd.Escaped = wd.Escaped || strings.Contains(p.Value, `\`)
			b.WriteString(unescape(p.Value))
		case *syntax.SglQuoted:
			if p.Dollar {
				wd.Escaped = true
				b.WriteString(ansiC(p.Value))
			} else {
				b.WriteString(p.Value)
			}
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if l, ok := q.(*syntax.Lit); ok {
					wd.Escaped = wd.Escaped || strings.Contains(l.Value, `\`)
					b.WriteString(dqUnescape(l.Value))
				} else {
					wd.Literal = false
					b.WriteString(expansionMark(q))
				}
			}
		default:
			wd.Literal = false
			b.WriteString(expansionMark(p))
		}
	}
	wd.Value = b.String()
	return wd
}

// expansionMark is the marker of an expansion in a word's value.
func expansionMark(p syntax.WordPart) string {
	switch p := p.(type) {
	case *syntax.ParamExp:
		if p.Param != nil {
			return "$" + p.Param.Value
		}
		return ""
	case *syntax.CmdSubst:
		return CmdSubstMark
	case *syntax.ProcSubst:
		return ProcSubstMark
	}
	return "$?"
}

// unescape removes the backslashes of an unquoted literal.
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// dqUnescape removes the backslashes that quote a character inside double
// quotes.
func dqUnescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`\n", s[i+1]) >= 0 {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// ansiC decodes the body of a $'…' string: \n, \t, \xHH, \NNN, \uHHHH,
// \cX and the rest of bash's escapes.
func ansiC(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch c := s[i]; c {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'e', 'E':
			b.WriteByte(0x1b)
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case 'c':
			if i+1 < len(s) {
				i++
				b.WriteByte(s[i] & 0x1f)
			}
		case 'x', 'u', 'U':
			width := 2
			switch c {
			case 'u':
				width = 4
			case 'U':
				width = 8
			}
			n, v := digits(s[i+1:], 16, width)
			if n == 0 {
				b.WriteByte('\\')
				b.WriteByte(c)
				continue
			}
			if c == 'x' {
				b.WriteByte(byte(v))
			} else {
				b.WriteRune(rune(v))
			}
			i += n
		case '0', '1', '2', '3', '4', '5', '6', '7':
			n, v := digits(s[i:], 8, 3)
			b.WriteByte(byte(v))
			i += n - 1
		default: // \\ \' \" \? and an unknown escape, kept as written
			if !strings.ContainsRune(`\'"?`, rune(c)) {
				b.WriteByte('\\')
			}
			b.WriteByte(c)
		}
	}
	return b.String()
}

// digits reads up to width digits in base (8 or 16) at the start of s.
func digits(s string, base, width int) (n int, v int) {
	for n < len(s) && n < width {
		d := strings.IndexByte("0123456789abcdef", s[n]|0x20) // lower case
		if d < 0 || d >= base {
			break
		}
		v = v*base + d
		n++
	}
	return n, v
}

// CallWords evaluates the words of a simple command in src; ok is false
// when the parser's offsets do not fit src.
func CallWords(ce *syntax.CallExpr, src string) (ws []Word, ok bool) {
	for _, w := range ce.Args {
		wd := Eval(w, src)
		if wd.Start < 0 || wd.End > len(src) || wd.Start > wd.End {
			return nil, false
		}
		ws = append(ws, wd)
	}
	return ws, true
}

// Values are the values of ws.
func Values(ws []Word) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.Value
	}
	return out
}

// A Wrapper is a program that runs the program named after its own options
// (and operands): sudo, env, timeout, nice, xargs, …
type Wrapper struct {
	// WithArg are its short options that take the next word as their
	// value; LongArg its long ones (--user bob).
	WithArg string
	LongArg []string
	// Operands is how many words of its own come after the options
	// (timeout's duration).
	Operands int
	// Assigns: NAME=VALUE words before the program set its environment
	// (env).
	Assigns bool
	// Privileged: it runs the program as another user, root by default.
	Privileged bool
	// Replaces: it replaces the shell with the program (exec).
	Replaces bool
	// Lookup are options that make it look the program up instead of
	// running it (command -v).
	Lookup string
}

// WrapperOf returns the wrapper called name (a path's base name).
func WrapperOf(name string) (Wrapper, bool) {
	switch name {
	case "sudo":
		return Wrapper{WithArg: "ugpChDrtUT", LongArg: []string{"--user", "--group", "--prompt", "--close-from", "--host",
			"--chdir", "--role", "--type", "--other-user", "--command-timeout"}, Privileged: true}, true
	case "doas":
		return Wrapper{WithArg: "uC", Privileged: true}, true
	case "pkexec":
		return Wrapper{LongArg: []string{"--user"}, Privileged: true}, true
	case "env":
		return Wrapper{WithArg: "uCS", LongArg: []string{"--unset", "--chdir", "--split-string"}, Assigns: true}, true
	case "exec":
		return Wrapper{WithArg: "a", Replaces: true}, true
	case "command":
		return Wrapper{Lookup: "vV"}, true
	case "time":
		return Wrapper{WithArg: "fo", LongArg: []string{"--format", "--output"}}, true
	case "nice":
		return Wrapper{WithArg: "n", LongArg: []string{"--adjustment"}}, true
	case "ionice":
		return Wrapper{WithArg: "cnp", LongArg: []string{"--class", "--classdata", "--pid"}}, true
	case "timeout":
		return Wrapper{WithArg: "sk", LongArg: []string{"--signal", "--kill-after"}, Operands: 1}, true
	case "stdbuf":
		return Wrapper{WithArg: "ioe", LongArg: []string{"--input", "--output", "--error"}}, true
	case "xargs":
		return Wrapper{WithArg: "adEILnPs", LongArg: []string{"--arg-file", "--delimiter", "--max-args", "--max-procs",
			"--max-chars", "--max-lines", "--process-slot-var"}}, true
	case "watch":
		return Wrapper{WithArg: "nq", LongArg: []string{"--interval", "--equexit"}}, true
	case "nohup", "builtin", "noglob", "nocorrect":
		return Wrapper{}, true
	}
	return Wrapper{}, false
}

// Unwrapped is what the wrappers in front of a program say about it.
type Unwrapped struct {
	// Prog is the index of the program's word. A wrapper that names no
	// program (sudo -i, env alone) is the program itself.
	Prog int
	// Privileged: through sudo, doas or pkexec; Replaces: through exec.
	Privileged, Replaces bool
	// Assigns are the NAME=VALUE words given to env.
	Assigns []string
}

// Unwrap finds the program among the words of a call (their values),
// past the wrappers, their options and operands.
func Unwrap(args []string) Unwrapped {
	var u Unwrapped
	for u.Prog < len(args) {
		w, ok := WrapperOf(filepath.Base(args[u.Prog]))
		if !ok {
			break
		}
		i := u.Prog + 1
		lookup := false
	options:
		for i < len(args) {
			a := args[i]
			switch {
			case a == "--":
				i++
				break options
			case len(a) < 2 || a[0] != '-':
				if w.Assigns && strings.Contains(a, "=") {
					u.Assigns = append(u.Assigns, a)
					i++
					continue
				}
				break options
			case strings.HasPrefix(a, "--"):
				if slices.Contains(w.LongArg, a) {
					i++
				}
			default:
				// A group of short options: the value of the last one,
				// if it takes one, is the rest of the word or the next.
				for j := 1; j < len(a); j++ {
					if strings.IndexByte(w.Lookup, a[j]) >= 0 {
						lookup = true
					}
					if strings.IndexByte(w.WithArg, a[j]) >= 0 {
						if j == len(a)-1 {
							i++
						}
						break
					}
				}
			}
			i++
		}
		i += w.Operands
		u.Privileged = u.Privileged || w.Privileged
		u.Replaces = u.Replaces || w.Replaces
		if lookup || i >= len(args) {
			break // the wrapper itself is the program
		}
		u.Prog = i
	}
	return u
}

// Program returns the index in words (values, as Line gives them) of the
// program a command runs, past its assignments (NAME=value) and the
// wrappers with their options and operands (Unwrap), or -1 for a line
// of assignments only.
func Program(words []string) int {
	i := 0
	for i < len(words) && isAssignment(words[i]) {
		i++
	}
	if i == len(words) {
		return -1
	}
	return i + Unwrap(words[i:]).Prog
}

func isAssignment(w string) bool {
	name, _, ok := strings.Cut(w, "=")
	return ok && IsName(name)
}

// Line splits a bash command line into the words of its command,
// assignments first, redirections left out. simple is false for a line
// that is more than one command (; & | && ||, a subshell, a group, a
// compound command), that substitutes a command, or that does not parse;
// words are then those of its first command (none for a line that does
// not parse). A final ; or & still makes one command.
func Line(line string) (words []Word, simple bool) {
	f, err := Parse(line, "bash")
	if err != nil {
		return nil, false
	}
	if len(f.Stmts) == 0 {
		return nil, true
	}
	st := f.Stmts[0]
	simple = len(f.Stmts) == 1 && !st.Negated && !st.Coprocess
	switch cmd := st.Cmd.(type) {
	case *syntax.CallExpr:
		words = callLine(cmd, line)
	case *syntax.DeclClause, *syntax.TestClause, *syntax.LetClause:
		words = clauseLine(cmd, line)
	default:
		simple = false
		syntax.Walk(st, func(n syntax.Node) bool {
			if ce, ok := n.(*syntax.CallExpr); ok && words == nil {
				words = callLine(ce, line)
			}
			return words == nil
		})
	}
	syntax.Walk(st, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst, *syntax.ArithmExp, *syntax.Subshell:
			simple = false
		}
		return simple
	})
	return words, simple
}

// callLine is the words of a simple command: its assignments, then its
// arguments.
func callLine(ce *syntax.CallExpr, src string) []Word {
	var ws []Word
	for _, a := range ce.Assigns {
		s, e := int(a.Pos().Offset()), int(a.End().Offset())
		if s < 0 || e > len(src) || s > e || a.Name == nil {
			continue
		}
		w := Word{Raw: src[s:e], Start: s, End: e, Value: a.Name.Value + "=", Literal: true}
		if a.Value != nil {
			v := Eval(a.Value, src)
			w.Value += v.Value
			w.Literal, w.Escaped = v.Literal, v.Escaped
		} else if a.Array != nil {
			w.Value, w.Literal = w.Raw, false
		}
		ws = append(ws, w)
	}
	args, _ := CallWords(ce, src)
	return append(ws, args...)
}

// clauseLine is the words of export/local/declare, [[ ]] and let, which
// the parser reads as syntax: the keyword, then the clause's words, each
// evaluated (an assignment as one word, NAME=value).
func clauseLine(cmd syntax.Command, src string) []Word {
	var ws []Word
	add := func(n syntax.Node, value string) {
		s, e := int(n.Pos().Offset()), int(n.End().Offset())
		if s >= 0 && e <= len(src) && s <= e {
			ws = append(ws, Word{Raw: src[s:e], Start: s, End: e, Value: value, Literal: true})
		}
	}
	switch c := cmd.(type) {
	case *syntax.TestClause:
		ws = append(ws, Word{Raw: "[[", Start: int(c.Left.Offset()), End: int(c.Left.Offset()) + 2, Value: "[[", Literal: true})
	case *syntax.LetClause:
		ws = append(ws, Word{Raw: "let", Start: int(c.Let.Offset()), End: int(c.Let.Offset()) + 3, Value: "let", Literal: true})
	case *syntax.DeclClause:
		if c.Variant != nil {
			add(c.Variant, c.Variant.Value)
		}
	}
	syntax.Walk(cmd, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Assign:
			if n.Naked || n.Name == nil {
				return true
			}
			ws = append(ws, callLine(&syntax.CallExpr{Assigns: []*syntax.Assign{n}}, src)...)
			return false
		case *syntax.Word:
			ws = append(ws, Eval(n, src))
			return false
		case *syntax.Lit:
			if len(ws) == 0 || ws[len(ws)-1].Start != int(n.Pos().Offset()) {
				add(n, n.Value) // a naked name (export B)
			}
		}
		return true
	})
	if c, ok := cmd.(*syntax.TestClause); ok {
		ws = append(ws, Word{Raw: "]]", Start: int(c.Right.Offset()), End: int(c.Right.Offset()) + 2, Value: "]]", Literal: true})
	}
	return ws
}

// Fields splits text typed as arguments (a prompt file's $ARGUMENTS) as
// a shell would split words, without reading any other syntax and without
// expanding anything: words are separated by blanks, quotes ('…' and
// "…") group, a backslash escapes the next character (inside double
// quotes, only before a backslash, ", $ or `); an open quote runs to the
// end. ; | & < > ( ) and $ are ordinary characters here.
func Fields(s string) []string {
	var out []string
	var b strings.Builder
	word, quote := false, byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			} else {
				b.WriteByte(c)
			}
		case quote == '"':
			if c == '"' {
				quote = 0
			} else if c == '\\' && i+1 < len(s) && strings.IndexByte("\\\"$`", s[i+1]) >= 0 {
				i++
				b.WriteByte(s[i])
			} else {
				b.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote, word = c, true
		case c == '\\' && i+1 < len(s):
			i++
			b.WriteByte(s[i])
			word = true
		case c == ' ' || c == '\t' || c == '\n':
			if word {
				out = append(out, b.String())
				b.Reset()
				word = false
			}
		default:
			b.WriteByte(c)
			word = true
		}
	}
	if word {
		out = append(out, b.String())
	}
	return out
}

// Commands returns the words (values, assignments first) of each simple
// command a line runs, in order, those inside a substitution left out: `a
// && b | c; d` is four. A line that does not parse is one command, split
// at blanks.
func Commands(line, shell string) [][]string {
	f, err := Parse(line, shell)
	if err != nil {
		if ws := strings.Fields(line); len(ws) > 0 {
			return [][]string{ws}
		}
		return nil
	}
	var out [][]string
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			return false
		case *syntax.CallExpr:
			if ws := callLine(n, line); len(ws) > 0 {
				out = append(out, Values(ws))
			}
		case *syntax.DeclClause, *syntax.TestClause, *syntax.LetClause:
			if ws := clauseLine(n.(syntax.Command), line); len(ws) > 0 {
				out = append(out, Values(ws))
			}
			return false
		}
		return true
	})
	return out
}
