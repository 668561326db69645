package capturer

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestProblem: the note is one private line, with its time; a later
// success forgets it.
func TestProblem(t *testing.T) {
	file := filepath.Join(t.TempDir(), "state", "capture-problem")
	if p := Problem(file); p != "" {
		t.Errorf("Problem before any = %q", p)
	}
	NoteProblem(file, "cannot open a pseudo-terminal:\nno such device")
	p := Problem(file)
	if !regexp.MustCompile(`^\d{4}-\d\d-\d\dT\S+ cannot open a pseudo-terminal: no such device$`).MatchString(p) {
		t.Errorf("Problem = %q; want the time and the reason on one line", p)
	}
	fi, err := os.Stat(file)
	di, derr := os.Stat(filepath.Dir(file))
	if err != nil || derr != nil || fi.Mode().Perm() != 0o600 || di.Mode().Perm() != 0o700 {
		t.Errorf("file %v %v in %v %v; want 0600 in 0700", fi.Mode(), err, di.Mode(), derr)
	}
	ClearProblem(file)
	if p := Problem(file); p != "" {
		t.Errorf("after ClearProblem, Problem = %q; want none", p)
	}
}
