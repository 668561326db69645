package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/ai/llm/llmtest"
	"github.com/hookd/hookd/internal/shelltest"
)

// TestChainValueNeverCode (issue 20, item 1): the chain, which
// inlined an output into an unquoted here-document, is refused before
// anything runs, naming the step and the line; an output inlined in a
// plain word or inside quotes reaches bash and zsh as data.
func TestChainValueNeverCode(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		sh := shellPath(t, shell)
		h := newHome(t)
		dir := t.TempDir()
		pwned := filepath.Join(dir, "pwned")
		file := writeChain(t, dir, `steps:
  - id: a
    run: printf '%s\n' 'safe $(touch `+pwned+`)'
    outputs: {text: {extract_from: stdout}}
  - id: b
    run: "cat <<X\n${a.text}\nX"
`)
		out, errOut, err := hookdRun(h, []string{"SHELL=" + sh}, "chain", file)
		if code := exitStatus(err); code != 2 || out != "" {
			t.Fatalf("chain: exit %d; want 2\nstdout %q\nstderr %s", code, out, errOut)
		}
		for _, want := range []string{"step 2 (b)", "line 2 of the command", "here-document", "pass_as: {environment"} {
			if !strings.Contains(errOut, want) {
				t.Errorf("stderr lacks %q:\n%s", want, errOut)
			}
		}
		if _, err := os.Stat(pwned); err == nil {
			t.Fatal("the output ran as code")
		}
		if es := entries(t, h); len(es) != 0 {
			t.Errorf("a refused chain ran steps: %+v", es)
		}

		file = writeChain(t, dir, `steps:
  - id: a
    run: printf '%s\n' "x'\"; \$(touch `+pwned+`) \`+"`"+`touch `+pwned+`\`+"`"+`"
    outputs: {text: {extract_from: stdout}}
  - run: printf '[%s]\n' ${a.text} "${a.text}" '${a.text}' "in ${a.text} dq"
`)
		out, errOut, err = hookdRun(h, []string{"SHELL=" + sh}, "chain", file)
		if err != nil {
			t.Fatalf("chain: %v\n%s", err, errOut)
		}
		v := "x'\"; $(touch " + pwned + ") `touch " + pwned + "`"
		want := v + "\n[" + v + "]\n[" + v + "]\n[" + v + "]\n[in " + v + " dq]\n"
		if out != want {
			t.Errorf("stdout\n%q\nwant\n%q", out, want)
		}
		if _, err := os.Stat(pwned); err == nil {
			t.Fatal("the output ran as code")
		}
	})
}

// shellPath is the path of shell (skipped or failed as shelltest.Need
// says when it is missing).
func shellPath(t *testing.T, shell string) string {
	t.Helper()
	shelltest.Need(t, shell)
	p, err := exec.LookPath(shell)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// exitStatus is err's exit status: 0 for nil, -1 when it is no exit.
func exitStatus(err error) int {
	if err == nil {
		return 0
	}
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	return -1
}

// TestLinkedProjectFile (issue 20, item 2): a .hookd.yml that is a link to
// an allowed file does not make its context commands run in the
// attacker's directory; hookd says why the file is not used.
func TestLinkedProjectFile(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		fake := llmtest.NewOpenAI(t)
		h := newHome(t)
		home, _ := filepath.EvalSymlinks(h.Dir)
		proj, evil := filepath.Join(home, "proj"), filepath.Join(home, "evil")
		for _, d := range []string{filepath.Join(proj, ".git"), filepath.Join(evil, ".git")} {
			os.MkdirAll(d, 0o700)
		}
		file := filepath.Join(proj, ".hookd.yml")
		os.WriteFile(file, []byte("ask:\n  context_commands:\n    - {name: Tool, command: ./tool.sh}\n"), 0o600)
		os.WriteFile(filepath.Join(proj, "tool.sh"), []byte("#!/bin/sh\necho proj-tool\n"), 0o700)
		pwned := filepath.Join(home, "pwned")
		os.WriteFile(filepath.Join(evil, "tool.sh"), []byte("#!/bin/sh\ntouch "+pwned+"\necho evil-tool\n"), 0o700)
		os.Symlink(file, filepath.Join(evil, ".hookd.yml"))
		hookd(t, h, "allow", file)

		s := shelltest.Start(t, h, shell, shelltest.Options{RC: initLine(shell), Env: llmEnv(fake)})
		s.Run("cd " + evil + " && hookd ask --dry-run hello; echo done-$((6*7))")
		s.WaitForPlain(regexp.MustCompile(`done-42`), 20*time.Second)
		if _, err := os.Stat(pwned); err == nil {
			t.Fatal("the attacker's tool.sh ran")
		}
		if out := s.Plain(); !strings.Contains(out, "a symbolic link to "+file+", outside its own directory") || strings.Contains(out, "evil-tool") {
			t.Errorf("no reason given, or the tool's output was sent:\n%s", out)
		}
		// In the project itself the allowed file still runs.
		s.Run("cd " + proj + " && hookd ask --dry-run hello; echo done-$((6*8))")
		s.WaitForPlain(regexp.MustCompile(`done-48`), 20*time.Second)
		if !strings.Contains(s.Plain(), "proj-tool") {
			t.Errorf("the allowed file's command did not run in its project:\n%s", s.Plain())
		}
	})
}
