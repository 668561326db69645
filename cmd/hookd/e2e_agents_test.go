package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/shelltest"

	"github.com/hookd/hookd/internal/required"
)

// TestAgentHooks: Codex's, Gemini CLI's and hookd's opencode plugin's
// payloads (fixtures of their documented shapes) through the real hookd
// agent-hook: each command recorded under the agent's name with its status
// and output, under its prompt, with its intent; malformed and huge
// payloads exit 0 at once, record nothing and leave a line in hookd.log.
func TestAgentHooks(t *testing.T) {
	h := newHome(t)
	fix := "../../internal/recording/agenthook/testdata/"
	for _, tc := range []struct {
		agent    string
		payloads []string
		want     []string // lines of history --by-prompt, by suffix
		out      string   // what out -1 prints
	}{
		{"codex", []string{"user_prompt.json", "post_tool_use.json"}, []string{"make the tests pass", "cargo test"},
			"error[E0425]: cannot find value `x` in this scope\n"},
		{"gemini", []string{"before_agent.json", "before_tool.json", "after_tool.json"},
			[]string{"why do the web tests fail?", "npm test", "↳ Run the unit tests"}, "FAIL src/app.test.js\n  expected 2, got 3\n"},
		{"opencode", []string{"prompt.json", "read.json", "after.json"}, []string{"vet it", "go vet ./...", "↳ Vet the code"},
			"./main.go:3:2: unused import\n"},
		{"copilot", []string{"user_prompt.json", "view.json", "post_tool_use.json"}, []string{"run the checks", "make check", "↳ Run the checks"},
			"vet: ok\nlint: 2 problems\n"},
	} {
		for _, name := range tc.payloads {
			b, err := os.ReadFile(fix + tc.agent + "/" + name)
			if err != nil {
				t.Fatal(err)
			}
			out := hookdStdin(t, h, string(b), "agent-hook", tc.agent)
			if want := map[bool]string{true: "{}\n", false: ""}[tc.agent == "gemini"]; out != want {
				t.Errorf("%s %s printed %q; want %q", tc.agent, name, out, want)
			}
		}
		got := strings.Split(strings.TrimRight(hookd(t, h, "history", "--author", tc.agent, "--by-prompt"), "\n"), "\n")
		if len(got) != len(tc.want) {
			t.Errorf("%s: history --by-prompt = %q; want %q", tc.agent, got, tc.want)
			continue
		}
		for i, w := range tc.want {
			if !strings.HasSuffix(got[i], w) {
				t.Errorf("%s: line %d = %q; want …%q", tc.agent, i, got[i], w)
			}
		}
		if out := hookd(t, h, "out", "--author", tc.agent, "-1"); out != tc.out {
			t.Errorf("%s: out -1 = %q; want %q", tc.agent, out, tc.out)
		}
	}
	// Malformed and huge payloads: exit 0 at once, nothing recorded, a
	// line in the log.
	before := hookd(t, h, "history", "--author", "codex")
	for _, agent := range []string{"codex", "gemini", "opencode", "copilot"} {
		for _, in := range []string{"", "{", `{"hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_input": 3}`, strings.Repeat("[", 1<<20)} {
			cmd := exec.Command(hookdBin, "agent-hook", agent)
			cmd.Env, cmd.Stdin = h.Env, strings.NewReader(in)
			var errOut bytes.Buffer
			cmd.Stderr = &errOut
			start := time.Now()
			if err := cmd.Run(); err != nil || errOut.Len() > 0 {
				t.Errorf("%s on %d bytes: %v %q; want exit 0, silent", agent, len(in), err, errOut.String())
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("%s on %d bytes took %v", agent, len(in), d)
			}
		}
	}
	if after := hookd(t, h, "history", "--author", "codex"); after != before {
		t.Errorf("a malformed payload was recorded:\n%s", after)
	}
	log, _ := os.ReadFile(h.Path(".local", "state", "hookd", "hookd.log"))
	for _, agent := range []string{"codex", "gemini", "opencode", "copilot"} {
		if n := strings.Count(string(log), "agent-hook "+agent+": nothing recorded"); n < 4 {
			t.Errorf("hookd.log has %d lines for %s's bad payloads; want one each (4 or more):\n%s", n, agent, log)
		}
	}
}

