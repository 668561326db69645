package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookd/hookd/internal/ai/llm/llmtest"
	"github.com/hookd/hookd/internal/shelltest"
)

// promptProject makes a repository under the home with prompt files.
func promptProject(t *testing.T, h *shelltest.Home) string {
	t.Helper()
	dir := h.Path("proj")
	for p, c := range map[string]string{
		".git/HEAD":                  "ref: refs/heads/main\n",
		".hookd/commands/review.md":  "---\ndescription: Review a file\nargument-hint: FILE\n---\nReview $0 carefully.\n@notes.txt\n!`echo from-echo`\n!`rm -rf x`\n",
		".claude/commands/review.md": "shadowed",
		"notes.txt":                  "NOTES-CONTENT",
	} {
		full := filepath.Join(dir, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	user := filepath.Join(h.Path(".config"), "hookd", "commands")
	os.MkdirAll(user, 0o755)
	os.WriteFile(filepath.Join(user, "mine.md"), []byte("---\ndescription: mine\n---\nmine"), 0o644)
	return dir
}

func hookdIn(h *shelltest.Home, dir string, env []string, args ...string) (string, string, error) {
	cmd := exec.Command(hookdBin, args...)
	cmd.Env = append(append([]string{}, h.Env...), env...)
	cmd.Dir = dir
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	return out.String(), errOut.String(), err
}

// TestPromptExpandCLI: hookd commands lists and shadows, hookd expand
// prints the text and the JSON, and COMMAND_NOT_FOUND with searchedPaths.
func TestPromptExpandCLI(t *testing.T) {
	h := newHome(t)
	dir := promptProject(t, h)
	out, errOut, err := hookdIn(h, dir, nil, "commands")
	if err != nil || !strings.Contains(out, "/review") || !strings.Contains(out, "FILE  Review a file") ||
		!strings.Contains(out, "(shadowed by "+filepath.Join(dir, ".hookd/commands/review.md")+")") || !strings.Contains(out, "/mine") {
		t.Errorf("hookd commands: %v %s\n%s", err, errOut, out)
	}
	if out, _, _ = hookdIn(h, dir, nil, "commands", "--names"); out != "mine\nreview\n" {
		t.Errorf("--names: %q", out)
	}
	out, errOut, err = hookdIn(h, dir, nil, "expand", "/review", "main.go")
	if err != nil || !strings.Contains(out, "Review main.go carefully.\nNOTES-CONTENT\nfrom-echo\n!`rm -rf x`") || !strings.Contains(errOut, "not allowed") {
		t.Errorf("expand: %v\n%s\nstderr: %s", err, out, errOut)
	}
	out, _, err = hookdIn(h, dir, nil, "expand", "review", "--json", "a")
	var r struct {
		Success bool
		Command struct{ Name, Path, Content string }
	}
	if err != nil || json.Unmarshal([]byte(out), &r) != nil || !r.Success || r.Command.Path != ".hookd/commands/review.md" {
		t.Errorf("expand --json: %v\n%s", err, out)
	}
	out, _, err = hookdIn(h, dir, nil, "expand", "--json", "/nope")
	var nf struct {
		Success bool
		Error   struct {
			Code          string
			SearchedPaths []string
		}
	}
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || json.Unmarshal([]byte(out), &nf) != nil || nf.Success ||
		nf.Error.Code != "COMMAND_NOT_FOUND" || !strings.Contains(strings.Join(nf.Error.SearchedPaths, " "), ".claude/commands/nope.md") {
		t.Errorf("not found: %v\n%s", err, out)
	}
}

// TestPromptAsk: hookd ask /review x sends the expanded prompt file.
func TestPromptAsk(t *testing.T) {
	fake := llmtest.NewOpenAI(t)
	fake.SetKey("test-key")
	fake.SetReply(llmtest.Reply{Text: []string{"Looks fine."}, InputTokens: 5, OutputTokens: 2})
	h := newHome(t)
	dir := promptProject(t, h)
	out, errOut, err := hookdIn(h, dir, llmEnv(fake), "ask", "/review", "x.go")
	if err != nil || !strings.Contains(out, "Looks fine.") {
		t.Fatalf("ask: %v\n%s\nstderr: %s", err, out, errOut)
	}
	user := userMessage(t, fake)
	for _, want := range []string{"Review x.go carefully.", "NOTES-CONTENT", "from-echo"} {
		if !strings.Contains(user, want) {
			t.Errorf("the user message lacks %q:\n%s", want, user)
		}
	}
	// As ?? sends it: one quoted argument.
	if _, errOut, err = hookdIn(h, dir, llmEnv(fake), "ask", "--", "/review y.go"); err != nil || !strings.Contains(userMessage(t, fake), "Review y.go carefully.") {
		t.Errorf("ask '/review y.go': %v %s\n%s", err, errOut, userMessage(t, fake))
	}
}
