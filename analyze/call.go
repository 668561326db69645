package analyze

import (
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// This file parses one simple command the way every part of the package
// reads it: the rules (Failure.Calls), the risk scorer (Risk) and the
// trust of fixes. A call's words are evaluated once (evalWord), and the
// wrappers in front of the program (sudo, env, timeout, nice, xargs, …)
// are set apart by one table (wrapperOf, unwrap): `timeout 5 rm -rf x` is
// rm to all of them.

// A word is one word of a command line, evaluated once.
type word struct {
	// raw is the word as typed; start and end are its byte offsets in the
	// command line.
	raw        string
	start, end int
	// value is what the program gets: quotes and escapes removed ($'…'
	// decoded too). An expansion, which only the running shell can make,
	// stands as a marker: a parameter as $NAME, a command substitution as
	// $(…), a process substitution as <(…), anything else as $?.
	value string
	// literal reports a word without expansions: its value is exactly
	// what the program gets.
	literal bool
}

// arg is the word as the rules take it: its value when literal, the text
// as typed otherwise (a rule quoting it back must not lose the $).
func (w word) arg() string {
	if w.literal {
		return w.value
	}
	return w.raw
}

// Markers for substitutions, whose text nobody sees before they run.
const (
	cmdSubstMark  = "$(…)"
	procSubstMark = "<(…)"
)

// evalWord evaluates w, a word of src. (mvdan.cc/sh's expand.Literal
// would do it, but its package links os/exec, which analysis must not:
// the few cases are done here.)
func evalWord(w *syntax.Word, src string) word {
	wd := word{start: int(w.Pos().Offset()), end: int(w.End().Offset()), literal: true}
	if wd.start >= 0 && wd.end <= len(src) && wd.start <= wd.end {
		wd.raw = src[wd.start:wd.end]
	}
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(unescape(p.Value))
		case *syntax.SglQuoted:
			if p.Dollar {
				b.WriteString(ansiC(p.Value))
			} else {
				b.WriteString(p.Value)
			}
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if l, ok := q.(*syntax.Lit); ok {
					b.WriteString(dqUnescape(l.Value))
				} else {
					wd.literal = false
					b.WriteString(expansionMark(q))
				}
			}
		default:
			wd.literal = false
			b.WriteString(expansionMark(p))
		}
	}
	wd.value = b.String()
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
		return cmdSubstMark
	case *syntax.ProcSubst:
		return procSubstMark
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

// callWords evaluates the words of a simple command in src; ok is false
// when the parser's offsets do not fit src.
func callWords(ce *syntax.CallExpr, src string) (ws []word, ok bool) {
	for _, w := range ce.Args {
		wd := evalWord(w, src)
		if wd.start < 0 || wd.end > len(src) || wd.start > wd.end {
			return nil, false
		}
		ws = append(ws, wd)
	}
	return ws, true
}

func values(ws []word) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.value
	}
	return out
}

// A wrapper is a program that runs the program named after its own options
// (and operands): sudo, env, timeout, nice, xargs, …
type wrapper struct {
	// withArg are its short options that take the next word as their
	// value; longArg its long ones (--user bob).
	withArg string
	longArg []string
	// operands is how many words of its own come after the options
	// (timeout's duration).
	operands int
	// assigns: NAME=VALUE words before the program set its environment
	// (env).
	assigns bool
	// privileged: it runs the program as another user, root by default.
	privileged bool
	// replaces: it replaces the shell with the program (exec).
	replaces bool
	// lookup are options that make it look the program up instead of
	// running it (command -v).
	lookup string
}

// wrapperOf returns the wrapper called name (a path's base name).
func wrapperOf(name string) (wrapper, bool) {
	switch name {
	case "sudo":
		return wrapper{withArg: "ugpChDrtUT", longArg: []string{"--user", "--group", "--prompt", "--close-from", "--host",
			"--chdir", "--role", "--type", "--other-user", "--command-timeout"}, privileged: true}, true
	case "doas":
		return wrapper{withArg: "uC", privileged: true}, true
	case "pkexec":
		return wrapper{longArg: []string{"--user"}, privileged: true}, true
	case "env":
		return wrapper{withArg: "uCS", longArg: []string{"--unset", "--chdir", "--split-string"}, assigns: true}, true
	case "exec":
		return wrapper{withArg: "a", replaces: true}, true
	case "command":
		return wrapper{lookup: "vV"}, true
	case "time":
		return wrapper{withArg: "fo", longArg: []string{"--format", "--output"}}, true
	case "nice":
		return wrapper{withArg: "n", longArg: []string{"--adjustment"}}, true
	case "ionice":
		return wrapper{withArg: "cnp", longArg: []string{"--class", "--classdata", "--pid"}}, true
	case "timeout":
		return wrapper{withArg: "sk", longArg: []string{"--signal", "--kill-after"}, operands: 1}, true
	case "stdbuf":
		return wrapper{withArg: "ioe", longArg: []string{"--input", "--output", "--error"}}, true
	case "xargs":
		return wrapper{withArg: "adEILnPs", longArg: []string{"--arg-file", "--delimiter", "--max-args", "--max-procs",
			"--max-chars", "--max-lines", "--process-slot-var"}}, true
	case "watch":
		return wrapper{withArg: "nq", longArg: []string{"--interval", "--equexit"}}, true
	case "nohup", "builtin", "noglob", "nocorrect":
		return wrapper{}, true
	}
	return wrapper{}, false
}

// unwrapped is what the wrappers in front of a program say about it.
type unwrapped struct {
	// prog is the index of the program's word. A wrapper that names no
	// program (sudo -i, env alone) is the program itself.
	prog int
	// privileged: through sudo, doas or pkexec; replaces: through exec.
	privileged, replaces bool
	// assigns are the NAME=VALUE words given to env.
	assigns []string
}

// unwrap finds the program among the words of a call (their values),
// past the wrappers, their options and operands.
func unwrap(args []string) unwrapped {
	var u unwrapped
	for u.prog < len(args) {
		w, ok := wrapperOf(filepath.Base(args[u.prog]))
		if !ok {
			break
		}
		i := u.prog + 1
		lookup := false
	options:
		for i < len(args) {
			a := args[i]
			switch {
			case a == "--":
				i++
				break options
			case len(a) < 2 || a[0] != '-':
				if w.assigns && strings.Contains(a, "=") {
					u.assigns = append(u.assigns, a)
					i++
					continue
				}
				break options
			case strings.HasPrefix(a, "--"):
				if contains(w.longArg, a) {
					i++
				}
			default:
				// A group of short options: the value of the last one,
				// if it takes one, is the rest of the word or the next.
				for j := 1; j < len(a); j++ {
					if strings.IndexByte(w.lookup, a[j]) >= 0 {
						lookup = true
					}
					if strings.IndexByte(w.withArg, a[j]) >= 0 {
						if j == len(a)-1 {
							i++
						}
						break
					}
				}
			}
			i++
		}
		i += w.operands
		u.privileged = u.privileged || w.privileged
		u.replaces = u.replaces || w.replaces
		if lookup || i >= len(args) {
			break // the wrapper itself is the program
		}
		u.prog = i
	}
	return u
}
