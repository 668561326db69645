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
	"scripts":     {},
	"sanitize":    {},
	"redact":      {},
	"spool":       {},
	"capture":     {},
	"config":      {},
	"paths":       {},
	"histfile":    {},
	"history":     {},
	"analyze":     {"capture"},
	"proxy":       {},
	"offer":       {},
	"ctxblock":    {},
	"answer":      {"sanitize"},
	"complete":    {"sanitize"},
	"llm":         {},
	"tmpl":        {},
	"frontmatter": {},
	"skill":       {"config", "frontmatter"},
	// Fixes learned from the user's own history: pure, on word lists.
	"learn": {},
	"trust": {},
	// Test servers speaking the providers' wire formats.
	"llm/llmtest": {},
	// analyze's own helpers.
	"analyze/probe":       {"analyze"},
	"analyze/analyzetest": {"analyze"},
	// Shell code and the recorders' side.
	"shellinit":  {"scripts"},
	"outbox":     {"spool", "capture"},
	"scrollback": {"capture"},
	"record":     {"spool", "outbox", "capture", "shellinit"},
	// Ingestion and the agent.
	"ingest": {"history", "spool", "outbox", "capture", "redact", "histfile", "learn"},
	"agent":  {"ingest", "history"},
	// What hookd status reports.
	"health": {"agent", "history", "outbox", "paths", "spool"},
	// Reading back, and what is built on it.
	"recall":  {"history", "outbox", "ingest", "sanitize"},
	"suggest": {"analyze", "config", "history", "offer", "recall", "learn"},
	"ask":     {"ctxblock", "ctxcmd", "history", "recall", "redact", "llm", "skill", "tmpl"},
	"aifix":   {"analyze", "ctxblock", "llm", "redact"},
	// Context the user controls: a project's .hookd.yml, its trust, the
	// settings a question is asked with, and the context commands run.
	"project": {"config", "trust", "skill", "ctxcmd"},
	"ctxcmd":  {"config", "ctxblock"},
	// Chains: steps run with record, outputs passed on.
	"chain": {"record", "shellinit"},
	// Prompt files: lookup in the project's and the user's places,
	// `@file` and allowlisted ``!`cmd` `` expansion.
	"promptfile": {"frontmatter", "project"},
	// The CLI: flags, output and wiring, over every product package.
	"cmd/hookd": {"agent", "aifix", "analyze", "analyze/probe", "capture", "config", "histfile", "history", "ingest",
		"offer", "outbox", "paths", "proxy", "recall", "record", "redact", "sanitize", "scrollback", "shellinit",
		"spool", "suggest", "ask", "ctxblock", "llm", "health", "answer", "learn",
		"trust", "project", "ctxcmd", "skill", "tmpl", "chain", "promptfile", "complete"},
	// Test helpers.
	"internal/shelltest": {},
	"internal/spooltest": {"history", "spool"},
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
