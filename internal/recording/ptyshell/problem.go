package ptyshell

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

// The rc-twice file holds one line: when a shell last entered the
// capturing proxy from its rc file's end (so that the rc file ran twice),
// and which shell ("2026-05-01T10:00:00Z zsh"). hookd status suggests the
// early line while it is there; the early line removes it.

// NoteRCTwice records in file that a shell started as argv entered the
// proxy from its rc file's end.
func NoteRCTwice(file string, argv []string) {
	if os.MkdirAll(filepath.Dir(file), 0o700) != nil {
		return
	}
	shell := ""
	if len(argv) > 0 {
		shell = strings.TrimPrefix(filepath.Base(argv[0]), "-")
	}
	os.WriteFile(file, []byte(time.Now().Format(time.RFC3339)+" "+shell+"\n"), 0o600)
}

// ClearRCTwice forgets the note once a shell entered the proxy from the
// early line.
func ClearRCTwice(file string) { os.Remove(file) }

// RCTwice returns when a shell last ran its rc file twice, and which
// ("bash", "zsh" or "fish"; "" when the note does not say); ok is false
// when there is no note.
func RCTwice(file string) (when, shell string, ok bool) {
	b, err := os.ReadFile(file)
	if err != nil {
		return "", "", false
	}
	when, shell, _ = strings.Cut(strings.TrimSpace(string(b)), " ")
	if shell != "bash" && shell != "zsh" && shell != "fish" {
		shell = ""
	}
	return when, shell, true
}
