// Package learn finds the fixes a user makes by hand: a failed command
// followed, within a few commands of the same session, by a successful close
// edit of it (same program; a word or two changed, added or removed). It
// turns such a pair into a generalised Edit ("deploy: replace --prod with
// --production") that Apply can make to a later failure of the same program
// (deploy --prod y → deploy --production y). It is pure: the caller reads
// the commands and stores the edits (packages ingest, history and suggest).
//
// Commands are split into words by a real shell parser (mvdan.cc/sh); only
// a simple command (no pipeline, list or compound command) is learned from
// or edited. Words are compared by their value when they are literal
// ('x', "x" and x are the same word) and by their text otherwise; an edit
// puts in the words exactly as the user typed them.
package learn

import (
	"strings"

	"github.com/hookd/hookd/internal/shellwords"
	"mvdan.cc/sh/v3/syntax"
)

// Window is how many commands after a failure are looked at for its fix.
const Window = 3

// maxWords is how many words an edit may remove and put in (each).
const maxWords = 2

// maxLen bounds the command lines learned from.
const maxLen = 1000

// Kinds of Edit.
const (
	Replace = "replace" // From is replaced with To
	Add     = "add"     // To is put in, after After (or the program), or at the end
	Remove  = "remove"  // From is taken out
)

// Edit is a generalised fix: what to change in the arguments of Program.
// From and To are words as the user typed them, separated by spaces.
type Edit struct {
	Program string
	Kind    string
	From    string // the words replaced or removed ("" for Add)
	To      string // the words put in ("" for Remove)
	// After is, for Add, the word that the new words followed ("": the
	// program itself); AtEnd says they were added at the end of the line.
	// When After is not in a later command, words added at the end are
	// still added at its end.
	After string
	AtEnd bool
}

// Describe says what e does, in a few words.
func (e Edit) Describe() string {
	switch e.Kind {
	case Replace:
		return "replace `" + e.From + "` with `" + e.To + "`"
	case Remove:
		return "remove `" + e.From + "`"
	case Add:
		switch {
		case e.After != "":
			s := "add `" + e.To + "` after `" + e.After + "`"
			if e.AtEnd {
				s += " (or at the end)"
			}
			return s
		case e.AtEnd:
			return "add `" + e.To + "` at the end"
		default:
			return "add `" + e.To + "` after `" + e.Program + "`"
		}
	}
	return e.Kind
}

// word is one word of a command line: where it is and what it says.
type word struct {
	start, end int    // byte offsets in the line
	text       string // as typed
	key        string // its value when literal, else "\x00" + text
}

// line is a simple command split into words.
type line struct {
	src   string
	words []word
	prog  int // index of the program's word
}

// prefixes are the words that run the next word as the program.
var prefixes = map[string]bool{"sudo": true, "doas": true, "env": true, "command": true, "nohup": true, "nice": true}

// ignored are programs whose failures say nothing about their arguments
// worth learning, or that are hookd's own.
var ignored = map[string]bool{"echo": true, "printf": true, "true": true, "false": true, "test": true, "[": true,
	"[[": true, "exit": true, "return": true, "fix": true, "history": true, "fc": true}

// parse splits a simple command into words; ok is false for anything else
// (a pipeline, a list, a compound command, a line that does not parse) and
// for a program that is not a literal word.
func parse(src string) (l line, ok bool) {
	if len(src) > maxLen || strings.ContainsAny(src, "\n\x00") {
		return l, false
	}
	f, err := shellwords.Parse(src, "bash")
	if err != nil || len(f.Stmts) != 1 {
		return l, false
	}
	st := f.Stmts[0]
	call, isCall := st.Cmd.(*syntax.CallExpr)
	if !isCall || st.Background || st.Coprocess || st.Negated || len(call.Args) == 0 {
		return l, false
	}
	ws, ok := shellwords.CallWords(call, src)
	if !ok {
		return l, false
	}
	l.src = src
	for _, w := range ws {
		if w.Start >= w.End {
			return l, false
		}
		l.words = append(l.words, word{start: w.Start, end: w.End, text: w.Raw, key: wordKey(w)})
	}
	l.prog = 0
	for l.prog < len(l.words)-1 && prefixes[l.words[l.prog].key] {
		l.prog++
	}
	p := l.words[l.prog].key
	if p == "" || p[0] == 0 || p[0] == '-' {
		return l, false
	}
	return l, true
}

