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

// TestConfigWarningsWhereTheyMatter: hookd ask says what is wrong in the
// llm section (it decides which model answers), and hookd ask --skills
// what is wrong in a skill, a profile's included; neither repeats the
// rest of the file's warnings (hookd init and hookd status say those).
func TestConfigWarningsWhereTheyMatter(t *testing.T) {
	h := newHome(t)
	cfg := "fix:\n  key: 'not a key'\nllm:\n  provider: nosuch\nask:\n  profiles:\n    my.team:\n      skills:\n        - {pattern: 'a(', llm_prepend: x}\n"
	os.MkdirAll(h.Path(".config", "hookd"), 0o700)
	if err := os.WriteFile(h.Path(".config", "hookd", "config.yaml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	file := h.Path(".config", "hookd", "config.yaml")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"ask", "hello"}, "hookd: warning: " + file + `:4:13: llm.provider: unknown provider "nosuch"`},
		{[]string{"ask", "--skills"}, "hookd: warning: " + file + ":9:11: ask.profiles.my.team.skills[0]: pattern: error parsing regexp"},
	} {
		_, errOut, _ := hookdRun(h, []string{"ANTHROPIC_API_KEY=", "OPENAI_API_KEY=", "OLLAMA_HOST=127.0.0.1:9"}, c.args...)
		if strings.Count(errOut, "warning:") != 1 || !strings.Contains(errOut, c.want) {
			t.Errorf("hookd %s: stderr\n%s\nwant the one warning %q", strings.Join(c.args, " "), errOut, c.want)
		}
	}
}
