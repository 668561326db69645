package chain

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A run step's ${id.name} is inlined into its command line only where the
// shell's own parser shows the value will be data: a plain word (an
// argument, an assignment's value, a redirection's target, a for or case
// word) or a part of one inside "…" or '…'. There it is quoted for where it
// stands. Anywhere else the shell would read the value as code, whatever
// its quotes: a here-document's body, backticks (whose backslashes are
// processed before the quotes), arithmetic, a ${…} expansion, a comment, or
// the arguments of a command that runs its arguments as a script (eval,
// sh -c, su -c, ssh, watch). Check refuses those places, and the value must
// come in as an input (environment or stdin) instead.

// site is where one reference of a command line stands.
type site struct {
	quote   byte   // 0 (a plain word), '"' or '\'': the quotes it is in
	problem string // why it cannot be inlined there; "" when it can
	line    int    // its line in the command line, from 1
}

// shellSites parses a run step's command line with each reference replaced
// by a plain placeholder word and says, for each reference in order, where
// it stands. err is a command line the parser refused.
func shellSites(text string) ([]site, error) {
	refs := Refs(text)
	if len(refs) == 0 {
		return nil, nil
	}
	nonce := "HOOKDREF"
	for strings.Contains(text, nonce) {
		nonce += "X"
	}
	holder := func(i int) string { return nonce + strconv.Itoa(i) + "Z" }
	var b strings.Builder
	prev := 0
	for i, r := range refs {
		b.WriteString(text[prev:r.Start])
		b.WriteString(holder(i))
		prev = r.End
	}
	b.WriteString(text[prev:])
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(b.String()), "")
	if err != nil {
		return nil, err
	}
	sites := make([]site, len(refs))
	found := make([]bool, len(refs))
	// mark records the references in s (a Lit's or a SglQuoted's text).
	mark := func(s string, pos syntax.Pos, quote byte, problem string) {
		for i := range refs {
			k := strings.Index(s, holder(i))
			if k < 0 || found[i] {
				continue
			}
			found[i] = true
			p := problem
			if p == "" && k > 0 && s[k-1] == '\\' && quote != '\'' {
				p = "it follows a backslash"
			}
			sites[i] = site{quote: quote, problem: p, line: int(pos.Line()) + strings.Count(s[:k], "\n")}
		}
	}
	var stack []syntax.Node
	syntax.Walk(f, func(n syntax.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		switch x := n.(type) {
		case *syntax.Lit:
			quote, problem := placeOf(stack, false)
			mark(x.Value, x.Pos(), quote, problem)
		case *syntax.SglQuoted:
			quote, problem := placeOf(stack, true)
			if x.Dollar && problem == "" {
				problem = "it is inside $'…'"
			}
			mark(x.Value, x.Pos(), quote, problem)
		}
		stack = append(stack, n)
		return true
	})
	// What the walk did not meet is in a comment, or somewhere the
	// parser keeps no word.
	for i := range refs {
		if !found[i] {
			sites[i] = site{problem: "the shell does not read it as a word there (a comment?)", line: 1 + strings.Count(text[:refs[i].Start], "\n")}
		}
	}
	return sites, nil
}

// placeOf says what quotes a Lit (or, sgl, a '…' string) whose ancestors
// are stack stands in, or why a value cannot be inlined there.
func placeOf(stack []syntax.Node, sgl bool) (byte, string) {
	for j := len(stack) - 1; j >= 0; j-- {
		switch a := stack[j].(type) {
		case *syntax.CmdSubst:
			if a.Backquotes {
				return 0, "it is inside backticks"
			}
		case *syntax.ArithmExp, *syntax.ArithmCmd, *syntax.BinaryArithm, *syntax.UnaryArithm, *syntax.ParenArithm, *syntax.CStyleLoop, *syntax.LetClause:
			return 0, "it is inside arithmetic"
		case *syntax.ParamExp:
			return 0, "it is inside a ${…} expansion"
		case *syntax.TestClause:
			return 0, "it is inside [[ … ]]"
		case *syntax.Redirect:
			if a.Op == syntax.Hdoc || a.Op == syntax.DashHdoc {
				if j+1 < len(stack) && stack[j+1] == a.Word {
					return 0, "it is a here-document's delimiter"
				}
				return 0, "it is in a here-document's body"
			}
		case *syntax.CallExpr:
			if name := runsScript(a); name != "" {
				return 0, "it is an argument of " + name + ", which runs its arguments as shell code"
			}
		}
	}
	i := len(stack) - 1
	quote := byte(0)
	if sgl {
		quote = '\''
	}
	if i >= 0 {
		if dq, ok := stack[i].(*syntax.DblQuoted); ok {
			if dq.Dollar {
				return 0, "it is inside $\"…\""
			}
			quote = '"'
			i--
		}
	}
	if i < 1 {
		return 0, "the shell does not read it as a word there"
	}
	if _, ok := stack[i].(*syntax.Word); !ok {
		return 0, "the shell does not read it as a word there"
	}
	switch stack[i-1].(type) {
	case *syntax.CallExpr, *syntax.Assign, *syntax.WordIter, *syntax.CaseClause, *syntax.ArrayElem, *syntax.Redirect:
		return quote, ""
	}
	return 0, "the shell does not read it as a plain word there"
}

// shells are the interpreters that run a -c argument as a script.
var shells = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "mksh": true,
	"yash": true, "ash": true, "busybox": true, "fish": true, "csh": true, "tcsh": true}

// runsScript names the command of c when it runs its arguments as shell
// code: eval, a shell with -c, su/runuser -c, ssh (the remote shell joins
// and parses its arguments), watch; "" otherwise. Words that are not plain
// text are skipped: what is known suffices to refuse.
func runsScript(c *syntax.CallExpr) string {
	var words []string
	for _, w := range c.Args {
		words = append(words, w.Lit())
	}
	for i, w := range words {
		base, rest := filepath.Base(w), words[i+1:]
		switch {
		case w == "eval":
			return w
		case base == "ssh" || base == "watch":
			return base
		case (shells[base] || base == "su" || base == "runuser") && hasFlag(rest, 'c'):
			return base + " -c"
		case base == "sudo" && hasFlag(rest, 's'):
			return "sudo -s"
		}
	}
	return ""
}

// hasFlag reports whether words hold the short option c (alone or in a
// cluster such as -ec) or its long form --command.
func hasFlag(words []string, c byte) bool {
	for _, w := range words {
		if w == "--command" && c == 'c' {
			return true
		}
		if len(w) > 1 && w[0] == '-' && w[1] != '-' && strings.IndexByte(w[1:], c) >= 0 {
			return true
		}
	}
	return false
}

// shellProblems are the places in a run step's text where a reference
// cannot be inlined, as messages with their line.
func shellProblems(s *Step) []string {
	if s.Action != ActRun {
		return nil
	}
	refs := Refs(s.Text)
	if len(refs) == 0 {
		return nil
	}
	sites, err := shellSites(s.Text)
	if err != nil {
		return []string{fmt.Sprintf("%s cannot be placed safely: the command line does not parse (%v); pass the values as inputs (pass_as: {environment: {name: X}} or stdin)", refs[0], err)}
	}
	var out []string
	for i, st := range sites {
		if st.problem == "" {
			continue
		}
		out = append(out, fmt.Sprintf("%s on line %d of the command: %s, where the shell would run the value as code; pass it as an input instead: inputs: {v: {from: %q, pass_as: {environment: {name: V}}}} and use \"$V\" (or pass_as: stdin)",
			refs[i], st.line, st.problem, refs[i].String()))
	}
	return out
}
