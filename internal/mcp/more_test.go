package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/recording/runctx"
)

// runsFixture is a history where make build worked, then failed, with a
// secret and a huge output, and a session of Claude Code's.
func runsFixture(t testing.TB, huge int) (*fixture, Options) {
	t.Helper()
	ctx := context.Background()
	f := &fixture{path: filepath.Join(t.TempDir(), "history.db"), ids: map[string]int64{}}
	s, err := history.Open(ctx, f.path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tx, err := s.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	tx.AddSession(ctx, history.Session{ID: "zsh-1", Shell: "zsh", Capture: "pty"})
	tx.AddSession(ctx, history.Session{ID: "cc-1", Shell: "agent", Capture: "agent", Author: "claude-code"})
	var big strings.Builder
	for big.Len() < huge {
		fmt.Fprintf(&big, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa %d\n", big.Len())
	}
	cmds := []struct {
		name, session, text, out string
		exit                     int
	}{
		{"worked", "zsh-1", "make build", "step 1\nstep 2\nbuilt ok\n", 0},
		{"other", "zsh-1", "ls", "Makefile\nmain.go\n", 0},
		{"failed", "zsh-1", "make build", "step 1\nstep 2\nerror: disk full\nmake: *** [build] Error 1\n", 2},
		{"secret", "zsh-1", "cat .env", "TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789\n", 0},
		{"huge", "zsh-1", "yes", big.String(), 0},
		{"agent1", "cc-1", "go test ./...", "--- FAIL: TestX\nFAIL\n", 1},
		{"agent2", "cc-1", "go vet ./...", "ok \x1b]0;pwned\x07\n", 0},
	}
	for i, c := range cmds {
		seq := int64(i + 1)
		if _, err := tx.AddCommand(ctx, history.Entry{Session: c.session, Seq: seq, Command: c.text, ExitCode: c.exit,
			Cwd: "/src", StartedAt: t0 + seq*1_000_000, DurationUS: 1500, Source: map[bool]string{true: "agent", false: "hook"}[c.session == "cc-1"]}); err != nil {
			t.Fatal(err)
		}
		if err := tx.AddOutput(ctx, history.Output{Session: c.session, Seq: seq, Text: []byte(c.out), Bytes: int64(len(c.out)), CreatedAt: t0}); err != nil {
			t.Fatal(err)
		}
		if c.session == "zsh-1" {
			branch := map[bool]string{true: "main", false: "feature"}[c.exit == 0]
			if err := tx.AddContext(ctx, c.session, seq, c.exit == 0, t0+seq*1_000_000,
				history.Context{Key: runctx.KeyHash(c.text), Repo: "/src", Branch: branch, Dirty: -1}); err != nil {
				t.Fatal(err)
			}
		}
		f.ids[c.name] = seq
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	for done := false; !done; {
		if done, err = s.FillOutputIndex(ctx, 1000); err != nil {
			t.Fatal(err)
		}
	}
	return f, f.options()
}

func TestSearchOutput(t *testing.T) {
	f, o := runsFixture(t, 1<<20)
	cs := connect(t, o)
	m, text, isErr := call(t, cs, "search_output", map[string]any{"query": "DISK full", "context_lines": 1})
	cmds, _ := m["commands"].([]any)
	if isErr || len(cmds) != 1 || m["complete"] != true {
		t.Fatalf("query disk full: %q", text)
	}
	c := cmds[0].(map[string]any)
	if int64(c["id"].(float64)) != f.ids["failed"] || c["lines"] != "2- step 2\n3: error: disk full\n4- make: *** [build] Error 1\n" {
		t.Errorf("query disk full: %v", c)
	}
	m, text, _ = call(t, cs, "search_output", map[string]any{"regex": `^err(or)?: \w+ FULL$`, "context_lines": 0})
	if !strings.Contains(text, "3: error: disk full") || m["matches"].(float64) != 1 {
		t.Errorf("regex: %q", text)
	}
	// Agents' commands only when asked, sanitized.
	m, _, _ = call(t, cs, "search_output", map[string]any{"query": "fail"})
	if len(m["commands"].([]any)) != 0 {
		t.Errorf("the agent's output searched by default: %v", m)
	}
	_, text, _ = call(t, cs, "search_output", map[string]any{"regex": "ok|fail", "author": "claude-code"})
	if !strings.Contains(text, "FAIL: TestX") || !strings.Contains(text, `\e]0;pwned`) || strings.ContainsAny(text, "\x1b\x07") {
		t.Errorf("author claude-code: %q", text)
	}
	// A secret is matched as it is given, redacted: no pattern tells
	// its characters.
	m, text, _ = call(t, cs, "search_output", map[string]any{"regex": "ghp_a"})
	if len(m["commands"].([]any)) != 0 || strings.Contains(text, "ghp_") {
		t.Errorf("a secret's characters matched: %q", text)
	}
	// The limit of matching lines.
	m, _, _ = call(t, cs, "search_output", map[string]any{"regex": "^a+ [0-9]+$", "limit": 5, "context_lines": 0})
	if m["matches"].(float64) != 5 || m["complete"] != false || !strings.Contains(m["note"].(string), "5 matching lines") {
		t.Errorf("limit 5: %v", m)
	}
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{}, "give query"},
		{map[string]any{"query": "a", "regex": "b"}, "not both"},
		{map[string]any{"regex": "("}, "not a regular expression"},
		{map[string]any{"regex": "(((a{100}){100}){100})"}, "not a regular expression"},
		{map[string]any{"query": strings.Repeat("x", 2000)}, "longer than"},
		{map[string]any{"query": "x", "context_lines": 11}, "context_lines"},
		{map[string]any{"query": "x", "cwd": "src"}, "absolute"},
	} {
		_, text, isErr := call(t, cs, "search_output", c.args)
		if !isErr || !strings.Contains(text, c.want) {
			t.Errorf("search_output(%v) = %q; want an error saying %q", c.args, text, c.want)
		}
	}
}

// TestSearchOutputBounded: a pattern that is slow on every byte stops at
// the deadline, and one that reads much stops at the bytes' bound, each
// saying so.
func TestSearchOutputBounded(t *testing.T) {
	_, o := runsFixture(t, 8<<20)
	cs := connect(t, o)
	defer func(d time.Duration) { searchDeadline = d }(searchDeadline)
	searchDeadline = 100 * time.Millisecond
	start := time.Now()
	m, text, isErr := call(t, cs, "search_output", map[string]any{"regex": `(\w+\s*){1,50}(\w+\s*){1,50}zzz`})
	took := time.Since(start)
	if isErr || m["complete"] != false || !strings.Contains(m["note"].(string), "time limit") {
		t.Errorf("a slow pattern: %q", text)
	}
	if took > 2*time.Second {
		t.Errorf("a slow pattern took %s against a deadline of %s", took, searchDeadline)
	}
	searchDeadline = time.Minute
	defer func(n int64) { maxScanBytes = n }(maxScanBytes)
	maxScanBytes = 1 << 20
	m, text, _ = call(t, cs, "search_output", map[string]any{"regex": "[z]{3}"})
	if m["complete"] != false || !strings.Contains(m["note"].(string), "1.0M of output") {
		t.Errorf("the bytes' bound: %q", text)
	}
}

func TestRegexWords(t *testing.T) {
	for re, want := range map[string][]string{
		`error: disk full`:      {"disk", "full"},
		`^error: disk`:          {"error", "disk"},
		`\bpanic\b`:             {"panic"},
		`err(or)?: \w+ full`:    {"full"},
		`(x|y) foo`:             {"foo"},
		`.*`:                    nil,
		`a fo`:                  nil,
		`time (out|limit)`:      nil,
		`(?i)connection (ref)+`: nil,
	} {
		if got := regexWords(re); !slices.Equal(got, want) {
			t.Errorf("regexWords(%q) = %q, want %q", re, got, want)
		}
	}
}

func TestDiffOutput(t *testing.T) {
	f, o := runsFixture(t, 10)
	cs := connect(t, o)
	m, text, isErr := call(t, cs, "diff_output", map[string]any{"id": f.ids["failed"], "context_lines": 1})
	if isErr || int64(m["from"].(map[string]any)["id"].(float64)) != f.ids["worked"] ||
		m["diff"] != "@@ -2,2 +2,3 @@\n step 2\n-built ok\n+error: disk full\n+make: *** [build] Error 1\n" ||
		!strings.Contains(m["worked_before"].(string), fmt.Sprintf("command #%d (`make build`) worked", f.ids["worked"])) {
		t.Errorf("diff_output against the last success: %v\n%s", m, text)
	}
	m, _, _ = call(t, cs, "diff_output", map[string]any{"id": f.ids["failed"], "against": f.ids["other"]})
	if int64(m["from"].(map[string]any)["id"].(float64)) != f.ids["other"] || m["worked_before"] != nil || !strings.Contains(m["diff"].(string), "-main.go") {
		t.Errorf("diff_output against another run: %v", m)
	}
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"id": f.ids["worked"]}, "never succeeded before"},
		{map[string]any{"id": f.ids["failed"], "against": f.ids["failed"]}, "itself"},
		{map[string]any{"id": 99}, "no command 99"},
	} {
		_, text, isErr := call(t, cs, "diff_output", c.args)
		if !isErr || !strings.Contains(text, c.want) {
			t.Errorf("diff_output(%v) = %q; want an error saying %q", c.args, text, c.want)
		}
	}
}

