package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/recording/recall"

	"github.com/hookd/hookd/internal/shelltest"
)

// fixture is a history: a zsh session of the user's with commands whose
// outputs test the selections, and a session of Claude Code's.
type fixture struct {
	path string
	ids  map[string]int64
}

const t0 = int64(1_800_000_000_000_000)

func newFixture(t testing.TB) *fixture {
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
	var long strings.Builder
	for i := 1; i <= 5000; i++ {
		if i == 2500 {
			long.WriteString("error: something broke in the middle\n")
			continue
		}
		fmt.Fprintf(&long, "compiling unit %d of 5000\n", i)
	}
	cmds := []struct {
		name, session, text, out string
		exit                     int
		noOutput                 bool
	}{
		{"ls", "zsh-1", "ls", "a\nb\n", 0, false},
		{"build", "zsh-1", "make build", long.String(), 2, false},
		{"quiet", "zsh-1", "true", "", 0, false},
		{"lost", "zsh-1", "vim notes", "", 0, true},
		{"agent", "cc-1", "go test ./...", "FAIL\n", 1, false},
		{"secret", "zsh-1", "export TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789", "\x1b]0;title\x07ok\n", 0, false},
	}
	for i, c := range cmds {
		seq := int64(i + 1)
		if _, err := tx.AddCommand(ctx, history.Entry{Session: c.session, Seq: seq, Command: c.text, ExitCode: c.exit,
			Cwd: "/src", StartedAt: t0 + seq*1_000_000, DurationUS: 1500, Source: map[bool]string{true: "agent", false: "hook"}[c.session == "cc-1"]}); err != nil {
			t.Fatal(err)
		}
		if !c.noOutput {
			if err := tx.AddOutput(ctx, history.Output{Session: c.session, Seq: seq, Text: []byte(c.out), Bytes: int64(len(c.out)), CreatedAt: t0}); err != nil {
				t.Fatal(err)
			}
		}
		f.ids[c.name] = int64(i + 1)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *fixture) options() Options {
	return Options{
		Open: func(ctx context.Context) (*history.Store, error) { return history.Open(ctx, f.path, time.Second) },
		Reader: func(s *history.Store) *recall.Reader {
			return &recall.Reader{Store: s, Outbox: filepath.Join(filepath.Dir(f.path), "outbox")}
		},
		Version: "test",
		Now:     func() time.Time { return time.UnixMicro(t0 + 10_000_000) },
	}
}

// connect serves o to a client of the Go SDK over an in-memory pipe.
func connect(t testing.TB, o Options) *sdk.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := sdk.NewInMemoryTransports()
	ss, err := New(o).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

// call calls a tool and returns its structured result and its text.
func call(t *testing.T, cs *sdk.ClientSession, name string, args map[string]any) (map[string]any, string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s(%v): %v", name, args, err)
	}
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	var m map[string]any
	if res.StructuredContent != nil {
		b, _ := json.Marshal(res.StructuredContent)
		json.Unmarshal(b, &m)
	}
	return m, text.String(), res.IsError
}

