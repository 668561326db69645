package main

import (
	"fmt"
	"github.com/hookd/hookd/internal/required"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/ai/llm/llmtest"
	"github.com/hookd/hookd/internal/shelltest"
)

// needFile skips the test when a plugin's file is missing, or fails it
// when the environment says plugins are required (REQUIRE_SHELLS, as CI
// sets: .ci/run installs Debian's packages).
func needFile(t *testing.T, path, pkg string) {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		required.Skip(t, fmt.Sprintf("%s (Debian's %s) is not installed: %v", path, pkg, err), "REQUIRE_SHELLS")
	}
}

const zshHighlighter = "/usr/share/zsh-syntax-highlighting/zsh-syntax-highlighting.zsh"

// underlined matches word drawn underlined, with any attribute changes
// before it.
func underlined(word string) *regexp.Regexp {
	return regexp.MustCompile(`\x1b\[4m(?:\x1b\[[0-9;]*m)*` + regexp.QuoteMeta(word))
}

// TestSyntaxHighlightingOfHookdsLine: with the real zsh-syntax-highlighting,
// what hookd puts on the command line (a fix by Ctrl-X f, the command an
// answer to ?? offers) is highlighted as that command, not with the
// colours of the line before, with hookd's line last in .zshrc and with it
// before the highlighter. Builtins are drawn underlined, unknown commands
// in standout, so that the two cannot be confused.
func TestSyntaxHighlightingOfHookdsLine(t *testing.T) {
	shelltest.Need(t, "zsh")
	needFile(t, zshHighlighter, "zsh-syntax-highlighting")
	styles := "typeset -A ZSH_HIGHLIGHT_STYLES\nZSH_HIGHLIGHT_STYLES[builtin]=underline\nZSH_HIGHLIGHT_STYLES[unknown-token]=standout\n"
	for name, rc := range map[string]string{
		"hookd last":   "PROMPT='%# '\nsource " + zshHighlighter + "\n" + styles + initLine("zsh"),
		"hookd before": "PROMPT='%# '\n" + initLine("zsh") + "source " + zshHighlighter + "\n" + styles,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			fake := llmtest.NewOpenAI(t)
			fake.SetKey("test-key")
			fake.SetReply(llmtest.Reply{Text: []string{"Run:\n\n```sh\necho offered\n```\n"}})
			h := newHome(t)
			s := shelltest.Start(t, h, "zsh", shelltest.Options{RC: rc, Env: llmEnv(fake)})
			s.Type("ehco fixed-it\r")
			s.WaitForPlain(regexp.MustCompile(`↳ echo fixed-it`), 10*time.Second)
			s.Sync()
			s.Editing()
			from := len(s.Output())
			s.Type("\x18f")
			if !waitQuietly(s, from, underlined("echo")) {
				t.Errorf("after Ctrl-X f, the fix is not highlighted as a builtin:\n%q", s.Output()[from:])
			}
			s.Type("\x15") // Ctrl-U: an empty line again
			s.Sync()

			from = len(s.Output())
			s.Type("?? what now\r")
			waitFrom(t, s, from, regexp.MustCompile(`(?s)Run:.*\x1b\[\?2004h.*offered`))
			out := s.Output()[from:]
			at := from + strings.LastIndex(out, "\x1b[?2004h")
			if !waitQuietly(s, at, underlined("echo")) {
				t.Errorf("the answer's offered command is not highlighted as a builtin:\n%q", s.Output()[at:])
			}
		})
	}
}

// waitQuietly reports whether the output since from comes to match re
// in time (the highlighter redraws after the line is drawn).
func waitQuietly(s *shelltest.Shell, from int, re *regexp.Regexp) bool {
	return shelltest.Poll(shelltest.MinWait, func() bool { return re.MatchString(s.Output()[from:]) })
}

// waitFrom waits until the output since from matches re.
func waitFrom(t *testing.T, s *shelltest.Shell, from int, re *regexp.Regexp) {
	t.Helper()
	shelltest.Eventually(t, shelltest.MinWait, func() bool { return re.MatchString(s.Output()[from:]) },
		func() string { return fmt.Sprintf("no %q; output:\n%q", re, s.Output()[from:]) })
}
