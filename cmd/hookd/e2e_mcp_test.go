package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/hookd/hookd/internal/required"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/shelltest"
)

// mcpCall is one tool call for the official TypeScript client
// (internal/mcp/sdkcheck/check.mjs).
type mcpCall struct {
	Name      string         `json:"name,omitempty"`
	Arguments map[string]any `json:"arguments,omitempty"`
	// Raw is sent as it is, as one line, while With (if any) is in
	// flight; the result is With's.
	Raw  any      `json:"raw,omitempty"`
	With *mcpCall `json:"with,omitempty"`
	// Resource reads a resource; Prompt gets a prompt (with Arguments).
	Resource string `json:"resource,omitempty"`
	Prompt   string `json:"prompt,omitempty"`
}

// mcpResult is a call's result as the client read it.
type mcpResult struct {
	Content []struct {
		Type, Text string
	}
	// Contents are a resource's; Messages a prompt's.
	Contents []struct{ URI, Text string }
	Messages []struct {
		Role    string
		Content struct{ Type, Text string }
	}
	StructuredContent map[string]any `json:"structuredContent"`
	IsError           bool           `json:"isError"`
}

// text is the result's text content.
func (r *mcpResult) text() string {
	var b strings.Builder
	for _, c := range r.Content {
		b.WriteString(c.Text)
	}
	return b.String()
}

// mcpOut is what check.mjs prints.
type mcpOut struct {
	Server       struct{ Name, Version string }
	Instructions string
	Capabilities map[string]any
	Tools        []struct {
		Name         string
		Description  string
		InputSchema  map[string]any `json:"inputSchema"`
		OutputSchema map[string]any `json:"outputSchema"`
		Annotations  struct {
			ReadOnlyHint bool `json:"readOnlyHint"`
		}
	}
	// Resources, ResourceTemplates and Prompts are listed when the
	// server has them.
	Resources []struct {
		URI, Name string
	}
	ResourceTemplates []struct {
		URITemplate string `json:"uriTemplate"`
	} `json:"resourceTemplates"`
	Prompts []struct {
		Name      string
		Arguments []struct{ Name string }
	}
	Calls []struct {
		Name   string
		Result *mcpResult
		// Ms is how long the call took, as the client saw it.
		Ms    float64
		Error *struct {
			Code    int
			Message string
		}
	}
	Stderr string
	Fatal  string
	// ClientErrors are the lines the client could not read.
	ClientErrors []string `json:"clientErrors"`
}

// runMCPClient starts `hookd mcp` in h with the official TypeScript MCP
// client, makes the calls and returns what the client made of them. It
// skips when node or the client is missing, unless REQUIRE_SDKCHECK=1
// (CI runs npm ci in internal/mcp/sdkcheck first).
func runMCPClient(t *testing.T, h *shelltest.Home, calls ...mcpCall) mcpOut {
	t.Helper()
	dir, _ := filepath.Abs("../../internal/mcp/sdkcheck")
	_, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk"))
	node, nerr := exec.LookPath("node")
	if err != nil || nerr != nil {
		required.Skip(t, fmt.Sprintf("node (%v) or the MCP SDK in %s/node_modules (%v) is missing: run npm ci there", nerr, dir, err), "REQUIRE_SDKCHECK")
	}
	b, _ := json.Marshal(calls)
	cmd := exec.CommandContext(t.Context(), node, filepath.Join(dir, "check.mjs"), hookdBin, string(b))
	cmd.Dir = h.Dir
	cmd.Env = h.Env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node check.mjs: %v\n%s\n%s", err, out, stderr.String())
	}
	var v mcpOut
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("check.mjs printed %s: %v", out, err)
	}
	if v.Fatal != "" {
		t.Fatalf("the MCP client failed: %s\nhookd mcp's stderr: %s", v.Fatal, v.Stderr)
	}
	if len(v.Calls) != len(calls) {
		t.Fatalf("%d results for %d calls", len(v.Calls), len(calls))
	}
	return v
}

// result is call i's result; it fails the test when the client threw.
func (o mcpOut) result(t *testing.T, i int) *mcpResult {
	t.Helper()
	c := o.Calls[i]
	if c.Error != nil || c.Result == nil {
		t.Fatalf("call %d (%s): the client threw %+v", i, c.Name, c.Error)
	}
	return c.Result
}