func TestCommandOutput(t *testing.T) {
	f := newFixture(t)
	cs := connect(t, f.options())
	build := f.ids["build"]
	// A long output: an excerpt with the error line, a note on what was
	// left out, within the size limit.
	m, text, isErr := call(t, cs, "command_output", map[string]any{"id": build})
	out := m["output"].(string)
	if isErr || len(out) > maxText || !strings.Contains(out, "error: something broke") || !strings.Contains(out, "compiling unit 1 of") ||
		!strings.Contains(out, "unit 5000 of") || !strings.Contains(m["note"].(string), "left out") || !strings.Contains(text, "FAILED exit 2") {
		t.Errorf("long output: %d bytes, note %q, error %v", len(out), m["note"], isErr)
	}
	// A range that runs past the size limit is cut, and says where to go on.
	m, _, _ = call(t, cs, "command_output", map[string]any{"id": build, "start_line": 1, "end_line": 5000})
	if last := int(m["last_line"].(float64)); last >= 5000 || len(m["output"].(string)) > maxText ||
		!strings.Contains(m["note"].(string), fmt.Sprintf("start_line %d", last+1)) {
		t.Errorf("a long range: last line %v, note %q", m["last_line"], m["note"])
	}
	// grep across the whole output, however long.
	m, _, _ = call(t, cs, "command_output", map[string]any{"id": build, "grep": "ERROR:", "context": 0})
	if m["output"] != "2500: error: something broke in the middle\n" {
		t.Errorf("grep = %q", m["output"])
	}
	m, _, _ = call(t, cs, "command_output", map[string]any{"id": build, "grep": "no such text"})
	if !strings.Contains(m["note"].(string), "no line") {
		t.Errorf("grep without a match: %v", m)
	}
	// Past the end.
	m, _, isErr = call(t, cs, "command_output", map[string]any{"id": f.ids["ls"], "start_line": 9})
	if isErr || !strings.Contains(m["note"].(string), "has 2 lines") {
		t.Errorf("start_line past the end: %v", m)
	}
	// No output, and why; an empty one.
	m, text, _ = call(t, cs, "command_output", map[string]any{"id": f.ids["lost"]})
	if !strings.Contains(m["missing"].(string), "no output was captured") || !strings.Contains(text, "No output: no output was captured") {
		t.Errorf("no output: %v / %q", m, text)
	}
	m, _, _ = call(t, cs, "command_output", map[string]any{"id": f.ids["quiet"]})
	if m["missing"] != "it printed nothing" {
		t.Errorf("empty output: %v", m)
	}
	// -1 is the user's last command, not the agent's newer one; with
	// author, the agent's.
	m, _, _ = call(t, cs, "command_output", map[string]any{"id": -1})
	if int64(m["id"].(float64)) != f.ids["secret"] {
		t.Errorf("-1 = %v", m["id"])
	}
	m, _, _ = call(t, cs, "command_output", map[string]any{"id": -1, "author": "claude-code"})
	if int64(m["id"].(float64)) != f.ids["agent"] || m["author"] != "claude-code" {
		t.Errorf("-1 of claude-code = %v", m)
	}
	// Redacted and sanitized: the command and the output.
	m, text, _ = call(t, cs, "command_output", map[string]any{"id": f.ids["secret"]})
	all := text + fmt.Sprint(m)
	if strings.Contains(all, "ghp_") || strings.Contains(all, "\x1b") || strings.Contains(all, "\x07") || !strings.Contains(all, `\e]0;title\x07ok`) {
		t.Errorf("secret or control sequence out raw: %q", all)
	}
	// Mistakes in the arguments: clear errors.
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"id": 0}, "id is required"},
		{map[string]any{"id": 99}, "no command 99"},
		{map[string]any{"id": -50}, "fewer than 50"},
		{map[string]any{"id": build, "tail": 3, "start_line": 2}, "not both"},
		{map[string]any{"id": build, "start_line": 9, "end_line": 2}, "after end_line"},
		{map[string]any{"id": build, "grep": "("}, "not a regular expression"},
		{map[string]any{"id": build, "grep": "x", "context": 100}, "context must be"},
		{map[string]any{"id": build, "tail": -1}, "must be positive"},
	} {
		_, text, isErr := call(t, cs, "command_output", c.args)
		if !isErr || !strings.Contains(text, c.want) {
			t.Errorf("command_output(%v) = %q, error %v; want an error saying %q", c.args, text, isErr, c.want)
		}
	}
}

