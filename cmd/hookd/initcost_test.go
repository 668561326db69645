package main

import (
	"bufio"
	"bytes"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// Go runs every linked package's initialisers in every command, `hookd
// init` and `hookd suggest` (which the shell runs) included. initBudget is
// what one package's initialisers may allocate at start-up: tables a
// command needs are built when it needs them (sync.OnceValue), not for
// every command. Allocations are counted by the runtime
// (GODEBUG=inittrace=1), so the check does not depend on how busy the
// machine is.
const initBudget = 32 << 10

// ownInitBudget is the budget of hookd's own packages, which build every
// table (regular expressions included) on first use: a package variable
// that allocates more than a few error values is a table to make lazy.
const ownInitBudget = 4 << 10

// initExceptions are the packages whose initialisers cost more, with the
// most each may allocate. goldmark's own package variables (its entity
// table, its parser's tables) run in any program that links the Markdown
// renderer: they cannot be made lazy from here (docs/benchmarks.md §34).
// The MCP SDK's JSON Schema package reflects over its own Schema type at
// init (hookd mcp; about 0.4 ms, docs/benchmarks.md, coding agents).
var initExceptions = map[string]int{
	"github.com/google/jsonschema-go/jsonschema": 96 << 10,
	"github.com/yuin/goldmark/util":              160 << 10,
	"github.com/yuin/goldmark/parser":            128 << 10,
}

// initTotalBudget bounds what all the initialisers together allocate,
// bytes and allocations (569 KB and 3,130 in 2026-11, goldmark's parser
// and util 250 KB and 1,370 of them; 865 KB and 5,300 before hookd parsed
// GitHub's tables itself instead of linking goldmark's extension
// package): a new dependency that adds a little to each of many packages
// shows here, not in any one package's budget. docs/benchmarks.md §34
// measures what start-up costs in time.
const (
	initTotalBudget      = 640 << 10
	initTotalAllocBudget = 3600
)

// notLinked are packages whose initialisers are heavy and that hookd does
// without, each with why: linked, they would run in every command. A name
// ending in / stands for every package under it.
var notLinked = map[string]string{
	"github.com/chromedp/":               "only the web page's browser tests use it",
	"github.com/charmbracelet/x/vt":      "only the PTY tests' terminal emulator uses it",
	"github.com/yuin/goldmark/extension": "264 KB in 2,049 allocations at start-up (Linkify's regular expressions): internal/ai/render parses GitHub's tables, strikethrough and task items itself (gfm.go)",
	"github.com/alecthomas/chroma/":      "its registries took about 15 ms at start-up (internal/ai/render/doc.go)",
}

// TestInitCost fails when a package initialiser of the hookd binary
// allocates more than its budget, or all of them more than theirs.
func TestInitCost(t *testing.T) {
	cmd := exec.Command(hookdBin, "version")
	cmd.Env = append(newHome(t).Env, "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("hookd version: %v\n%s", err, stderr.String())
	}
	n, total, allocs := 0, 0, 0
	sc := bufio.NewScanner(&stderr)
	for sc.Scan() {
		// init PKG @0.39 ms, 0.037 ms clock, 1234 bytes, 5 allocs
		f := strings.Fields(sc.Text())
		if len(f) < 9 || f[0] != "init" || f[8] != "bytes," {
			continue
		}
		n++
		for p, why := range notLinked {
			if f[1] == p || strings.HasSuffix(p, "/") && strings.HasPrefix(f[1], p) {
				t.Errorf("package %s is initialised in every hookd command: %s", f[1], why)
			}
		}
		size, err := strconv.Atoi(f[7])
		na, err2 := strconv.Atoi(f[9])
		if err != nil || err2 != nil {
			t.Fatalf("cannot read %q", sc.Text())
		}
		total += size
		allocs += na
		budget, ok := initExceptions[f[1]]
		switch {
		case ok:
		case strings.HasPrefix(f[1], "github.com/hookd/hookd/"):
			budget = ownInitBudget
		default:
			budget = initBudget
		}
		if size > budget {
			t.Errorf("package %s allocates %d bytes at start-up, in every hookd command (budget %d): build what it needs when it is needed (sync.OnceValue)", f[1], size, budget)
		}
	}
	if n < 20 {
		t.Fatalf("read %d init lines from GODEBUG=inittrace=1:\n%s", n, stderr.String())
	}
	t.Logf("%d packages initialised: %d bytes, %d allocations", n, total, allocs)
	if total > initTotalBudget || allocs > initTotalAllocBudget {
		t.Errorf("the initialisers of %d packages allocate %d bytes in %d allocations at start-up, in every hookd command (budget %d bytes, %d allocations)",
			n, total, allocs, initTotalBudget, initTotalAllocBudget)
	}
}