// TestMCPEndToEnd: commands typed in a real bash and zsh under capture,
// then read back through the official TypeScript MCP client: the tools
// listed with their schemas, recent_commands and command_output -1
// return the last command and its output, ranges, tail and grep select
// parts, secrets and control sequences never come out raw, bad calls get
// MCP errors while the server goes on, and history_search finds a command
// by words of its output.
func TestMCPEndToEnd(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		s := startCaptured(t, h, shell, "")
		runPrompt(t, s, `echo token=ghp_abcdefghijklmnopqrstuvwxyz0123456789; printf '\033]0;pwned\007done\n'`)
		runPrompt(t, s, "seq 1 200")
		runPrompt(t, s, `printf 'compiling\nerror: disk full\nmore\n'; false`)
		es := entries(t, h)
		if len(es) != 3 {
			t.Fatalf("%d commands recorded; want 3: %+v", len(es), es)
		}
		out := runMCPClient(t, h,
			mcpCall{Name: "recent_commands"},
			mcpCall{Name: "command_output", Arguments: map[string]any{"id": -1}},
			mcpCall{Name: "command_output", Arguments: map[string]any{"id": -2, "start_line": 10, "end_line": 12}},
			mcpCall{Name: "command_output", Arguments: map[string]any{"id": -2, "tail": 2}},
			mcpCall{Name: "command_output", Arguments: map[string]any{"id": -2, "grep": "^15$", "context": 1}},
			mcpCall{Name: "command_output", Arguments: map[string]any{"id": es[0].ID}},
			mcpCall{Name: "history_search", Arguments: map[string]any{"query": "seq", "limit": 1000000}},
			mcpCall{Name: "command_context", Arguments: map[string]any{"ids": []int{-1}}},
			mcpCall{Name: "command_output", Arguments: map[string]any{"id": 999999}},
			mcpCall{Name: "no_such_tool"},
			mcpCall{Name: "command_output", Arguments: map[string]any{"id": "x"}},
			mcpCall{Name: "command_output"},
			mcpCall{Name: "recent_commands", Arguments: map[string]any{"limit": 2}},
			mcpCall{Name: "history_search", Arguments: map[string]any{"query": "157"}},
		)
		// initialize: who it is, what it is for; the four tools, read-only,
		// with input and output schemas.
		if out.Server.Name != "hookd" || !strings.Contains(out.Instructions, "recent_commands") || !strings.Contains(out.Instructions, "read-only") {
			t.Errorf("server %+v, instructions %q", out.Server, out.Instructions)
		}
		var names []string
		for _, tl := range out.Tools {
			names = append(names, tl.Name)
			if tl.InputSchema["type"] != "object" || tl.OutputSchema["type"] != "object" || !tl.Annotations.ReadOnlyHint || tl.Description == "" {
				t.Errorf("tool %s: input %v, output %v, read-only %v", tl.Name, tl.InputSchema, tl.OutputSchema, tl.Annotations.ReadOnlyHint)
			}
		}
		if strings.Join(names, " ") != "agent_session assess_command command_context command_output diff_output history_search recent_commands search_output" {
			t.Errorf("tools = %q", names)
		}
		// recent_commands: the three, oldest first, with their ids.
		r := out.result(t, 0)
		cmds, _ := r.StructuredContent["commands"].([]any)
		if len(cmds) != 3 || r.IsError {
			t.Fatalf("recent_commands = %+v", r)
		}
		for i, c := range cmds {
			m := c.(map[string]any)
			if int64(m["id"].(float64)) != es[i].ID || m["command"] != es[i].Command {
				t.Errorf("recent_commands[%d] = %v; want #%d %q", i, m, es[i].ID, es[i].Command)
			}
		}
		if last := cmds[2].(map[string]any); last["exit_code"].(float64) != 1 || !strings.Contains(r.text(), "FAILED exit 1") {
			t.Errorf("the last command's status: %v; text %q", last, r.text())
		}
		// command_output -1: the last command, its output.
		r = out.result(t, 1)
		if r.StructuredContent["output"] != "compiling\nerror: disk full\nmore\n" || int64(r.StructuredContent["id"].(float64)) != es[2].ID ||
			!strings.Contains(r.text(), "error: disk full") {
			t.Errorf("command_output -1 = %+v", r)
		}
		// A range, the tail, grep with context.
		if got := out.result(t, 2).StructuredContent["output"]; got != "10\n11\n12\n" {
			t.Errorf("lines 10-12 = %q", got)
		}
		if got := out.result(t, 3).StructuredContent["output"]; got != "199\n200\n" {
			t.Errorf("tail 2 = %q", got)
		}
		if r := out.result(t, 4); r.StructuredContent["output"] != "14- 14\n15: 15\n16- 16\n" || r.StructuredContent["matches"].(float64) != 1 {
			t.Errorf("grep ^15$ = %+v", r.StructuredContent)
		}
		// The secret and the control sequence never come out raw.
		r = out.result(t, 5)
		all := r.text() + r.StructuredContent["output"].(string) + r.StructuredContent["command"].(string)
		if strings.Contains(all, "ghp_") || strings.Contains(all, "\x1b") || strings.Contains(all, "\a") || !strings.Contains(all, "[REDACTED]") {
			t.Errorf("the secret or a control sequence came out raw: %q", all)
		}
		// history_search: the seq command, a huge limit capped with a note.
		r = out.result(t, 6)
		found, _ := r.StructuredContent["commands"].([]any)
		if len(found) != 1 || int64(found[0].(map[string]any)["id"].(float64)) != es[1].ID || !strings.Contains(r.StructuredContent["note"].(string), "100") {
			t.Errorf("history_search seq = %+v", r.StructuredContent)
		}
		// command_context: the block hookd ctx prints.
		r = out.result(t, 7)
		if b := r.StructuredContent["block"].(string); !strings.Contains(b, "error: disk full") || !strings.Contains(b, "Exit status: 1") {
			t.Errorf("command_context = %q", b)
		}
		// A command that is not there, a tool that is not there, bad and
		// missing arguments: each an MCP error, and the server goes on.
		if r := out.result(t, 8); !r.IsError || !strings.Contains(r.text(), "no command 999999") {
			t.Errorf("command_output 999999 = %+v", r)
		}
		if e := out.Calls[9].Error; e == nil || e.Code != -32602 || !strings.Contains(e.Message, "no_such_tool") {
			t.Errorf("unknown tool: %+v", out.Calls[9])
		}
		if r := out.result(t, 10); !r.IsError || !strings.Contains(r.text(), "integer") {
			t.Errorf("id \"x\" = %+v", r)
		}
		if r := out.result(t, 11); !r.IsError || !strings.Contains(r.text(), "id") {
			t.Errorf("no id = %+v", r)
		}
		if cmds, _ := out.result(t, 12).StructuredContent["commands"].([]any); len(cmds) != 2 {
			t.Errorf("recent_commands after the bad calls = %v", cmds)
		}
		// history_search finds a command by what it printed (hookd
		// search's engine), with the line, through the SDK's client.
		r = out.result(t, 13)
		found, _ = r.StructuredContent["commands"].([]any)
		if len(found) != 1 || int64(found[0].(map[string]any)["id"].(float64)) != es[1].ID || found[0].(map[string]any)["matched"] != "output" ||
			found[0].(map[string]any)["line"] != "157" || found[0].(map[string]any)["line_number"] != 157.0 {
			t.Errorf("history_search 157 = %+v", r.StructuredContent)
		}
		// Nothing was written to the terminal's side: stderr stays quiet.
		if strings.TrimSpace(out.Stderr) != "" {
			t.Errorf("hookd mcp wrote on stderr: %q", out.Stderr)
		}
	})
}

