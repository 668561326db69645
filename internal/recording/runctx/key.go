package runctx

import (
	"hash/fnv"
	"strings"

	"github.com/hookd/hookd/internal/shellwords"
)

// Words splits a command line into its words as a shell would, quotes
// removed, without expanding anything (shellwords.Line). simple is false
// for a line that is more than one command (; & | && ||, a subshell or
// group; a redirection counts as part of its command), that substitutes
// a command, or that does not parse; words then holds those of its first
// command.
func Words(line string) (words []string, simple bool) {
	ws, simple := shellwords.Line(line)
	if len(ws) == 0 {
		return nil, simple
	}
	return shellwords.Values(ws), simple
}

// Program returns the index in words of the program a command runs, past
// assignments (NAME=value) and wrappers (sudo -u root, nice -n 10, env,
// timeout -s KILL 30s… with their options and operands), or -1.
func Program(words []string) int { return shellwords.Program(words) }

// Key is what commands that are "the same command" share: the program as
// typed and its first argument that is not an option (make test, git
// push, python app.py, ./run.sh), so that a failure finds the runs of the
// same program and subcommand with other arguments; a line of several
// commands is its own key (only the same line matches). "" for a line
// with no program.
func Key(line string) string {
	words, simple := Words(line)
	if !simple {
		return "\x00" + strings.Join(strings.Fields(line), " ")
	}
	p := Program(words)
	if p < 0 {
		return ""
	}
	k := words[p]
	for _, w := range words[p+1:] {
		if !strings.HasPrefix(w, "-") {
			return k + " " + w
		}
	}
	return k
}

// KeyHash is Key as the number the history indexes (0 for no key).
func KeyHash(line string) int64 {
	k := Key(line)
	if k == "" {
		return 0
	}
	h := fnv.New64a()
	h.Write([]byte(k))
	return int64(h.Sum64() >> 1)
}