func TestSearchAndRecent(t *testing.T) {
	f := newFixture(t)
	cs := connect(t, f.options())
	ids := func(m map[string]any) []int64 {
		var out []int64
		for _, c := range m["commands"].([]any) {
			out = append(out, int64(c.(map[string]any)["id"].(float64)))
		}
		return out
	}
	m, _, _ := call(t, cs, "history_search", map[string]any{"query": "go"})
	if len(ids(m)) != 0 {
		t.Errorf("the user's own commands only by default: %v", ids(m))
	}
	m, _, _ = call(t, cs, "history_search", map[string]any{"query": "go", "author": "any"})
	if got := ids(m); len(got) != 1 || got[0] != f.ids["agent"] {
		t.Errorf("author any: %v", got)
	}
	m, _, _ = call(t, cs, "history_search", map[string]any{"failed": true, "session": "current", "cwd": "/src/", "since": "1h"})
	if got := ids(m); len(got) != 1 || got[0] != f.ids["build"] {
		t.Errorf("failed in the current session since 1h: %v", got)
	}
	m, _, _ = call(t, cs, "history_search", map[string]any{"limit": 2})
	if got := ids(m); len(got) != 2 || got[0] != f.ids["secret"] || m["more"] != true {
		t.Errorf("limit 2: %v, more %v", got, m["more"])
	}
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"cwd": "src"}, "absolute path"},
		{map[string]any{"since": "yesterday-ish"}, "since"},
		{map[string]any{"limit": -3}, "positive"},
	} {
		_, text, isErr := call(t, cs, "history_search", c.args)
		if !isErr || !strings.Contains(text, c.want) {
			t.Errorf("history_search(%v) = %q; want an error saying %q", c.args, text, c.want)
		}
	}
	m, text, _ := call(t, cs, "recent_commands", map[string]any{"limit": 4})
	if got := ids(m); len(got) != 4 || got[3] != f.ids["secret"] || got[0] != f.ids["build"] || m["session"] != "zsh-1" || !strings.Contains(text, "FAILED exit 2") {
		t.Errorf("recent_commands = %v, %q", got, text)
	}
	m, _, _ = call(t, cs, "recent_commands", map[string]any{"limit": 5000})
	if !strings.Contains(m["note"].(string), "50") {
		t.Errorf("recent_commands with a huge limit: %v", m)
	}
	m, _, _ = call(t, cs, "command_context", map[string]any{"ids": []int64{-1, f.ids["build"]}, "budget": 1 << 30})
	if b := m["block"].(string); !strings.Contains(b, "error: something broke") || strings.Contains(b, "ghp_") || !strings.Contains(m["note"].(string), "16000") {
		t.Errorf("command_context: note %q, block %d bytes", m["note"], len(b))
	}
	// What changed since a failure last worked, when the server is told.
	o := f.options()
	o.WorkedBefore = func(ctx context.Context, s *history.Store, en history.Entry) string {
		if en.ExitCode == 0 {
			t.Errorf("WorkedBefore asked for #%d, which succeeded", en.ID)
		}
		return fmt.Sprintf("command #%d (`%s`) worked 3 min ago in /src; since then: on branch main; now on feature", en.ID, en.Command)
	}
	m, _, _ = call(t, connect(t, o), "command_context", map[string]any{"ids": []int64{f.ids["build"], f.ids["ls"]}})
	if b := m["block"].(string); !strings.Contains(b, fmt.Sprintf("Worked before: command #%d (`make build`) worked 3 min ago", f.ids["build"])) ||
		strings.Count(b, "Worked before:") != 1 {
		t.Errorf("command_context does not say what changed since the failure worked:\n%s", b)
	}
	_, text, isErr := call(t, cs, "command_context", map[string]any{"ids": make([]int64, 11)})
	if !isErr || !strings.Contains(text, "at most 10") {
		t.Errorf("command_context with 11 ids: %q", text)
	}
}

// TestDamagedThenRecovered: a call that finds the database damaged asks
// for its recovery and is tried once more.
func TestDamagedThenRecovered(t *testing.T) {
	f := newFixture(t)
	o := f.options()
	open := o.Open
	damaged, recovered := true, 0
	o.Open = func(ctx context.Context) (*history.Store, error) {
		if damaged {
			return nil, fmt.Errorf("open: %w", history.ErrCorrupt)
		}
		return open(ctx)
	}
	o.Recover = func(context.Context) error { recovered++; damaged = false; return nil }
	cs := connect(t, o)
	if m, text, isErr := call(t, cs, "recent_commands", nil); isErr || recovered != 1 || len(m["commands"].([]any)) == 0 {
		t.Errorf("after recovery: %q, recovered %d times", text, recovered)
	}
	damaged = true
	o.Recover = nil
	cs = connect(t, o)
	if _, text, isErr := call(t, cs, "recent_commands", nil); !isErr || !strings.Contains(text, "corrupt") {
		t.Errorf("damaged, no recovery: %q", text)
	}
}