// TestMCPSameBlockAsCtx: command_context gives what `hookd ctx ID` prints.
func TestMCPSameBlockAsCtx(t *testing.T) {
	h := newHome(t)
	hookdStdin(t, h, "line one\nerror: two\n", "record", "--author", "aider", "--exit", "2", "--output-file", "-", "--", "make", "check")
	want := hookd(t, h, "ctx", "1")
	out := runMCPClient(t, h, mcpCall{Name: "command_context", Arguments: map[string]any{"ids": []int{1}}})
	// The same but for the fence's boundary, new each time.
	boundary := regexp.MustCompile(`OUTPUT [0-9a-f]+>>>`)
	got, _ := out.result(t, 0).StructuredContent["block"].(string)
	if boundary.ReplaceAllString(got, "B") != boundary.ReplaceAllString(want, "B") || !strings.Contains(want, "error: two") {
		t.Errorf("command_context = %q\nhookd ctx 1 = %q", got, want)
	}
}

// hookdStdin runs hookd with stdin and returns stdout; it fails the test on
// an error.
func hookdStdin(t *testing.T, h *shelltest.Home, stdin string, args ...string) string {
	t.Helper()
	cmd := exec.Command(hookdBin, args...)
	cmd.Env, cmd.Dir, cmd.Stdin = h.Env, h.Dir, strings.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("hookd %s: %v\nstderr: %s", strings.Join(args, " "), err, errOut.String())
	}
	if errOut.Len() > 0 {
		t.Errorf("hookd %s wrote on stderr: %q", strings.Join(args, " "), errOut.String())
	}
	return out.String()
}