// TestAgentHookInstall: --install edits the agent's own settings file in
// HOME (or --settings FILE), idempotent, a backup kept; --uninstall takes
// it out; an unknown agent is a usage error naming those there are.
func TestAgentHookInstall(t *testing.T) {
	h := newHome(t)
	settings := h.Path(".gemini", "settings.json")
	os.MkdirAll(filepath.Dir(settings), 0o700)
	orig := "{\"theme\": \"GitHub\", \"hooks\": {\"AfterTool\": [{\"matcher\": \"write_file\", \"hooks\": [{\"type\": \"command\", \"command\": \"./fmt.sh\"}]}]}}\n"
	os.WriteFile(settings, []byte(orig), 0o600)
	out := hookd(t, h, "agent-hook", "gemini", "--install")
	if !strings.Contains(out, "installed in "+settings) || !strings.Contains(out, settings+".hookd-backup") {
		t.Errorf("install said %q", out)
	}
	b, _ := os.ReadFile(settings)
	if !strings.Contains(string(b), "./fmt.sh") || !strings.Contains(string(b), hookdBin+" agent-hook gemini") ||
		strings.Index(string(b), "theme") > strings.Index(string(b), "hooks") {
		t.Errorf("settings after install:\n%s", b)
	}
	if bk, _ := os.ReadFile(settings + ".hookd-backup"); string(bk) != orig {
		t.Errorf("backup = %q", bk)
	}
	if out := hookd(t, h, "agent-hook", "gemini", "--install"); !strings.Contains(out, "already in") {
		t.Errorf("second install said %q", out)
	}
	if out := hookd(t, h, "agent-hook", "gemini", "--uninstall"); !strings.Contains(out, "removed from") {
		t.Errorf("uninstall said %q", out)
	}
	if b, _ := os.ReadFile(settings); strings.Contains(string(b), "agent-hook") || !strings.Contains(string(b), "./fmt.sh") {
		t.Errorf("settings after uninstall:\n%s", b)
	}
	// Codex in a file named on the command line.
	toml := filepath.Join(h.Dir, "config.toml")
	os.WriteFile(toml, []byte("# mine\nmodel = \"o3\"\n"), 0o600)
	hookd(t, h, "agent-hook", "codex", "--install", "--settings", toml)
	if b, _ := os.ReadFile(toml); !strings.HasPrefix(string(b), "# mine\nmodel = \"o3\"\n\n# >>> hookd") {
		t.Errorf("config.toml after install:\n%s", b)
	}
	// Claude Code: the consent hook only with --check, and it answers.
	claude := h.Path(".claude", "settings.json")
	hookd(t, h, "agent-hook", "claude-code", "--install")
	if b, _ := os.ReadFile(claude); strings.Contains(string(b), "check --hook") || !strings.Contains(string(b), "agent-hook claude-code") {
		t.Errorf("settings.json after --install:\n%s", b)
	}
	if out := hookd(t, h, "agent-hook", "claude-code", "--install", "--check"); !strings.Contains(out, "consent hook: installed in "+claude) {
		t.Errorf("install --check said %q", out)
	}
	b, _ = os.ReadFile(claude)
	if !strings.Contains(string(b), `"PreToolUse"`) || !strings.Contains(string(b), hookdBin+" check --hook claude-code") {
		t.Errorf("settings.json after --install --check:\n%s", b)
	}
	if out := hookd(t, h, "agent-hook", "claude-code", "--uninstall", "--check"); !strings.Contains(out, "consent hook: removed from") {
		t.Errorf("uninstall --check said %q", out)
	}
	if b, _ := os.ReadFile(claude); strings.Contains(string(b), "check --hook") || !strings.Contains(string(b), "agent-hook claude-code") {
		t.Errorf("settings.json after --uninstall --check:\n%s", b)
	}
	if _, errOut, err := hookdRun(h, nil, "agent-hook", "gemini", "--install", "--check"); exitStatus(err) == 0 || !strings.Contains(errOut, "claude-code only") {
		t.Errorf("agent-hook gemini --install --check: %v %q; want an error", err, errOut)
	}
	if _, errOut, err := hookdRun(h, nil, "agent-hook", "cursor"); exitStatus(err) != 2 || !strings.Contains(errOut, "opencode") {
		t.Errorf("agent-hook cursor: %v %q; want a usage error naming the agents", err, errOut)
	}
}

// TestOpencodePlugin loads the plugin --install writes into node, as
// opencode would, and calls its hooks: the bash call and the prompt reach
// the history through the real hookd.
func TestOpencodePlugin(t *testing.T) {
	required.Tool(t, "node", "REQUIRE_SDKCHECK")
	h := newHome(t)
	plugin := filepath.Join(h.Dir, "hookd.mjs")
	hookd(t, h, "agent-hook", "opencode", "--install", "--settings", plugin)
	script := `
const { HookdPlugin } = await import(process.argv[1]);
const hooks = await HookdPlugin({ directory: "/src/app" });
await hooks["chat.message"]({ sessionID: "ses_1" }, { message: {}, parts: [{ type: "text", text: "list the files" }] });
await new Promise((r) => setTimeout(r, 300));
await hooks["tool.execute.before"]({ tool: "bash", sessionID: "ses_1", callID: "c1" }, { args: { command: "ls -l", description: "List files" } });
await hooks["tool.execute.after"]({ tool: "bash", sessionID: "ses_1", callID: "c1" }, { title: "ls -l", output: "total 0\n", metadata: { output: "total 0\n", exit: 0 } });
`
	cmd := exec.Command("node", "--input-type=module", "-e", script, plugin)
	cmd.Env = h.Env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	var out string
	shelltest.Eventually(t, 10*time.Second, func() bool {
		out = hookd(t, h, "history", "--author", "opencode", "--by-prompt")
		return strings.Contains(out, "ls -l")
	}, func() string { return out })
	if !strings.Contains(out, "list the files") || !strings.Contains(out, "↳ List files") {
		t.Errorf("history --by-prompt:\n%s", out)
	}
}
