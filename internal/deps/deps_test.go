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

// allowed lists, for each package, the hookd packages it may import.
// A package missing here may import none.
var allowed = map[string][]string{
	"shellinit":          {"scripts"},
	"agent":              {"history", "spool", "redact", "outbox", "capture"},
	"outbox":             {"spool"},
	"cmd/hookd":          {"*"},
	"internal/shelltest": {},
}

func TestLayering(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", module+"...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		pkg := strings.TrimPrefix(f[0], module)
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
			if ok["*"] || ok[dep] || strings.HasPrefix(pkg, dep+"/") || strings.HasPrefix(dep, pkg+"/") {
				continue
			}
			t.Errorf("%s imports %s, which the layering does not allow", pkg, dep)
		}
	}
}
