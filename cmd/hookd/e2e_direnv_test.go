package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/shelltest"
)

// TestDirenvNoticesNotKept (issue 32, item 13): with capture on, direnv's
// notices when a cd enters a directory with an allowed .envrc ("direnv:
// loading …") are shown but not kept as the cd's output, in bash, zsh and
// fish alike (zsh runs direnv's hook inside the cd, from chpwd_functions;
// bash after it, from PROMPT_COMMAND; fish at the next prompt, as direnv
// erases its PWD handler at fish_preexec), whether direnv is hooked before
// hookd's line or after it; the next command, which sees direnv's
// variable, is kept exactly.
func TestDirenvNoticesNotKept(t *testing.T) {
	need(t, "direnv")
	hook := map[string]string{
		"bash": `eval "$(direnv hook bash)"` + "\n",
		"zsh":  `eval "$(direnv hook zsh)"` + "\n",
		"fish": "direnv hook fish | source\n",
	}
	for _, order := range []string{"before", "after"} {
		t.Run(order, func(t *testing.T) {
			forAllShells(t, func(t *testing.T, shell string) {
				h := newHome(t)
				os.MkdirAll(h.Path("proj"), 0o755)
				os.WriteFile(h.Path("proj", ".envrc"), []byte("export FROM_DIRENV=yes\n"), 0o600)
				rc := plainPrompt(shell) + hook[shell] + initLine(shell)
				if order == "after" {
					rc = plainPrompt(shell) + initLine(shell) + hook[shell]
				}
				s := shelltest.Start(t, h, shell, shelltest.Options{RC: rc, Env: captureOn})
				runPrompt(t, s, "direnv allow proj")
				m := s.Mark()
				runPrompt(t, s, "cd proj")
				if got := s.PlainSince(m); !strings.Contains(got, "direnv: loading") {
					t.Fatalf("direnv's notice was not shown on cd:\n%s", got)
				}
				runPrompt(t, s, "echo from=$FROM_DIRENV")
				s.WaitForPlain(regexp.MustCompile(`\nfrom=yes\n`), 20*time.Second)
				got := outputs(t, h)
				if len(got) != 3 {
					t.Fatalf("%d commands recorded; want 3: %+v", len(got), got)
				}
				if got[1].Command != "cd proj" || got[1].Output != "" {
					t.Errorf("cd proj kept %q; want nothing (direnv's notices are not the cd's output)", got[1].Output)
				}
				if got[2].Output != "from=yes\n" {
					t.Errorf("echo kept %q; want %q", got[2].Output, "from=yes\n")
				}
			})
		})
	}
}
