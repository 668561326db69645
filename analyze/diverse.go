package analyze

import (
	"path"
	"strings"

	"github.com/hookd/hookd/internal/shellwords"
)

// Alternatives that count: when the first fix is wrong, a second that is
// the same fix spelled another way (pip3 for pip, the same pull with
// --rebase, a stash around it) rarely helps; one from another family of
// cause (the virtualenv is not active, a Debian package instead of pip,
// commit instead of stash, the remote rewritten on purpose) may. shown
// picks the fixes offered: the best one first, always (one that is not
// an alternative, when there is one); then, for each further place, the
// most confident fix of a family not shown yet, when it is close enough
// to the best (FixMargin), or is an alternative a rule added for this
// (Fix.alternative) likely enough on its own (altFloor); failing that,
// the most confident spelling close enough to the best. At most
// MaxFixes.

// altFloor is the confidence from which an alternative of another family
// of cause is shown, however far below the best.
const altFloor = 0.45

// guessMargin is how far below the best fix a far guess at a mistyped name
// (Fix.guess) may be and still be shown.
const guessMargin = 0.1

// shown picks, from fixes sorted best first, the ones offered, in order.
func shown(fixes []Fix) []Fix {
	if len(fixes) == 0 {
		return nil
	}
	acts := make([][][]string, len(fixes))
	first := -1
	for i, f := range fixes {
		acts[i] = action(f.Command)
		if first < 0 && !f.alternative {
			first = i
		}
	}
	if first < 0 {
		first = 0
	}
	best := fixes[first].Confidence
	out := []int{first}
	used := make([]bool, len(fixes))
	used[first] = true
	for len(out) < MaxFixes {
		next := -1
		for i := range fixes {
			if used[i] {
				continue
			}
			close := fixes[i].Confidence >= best-FixMargin
			if fixes[i].guess && fixes[i].Confidence < best-guessMargin {
				continue // a far guess well below the best is noise
			}
			fresh := true
			for _, j := range out {
				if spelling(acts[i], acts[j]) {
					fresh = false
					break
				}
			}
			if fresh && (close || fixes[i].alternative && fixes[i].Confidence >= altFloor) {
				next = i
				break
			}
			if !fresh && close && next == -1 {
				next = -2 - i // a spelling, if nothing fresh comes
			}
		}
		if next == -1 {
			break
		}
		if next < -1 {
			next = -2 - next
		}
		used[next] = true
		out = append(out, next)
	}
	res := make([]Fix, len(out))
	for k, i := range out {
		res[k] = fixes[i]
	}
	return res
}

// meaningful are the options that change what a command does, not how:
// kept in an action (the others are dropped), under one name.
var meaningful = map[string]string{"-f": "--force", "--force": "--force", "--force-with-lease": "--force",
	"--force-if-includes": "--force", "--hard": "--hard", "--cached": "--cached", "--global": "--global",
	"--system": "--system", "-D": "-D"}

// action is what a command does, for comparing fixes: for each simple
// command (split at &&, ||, ;, |), the program with common aliases folded
// (python3 → python, pip3 and python -m pip → pip, apt-get → apt, bash →
// sh) and its words that are not options, but for the few options that
// change what it does (meaningful); assignments and wrappers (sudo, env,
// timeout…, with their options: shellwords.Program) dropped.
func action(cmd string) [][]string {
	var out [][]string
	for _, words := range shellwords.Commands(cmd, "bash") {
		p := shellwords.Program(words)
		if p < 0 {
			continue
		}
		words = words[p:]
		prog := foldProgram(path.Base(words[0]))
		rest := words[1:]
		if prog == "python" && len(rest) >= 2 && rest[0] == "-m" {
			prog, rest = foldProgram(rest[1]), rest[2:]
		}
		a := []string{prog}
		for _, w := range rest {
			if !strings.HasPrefix(w, "-") {
				a = append(a, w)
			} else if m, ok := meaningful[w]; ok {
				a = append(a, m)
			}
		}
		out = append(out, a)
	}
	return out
}

// foldProgram folds the names of one program.
func foldProgram(p string) string {
	switch {
	case p == "python" || p == "python3" || strings.HasPrefix(p, "python3."):
		return "python"
	case p == "pip3" || strings.HasPrefix(p, "pip3."):
		return "pip"
	case p == "apt-get":
		return "apt"
	case p == "bash" || p == "dash" || p == "zsh":
		return "sh"
	}
	return p
}

// spelling reports whether two actions are one fix spelled two ways: the
// same, or one's commands all among the other's, in order (the same fix
// with a stash around it, or the failed command run again after it).
func spelling(a, b [][]string) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	if len(a) == 0 {
		return len(b) == 0
	}
	j := 0
	for _, c := range b {
		if j < len(a) && sameAction(a[j], c) {
			j++
		}
	}
	return j == len(a)
}

func sameAction(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
