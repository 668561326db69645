package agenthook

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestInstall: --install on settings files holding other hooks, settings
// and comments adds hookd's hooks once (a second install changes nothing,
// one from another hookd binary replaces them), keeps everything else in
// its order (JSON keys; TOML bytes outside hookd's block), keeps a
// backup; --uninstall gives back the file as it was.
func TestInstall(t *testing.T) {
	const bin = "/opt/my tools/hookd"
	for _, tc := range []struct {
		agent, file string
		keep        []string // in this order, in the installed file
	}{
		{"claude-code", "claude_settings.json", []string{`"model": "opus"`, `"Bash(go test:*)"`, `"matcher": "Write|Edit"`,
			`&& echo <done>`, `"Stop"`, `"UserPromptSubmit"`, `"PostToolUseFailure"`, `"env"`}},
		{"gemini", "gemini_settings.json", []string{`"theme": "GitHub"`, `"mcpServers"`, `"matcher": "write_file"`,
			`"matcher": "run_shell_command"`, `"BeforeAgent"`}},
		{"codex", "codex_config.toml", nil},
		{"opencode", "", nil},
		{"copilot", "", nil},
	} {
		t.Run(tc.agent, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "settings")
			var orig []byte
			if tc.file != "" {
				orig = agentFixture(t, "install", tc.file)
				os.WriteFile(path, orig, 0o640)
			}
			changed, backup, err := Install(tc.agent, bin, path, true, Hooks{})
			if err != nil || !changed {
				t.Fatalf("install: %v, %v", changed, err)
			}
			got, _ := os.ReadFile(path)
			if n := strings.Count(string(got), "agent-hook "+tc.agent); n < 1 {
				t.Fatalf("installed file has no hook:\n%s", got)
			}
			if tc.file != "" {
				if b, _ := os.ReadFile(backup); !bytes.Equal(b, orig) {
					t.Errorf("backup %s = %q; want the file as it was", backup, b)
				}
				if st, _ := os.Stat(path); st.Mode().Perm() != 0o640 {
					t.Errorf("mode %v; want the file's own, 0640", st.Mode().Perm())
				}
			}
			last := -1
			for _, k := range tc.keep {
				i := strings.Index(string(got), k)
				if i < 0 || i < last {
					t.Errorf("%q missing or out of order in:\n%s", k, got)
				}
				last = i
			}
			switch tc.agent {
			case "codex":
				// The file as it was, byte for byte, then hookd's block.
				if !bytes.HasPrefix(got, orig) || !strings.Contains(string(got), `command = "'/opt/my tools/hookd' agent-hook codex"`) {
					t.Errorf("config.toml:\n%s", got)
				}
			case "opencode":
				// The plugin is JavaScript node can load.
				if _, err := exec.LookPath("node"); err == nil {
					js := filepath.Join(dir, "hookd.mjs")
					os.WriteFile(js, got, 0o600)
					if out, err := exec.Command("node", "--check", js).CombinedOutput(); err != nil {
						t.Errorf("node --check: %v\n%s", err, out)
					}
				}
			}
			// Idempotent: a second install changes nothing, and makes no
			// backup.
			os.Remove(backup)
			if changed, backup, err := Install(tc.agent, bin, path, true, Hooks{}); changed || backup != "" || err != nil {
				t.Errorf("second install: %v %q %v; want no change", changed, backup, err)
			}
			// Another hookd binary: its hook replaces the first.
			if changed, _, err := Install(tc.agent, "/usr/bin/hookd", path, true, Hooks{}); !changed || err != nil {
				t.Errorf("install from another binary: %v %v", changed, err)
			}
			got, _ = os.ReadFile(path)
			if strings.Contains(string(got), "my tools") || tc.agent != "opencode" && tc.agent != "codex" && tc.agent != "copilot" && strings.Count(string(got), "agent-hook "+tc.agent) != len(hookGroups(tc.agent, bin, false)) {
				t.Errorf("after installing another binary:\n%s", got)
			}
			// Uninstall: the file as it was (JSON: its content in its order).
			if changed, _, err := Install(tc.agent, bin, path, false, Hooks{}); !changed || err != nil {
				t.Fatalf("uninstall: %v %v", changed, err)
			}
			got, err = os.ReadFile(path)
			switch {
			case tc.file == "":
				if err == nil {
					t.Errorf("the plugin file is still there after uninstall")
				}
			case tc.agent == "codex":
				if !bytes.Equal(got, orig) {
					t.Errorf("config.toml after uninstall:\n%s\nwant\n%s", got, orig)
				}
			default:
				v, _ := decodeOrdered(orig)
				if !bytes.Equal(got, encodeOrdered(v)) {
					t.Errorf("after uninstall:\n%s\nwant\n%s", got, encodeOrdered(v))
				}
			}
			if changed, _, err := Install(tc.agent, bin, path, false, Hooks{}); changed || err != nil {
				t.Errorf("second uninstall: %v %v; want no change", changed, err)
			}
		})
	}
}

