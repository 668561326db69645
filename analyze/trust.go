package analyze

import (
	"path/filepath"
	"strings"

	"github.com/hookd/hookd/internal/shellwords"
	"mvdan.cc/sh/v3/syntax"
)

// This file vets fixes before they are shown: where their text came from
// (the output is untrusted), which part of a compound line they change, and
// whether they hold a redacted secret.

// RedactionMarker is the text that package redact puts in place of a secret
// (redact.Marker; analyze imports no hookd package, and a test keeps the
// two equal). A command holding it cannot run as shown.
const RedactionMarker = "[REDACTED]"

// untrustedPenalty is how much less confident a fix taken from the output
// is than the rule that found it says; it also always ranks below the best
// fix the rules built themselves.
const untrustedPenalty = 0.15

// oneWordCorrection reports whether cmd is the failed command line with
// exactly one word, a tool's subcommand, replaced by a known subcommand of
// that tool within a typo's distance (git psuh → git push), an option by
// an option within a typo's distance, its value kept (ls --colr=auto → ls
// --color=auto), or by the same word with one more dash (-amend →
// --amend), everything else identical.
func (f *Failure) oneWordCorrection(cmd string) bool {
	line := f.Input.Command
	for i := range f.Calls {
		c := &f.Calls[i]
		if c.Nested {
			continue
		}
		for j := 1; j < len(c.Args); j++ {
			s, e := c.start[j], c.end[j]
			if !strings.HasPrefix(cmd, line[:s]) || !strings.HasSuffix(cmd, line[e:]) || len(cmd) < s+len(line)-e {
				continue
			}
			word, typed := cmd[s:len(cmd)-(len(line)-e)], c.Args[j]
			if word == "-"+c.Raw[j] && strings.HasPrefix(typed, "-") {
				return true
			}
			if optionTypo(c.Raw[j], word) {
				return true
			}
			if key, sc, idx := subcommandSlot(f); sc == c && j == idx && contains(subcommands.get()[key], word) && distance(typed, word) <= 2 && distance(typed, word) < len(word)/2+1 {
				return true
			}
		}
	}
	return false
}

// optionTypo reports whether word is the option typed with its name
// corrected within a typo's distance: both plain options (dashes, then
// letters, digits, '-' and '_'), the same "=value" after them.
func optionTypo(typed, word string) bool {
	tn, tv, _ := strings.Cut(typed, "=")
	wn, wv, _ := strings.Cut(word, "=")
	if tv != wv || !plainOption(tn) || !plainOption(wn) || tn == wn {
		return false
	}
	a, b := strings.TrimLeft(tn, "-"), strings.TrimLeft(wn, "-")
	return distance(a, b) <= maxTypos(len(a)) && len(a) >= 2
}

// plainOption reports whether s is one or two dashes and a name.
func plainOption(s string) bool {
	n := strings.TrimPrefix(strings.TrimPrefix(s, "-"), "-")
	if n == s || n == "" || !isOptionByte(n[0]) {
		return false
	}
	for i := 0; i < len(n); i++ {
		if b := n[i]; !isOptionByte(b) && (b < '0' || b > '9') && b != '-' && b != '_' {
			return false
		}
	}
	return true
}

// demoteUntrusted lowers the confidence of fixes taken from the output so
// that every fix the rules built themselves ranks before them.
func demoteUntrusted(fixes []Fix) {
	best := -1.0
	for _, fx := range fixes {
		if !fx.Untrusted && !fx.alternative && fx.Confidence > best {
			best = fx.Confidence
		}
	}
	for i := range fixes {
		if !fixes[i].Untrusted {
			continue
		}
		c := fixes[i].Confidence - untrustedPenalty
		if best >= 0 && c >= best {
			c = best - 0.01
		}
		fixes[i].Confidence = clamp(c)
	}
}

// markIncomplete marks a fix holding a redacted secret as not runnable as
// shown.
func markIncomplete(fx *Fix) {
	if !strings.Contains(fx.Command, RedactionMarker) {
		return
	}
	fx.Incomplete = true
	fx.Missing = "The command holds a secret that was redacted before it was stored: replace " + RedactionMarker + " with it before running the command."
	if !strings.Contains(fx.Explanation, RedactionMarker) {
		fx.Explanation = oneLine(strings.TrimSuffix(fx.Explanation, ".") + "; replace " + RedactionMarker + " with the secret first.")
	}
}

// shape is how a command line is built of statements: where its top-level
// parts start (the statements of the line and the operands of && and ||,
// not the commands of a pipeline), and the spans of every statement in a
// list at any depth (in subshells, groups, loops).
type shape struct {
	tops  []int
	stmts []stmtSpan
}

type stmtSpan struct {
	start, end int
	name       string // the command's name, for a simple command
}

func lineShape(cmd, shell string) shape {
	lang := syntax.LangBash
	if shell == "zsh" {
		lang = syntax.LangZsh
	}
	file, err := syntax.NewParser(syntax.Variant(lang)).Parse(strings.NewReader(cmd), "")
	if err != nil {
		return shape{}
	}
	var sh shape
	var top func(s *syntax.Stmt)
	top = func(s *syntax.Stmt) {
		if b, ok := s.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.AndStmt || b.Op == syntax.OrStmt) && !s.Negated && len(s.Redirs) == 0 {
			top(b.X)
			top(b.Y)
			return
		}
		sh.tops = append(sh.tops, int(s.Pos().Offset()))
	}
	for _, s := range file.Stmts {
		top(s)
	}
	piped := map[*syntax.Stmt]bool{}
	syntax.Walk(file, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.BinaryCmd:
			if n.Op == syntax.Pipe || n.Op == syntax.PipeAll {
				piped[n.X], piped[n.Y] = true, true
			}
		case *syntax.Stmt:
			if piped[n] {
				break
			}
			sp := stmtSpan{start: int(n.Pos().Offset()), end: int(n.End().Offset())}
			if ce, ok := n.Cmd.(*syntax.CallExpr); ok && len(ce.Args) > 0 {
				if ws, ok := shellwords.CallWords(ce, cmd); ok && len(ws) > 0 {
					args := shellwords.Values(ws)
					sp.name = filepath.Base(args[shellwords.Unwrap(args).Prog])
				}
			}
			sh.stmts = append(sh.stmts, sp)
		}
		return true
	})
	return sh
}

// failingPart trims a fix of a compound line to what needs to run again.
// The top-level parts before the one the fix changes have already run, and
// what they did to the shell (cd, export, source) still holds: they are
// dropped, so that the fix of "rm x; gti status" is "git status". The parts
// after it are kept. It also reports whether what is left still runs again,
// unchanged, a statement that already ran (one inside a subshell or a
// group, which cannot be split off): the fix is then at least medium.
func (sh shape) failingPart(line, fix string) (string, bool) {
	p := 0
	for p < len(line) && p < len(fix) && line[p] == fix[p] {
		p++
	}
	from := 0
	for _, s := range sh.tops {
		if s <= p && s > from && s <= len(fix) {
			from = s
		}
	}
	rerun := false
	for _, st := range sh.stmts {
		if st.start >= from && st.end < p && !harmless(st.name) {
			rerun = true
		}
	}
	if from == 0 {
		return fix, rerun
	}
	return strings.TrimSpace(fix[from:]), rerun
}

// harmless reports commands that change nothing when they run again.
func harmless(name string) bool {
	switch name {
	case "cd", "pushd", "popd", "export", "local", "set", "echo", "printf", "true", ":", "ls", "pwd", "test", "[", "source", ".", "cat", "sleep":
		return true
	}
	return false
}