func TestAgentSession(t *testing.T) {
	f, o := runsFixture(t, 10)
	// The caller is known by its client's name.
	ctx := context.Background()
	st, ct := sdk.NewInMemoryTransports()
	ss, err := New(o).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "claude-code", Version: "2"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cs.Close(); ss.Wait() }()
	m, text, isErr := call(t, cs, "agent_session", nil)
	cmds, _ := m["commands"].([]any)
	if isErr || m["author"] != "claude-code" || len(cmds) != 2 || int64(cmds[1].(map[string]any)["id"].(float64)) != f.ids["agent2"] ||
		!strings.Contains(text, "--- FAIL: TestX") || strings.ContainsAny(text, "\x1b\x07") || !strings.Contains(text, "<<<BEGIN OUTPUT") {
		t.Errorf("agent_session of claude-code: %q", text)
	}
	// Another client must say which agent it is.
	other := connect(t, o)
	if _, text, isErr := call(t, other, "agent_session", nil); !isErr || !strings.Contains(text, "which agent") {
		t.Errorf("agent_session of an unknown client: %q", text)
	}
	if m, _, _ := call(t, other, "agent_session", map[string]any{"author": "codex"}); len(m["commands"].([]any)) != 0 {
		t.Errorf("agent_session of codex, which ran nothing: %v", m)
	}
}