// agentRec is `hookd history --json` with the author.
type agentRec struct {
	rec
	Author string `json:"author"`
	Source string `json:"source"`
}

func agentEntries(t *testing.T, h *shelltest.Home, args ...string) []agentRec {
	t.Helper()
	var es []agentRec
	for _, l := range strings.Split(strings.TrimSpace(hookd(t, h, append([]string{"history", "--json"}, args...)...)), "\n") {
		if l == "" {
			continue
		}
		var e agentRec
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatalf("bad JSON line %q: %v", l, err)
		}
		es = append([]agentRec{e}, es...)
	}
	return es
}

// TestAgentHookClaudeCode: Claude Code's hook payloads (fixtures of its
// documented shape) are recorded at once, exit 0 and silent, into one
// session with author claude-code, outputs and statuses kept, secrets
// redacted; payloads that are not a Bash call, or not JSON, record nothing,
// exit 0, and say why in hookd.log; the agent's commands are found with
// --author, and the MCP tools leave them out unless asked.
func TestAgentHookClaudeCode(t *testing.T) {
	h := newHome(t)
	hookdStdin(t, h, "", "record", "--author", "zz-tool", "--", "true") // another agent's
	fixtures := "../../internal/recording/agenthook/testdata/claude-code/"
	for _, name := range []string{"success.json", "failure.json", "secret.json", "interrupted.json", "not_bash.json", "pre_tool_use.json", "not_json.txt", "background.json"} {
		payload, err := os.ReadFile(fixtures + name)
		if err != nil {
			t.Fatal(err)
		}
		if out := hookdStdin(t, h, string(payload), "agent-hook", "claude-code"); out != "" {
			t.Errorf("agent-hook %s printed %q", name, out)
		}
	}
	es := agentEntries(t, h, "--author", "claude-code")
	// In the order Claude ran them (the history lists them by start time,
	// which the hook knows from the duration it is given).
	slices.SortFunc(es, func(a, b agentRec) int { return int(a.Seq - b.Seq) })
	want := []struct {
		cmd  string
		exit int
	}{{"go build ./... && echo built", 0}, {"go test ./...", 1}, {"curl -H 'Authorization: Bearer [REDACTED]' https://api.example.com/v1/me", 0},
		{"sleep 600", 130}, {"npm run dev", 0}}
	if len(es) != len(want) {
		t.Fatalf("claude-code's commands: %+v; want %d", es, len(want))
	}
	for i, w := range want {
		e := es[i]
		if e.Command != w.cmd || e.ExitCode != w.exit || e.Author != "claude-code" || e.Source != "agent" || e.Cwd != "/home/u/src/app" {
			t.Errorf("command %d = %+v; want %q exit %d", i, e, w.cmd, w.exit)
		}
		if e.Session != es[0].Session {
			t.Errorf("command %d in session %s; want one session for the Claude session (%s)", i, e.Session, es[0].Session)
		}
	}
	if es[0].DurationMS < 1500 || es[0].DurationMS > 1600 {
		t.Errorf("duration = %v ms; want the hook's 1532", es[0].DurationMS)
	}
	// Outputs: stdout and stderr apart and together; a failure's text.
	if out := hookd(t, h, "out", "--author", "claude-code", "-5"); out != "built\ngo: downloading golang.org/x/sys v0.49.0\n" {
		t.Errorf("success output = %q", out)
	}
	if out := hookd(t, h, "out", "--author", "claude-code", "--stream", "stderr", "-5"); out != "go: downloading golang.org/x/sys v0.49.0\n" {
		t.Errorf("success stderr = %q", out)
	}
	if out := hookd(t, h, "out", "--author", "claude-code", "-4"); !strings.HasPrefix(out, "--- FAIL: TestParse") {
		t.Errorf("failure output = %q", out)
	}
	if out := hookd(t, h, "out", "--author", "claude-code", "-3"); strings.Contains(out, "ghp_") || strings.Contains(out, "\x1b") {
		t.Errorf("the secret's output kept it: %q", out)
	}
	// Everyone's by default; --author= is the user's own (none here).
	if all := agentEntries(t, h); len(all) != 6 {
		t.Errorf("hookd history: %d commands; want the 6 agents' ones", len(all))
	}
	if own := strings.TrimSpace(hookd(t, h, "history", "--json", "--author=")); own != "" {
		t.Errorf("hookd history --author= lists %q; want nothing", own)
	}
	if text := hookd(t, h, "history", "--author", "claude-code"); !strings.Contains(text, "[claude-code] go test ./...") {
		t.Errorf("hookd history marks no author:\n%s", text)
	}
	// The ignored payloads: a line each in hookd.log.
	log, _ := os.ReadFile(h.Path(".local", "state", "hookd", "hookd.log"))
	for _, why := range []string{`tool \"Write\" is not Bash`, `event \"PreToolUse\"`, "not JSON"} {
		if !strings.Contains(string(log), why) {
			t.Errorf("hookd.log does not say %s:\n%s", why, log)
		}
	}
	// Through MCP: the user's commands only by default; the agent's on
	// request.
	out := runMCPClient(t, h,
		mcpCall{Name: "history_search", Arguments: map[string]any{"query": "go"}},
		mcpCall{Name: "history_search", Arguments: map[string]any{"query": "go", "author": "claude-code"}},
		mcpCall{Name: "recent_commands", Arguments: map[string]any{"author": "claude-code", "limit": 2}},
		mcpCall{Name: "command_output", Arguments: map[string]any{"id": -1}},
		mcpCall{Name: "command_output", Arguments: map[string]any{"id": -4, "author": "claude-code"}},
	)
	if cmds, _ := out.result(t, 0).StructuredContent["commands"].([]any); len(cmds) != 0 {
		t.Errorf("history_search found the agent's commands by default: %v", cmds)
	}
	if cmds, _ := out.result(t, 1).StructuredContent["commands"].([]any); len(cmds) != 2 {
		t.Errorf("history_search author claude-code = %v", cmds)
	}
	if cmds, _ := out.result(t, 2).StructuredContent["commands"].([]any); len(cmds) != 2 || cmds[1].(map[string]any)["command"] != "npm run dev" {
		t.Errorf("recent_commands author claude-code = %v", cmds)
	}
	if r := out.result(t, 3); !r.IsError || !strings.Contains(r.text(), "no command of an interactive shell") {
		t.Errorf("command_output -1 with no shell of the user's = %+v", r)
	}
	if r := out.result(t, 4); r.IsError || !strings.Contains(r.StructuredContent["output"].(string), "FAIL: TestParse") {
		t.Errorf("command_output -4 of claude-code = %+v", r)
	}
}

