// Package shellwordstest checks, for tests, that a command hookd offers is
// only words: parsed as bash and as zsh with mvdan.cc/sh, it is simple
// commands joined by &&, || or |, each of literal words, with nothing
// that runs or expands anything (no substitution, no parameter, no
// arithmetic, no glob, no redirection, no assignment).
package shellwordstest

import (
	"fmt"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Hostile are names a repository, a directory, a tool's output or another
// machine can hold, each of which must stay one word of a fix.
var Hostile = []string{
	"dev$(touch${IFS}pwned)", "`touch pwned`", "a;touch pwned", "a|touch pwned", "a&&touch pwned",
	"a\ntouch pwned", "it's", `a"b`, "x${IFS}y", "a b", "x!y", "{a,b}", "a>out", "*", "k=v",
	"--orphan=pwn", "-fCmain", "a'b!c$d",
}

// Calls parses line and returns the words of each of its simple commands,
// or an error naming the first thing in it that is not a literal word.
func Calls(line string) ([][]string, error) {
	var calls [][]string
	for _, lang := range []syntax.LangVariant{syntax.LangBash, syntax.LangZsh} {
		f, err := syntax.NewParser(syntax.Variant(lang)).Parse(strings.NewReader(line), "")
		if err != nil {
			return nil, fmt.Errorf("%s: %v", lang, err)
		}
		calls = nil
		for _, st := range f.Stmts {
			if err := stmt(st, &calls); err != nil {
				return nil, fmt.Errorf("%s: %v", lang, err)
			}
		}
	}
	return calls, nil
}

func stmt(st *syntax.Stmt, calls *[][]string) error {
	if len(st.Redirs) > 0 {
		// What the fix writes to is the user's own command's business
		// only as /dev/null: anything else came from a word.
		for _, r := range st.Redirs {
			if r.Word == nil || len(r.Word.Parts) != 1 || r.Word.Lit() != "/dev/null" {
				return fmt.Errorf("a redirection")
			}
		}
	}
	if st.Background || st.Coprocess {
		return fmt.Errorf("a background job")
	}
	switch c := st.Cmd.(type) {
	case *syntax.CallExpr:
		if len(c.Assigns) > 0 {
			return fmt.Errorf("an assignment")
		}
		var ws []string
		for i, w := range c.Args {
			v, err := literal(w, i == 0)
			if err != nil {
				return err
			}
			ws = append(ws, v)
		}
		*calls = append(*calls, ws)
		return nil
	case *syntax.DeclClause:
		// export NAME=value: the words as export sees them.
		ws := []string{c.Variant.Value}
		for _, a := range c.Args {
			switch {
			case a.Array != nil || a.Index != nil || a.Append:
				return fmt.Errorf("an array or an append in %s", c.Variant.Value)
			case a.Naked && a.Name == nil:
				v, err := literal(a.Value, false)
				if err != nil {
					return err
				}
				ws = append(ws, v)
			case a.Naked:
				ws = append(ws, a.Name.Value)
			default:
				v := ""
				if a.Value != nil {
					var err error
					if v, err = literal(a.Value, false); err != nil {
						return err
					}
				}
				ws = append(ws, a.Name.Value+"="+v)
			}
		}
		*calls = append(*calls, ws)
		return nil
	case *syntax.BinaryCmd:
		if err := stmt(c.X, calls); err != nil {
			return err
		}
		return stmt(c.Y, calls)
	}
	return fmt.Errorf("a %T", st.Cmd)
}

func literal(w *syntax.Word, first bool) (string, error) {
	var b strings.Builder
	for i, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			v := p.Value
			if i == 0 && strings.HasPrefix(v, "=") || strings.ContainsAny(v, "*?[{!^") {
				return "", fmt.Errorf("an expansion in %q", v)
			}
			if i == 0 && strings.HasPrefix(v, "~") && !strings.HasPrefix(v, "~/") && v != "~" {
				return "", fmt.Errorf("a tilde expansion in %q", v)
			}
			for j := 0; j < len(v); j++ {
				if v[j] == '\\' && j+1 < len(v) {
					j++
				}
				b.WriteByte(v[j])
			}
		case *syntax.SglQuoted:
			if !p.Dollar {
				b.WriteString(p.Value)
				break
			}
			s, err := strconv.Unquote(`"` + strings.NewReplacer(`"`, `\"`, `\'`, `'`).Replace(p.Value) + `"`)
			if err != nil {
				return "", fmt.Errorf("$'%s': %v", p.Value, err)
			}
			b.WriteString(s)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return "", fmt.Errorf("a %T in double quotes", q)
				}
				if strings.Contains(l.Value, "!") {
					return "", fmt.Errorf("a history expansion in %q", l.Value)
				}
				b.WriteString(strings.NewReplacer(`\\`, `\`, `\"`, `"`, `\$`, `$`, "\\`", "`").Replace(l.Value))
			}
		default:
			return "", fmt.Errorf("a %T", p)
		}
	}
	if first && syntax.IsKeyword(b.String()) && len(w.Parts) == 1 {
		if _, ok := w.Parts[0].(*syntax.Lit); ok {
			return "", fmt.Errorf("a reserved word %q", b.String())
		}
	}
	return b.String(), nil
}