func TestResourcesAndPrompts(t *testing.T) {
	f, o := runsFixture(t, 10)
	cs := connect(t, o)
	ctx := context.Background()
	read := func(uri string) (string, error) {
		r, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri})
		if err != nil {
			return "", err
		}
		return r.Contents[0].Text, nil
	}
	got, err := read(fmt.Sprintf("hookd://command/%d", f.ids["failed"]))
	if err != nil || !strings.Contains(got, "error: disk full") || !strings.Contains(got, "FAILED exit 2") {
		t.Errorf("hookd://command/ID: %q, %v", got, err)
	}
	got, err = read(fmt.Sprintf("hookd://command/%d", f.ids["secret"]))
	if err != nil || strings.Contains(got, "ghp_") {
		t.Errorf("a secret in a resource: %q, %v", got, err)
	}
	if _, err := read("hookd://command/999"); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Errorf("hookd://command/999: %v", err)
	}
	got, err = read("hookd://failures/recent")
	if err != nil || !strings.Contains(got, fmt.Sprintf("#%d [FAILED exit 2]", f.ids["failed"])) || strings.Contains(got, "go test") {
		t.Errorf("hookd://failures/recent: %q, %v", got, err)
	}
	prompt := func(name string, args map[string]string) string {
		r, err := cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return r.Messages[0].Content.(*sdk.TextContent).Text
	}
	if p := prompt("explain_last_failure", nil); !strings.Contains(p, "Explain why it failed") || !strings.Contains(p, "error: disk full") {
		t.Errorf("explain_last_failure: %q", p)
	}
	if p := prompt("what_changed", map[string]string{"id": fmt.Sprint(f.ids["failed"])}); !strings.Contains(p, "+error: disk full") || !strings.Contains(p, "-built ok") {
		t.Errorf("what_changed: %q", p)
	}
}

// TestFilterArguments: the filters history_search and search_output share
// are one declaration (Filters): each tool's schema has them at its top
// level, described alike, and a bad value is refused alike.
func TestFilterArguments(t *testing.T) {
	cs := connect(t, newFixture(t).options())
	lt, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	props := map[string]map[string]any{}
	for _, tl := range lt.Tools {
		b, _ := json.Marshal(tl.InputSchema)
		var s struct{ Properties map[string]any }
		json.Unmarshal(b, &s)
		props[tl.Name] = s.Properties
	}
	for _, name := range []string{"cwd", "session", "failed", "since", "author"} {
		a, b := props["history_search"][name], props["search_output"][name]
		if a == nil || !reflect.DeepEqual(a, b) {
			t.Errorf("argument %s: history_search's %v, search_output's %v; want one declaration", name, a, b)
		}
	}
	for _, tool := range []string{"history_search", "search_output"} {
		for args, want := range map[string]string{`{"query": "x", "cwd": "rel/dir"}`: "absolute path", `{"query": "x", "since": "soon"}`: "since"} {
			var m map[string]any
			json.Unmarshal([]byte(args), &m)
			if _, text, isErr := call(t, cs, tool, m); !isErr || !strings.Contains(text, want) {
				t.Errorf("%s %s: %q; want an error about %s", tool, args, text, want)
			}
		}
	}
}