// wordKey is a word's value when it is literal (plain, quoted, or both)
// and typed without escapes (a backslash, $'…'), else its text marked as
// such: learned edits match words as typed.
func wordKey(w shellwords.Word) string {
	if !w.Literal || w.Escaped {
		return "\x00" + w.Raw
	}
	return w.Value
}

func (l line) program() string { return l.words[l.prog].key }
func (l line) args() []word    { return l.words[l.prog+1:] }

// prefix is what comes before the program (assignments, sudo), with its
// spaces made single.
func (l line) prefix() string {
	return strings.Join(strings.Fields(l.src[:l.words[l.prog].start]), " ")
}

func keys(ws []word) []string {
	k := make([]string, len(ws))
	for i, w := range ws {
		k[i] = w.key
	}
	return k
}

func texts(ws []word) string {
	t := make([]string, len(ws))
	for i, w := range ws {
		t[i] = w.text
	}
	return strings.Join(t, " ")
}

// Program returns the program a simple command runs (after assignments and
// sudo), or "" when cmd is not a simple command.
func Program(cmd string) string {
	l, ok := parse(cmd)
	if !ok {
		return ""
	}
	return l.program()
}

// helpWords are arguments that ask a program about itself: a command that
// adds them is reading, not fixing.
var helpWords = map[string]bool{"--help": true, "-h": true, "help": true, "--version": true, "-V": true, "version": true, "-help": true, "--usage": true}

// Diff returns the edit that turns failed into fixed, when fixed is a close
// edit of it: the same program, run the same way (the same assignments and
// sudo before it), with at most two adjacent words changed, added or
// removed. A line holding a redacted secret is never learned from.
func Diff(failed, fixed string) (Edit, bool) {
	if strings.Contains(failed, "[REDACTED]") || strings.Contains(fixed, "[REDACTED]") ||
		strings.TrimSpace(failed) == strings.TrimSpace(fixed) {
		return Edit{}, false
	}
	a, ok1 := parse(failed)
	b, ok2 := parse(fixed)
	if !ok1 || !ok2 || a.program() != b.program() || ignored[a.program()] || a.prefix() != b.prefix() {
		return Edit{}, false
	}
	x, y := a.args(), b.args()
	kx, ky := keys(x), keys(y)
	p := 0
	for p < len(kx) && p < len(ky) && kx[p] == ky[p] {
		p++
	}
	s := 0
	for s < len(kx)-p && s < len(ky)-p && kx[len(kx)-1-s] == ky[len(ky)-1-s] {
		s++
	}
	from, to := x[p:len(x)-s], y[p:len(y)-s]
	n := max(len(from), len(to))
	if n == 0 || n > maxWords || n == maxWords && p+s == 0 && len(from) > 0 && len(to) > 0 {
		// Nothing changed but quoting; too much changed; or words
		// replaced with nothing left in common (a different call).
		return Edit{}, false
	}
	for _, w := range to {
		if helpWords[w.key] {
			return Edit{}, false
		}
	}
	e := Edit{Program: a.program(), From: texts(from), To: texts(to)}
	switch {
	case len(from) == 0:
		e.Kind = Add
		if p > 0 {
			e.After = y[p-1].text
		}
		e.AtEnd = s == 0
	case len(to) == 0:
		e.Kind = Remove
	default:
		e.Kind = Replace
	}
	return e, true
}

// wordsOf splits the words of an edit back into keys.
func wordsOf(s string) ([]string, bool) {
	if s == "" {
		return nil, true
	}
	l, ok := parse("x " + s)
	if !ok || l.prog != 0 {
		return nil, false
	}
	return keys(l.args()), true
}

// find returns where the words with keys k first occur in ws, or -1.
func find(ws []word, k []string) int {
	for i := 0; i+len(k) <= len(ws); i++ {
		match := true
		for j := range k {
			if ws[i+j].key != k[j] {
				match = false
				break
			}
		}
		if match {
			return i
		}
	}
	return -1
}

