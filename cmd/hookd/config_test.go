package main

import (
	"os"
	"strings"
	"testing"
)

// TestConfigWarnedOnce checks that a command that needs several settings
// reads the config file once: each warning is printed once, with the line
// of the bad value (not that of a comment naming its key).
func TestConfigWarnedOnce(t *testing.T) {
	h := newHome(t)
	cfg := "# capture: pty or off\n# key: see the README\nfix:\n  key: 'not a key'\ncapture: sometimes\n"
	os.MkdirAll(h.Path(".config", "hookd"), 0o700)
	if err := os.WriteFile(h.Path(".config", "hookd", "config.yaml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, shell := range []string{"bash", "zsh"} {
		out, errOut, err := hookdRun(h, nil, "init", shell)
		if err != nil || out == "" {
			t.Fatalf("hookd init %s: %v, stderr %q", shell, err, errOut)
		}
		want := []string{
			"hookd: warning: " + h.Path(".config", "hookd", "config.yaml") + `:4:8: fix.key: key "not a key": use caret notation (^Xf is Ctrl-X then f); using ^Xf`,
			"hookd: warning: " + h.Path(".config", "hookd", "config.yaml") + `:5:10: capture: want pty or off, not "sometimes"; using pty`,
		}
		if got := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n"); !equal(got, want) {
			t.Errorf("hookd init %s stderr =\n%s\nwant\n%s", shell, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}
