package analyze

import (
	"strings"

	"github.com/hookd/hookd/internal/shellwords"
)

// A tool's subcommands and options, read from the completion data the
// system ships (bash-completion's, zsh's and fish's completion files), read as
// data and never run (issue 37). They add to what its manual page names;
// like the manual page, they are the system's files, not the failing
// command's output.

// Vocab is what a tool's completion files name: its long options (and the
// single-dash ones a zsh spec names, -Wall[…]) and its subcommands.
type Vocab struct {
	Options  []string
	Commands []string
}

// CompletionPaths are the files that may complete tool, in the order read:
// bash-completion's, then zsh's (its own functions, by directory, and the
// ones packages ship), then fish's.
func CompletionPaths(tool string, zshDirs []string) []string {
	if tool == "" || strings.ContainsAny(tool, "/ \x00") || strings.HasPrefix(tool, ".") {
		return nil
	}
	out := []string{"/usr/share/bash-completion/completions/" + tool}
	for _, d := range zshDirs {
		out = append(out, d+"/_"+tool)
	}
	for _, d := range FishCompletionDirs {
		out = append(out, d+"/"+tool+".fish")
	}
	return out
}

// FishCompletionDirs hold fish's completion files (fish ships some 900 in
// its own directory; packages add theirs to vendor_completions.d).
var FishCompletionDirs = []string{"/usr/share/fish/completions", "/usr/share/fish/vendor_completions.d"}

// ZshCompletionDirs are the directories of zsh's completion functions on a
// Debian-like system, beside its per-system directories under
// /usr/share/zsh/functions/Completion (listed by the caller).
var ZshCompletionDirs = []string{"/usr/share/zsh/vendor-completions", "/usr/share/zsh/site-functions", "/usr/local/share/zsh/site-functions"}

// ParseCompletion extracts a Vocab from a completion file's text: long
// options wherever written; subcommands from zsh's "name:description"
// pairs and bash-completion's literal word lists (compgen -W '…').
func ParseCompletion(text string) Vocab {
	var v Vocab
	seenO, seenC := map[string]bool{}, map[string]bool{}
	plain := strings.NewReplacer("{", " ", "}", " ", "\\", " ").Replace(text)
	for _, o := range scanOptions(plain) {
		if !strings.HasPrefix(o, "--") || len(o) < 4 || seenO[o] {
			continue
		}
		seenO[o] = true
		v.Options = append(v.Options, o)
	}
	// zsh: '-Wall[warn about everything]', an option written with one dash.
	for i := 0; i+2 < len(text); i++ {
		if text[i] != '\'' && text[i] != '"' || text[i+1] != '-' || !isOptionByte(text[i+2]) {
			continue
		}
		k := i + 2
		for k < len(text) && (isOptionByte(text[k]) || text[k] >= '0' && text[k] <= '9' || text[k] == '-') {
			k++
		}
		if k < len(text) && text[k] == '[' && k-i-2 >= 2 {
			if o := text[i+1 : k]; !seenO[o] {
				seenO[o] = true
				v.Options = append(v.Options, o)
			}
		}
	}
	addCmd := func(w string) {
		if len(w) >= 2 && isOptionByte(w[0]) && strings.Trim(w, "abcdefghijklmnopqrstuvwxyz0123456789-_") == "" && !seenC[w] {
			seenC[w] = true
			v.Commands = append(v.Commands, w)
		}
	}
	verbs := false   // inside a bash array of verbs: local -A VERBS=( … )
	fishSet := false // inside fish's set -l subcmds \ (a word a line)
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		if fishSet {
			fishSet = strings.HasSuffix(t, "\\")
			if w := strings.TrimSpace(strings.TrimSuffix(t, "\\")); !strings.HasPrefix(w, "#") {
				addCmd(w)
			}
		}
		if strings.HasPrefix(t, "complete ") || strings.HasPrefix(t, "set -l ") {
			fishSet = fishLine(t, strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t"), &v, seenO, addCmd)
		}
		// systemd's bash completions: local -A VERBS=(\n [STANDALONE]='status show' …)
		if i := strings.Index(t, "=("); i > 0 && strings.HasPrefix(t, "local -A ") {
			name := strings.ToUpper(t[len("local -A "):i])
			verbs = strings.Contains(name, "VERB") || strings.Contains(name, "COMMAND")
		} else if t == ")" {
			verbs = false
		} else if verbs && strings.HasPrefix(t, "[") {
			if _, v, ok := strings.Cut(t, "]="); ok && len(v) > 2 && (v[0] == '\'' || v[0] == '"') {
				if words, _, ok := strings.Cut(v[1:], v[:1]); ok && !strings.ContainsAny(words, "$`") {
					for _, w := range strings.Fields(words) {
						addCmd(w)
					}
				}
			}
		}
		// zsh: 'status:Show current time settings' (an array for _describe)
		if len(t) > 2 && (t[0] == '\'' || t[0] == '"') {
			if name, _, ok := strings.Cut(t[1:], ":"); ok && !strings.ContainsAny(name, " \t'\"\\") {
				addCmd(name)
			}
		}
		// bash-completion: compgen -W 'start stop status' / -W "…"
		for rest := line; ; {
			i := strings.Index(rest, "-W ")
			if i < 0 {
				break
			}
			rest = rest[i+3:]
			if rest == "" || rest[0] != '\'' && rest[0] != '"' {
				continue
			}
			words, _, ok := strings.Cut(rest[1:], rest[:1])
			if !ok || strings.ContainsAny(words, "$`") {
				continue
			}
			for _, w := range strings.Fields(words) {
				addCmd(w)
			}
		}
	}
	return v
}