// TestServeGarbage: a line that is not JSON-RPC gets a parse error, and
// the server goes on answering.
func TestServeGarbage(t *testing.T) {
	f := newFixture(t)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- Serve(context.Background(), f.options(), inR, outW); outW.Close() }()
	lines := bufio.NewScanner(outR)
	lines.Buffer(nil, 1<<20)
	send := func(s string) { io.WriteString(inW, s+"\n") }
	read := func() map[string]any {
		t.Helper()
		if !lines.Scan() {
			t.Fatalf("no answer: %v", lines.Err())
		}
		var m map[string]any
		if err := json.Unmarshal(lines.Bytes(), &m); err != nil {
			t.Fatalf("answer %q: %v", lines.Text(), err)
		}
		return m
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if m := read(); m["result"] == nil {
		t.Fatalf("initialize: %v", m)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`this is not JSON {`)
	if m := read(); m["error"] == nil || m["error"].(map[string]any)["code"].(float64) != -32700 {
		t.Errorf("garbage: %v; want a parse error", m)
	}
	send(`{"id": 7, "what": "not JSON-RPC"}`)
	if m := read(); m["error"] == nil || m["error"].(map[string]any)["code"].(float64) != -32600 || m["id"].(float64) != 7 {
		t.Errorf("JSON that is not JSON-RPC: %v; want an invalid request", m)
	}
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"recent_commands","arguments":{}}}`)
	if m := read(); m["result"] == nil || m["id"].(float64) != 2 {
		t.Errorf("a call after the garbage: %v", m)
	}
	endInput(t, inW, done)
}

// endInput closes the server's input and checks that Serve ends with it.
func endInput(t *testing.T, in io.Closer, done <-chan error) {
	t.Helper()
	in.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve ended with %v; want nil at the end of its input", err)
		}
	case <-time.After(shelltest.Scale(shelltest.MinWait)):
		t.Error("Serve did not end with its input")
	}
}

// TestServeBatches (issue 30, item 14): a JSON array line (a JSON-RPC
// batch, well-formed or not) never ends the session nor loses a request in
// flight. Under MCP 2025-06-18 and later, which have no batches, every
// request in one gets an error with its id; under 2025-03-26 a well-formed
// batch is answered by the SDK, and a malformed one gets errors.
func TestServeBatches(t *testing.T) {
	for _, version := range []string{"2025-06-18", "2025-11-25", "2025-03-26"} {
		t.Run(version, func(t *testing.T) {
			f := newFixture(t)
			inR, inW := io.Pipe()
			outR, outW := io.Pipe()
			done := make(chan error, 1)
			go func() { done <- Serve(context.Background(), f.options(), inR, outW); outW.Close() }()
			// The answers are read as they come (a pipe holds nothing).
			lines := make(chan []byte, 100)
			go func() {
				sc := bufio.NewScanner(outR)
				sc.Buffer(nil, 1<<20)
				for sc.Scan() {
					lines <- append([]byte(nil), sc.Bytes()...)
				}
				close(lines)
			}()
			send := func(s string) { io.WriteString(inW, s+"\n") }
			// answers reads n lines: each one answer, or an array of them.
			answers := func(n int) map[string]map[string]any {
				t.Helper()
				got := map[string]map[string]any{}
				for range n {
					var line []byte
					select {
					case l, ok := <-lines:
						if !ok {
							t.Fatalf("no answer: the output ended")
						}
						line = l
					case <-time.After(shelltest.Scale(shelltest.MinWait)):
						t.Fatalf("no answer in %v; so far %v", shelltest.Scale(shelltest.MinWait), got)
					}
					var ms []map[string]any
					if json.Unmarshal(line, &ms) != nil {
						var m map[string]any
						if err := json.Unmarshal(line, &m); err != nil {
							t.Fatalf("answer %q: %v", line, err)
						}
						ms = []map[string]any{m}
					} else {
						got["batch"] = map[string]any{"n": len(ms)}
					}
					for i, m := range ms {
						key := fmt.Sprint(m["id"])
						if m["id"] == nil {
							key = fmt.Sprintf("null%d/%d", i, len(ms))
						}
						got[key] = m
					}
				}
				return got
			}
			send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + version + `","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
			answers(1)
			send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
			// A call in flight, then the arrays.
			send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"recent_commands","arguments":{}}}`)
			send(`[1,2]`)
			send(`[]`)
			send(`[{"jsonrpc":"2.0","id":5,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/progress","params":{}},{"jsonrpc":"2.0","id":"six","method":"tools/list"}]`)
			got := answers(4)
			if m := got["2"]; m == nil || m["result"] == nil {
				t.Errorf("the call in flight: %v; want its result", m)
			}
			isErr := func(m map[string]any) bool {
				return m != nil && m["error"] != nil && m["error"].(map[string]any)["code"].(float64) == -32600
			}
			if !isErr(got["null0/2"]) || !isErr(got["null1/2"]) {
				t.Errorf("[1,2]: %v; want an array of two invalid requests", got)
			}
			if !isErr(got["null0/1"]) {
				t.Errorf("[]: %v; want one invalid request", got)
			}
			if version >= "2025-06-18" {
				if !isErr(got["5"]) || !isErr(got["six"]) || !strings.Contains(fmt.Sprint(got["5"]), "send each message on a line of its own") {
					t.Errorf("a batch under %s: %v; want an error for each request", version, got)
				}
			} else if got["5"] == nil || got["5"]["result"] == nil || got["six"] == nil || got["six"]["result"] == nil {
				t.Errorf("a batch under %s: %v; want the SDK's answers", version, got)
			}
			send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"recent_commands","arguments":{}}}`)
			if m := answers(1)["3"]; m == nil || m["result"] == nil {
				t.Errorf("a call after the arrays: %v", m)
			}
			endInput(t, inW, done)
		})
	}
}

// TestCallsBounded (issue 30, item 14): many calls at once (an agent may
// send thousands) work on the history at most maxCalls at a time, and open
// it (which writes what waits in the spools) one at a time, so that the
// calls of one process never find the database busy with each other.
func TestCallsBounded(t *testing.T) {
	f := newFixture(t)
	o := f.options()
	var mu sync.Mutex
	opening, working, maxOpening, maxWorking := 0, 0, 0, 0
	enter := func(n, most *int) {
		mu.Lock()
		*n++
		*most = max(*most, *n)
		mu.Unlock()
	}
	leave := func(n *int) {
		mu.Lock()
		*n--
		mu.Unlock()
	}
	open := o.Open
	o.Open = func(ctx context.Context) (*history.Store, error) {
		enter(&opening, &maxOpening)
		defer leave(&opening)
		time.Sleep(2 * time.Millisecond) // a flush's write
		return open(ctx)
	}
	o.Search = func(ctx context.Context, s *history.Store, q history.Query) ([]Hit, error) {
		enter(&working, &maxWorking)
		defer leave(&working)
		time.Sleep(20 * time.Millisecond)
		return nil, nil
	}
	cs := connect(t, o)
	var wg sync.WaitGroup
	for range 4 * maxCalls {
		wg.Go(func() {
			if _, text, isErr := call(t, cs, "history_search", map[string]any{"query": "x"}); isErr {
				t.Errorf("history_search: %s", text)
			}
		})
	}
	wg.Wait()
	if maxOpening != 1 || maxWorking > maxCalls {
		t.Errorf("%d calls opened the history at once, %d worked on it at once; want 1 and at most %d", maxOpening, maxWorking, maxCalls)
	}
}

// TestServeDrainsWhileAnswering: input that ends after more requests than
// can be answered within drainWait still gets every answer, as long as
// answers keep coming (10,000 requests at once take longer than 30 s).
func TestServeDrainsWhileAnswering(t *testing.T) {
	f := newFixture(t)
	o := f.options()
	open := o.Open
	o.Open = func(ctx context.Context) (*history.Store, error) {
		time.Sleep(75 * time.Millisecond) // one at a time: 40 take 3 s
		return open(ctx)
	}
	// Twice the bound in all, each answer well within it (a 20-fold
	// margin for a loaded machine).
	defer func(d time.Duration) { drainWait = d }(drainWait)
	drainWait = 1500 * time.Millisecond
	var in strings.Builder
	in.WriteString(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n")
	in.WriteString(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")
	const n = 40
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&in, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"recent_commands","arguments":{}}}`+"\n", i)
	}
	var out bytes.Buffer
	if err := Serve(context.Background(), o, strings.NewReader(in.String()), &out); err != nil {
		t.Fatalf("Serve: %v", err)
	}
	if got := strings.Count(out.String(), `"result"`); got != n+1 {
		t.Errorf("%d answers; want %d", got, n+1)
	}
}

