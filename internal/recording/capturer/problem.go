package capturer

import (
	"os"
	"path/filepath"
	"strings"
	"time"
)

// The capture-problem file holds one line: when capture last could not
// start, and why ("2026-05-01T10:00:00Z cannot open a pseudo-terminal:
// …"). It is 0600 in the 0700 state directory.

// NoteProblem records in file why capture could not start.
func NoteProblem(file, why string) {
	if os.MkdirAll(filepath.Dir(file), 0o700) != nil {
		return
	}
	line := time.Now().Format(time.RFC3339) + " " + strings.ReplaceAll(why, "\n", " ") + "\n"
	os.WriteFile(file, []byte(line), 0o600)
}

// ClearProblem forgets the problem once capture works again.
func ClearProblem(file string) { os.Remove(file) }

// Problem returns the problem noted in file: when, and why capture could
// not start; "" when there is none.
func Problem(file string) string {
	if file == "" {
		return ""
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}