// Apply makes the edit to failed, a simple command running e.Program, and
// returns the result; ok is false when the edit does not apply (another
// program, the words to change are not there, the words to add already
// are). Everything Apply does not change is kept as it was typed.
func Apply(e Edit, failed string) (fixed string, ok bool) {
	l, ok := parse(failed)
	if !ok || l.program() != e.Program {
		return "", false
	}
	args := l.args()
	from, ok1 := wordsOf(e.From)
	to, ok2 := wordsOf(e.To)
	if !ok1 || !ok2 {
		return "", false
	}
	src := l.src
	switch e.Kind {
	case Replace, Remove:
		if len(from) == 0 {
			return "", false
		}
		i := find(args, from)
		if i < 0 {
			return "", false
		}
		start, end := args[i].start, args[i+len(from)-1].end
		if e.Kind == Replace {
			fixed = src[:start] + e.To + src[end:]
		} else {
			left, right := strings.TrimRight(src[:start], " \t"), src[end:]
			if right != "" && right[0] != ' ' && right[0] != '\t' {
				right = " " + right
			}
			fixed = left + right
		}
	case Add:
		if len(to) == 0 || find(args, to) >= 0 {
			return "", false
		}
		pos := -1
		if e.After == "" && !e.AtEnd {
			pos = l.words[l.prog].end
		} else if e.After != "" {
			if k, ok := wordsOf(e.After); ok && len(k) == 1 {
				if i := find(l.words[l.prog:], k); i >= 0 {
					pos = l.words[l.prog+i].end
				}
			}
		}
		if pos < 0 && e.AtEnd {
			pos = l.words[len(l.words)-1].end
		}
		if pos < 0 {
			return "", false
		}
		fixed = src[:pos] + " " + e.To + src[pos:]
	default:
		return "", false
	}
	fixed = strings.TrimSpace(fixed)
	if fixed == strings.TrimSpace(failed) {
		return "", false
	}
	if _, ok := parse(fixed); !ok {
		return "", false
	}
	return fixed, true
}

// Command is one command of a session, in the order it ran.
type Command struct {
	ID   int64
	Text string
	Exit int
}

// Pair is a failed command, the command that fixed it, and the edit
// between them.
type Pair struct {
	Failed, Fixed Command
	Edit          Edit
}

// failure reports an exit status that a changed argument may fix: not
// success, an interruption (Ctrl-C, SIGPIPE, a suspension), nor a program
// that could not be found or run (which its arguments do not change).
func failure(code int) bool {
	switch code {
	case 0, 126, 127, 130, 141, 146, 147, 148:
		return false
	}
	return true
}

// Scan finds the fixes in cmds, the commands of one session in the order
// they ran. A failed command is paired with the first successful command
// of the same program among the Window after it, when that is a close edit
// of it (Diff); commands of other programs in between (ls, cd, cat) and
// calls for help are passed over, and the search ends when the same
// command runs again as it was. A pair is not a fix when the failed
// command, as it was, then succeeded within Window commands of the "fix"
// (that was a step before it, like git pull before git push): its failed
// command's id is returned in vetoed, so that a pair learned before the
// rest of the session was seen can be taken back.
func Scan(cmds []Command) (pairs []Pair, vetoed []int64) {
	for i, f := range cmds {
		if !failure(f.Exit) || strings.Contains(f.Text, "[REDACTED]") {
			continue
		}
		prog := Program(f.Text)
		if prog == "" || ignored[prog] {
			continue
		}
		for j := i + 1; j <= i+Window && j < len(cmds); j++ {
			c := cmds[j]
			if strings.TrimSpace(c.Text) == strings.TrimSpace(f.Text) {
				break
			}
			if c.Exit != 0 || Program(c.Text) != prog {
				continue
			}
			e, ok := Diff(f.Text, c.Text)
			if !ok {
				if asksHelp(c.Text) {
					continue
				}
				break
			}
			veto := false
			for k := j + 1; k <= j+Window && k < len(cmds); k++ {
				if cmds[k].Exit == 0 && strings.TrimSpace(cmds[k].Text) == strings.TrimSpace(f.Text) {
					veto = true
					break
				}
			}
			if veto {
				vetoed = append(vetoed, f.ID)
			} else {
				pairs = append(pairs, Pair{Failed: f, Fixed: c, Edit: e})
			}
			break
		}
	}
	return pairs, vetoed
}

// asksHelp reports a command that asks its program for help or its version.
func asksHelp(cmd string) bool {
	l, ok := parse(cmd)
	if !ok {
		return false
	}
	for _, w := range l.args() {
		if helpWords[w.key] {
			return true
		}
	}
	return false
}