// TestServeAnswersBeforeEOF: input that ends right after its requests
// (`printf '…' | hookd mcp`) still gets every answer.
func TestServeAnswersBeforeEOF(t *testing.T) {
	f := newFixture(t)
	for i := 0; i < 5; i++ {
		in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/list"}
{"jsonrpc":"2.0","id":"three","method":"tools/call","params":{"name":"recent_commands","arguments":{}}}
`)
		var out bytes.Buffer
		if err := Serve(context.Background(), f.options(), in, &out); err != nil {
			t.Fatalf("Serve: %v", err)
		}
		ids := map[string]bool{}
		for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
			var m struct {
				ID     any             `json:"id"`
				Result json.RawMessage `json:"result"`
			}
			if err := json.Unmarshal([]byte(l), &m); err != nil || m.Result == nil {
				t.Fatalf("answer %q: %v", l, err)
			}
			ids[fmt.Sprint(m.ID)] = true
		}
		if !ids["1"] || !ids["2"] || !ids["three"] {
			t.Fatalf("run %d: answers to %v; want 1, 2 and three:\n%s", i, ids, out.String())
		}
	}
}

// TestSearchCommandsAndOutputs: history_search is hookd search's engine:
// words found in what a command printed (with the line), any case in the
// command line, each command line once with its runs, one coding agent's
// commands by name; all of it redacted.
func TestSearchCommandsAndOutputs(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	s, err := history.Open(ctx, f.path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	tx, _ := s.Begin(ctx)
	for seq := int64(7); seq <= 8; seq++ {
		tx.AddCommand(ctx, history.Entry{Session: "zsh-1", Seq: seq, Command: "ls", Cwd: "/src", StartedAt: t0 + seq*1_000_000})
	}
	tx.AddCommand(ctx, history.Entry{Session: "zsh-1", Seq: 9, Command: "cat .env", Cwd: "/src", StartedAt: t0 + 9_000_000})
	tx.AddOutput(ctx, history.Output{Session: "zsh-1", Seq: 9, Text: []byte("envword GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789\n"), Bytes: 60, CreatedAt: t0})
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	s.Close()
	cs := connect(t, f.options())
	hits := func(args map[string]any) ([]map[string]any, string) {
		t.Helper()
		m, text, isErr := call(t, cs, "history_search", args)
		if isErr {
			t.Fatalf("history_search(%v): %s", args, text)
		}
		var out []map[string]any
		for _, c := range m["commands"].([]any) {
			out = append(out, c.(map[string]any))
		}
		return out, text
	}
	// A word of the output alone.
	got, text := hits(map[string]any{"query": "broke"})
	if len(got) != 1 || int64(got[0]["id"].(float64)) != f.ids["build"] || got[0]["matched"] != "output" ||
		got[0]["line"] != "error: something broke in the middle" || got[0]["line_number"] != 2500.0 {
		t.Errorf("broke: %v", got)
	}
	if !strings.Contains(text, "output line 2500: error: something broke in the middle") {
		t.Errorf("broke: the text does not show the line: %q", text)
	}
	// Any case, in the command line.
	if got, _ := hits(map[string]any{"query": "MAKE"}); len(got) != 1 || got[0]["command"] != "make build" || got[0]["matched"] != "command" {
		t.Errorf("MAKE: %v", got)
	}
	// Each command line once: its newest run, and how often it ran.
	if got, _ := hits(map[string]any{"query": "ls"}); len(got) != 1 || got[0]["id"] != 8.0 || got[0]["runs"] != 3.0 {
		t.Errorf("ls: %v", got)
	}
	// A coding agent's output: left out unless asked for, by its name.
	if got, _ := hits(map[string]any{"query": "FAIL"}); len(got) != 0 {
		t.Errorf("FAIL, the user's own: %v", got)
	}
	if got, _ := hits(map[string]any{"query": "FAIL", "author": "claude-code"}); len(got) != 1 || int64(got[0]["id"].(float64)) != f.ids["agent"] {
		t.Errorf("FAIL by claude-code: %v", got)
	}
	if got, _ := hits(map[string]any{"query": "ls", "author": "claude-code"}); len(got) != 0 {
		t.Errorf("ls by claude-code: %v", got)
	}
	// The matching line is redacted.
	got, text = hits(map[string]any{"query": "envword"})
	if len(got) != 1 || strings.Contains(fmt.Sprint(got)+text, "ghp_") || !strings.Contains(got[0]["line"].(string), "[REDACTED]") {
		t.Errorf("envword: %v / %q", got, text)
	}
}