// TestAgentHookNeverBlocks: the hook returns with exit 0 on any input,
// even when it cannot record (the state directory is a file).
func TestAgentHookNeverBlocks(t *testing.T) {
	h := newHome(t)
	os.MkdirAll(h.Path(".local", "state"), 0o700)
	os.WriteFile(h.Path(".local", "state", "hookd"), []byte("not a directory"), 0o600)
	payload, _ := os.ReadFile("../../internal/recording/agenthook/testdata/claude-code/success.json")
	for _, in := range []string{string(payload), "", "{", strings.Repeat("x", 1<<20)} {
		cmd := exec.Command(hookdBin, "agent-hook", "claude-code")
		cmd.Env, cmd.Stdin = h.Env, strings.NewReader(in)
		start := time.Now()
		out, err := cmd.CombinedOutput()
		if err != nil || len(out) != 0 {
			t.Errorf("agent-hook on %d bytes: %v, %q; want exit 0, silent", len(in), err, out)
		}
		if d := time.Since(start); d > shelltest.Scale(5*time.Second) {
			t.Errorf("agent-hook took %v", d)
		}
	}
	// A usage mistake is one, though.
	if _, _, err := hookdRun(h, nil, "agent-hook", "vim"); exitStatus(err) != 2 {
		t.Errorf("agent-hook vim: %v; want exit 2", err)
	}
}