// fishLine reads one line of a fish completion file: complete's -l NAME
// (--NAME), -o NAME (-NAME, gcc's -Wall) and, for the tool's first word
// (__fish_use_subcommand), -a's words; and a top-level set -l of
// subcommands (set -l commands 'attach-session attach', or a word a line
// after a backslash, which the caller then reads: it reports so).
func fishLine(t string, indented bool, v *Vocab, seenO map[string]bool, addCmd func(string)) bool {
	cont := strings.HasSuffix(t, "\\") // a list that goes on, a word a line
	words := shellwords.Fields(strings.TrimSuffix(t, "\\"))
	for i, w := range words {
		if strings.HasPrefix(w, "#") {
			words = words[:i] // a comment
			break
		}
	}
	if len(words) > 0 && words[0] == "set" {
		// Only a set at the top level, of plain words: a function's or a
		// condition's sets hold other things.
		if len(words) < 3 || indented || strings.ContainsAny(t, "($") {
			return false
		}
		name := strings.ToLower(words[2])
		if len(words) == 3 && cont {
			// set -l subcmds \ then a word a line: only a list named so.
			return strings.Contains(name, "cmd") || strings.Contains(name, "command") || strings.Contains(name, "verb")
		}
		for _, w := range words[3:] {
			for _, c := range strings.Fields(w) {
				if !strings.HasPrefix(c, "-") {
					addCmd(c)
				}
			}
		}
		return false
	}
	first := strings.Contains(t, "__fish_use_subcommand")
	for i := 1; i+1 < len(words); i++ {
		switch w := words[i+1]; words[i] {
		case "-l", "--long-option":
			if o := "--" + w; len(w) >= 2 && !seenO[o] {
				seenO[o] = true
				v.Options = append(v.Options, o)
			}
		case "-o", "--old-option":
			if o := "-" + w; len(w) >= 2 && !seenO[o] {
				seenO[o] = true
				v.Options = append(v.Options, o)
			}
		case "-a", "-xa", "-fa", "--arguments":
			if first && !strings.ContainsAny(w, "($") {
				for _, c := range strings.Fields(w) {
					addCmd(c)
				}
			}
		}
	}
	return false
}