// TestInstallRefuses: files hookd cannot edit safely are left alone, with
// an error that says what to do.
func TestInstallRefuses(t *testing.T) {
	for _, tc := range []struct{ agent, text, why string }{
		{"claude-code", "{\n  // a comment\n  \"a\": 1\n}\n", "--print-config"},
		{"gemini", "[1, 2]", "not a JSON object"},
		{"claude-code", `{"hooks": 3}`, `"hooks" is not an object`},
		{"codex", "[hooks]\nPostToolUse = []\n", "inline"},
		{"codex", "a = 1\n" + tomlBegin + "\n", "marker"},
		{"opencode", "export const Mine = 1\n", "not hookd's"},
		{"copilot", `{"version": 1, "hooks": {}}`, "not hookd's"},
	} {
		path := filepath.Join(t.TempDir(), "f")
		os.WriteFile(path, []byte(tc.text), 0o600)
		if _, _, err := Install(tc.agent, "/bin/hookd", path, true, Hooks{}); err == nil || !strings.Contains(err.Error(), tc.why) {
			t.Errorf("%s on %q: %v; want an error saying %q", tc.agent, tc.text, err, tc.why)
		}
		if b, _ := os.ReadFile(path); string(b) != tc.text {
			t.Errorf("%s: the file changed: %q", tc.agent, b)
		}
	}
}

// TestInstallCheck: the consent hook (hookd check --hook claude-code in
// PreToolUse) is added only when asked for, once, not async (Claude Code
// must wait for its answer); a later install keeps it (from whichever
// binary); uninstalling it alone keeps the recording hooks and the
// user's own PreToolUse hook; a full uninstall gives the file back.
func TestInstallCheck(t *testing.T) {
	const bin = "/opt/my tools/hookd"
	path := filepath.Join(t.TempDir(), "settings.json")
	orig := []byte(`{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}]}, "model": "opus"}`)
	os.WriteFile(path, orig, 0o600)
	read := func() string { b, _ := os.ReadFile(path); return string(b) }
	const check = "check --hook claude-code"
	if _, _, err := Install("claude-code", bin, path, true, Hooks{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(read(), check) {
		t.Fatalf("--install without --check added the consent hook:\n%s", read())
	}
	if changed, _, err := Install("claude-code", bin, path, true, Hooks{Check: true}); !changed || err != nil {
		t.Fatalf("install with check: %v %v", changed, err)
	}
	got := read()
	if strings.Count(got, check) != 1 || !strings.Contains(got, `"command": "'/opt/my tools/hookd' check --hook claude-code"`) ||
		strings.Count(got, "agent-hook claude-code") != 3 || !strings.Contains(got, "./guard.sh") ||
		strings.Index(got, "./guard.sh") > strings.Index(got, check) {
		t.Fatalf("after install with check:\n%s", got)
	}
	var doc struct {
		Hooks map[string][]struct {
			Matcher string
			Hooks   []map[string]any
		}
	}
	if err := json.Unmarshal([]byte(got), &doc); err != nil {
		t.Fatal(err)
	}
	for _, g := range doc.Hooks["PreToolUse"] {
		for _, h := range g.Hooks {
			if c, _ := h["command"].(string); strings.HasSuffix(c, check) && (g.Matcher != "Bash" || h["async"] != nil) {
				t.Errorf("consent hook %v in a group matching %q; want Bash, not async", h, g.Matcher)
			}
		}
	}
	if changed, _, err := Install("claude-code", bin, path, true, Hooks{Check: true}); changed || err != nil {
		t.Errorf("second install with check: %v %v; want no change", changed, err)
	}
	// A plain install (another binary) keeps it, and moves it to that one.
	if _, _, err := Install("claude-code", "/usr/bin/hookd", path, true, Hooks{}); err != nil {
		t.Fatal(err)
	}
	if got := read(); strings.Count(got, check) != 1 || strings.Contains(got, "my tools") {
		t.Errorf("after a plain install from another binary:\n%s", got)
	}
	// Uninstalling the consent hook alone.
	if changed, _, err := Install("claude-code", "/usr/bin/hookd", path, false, Hooks{Check: true}); !changed || err != nil {
		t.Fatalf("uninstall --check: %v %v", changed, err)
	}
	if got := read(); strings.Contains(got, check) || strings.Count(got, "agent-hook claude-code") != 3 || !strings.Contains(got, "./guard.sh") {
		t.Errorf("after uninstalling the consent hook:\n%s", got)
	}
	// Both in, then all out: the file as it was.
	Install("claude-code", bin, path, true, Hooks{Check: true})
	if changed, _, err := Install("claude-code", bin, path, false, Hooks{}); !changed || err != nil {
		t.Fatalf("uninstall: %v %v", changed, err)
	}
	v, _ := decodeOrdered(orig)
	if got := read(); got != string(encodeOrdered(v)) {
		t.Errorf("after uninstall:\n%s\nwant\n%s", got, encodeOrdered(v))
	}
	// Another agent has no consent hook of hookd's.
	if _, _, err := Install("gemini", bin, filepath.Join(t.TempDir(), "g.json"), true, Hooks{Check: true}); err == nil ||
		!strings.Contains(err.Error(), "hookd check -- CMD") {
		t.Errorf("gemini --check: %v; want an error saying what to do", err)
	}
}
