package runctx

import (
	"hash/fnv"
	"strings"
)

// Words splits a command line into its words as a shell would, quotes
// removed, without expanding anything. simple is false for a line that is
// more than one command (; & | && ||, a subshell or group, a redirection
// counts as part of its command), or that Words cannot read (an open
// quote); words then holds what was read of the first command.
func Words(line string) (words []string, simple bool) {
	var w strings.Builder
	in := false // inside a word
	flush := func() {
		if in {
			words = append(words, w.String())
			w.Reset()
			in = false
		}
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ' || c == '\t':
			flush()
		case c == '>' || c == '<' || c == '&' && i+1 < len(line) && line[i+1] == '>':
			// A redirection: the file it names is not a word of the
			// command (nor the descriptor before it, 2>).
			if in && strings.Trim(w.String(), "0123456789") == "" {
				w.Reset()
				in = false
			}
			flush()
			for i+1 < len(line) && strings.IndexByte("<>&|-", line[i+1]) >= 0 {
				i++
			}
			for i+1 < len(line) && (line[i+1] == ' ' || line[i+1] == '\t') {
				i++
			}
			for i+1 < len(line) && strings.IndexByte(" \t\n;&|()", line[i+1]) < 0 {
				i++
			}
		case c == '\n' || c == ';' || c == '&' || c == '|' || c == '(' || c == ')' || c == '`':
			flush()
			// One command and a final ; or & (or newline) is still one.
			return words, (c == ';' || c == '&' || c == '\n') && strings.TrimSpace(line[i+1:]) == ""

		case c == '\\':
			in = true
			if i+1 < len(line) {
				i++
				if line[i] != '\n' {
					w.WriteByte(line[i])
				}
			}
		case c == '\'':
			j := strings.IndexByte(line[i+1:], '\'')
			if j < 0 {
				flush()
				return words, false
			}
			in = true
			w.WriteString(line[i+1 : i+1+j])
			i += 1 + j
		case c == '"':
			j := i + 1
			for ; j < len(line) && line[j] != '"'; j++ {
				if line[j] == '\\' && j+1 < len(line) && strings.IndexByte("\"\\$`\n", line[j+1]) >= 0 {
					j++
				}
				w.WriteByte(line[j])
			}
			if j >= len(line) {
				w.Reset()
				flush()
				return words, false
			}
			in = true
			i = j
		case c == '$' && i+1 < len(line) && line[i+1] == '(':
			flush()
			return words, false
		default:
			in = true
			w.WriteByte(c)
		}
	}
	flush()
	return words, true
}

// wrappers run the command that follows them: the key skips them.
var wrappers = map[string]bool{"sudo": true, "env": true, "command": true, "builtin": true, "exec": true,
	"nohup": true, "time": true, "nice": true, "doas": true}

// Program returns the index in words of the program a command runs, past
// assignments (NAME=value) and wrappers (sudo, env, time… with their
// options), or -1.
func Program(words []string) int {
	for i := 0; i < len(words); i++ {
		w := words[i]
		if isAssignment(w) {
			continue
		}
		if wrappers[w] {
			for i+1 < len(words) && strings.HasPrefix(words[i+1], "-") {
				i++
			}
			continue
		}
		return i
	}
	return -1
}

func isAssignment(w string) bool {
	eq := strings.IndexByte(w, '=')
	if eq <= 0 {
		return false
	}
	for i := 0; i < eq; i++ {
		c := w[i]
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

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
