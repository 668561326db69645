package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/shelltest"
)

// TestFixFlow: a failure prints its fix before the next prompt, the prompt
// still shows the failure's status, and `fix` applies it only with consent.
func TestFixFlow(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		rc := "PS1='[st=$?] $ '\nPROMPT='[st=%?] %# '\n" + initLine(shell)
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: rc})
		s.Type("ech fixed-it\r")
		// The fix comes before the prompt that shows the failure's status.
		s.WaitForPlain(regexp.MustCompile(`(?s)ech fixed-it\n.*↳ echo fixed-it\s+fix\n\[st=127\] [$#%] `), 10*time.Second)
		s.Sync()
		// Nothing for an interrupted command or an ordinary "no".
		mark := len(s.Plain())
		s.Run("grep -q nothing /dev/null")
		s.Run("(exit 130)")
		if out := s.Plain()[mark:]; strings.Contains(out, "↳") {
			t.Errorf("a suggestion after grep's no or exit 130: %q", out)
		}
		s.Run("ech again")
		if shell == "bash" {
			s.Type("fix\r")
			s.WaitForPlain(regexp.MustCompile(`run it \(low risk\)\? \[y/N, then Enter\] $`), 5*time.Second)
			s.Type("n\r")
			s.Sync()
			if strings.Contains(s.Plain(), "\nagain\n") {
				t.Fatalf("fix ran without consent")
			}
			s.Type("fix\r")
			s.WaitForPlain(regexp.MustCompile(`(?s)run it \(low risk\)\? \[y/N, then Enter\] .*run it \(low risk\)\? \[y/N, then Enter\] $`), 5*time.Second)
			s.Type("y\r")
		} else {
			// zsh puts the fix on the command line: Enter runs it.
			s.Type("fix\r")
			s.WaitForPlain(regexp.MustCompile(`(?s)fix\n.*% echo again$|# echo again$`), 5*time.Second)
			if strings.Contains(s.Plain(), "\nagain\n") {
				t.Fatalf("fix ran without Enter")
			}
			s.Type("\r")
		}
		s.WaitForPlain(regexp.MustCompile(`\nagain\n`), 5*time.Second)
		s.Sync()
		// The fix is in the history as itself.
		got := commandsOf(entries(t, h))
		if got[len(got)-1] != "echo again" {
			t.Errorf("history ends with %q; want the fix itself", got[len(got)-1])
		}
	})
}

// TestFixOptions: the fix command can be renamed, Ctrl-X f puts the fixes
// on the command line one after the other, learning mode says why a fix
// works, and the shell's aliases count for the typo rules.
func TestFixOptions(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		os.MkdirAll(h.Path(".config", "hookd"), 0o700)
		os.WriteFile(h.Path(".config", "hookd", "config.yaml"), []byte("fix:\n  command: ff\n  learn: true\n"), 0o600)
		rc := "PS1='$ '\nPROMPT='%# '\nalias hello-there='echo general-kenobi'\n" + initLine(shell)
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: rc})
		// An alias, mistyped: the alias is the fix.
		s.Type("helo-there\r")
		s.WaitForPlain(regexp.MustCompile(`↳ hello-there\s+fix`), 10*time.Second)
		s.Sync()
		if !regexp.MustCompile(`↳ hello-there\s+fix\n +\S`).MatchString(s.Plain()) {
			t.Errorf("learning mode: no explanation under the fix:\n%s", s.Plain())
		}
		// fix is not defined; ff is.
		s.Run("type fix >/dev/null 2>&1 && echo has-fix || echo no-fix")
		s.WaitForPlain(regexp.MustCompile(`\nno-fix\n`), 5*time.Second)
		s.Run("ech key-works")
		// Ctrl-X f: the fix on the command line; Enter runs it.
		s.Editing()
		// The fix on the line, then Enter.
		s.TypeWait("\x18f", regexp.MustCompile(`echo key-works`), 10*time.Second)
		s.Type("\r")
		s.WaitForPlain(regexp.MustCompile(`\nkey-works\n`), 5*time.Second)
		s.Sync()
		got := commandsOf(entries(t, h))
		if got[len(got)-1] != "echo key-works" {
			t.Errorf("history ends with %q; want the fix put there by the key", got[len(got)-1])
		}
	})
}

// TestPrintableFixKeyRefused: fix.key: 12 (a key that starts with a
// character typed as text) is warned about when the shell starts and not
// bound: typing 12 types 12, and the default key is bound instead.
func TestPrintableFixKeyRefused(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		os.MkdirAll(h.Path(".config", "hookd"), 0o700)
		os.WriteFile(h.Path(".config", "hookd", "config.yaml"), []byte("fix:\n  key: 12\n"), 0o600)
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: "PS1='$ '\nPROMPT='%# '\n" + initLine(shell)})
		s.WaitForPlain(regexp.MustCompile(`hookd: warning: .*fix\.key: key "12" starts with '1', a character typed as text.*; using \^Xf`), 10*time.Second)
		m := s.Mark()
		s.Run("echo 12 1 2")
		s.WaitPlainSince(m, regexp.MustCompile(`\n12 1 2\n`), 10*time.Second)
		m = s.Mark()
		s.RunAlone(map[string]string{ // alone: its output spans lines
			"bash": `bind -X | grep -c '"12"'; bind -X | grep -F '\C-xf'`,
			"zsh":  "bindkey 12; bindkey '^Xf'",
		}[shell])
		s.WaitPlainSince(m, regexp.MustCompile(map[string]string{
			"bash": `\n0\n"\\C-xf": "_hookd_fix_key"\n`,
			"zsh":  `\n"12" undefined-key\n"\^Xf" _hookd_fix_key\n`,
		}[shell]), 10*time.Second)
	})
}