func exitStatus(err error) int {
	var ee *exec.ExitError
	if err == nil {
		return 0
	}
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	return -1
}

// TestRecord: hookd record records another tool's command with its
// status, directory and output, in one session per key; it refuses to
// record without an author.
func TestRecord(t *testing.T) {
	h := newHome(t)
	outFile := h.Path("out.txt")
	os.WriteFile(outFile, []byte("E: boom\n"), 0o600)
	hookdStdin(t, h, "", "record", "--author", "aider", "--session", "s2", "--", "ls")
	hookdStdin(t, h, "", "record", "--author", "aider", "--exit", "2", "--cwd", "/srv", "--output-file", outFile, "--session", "s1", "--duration", "1.5s", "--", "make", "deploy env=prod")
	hookdStdin(t, h, "from stdin\n", "record", "--author", "aider", "--output-file", "-", "--session", "s1", "--", "git status")
	es := agentEntries(t, h, "--author", "aider")
	slices.SortFunc(es, func(a, b agentRec) int { return int(a.Seq - b.Seq) })
	if len(es) != 3 || es[1].Command != "make 'deploy env=prod'" || es[1].ExitCode != 2 || es[1].Cwd != "/srv" || es[1].DurationMS != 1500 ||
		es[2].Command != "git status" || es[1].Session != es[2].Session || es[0].Session == es[1].Session {
		t.Fatalf("recorded %+v", es)
	}
	if out := hookd(t, h, "out", "--author", "aider", "-2"); out != "E: boom\n" {
		t.Errorf("output from a file = %q", out)
	}
	if out := hookd(t, h, "out", "--author", "aider", "-1"); out != "from stdin\n" {
		t.Errorf("output from stdin = %q", out)
	}
	if out := hookd(t, h, "show", strconv.FormatInt(es[0].ID, 10)); !strings.Contains(out, "none: its agent gave no output") || !strings.Contains(out, "aider (a coding agent's command)") {
		t.Errorf("show of a command recorded without output:\n%s", out)
	}
	for _, args := range [][]string{{"record", "--", "ls"}, {"record", "--author", "a b", "--", "ls"}, {"record", "--author", "x"}} {
		if _, errOut, err := hookdRun(h, nil, args...); exitStatus(err) != 2 || errOut == "" {
			t.Errorf("hookd %s: %v, %q; want a usage error", strings.Join(args, " "), err, errOut)
		}
	}
}

// TestMCPDatabaseRecovering: a damaged database that another process is
// recovering (it holds the recovery lock) gives a tool error that says so;
// once the lock is free, the next call recovers the database itself and
// answers; the damaged file is kept aside, nothing lost.
func TestMCPDatabaseRecovering(t *testing.T) {
	h := newHome(t)
	db := h.Path(".local", "share", "hookd", "history.db")
	os.MkdirAll(filepath.Dir(db), 0o700)
	os.WriteFile(db, bytes.Repeat([]byte("garbage!"), 1024), 0o600)
	lock, err := os.OpenFile(db+".lock", os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	out := runMCPClient(t, h, mcpCall{Name: "recent_commands"})
	if r := out.result(t, 0); !r.IsError || !strings.Contains(r.text(), "recovering") {
		t.Errorf("a call while another process recovers the database = %+v", r)
	}
	syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	lock.Close()
	out = runMCPClient(t, h, mcpCall{Name: "history_search"}, mcpCall{Name: "recent_commands"})
	if r := out.result(t, 0); r.IsError {
		t.Errorf("a call once the lock is free = %+v", r)
	}
	aside, _ := filepath.Glob(db + ".corrupt-*")
	if len(aside) == 0 {
		t.Errorf("the damaged database was not kept aside")
	}
}
