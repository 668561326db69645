package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// normalize makes a diff's text stable: times, and how long ago.
func normalize(s, home string) string {
	s = regexp.MustCompile(`\d{4}-\d\d-\d\d \d\d:\d\d:\d\d`).ReplaceAllString(s, "TIME")
	s = regexp.MustCompile(`"(started_at|when)":"[^"]*"`).ReplaceAllString(s, `"$1":"TIME"`)
	s = regexp.MustCompile(`(worked|ran) \d+ (s|min) ago`).ReplaceAllString(s, "$1 N s ago")
	return strings.ReplaceAll(s, home, "HOME")
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "diff", name)
	if *update {
		os.MkdirAll(filepath.Dir(path), 0o755)
		os.WriteFile(path, []byte(got), 0o644)
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run TestDiff -update)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs (go test -run TestDiff -update if intended):\n%s", path, got)
	}
}

// TestDiff: make test works in the project and fails in a subdirectory;
// hookd diff shows how the failure's output differs from the success's,
// with what changed around it, for a terminal and as JSON; or any two runs.
func TestDiff(t *testing.T) {
	need(t, "make")
	h := newHome(t)
	proj := h.Path("proj")
	os.MkdirAll(filepath.Join(proj, "sub"), 0o755)
	os.WriteFile(filepath.Join(proj, "Makefile"), []byte("test:\n\t@cat result.txt\n\t@grep -q '^ok' result.txt\n"), 0o644)
	os.WriteFile(filepath.Join(proj, "result.txt"), []byte("building\nok: 12 tests\ndone\n"), 0o644)
	env := []string{"NO_COLOR=1"}
	run := func(dir string, want int, args ...string) string {
		t.Helper()
		out, errOut, err := hookdIn(h, dir, env, args...)
		code := 0
		if err != nil {
			code = -1
			if ee, ok := err.(interface{ ExitCode() int }); ok {
				code = ee.ExitCode()
			}
		}
		if code != want {
			t.Fatalf("hookd %s: exit %d (%v), want %d\n%s%s", strings.Join(args, " "), code, err, want, out, errOut)
		}
		return out + errOut
	}
	run(proj, 0, "run", "--no-suggest", "--", "make", "test")                                               // #1 works
	run(filepath.Join(proj, "sub"), 2, "run", "--no-suggest", "--", "make", "test")                         // #2 fails elsewhere
	os.WriteFile(filepath.Join(proj, "result.txt"), []byte("building\nFAIL: 3 of 12 tests\ndone\n"), 0o644) // #3 fails here
	run(proj, 2, "run", "--no-suggest", "--", "make", "test")

	golden(t, "subdir.golden", normalize(run(h.Dir, 0, "diff", "2"), h.Dir))
	golden(t, "subdir.json.golden", normalize(run(h.Dir, 0, "diff", "2", "--json"), h.Dir))
	golden(t, "same-dir.golden", normalize(run(h.Dir, 0, "diff", "3", "--context", "1"), h.Dir))
	// Any two runs, in either order.
	golden(t, "two-refs.golden", normalize(run(h.Dir, 0, "diff", "3", "2"), h.Dir))
	// The first run never had an earlier success.
	if out := run(h.Dir, 1, "diff", "1"); !strings.Contains(out, "never succeeded before") {
		t.Errorf("hookd diff 1: %s", out)
	}
	if out := run(h.Dir, 2, "diff", "1", "1"); !strings.Contains(out, "compared with itself") {
		t.Errorf("hookd diff 1 1: %s", out)
	}
}
