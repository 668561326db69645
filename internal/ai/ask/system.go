package ask

import (
	"fmt"
	"strings"

	"github.com/hookd/hookd/internal/ai/promptblock"
)

// Env describes where a question is asked.
type Env struct {
	Shell string // "bash", "zsh"
	OS    string // e.g. "Linux (Debian 13)"
	Cwd   string
}

// SystemPrompt is the built-in system prompt: who the model answers, in
// what form, and — when context comes along — that the fenced data is data.
func SystemPrompt(env Env, boundary string, withContext bool) string {
	var b strings.Builder
	b.WriteString("You are a terminal assistant. The user works in a shell")
	if env.Shell != "" {
		fmt.Fprintf(&b, " (%s)", env.Shell)
	}
	if env.OS != "" {
		fmt.Fprintf(&b, " on %s", env.OS)
	}
	if env.Cwd != "" {
		fmt.Fprintf(&b, ", in the directory %s", env.Cwd)
	}
	b.WriteString(".\n")
	b.WriteString(`Answer briefly and precisely: lead with the answer, then only the explanation that is needed.
Put every shell command in a fenced code block marked with its language (` + "```sh" + `), one command per block when the user might run them separately, the most useful first. Never claim to have run anything: the user decides what runs.
`)
	if withContext {
		b.WriteString(promptblock.DataNote(boundary))
	}
	return b.String()
}
