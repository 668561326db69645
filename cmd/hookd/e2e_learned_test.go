package main

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/shelltest"
)

// TestLearnedFix: in real bash and zsh, a made-up tool fails with --prod
// and works with --production; after the user fixes it by hand once, the
// daemon learns the fix, and the next --prod failure (another target)
// offers the learned fix first, labelled; forgetting the commands it was
// learned from takes it back.
func TestLearnedFix(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		bin := h.Path("bin")
		os.MkdirAll(bin, 0o700)
		script := "#!/bin/sh\nfor a; do\n  case $a in --prod) echo 'unknown flag --prod' >&2; exit 2;; esac\ndone\necho \"deployed $*\"\n"
		if err := os.WriteFile(h.Path("bin", "deploy"), []byte(script), 0o700); err != nil {
			t.Fatal(err)
		}
		var path string
		for _, kv := range h.Env {
			if p, ok := strings.CutPrefix(kv, "PATH="); ok {
				path = p
			}
		}
		rc := "PS1='$ '\nPROMPT='%# '\n" + initLine(shell)
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: rc, Env: []string{"PATH=" + bin + ":" + path}})
		s.Run("deploy --prod x")
		s.WaitForPlain(regexp.MustCompile(`unknown flag --prod`), 5*time.Second)
		s.Run("deploy --production x")
		s.WaitForPlain(regexp.MustCompile(`deployed --production x`), 5*time.Second)

		// The daemon learns it (hookd suggest only reads what was learned).
		type fix struct {
			Command string `json:"command"`
			Risk    string `json:"risk"`
			Learned int    `json:"learned"`
		}
		var res struct {
			Fixes []fix `json:"fixes"`
		}
		learned := func(cmd string) []fix {
			res.Fixes = nil
			out := hookd(t, h, "suggest", "--command", cmd, "--exit", "2", "--json")
			if err := json.Unmarshal([]byte(out), &res); err != nil {
				t.Fatalf("suggest --json: %v: %s", err, out)
			}
			return res.Fixes
		}
		var f []fix
		shelltest.Eventually(t, 15*time.Second, func() bool {
			f = learned("deploy --prod q")
			return len(f) > 0 && f[0].Learned > 0
		}, func() string { return fmt.Sprintf("the daemon learned nothing: %+v", f) })
		if f[0].Command != "deploy --production q" || f[0].Risk != "low" {
			t.Fatalf("learned fix = %+v", f[0])
		}

		// The next failure: the learned fix first, before the prompt.
		mark := len(s.Plain())
		s.Type("deploy --prod y\r")
		s.WaitForPlain(regexp.MustCompile(`↳ deploy --production y\s+fix · learned, worked 1×\n`), 10*time.Second)
		s.Sync()
		if out := s.Plain()[mark:]; strings.Index(out, "↳ deploy --production y") != strings.Index(out, "↳") {
			t.Errorf("the learned fix is not the first one offered:\n%s", out)
		}
		if shell == "zsh" {
			// zsh's fix puts the first fix on the command line.
			s.Type("fix\r")
			s.WaitForPlain(regexp.MustCompile(`[%#] deploy --production y$`), 5*time.Second)
			s.Type("\x15") // Ctrl-U: not run
			s.Sync()
		}
		list := hookd(t, h, "learned", "--json")
		var l struct {
			ID      int64  `json:"id"`
			Program string `json:"program"`
			Edit    string `json:"edit"`
			Count   int    `json:"count"`
		}
		if err := json.Unmarshal([]byte(list), &l); err != nil || l.Program != "deploy" || l.Edit != "replace `--prod` with `--production`" || l.Count != 1 {
			t.Fatalf("hookd learned --json = %s (%v)", list, err)
		}
		if text := hookd(t, h, "learned"); !strings.Contains(text, "deploy: replace `--prod` with `--production`") {
			t.Errorf("hookd learned:\n%s", text)
		}

		// Forgetting the commands it was learned from takes it back.
		var ids []string
		for _, e := range entries(t, h) {
			if e.Command == "deploy --prod x" || e.Command == "deploy --production x" {
				ids = append(ids, fmt.Sprint(e.ID))
			}
		}
		if len(ids) != 2 {
			t.Fatalf("history: %q", commandsOf(entries(t, h)))
		}
		hookd(t, h, append([]string{"forget"}, ids...)...)
		if list := hookd(t, h, "learned", "--json"); list != "" {
			t.Errorf("after forget, hookd learned --json = %s", list)
		}
		if f := learned("deploy --prod y"); len(f) > 0 && f[0].Learned > 0 {
			t.Errorf("after forget, still offered: %+v", f)
		}
	})
}
