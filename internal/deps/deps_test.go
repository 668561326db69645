// Package deps holds a test that keeps hookd's packages layered: imports
// flow one way (scripts → shellinit; spool, redact → agent → history; …),
// in the spirit of Go's own go/build deps_test.go.
package deps

import (
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/hookd/hookd/"

// allowed lists, for each package, the hookd packages it may import. Every
// package has a row (TestLayering fails for one that has none), so that a
// new package states its place. The flow: scripts → shellinit; the shells'
// spools and the capturers' outbox → ingest → history, run by agent;
// history + outbox → recall → suggest (with analyze) and, next, the LLM
// half; cmd/hookd wires them and nothing imports it.
var allowed = map[string][]string{
	// Leaves: formats, pure libraries, the file layout.
	"scripts":                     {},
	"internal/sanitize":           {},
	"internal/redact":             {},
	"internal/recording/spool":    {},
	"internal/recording/runctx":   {},
	"internal/textdiff":           {},
	"capture":                     {},
	"internal/config":             {},
	"internal/paths":              {},
	"internal/recording/histfile": {},
	"history":                     {},
	"analyze":                     {"capture"},
	"internal/recording/proxy":    {},
	"internal/fix/offer":          {},
	"internal/ai/promptblock":     {},
	"internal/ai/render":          {"internal/sanitize"},
	"cmd/hookd/complete":          {"internal/sanitize"},
	"internal/ai/llm":             {},
	"internal/ai/template":        {},
	"internal/ai/frontmatter":     {},
	"internal/ai/skill":           {"internal/config", "internal/ai/frontmatter"},
	// Fixes learned from the user's own history: pure, on word lists.
	"analyze/learn":     {},
	"internal/ai/trust": {},
	// Test servers speaking the providers' wire formats.
	"internal/ai/llm/llmtest": {},
	// analyze's own helpers.
	"analyze/probe":       {"analyze"},
	"analyze/analyzetest": {"analyze"},
	// Shell code and the recorders' side.
	"shellinit":                     {"scripts"},
	"internal/recording/outbox":     {"internal/recording/spool", "capture"},
	"internal/recording/scrollback": {"capture"},
	"internal/recording/recorder":   {"internal/recording/spool", "internal/recording/outbox", "capture", "shellinit"},
	// Ingestion and the agent.
	"internal/recording/ingest": {"history", "internal/recording/spool", "internal/recording/runctx", "internal/recording/outbox", "capture", "internal/redact", "internal/recording/histfile", "analyze/learn"},
	"internal/recording/agent":  {"internal/recording/ingest", "history"},
	// What hookd status reports.
	"internal/status": {"internal/recording/agent", "history", "internal/recording/outbox", "internal/paths", "internal/recording/spool"},
	// Reading back, and what is built on it.
	"internal/recording/recall": {"history", "internal/recording/outbox", "internal/recording/ingest", "internal/sanitize"},
	"internal/fix/suggest":      {"analyze", "internal/config", "history", "internal/fix/offer", "internal/recording/recall", "analyze/learn", "internal/fix/before"},
	// "It worked before": the last success of a command compared with its failure.
	"internal/fix/before": {"analyze", "history", "internal/recording/runctx"},
	"internal/ai/ask":     {"internal/ai/promptblock", "internal/ai/contextcmd", "history", "internal/recording/recall", "internal/redact", "internal/ai/llm", "internal/ai/skill", "internal/ai/template"},
	"internal/fix/aifix":  {"analyze", "internal/ai/promptblock", "internal/ai/llm", "internal/redact"},
	// Context the user controls: a project's .hookd.yml, its trust, the
	// settings a question is asked with, and the context commands run.
	"internal/ai/project":    {"internal/config", "internal/ai/trust", "internal/ai/skill", "internal/ai/contextcmd"},
	"internal/ai/contextcmd": {"internal/config", "internal/ai/promptblock"},
	// Chains: steps run with record, outputs passed on.
	"internal/ai/chain": {"internal/recording/recorder", "shellinit"},
	// Prompt files: lookup in the project's and the user's places,
	// `@file` and allowlisted ``!`cmd` `` expansion.
	"internal/ai/promptfile": {"internal/ai/frontmatter", "internal/ai/project"},
	// The CLI: flags, output and wiring, over every product package.
	"cmd/hookd": {"internal/recording/agent", "internal/fix/aifix", "analyze", "analyze/probe", "capture", "internal/config", "internal/recording/histfile", "history", "internal/recording/ingest",
		"internal/fix/offer", "internal/fix/before", "internal/textdiff", "internal/recording/outbox", "internal/paths", "internal/recording/proxy", "internal/recording/recall", "internal/recording/recorder", "internal/redact", "internal/sanitize", "internal/recording/scrollback", "shellinit",
		"internal/recording/spool", "internal/fix/suggest", "internal/ai/ask", "internal/ai/promptblock", "internal/ai/llm", "internal/status", "internal/ai/render", "analyze/learn",
		"internal/ai/trust", "internal/ai/project", "internal/ai/contextcmd", "internal/ai/skill", "internal/ai/template", "internal/ai/chain", "internal/ai/promptfile", "cmd/hookd/complete"},
	// Test helpers.
	"internal/shelltest": {},
	"internal/spooltest": {"history", "internal/recording/spool"},
	"internal/deps":      {},
}

func TestLayering(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", module+"...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		pkg := strings.TrimPrefix(f[0], module)
		if _, listed := allowed[pkg]; !listed {
			t.Errorf("%s has no row in allowed: say which hookd packages it may import", pkg)
		}
		ok := map[string]bool{}
		for _, a := range allowed[pkg] {
			ok[a] = true
		}
		for _, imp := range f[1:] {
			if !strings.HasPrefix(imp, module) {
				continue
			}
			dep := strings.TrimPrefix(imp, module)
			if dep == "cmd/hookd" {
				t.Errorf("%s imports cmd/hookd: nothing may", pkg)
				continue
			}
			if ok[dep] {
				continue
			}
			t.Errorf("%s imports %s, which the layering does not allow", pkg, dep)
		}
	}
}
