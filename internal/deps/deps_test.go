// Package deps holds the tests that keep hookd's packages layered, in the
// spirit of Go's own go/build deps_test.go: imports flow one way, from the
// CLI down through the subsystems (fix, ai, recording) to the base, and
// docs/design.md's package map says exactly what the tree is.
package deps

import (
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/hookd/hookd/"

// layers are the tree's groups, bottom first. A package belongs to the
// first layer with a prefix that matches its path (a prefix ending in "/"
// matches a folder's packages, any other a package and the ones below
// it). A package may import packages of its own layer or lower ones,
// never of a higher one: that is an import running back up.
var layers = []struct {
	name     string
	prefixes []string
}{
	// Formats, pure libraries, the file layout and the settings: they
	// know nothing of processes or of the product's flows.
	{"base", []string{"scripts", "shellinit", "capture", "history", "analyze",
		"internal/paths", "internal/config", "internal/redact", "internal/sanitize", "internal/hostid", "internal/ui",
		"internal/textdiff", "internal/shellwords", "internal/yamlpos", "internal/required"}},
	// Sync: the history's own segments to and from an S3-compatible
	// store, run by the daemon.
	{"sync", []string{"internal/cloudsync"}},
	// Every command on its way into the history, and read back out.
	{"recording", []string{"internal/recording/"}},
	// The LLM half: providers, questions, the context the user controls.
	{"ai", []string{"internal/ai/"}},
	// The failure path: rules' fixes, the LLM's, the offer.
	{"fix", []string{"internal/fix/"}},
	// Finding commands again: the search engine and Ctrl-R's screen.
	{"search", []string{"internal/search"}},
	// What reads all of them for the user or another program: hookd
	// status, the MCP server for coding agents.
	{"apps", []string{"internal/status", "internal/mcp", "internal/stats", "internal/export", "internal/notes", "internal/web"}},
	// Helpers that only tests import.
	{"testing", []string{"internal/shelltest", "internal/spooltest", "internal/deps", "bench"}},
	// The CLI: flags, output and wiring. Nothing imports it.
	{"cli", []string{"cmd/hookd"}},
}

// layerOf returns the index in layers of pkg's layer, or -1.
func layerOf(pkg string) int {
	for i, l := range layers {
		for _, p := range l.prefixes {
			if strings.HasSuffix(p, "/") && strings.HasPrefix(pkg, p) ||
				pkg == p || strings.HasPrefix(pkg, p+"/") {
				return i
			}
		}
	}
	return -1
}

// allowed lists, for each package, the hookd packages it may import. Every
// package has a row (TestLayering fails for one that has none), so that a
// new package states its place; docs/design.md §2.3 draws the same graph
// (TestDesignMap).
var allowed = map[string][]string{
	// base
	"scripts":             {},
	"shellinit":           {"scripts", "internal/shellwords"},
	"capture":             {},
	"history":             {"internal/shellwords"},
	"analyze":             {"capture", "internal/shellwords"},
	"analyze/learn":       {"internal/shellwords"},
	"analyze/probe":       {"analyze"},
	"analyze/analyzetest": {"analyze"},
	"internal/paths":      {},
	"internal/config":     {"internal/shellwords", "internal/yamlpos"},
	"internal/redact":     {},
	"internal/sanitize":   {},
	// The palette: named styles for every terminal view.
	"internal/ui/style": {},
	// Durations and byte counts written one way for every view.
	"internal/ui/units": {},
	// A terminal's text as HTML (hookd serve, hookd export's page).
	"internal/ui/termhtml": {"internal/sanitize"},
	// This installation's id (the "this host" of sync and of searches).
	"internal/hostid": {},
	// Two texts compared line by line, as diff -u does (hookd diff).
	"internal/textdiff":   {},
	"internal/shellwords": {},
	// Where in a YAML file a node or an error is.
	"internal/yamlpos":  {},
	"internal/required": {},
	// Tests' check that an offered command is only words.
	"internal/shellwords/shellwordstest": {},

	// sync: sealed segments through an S3-compatible bucket, on a small
	// S3 client of its own; the real server the tests start.
	"internal/cloudsync":        {"capture", "history", "internal/config", "internal/hostid", "internal/cloudsync/s3", "internal/ui/units"},
	"internal/cloudsync/s3":     {},
	"internal/cloudsync/s3test": {"internal/required"},

	// recording: the hooks' spools and the capturers' outbox → ingest →
	// history, run by the daemon; recall reads it back.
	"internal/recording/spool": {},
	// The context a command ran in, read at ingest: its key, git's state.
	"internal/recording/runctx":     {"internal/shellwords"},
	"internal/recording/histfile":   {},
	"internal/recording/proxy":      {},
	"internal/recording/outbox":     {"internal/recording/spool", "capture"},
	"internal/recording/scrollback": {"capture"},
	"internal/recording/runrecord":  {"internal/recording/spool", "internal/recording/outbox", "capture", "internal/shellwords"},
	"internal/recording/ingest": {"history", "internal/recording/spool", "internal/recording/outbox", "capture",
		"internal/redact", "internal/recording/histfile", "analyze/learn", "internal/config", "internal/recording/runctx"},
	"internal/recording/daemon": {"internal/recording/ingest", "history", "internal/cloudsync", "internal/paths"},
	"internal/recording/recall": {"capture", "history", "internal/recording/outbox", "internal/recording/ingest", "internal/sanitize", "internal/recording/ptyshell"},
	// hookd shell: the proxy, the scanner, the outbox, and the fallback.
	"internal/recording/ptyshell": {"capture", "internal/recording/outbox", "internal/recording/proxy"},
	// Coding agents' formats: their hook payloads, their setup snippets.
	"internal/recording/agenthook": {"internal/shellwords"},

	// ai
	"internal/ai/llm":         {},
	"internal/ai/llm/llmtest": {},
	"internal/ai/promptblock": {"internal/sanitize"},
	"internal/ai/template":    {},
	"internal/ai/frontmatter": {"internal/yamlpos"},
	"internal/ai/trust":       {},
	"internal/ai/render":      {"internal/sanitize"},
	"internal/ai/skill":       {"internal/config", "internal/ai/frontmatter"},
	"internal/ai/contextcmd":  {"internal/config", "internal/ai/promptblock"},
	"internal/ai/project":     {"internal/config", "internal/ai/trust", "internal/ai/skill", "internal/ai/contextcmd"},
	"internal/ai/promptfile":  {"internal/ai/frontmatter", "internal/ai/project", "internal/shellwords"},
	"internal/ai/chain":       {"internal/recording/runrecord", "internal/shellwords", "internal/yamlpos", "shellinit"},
	"internal/ai/ask": {"internal/ai/promptblock", "internal/ai/contextcmd", "history", "internal/recording/recall",
		"internal/redact", "internal/ai/llm", "internal/ai/skill", "internal/ai/template"},

	// fix
	"internal/fix/offer": {"analyze", "internal/sanitize"},
	"internal/fix/suggest": {"analyze", "internal/config", "history", "internal/fix/offer", "internal/recording/recall", "analyze/learn", "internal/sanitize", "internal/ui/style",
		"internal/fix/before"},
	// "It worked before": a failure compared with the last success of
	// the same command, and two runs' outputs.
	"internal/fix/before": {"analyze", "history", "internal/recording/runctx", "internal/recording/recall", "internal/textdiff", "internal/shellwords"},
	"internal/fix/aifix":  {"analyze", "internal/ai/promptblock", "internal/ai/llm", "internal/redact"},

	// search: the engine over the history (outputs through their
	// full-text index), and its interactive face (Ctrl-R).
	"internal/search":    {"history"},
	"internal/search/ui": {"internal/search", "history", "internal/sanitize", "internal/ui/style", "internal/ui/units"},

	// apps
	"internal/mcp": {"analyze", "history", "internal/ai/ask", "internal/ai/promptblock", "internal/config", "internal/fix/before", "internal/recording/recall", "internal/redact", "internal/sanitize", "internal/search", "internal/ui/units"},
	// The user's notes on commands, redacted (hookd note, hookd serve).
	"internal/notes": {"history", "internal/redact"},
	// Commands with their outputs written for a report (hookd export).
	"internal/export": {"capture", "history", "internal/redact", "internal/sanitize", "internal/shellwords", "internal/ui/termhtml", "internal/ui/units"},
	// The figures of hookd stats and hookd serve's charts.
	"internal/stats":  {"history", "internal/search", "internal/sanitize", "internal/shellwords", "internal/ui/style", "internal/ui/units"},
	"internal/status": {"internal/recording/daemon", "history", "internal/recording/outbox", "internal/paths", "internal/recording/spool", "internal/recording/ptyshell"},

	// hookd serve: the local web page over the search, the command's
	// page with "it worked before".
	"internal/web": {"history", "internal/fix/before", "internal/recording/recall", "internal/search", "internal/shellwords",
		"internal/textdiff", "internal/sanitize", "internal/stats", "internal/ui/termhtml", "internal/ui/units", "internal/notes", "internal/redact",
		"internal/paths"},

	// testing
	"internal/shelltest": {"internal/required"},
	"internal/spooltest": {"history", "internal/recording/spool"},
	"internal/deps":      {},
	// Benchmarks' own programs (the search's: its history generator and
	// its driver).
	"bench/startup":     {},
	"bench/searchgen":   {"history"},
	"bench/searchbench": {},

	// cli
	"cmd/hookd/complete": {"internal/sanitize"},
	"cmd/hookd": {"analyze", "analyze/learn", "analyze/probe", "capture", "history", "shellinit", "internal/shellwords",
		"internal/config", "internal/paths", "internal/redact", "internal/sanitize",
		"internal/recording/daemon", "internal/recording/histfile", "internal/recording/ingest", "internal/recording/outbox",
		"internal/recording/proxy", "internal/recording/recall", "internal/recording/runrecord", "internal/recording/scrollback",
		"internal/recording/spool", "internal/recording/runctx",
		"internal/ai/ask", "internal/ai/chain", "internal/ai/contextcmd", "internal/ai/llm", "internal/ai/project",
		"internal/ai/promptblock", "internal/ai/promptfile", "internal/ai/render", "internal/ai/skill", "internal/ai/template",
		"internal/ai/trust",
		"internal/fix/aifix", "internal/fix/offer", "internal/fix/suggest", "internal/fix/before", "internal/textdiff",
		"internal/status", "cmd/hookd/complete", "internal/recording/agenthook", "internal/mcp",
		"internal/hostid", "internal/cloudsync", "internal/cloudsync/s3", "internal/recording/ptyshell", "internal/ui/style", "internal/ui/units",
		"internal/search", "internal/search/ui", "internal/stats", "internal/export", "internal/notes", "internal/web"},
}

// packages lists hookd's packages with the hookd packages each imports
// (tests' imports included: a test may not run back up either).
func packages(t *testing.T) map[string][]string {
	t.Helper()
	out, err := exec.Command("go", "list", "-tags", "sqlite_fts5", "-f",
		"{{.ImportPath}} {{join .Imports \" \"}} {{join .TestImports \" \"}} {{join .XTestImports \" \"}}",
		module+"...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	pkgs := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		pkg := strings.TrimPrefix(f[0], module)
		seen := map[string]bool{}
		pkgs[pkg] = []string{}
		for _, imp := range f[1:] {
			dep, ok := strings.CutPrefix(imp, module)
			if !ok || dep == pkg || seen[dep] {
				continue
			}
			seen[dep] = true
			pkgs[pkg] = append(pkgs[pkg], dep)
		}
	}
	return pkgs
}

// production lists each package's non-test imports of hookd packages.
func production(t *testing.T) map[string][]string {
	t.Helper()
	out, err := exec.Command("go", "list", "-tags", "sqlite_fts5", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", module+"...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	pkgs := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		pkg := strings.TrimPrefix(f[0], module)
		pkgs[pkg] = []string{}
		for _, imp := range f[1:] {
			if dep, ok := strings.CutPrefix(imp, module); ok {
				pkgs[pkg] = append(pkgs[pkg], dep)
			}
		}
	}
	return pkgs
}

func TestLayering(t *testing.T) {
	for pkg, deps := range production(t) {
		if _, listed := allowed[pkg]; !listed {
			t.Errorf("%s has no row in allowed: say which hookd packages it may import", pkg)
		}
		ok := map[string]bool{}
		for _, a := range allowed[pkg] {
			ok[a] = true
		}
		for _, dep := range deps {
			switch {
			case dep == "cmd/hookd":
				t.Errorf("%s imports cmd/hookd: nothing may", pkg)
			case !ok[dep]:
				t.Errorf("%s imports %s, which its row in allowed does not list", pkg, dep)
			}
		}
	}
}

// TestTree checks the rows against the tree: every package sits in a
// layer, and nothing imports a package of a higher layer, in its code or in
// its tests (a test helper's layer excepted for tests).
func TestTree(t *testing.T) {
	pkgs := packages(t)
	for pkg := range pkgs {
		if layerOf(pkg) < 0 {
			t.Errorf("%s is in no layer: put it in a subsystem's folder (or name it in layers)", pkg)
		}
	}
	for pkg, deps := range allowed {
		if _, exists := pkgs[pkg]; !exists {
			t.Errorf("allowed has a row for %s, which does not exist", pkg)
		}
		for _, dep := range deps {
			if layerOf(dep) > layerOf(pkg) {
				t.Errorf("%s (%s) may import %s (%s): an import running back up", pkg, layers[layerOf(pkg)].name, dep, layers[layerOf(dep)].name)
			}
		}
	}
	testing := layerOf("internal/shelltest")
	for pkg, deps := range pkgs {
		for _, dep := range deps {
			if l := layerOf(dep); l > layerOf(pkg) && l != testing && dep != "internal/ai/llm/llmtest" && dep != "analyze/analyzetest" {
				t.Errorf("%s's tests import %s (%s), above its own layer (%s)", pkg, dep, layers[l].name, layers[layerOf(pkg)].name)
			}
		}
	}
}
