package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/history"
)

// benchEnv is an isolated home for a benchmark: HOME and XDG_* under dir.
func benchEnv(dir string) []string {
	return append(os.Environ(), "HOME="+dir, "XDG_CONFIG_HOME="+dir+"/c", "XDG_DATA_HOME="+dir+"/d",
		"XDG_STATE_HOME="+dir+"/s", "XDG_RUNTIME_DIR="+dir+"/r", "HOOKD_SESSION=")
}

// median of ds, and its p90.
func quantiles(ds []time.Duration) (med, p90 time.Duration) {
	slices.Sort(ds)
	return ds[len(ds)/2], ds[len(ds)*9/10]
}

// mcpProc is a running `hookd mcp` with its pipes.
type mcpProc struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
}

func startMCP(tb testing.TB, env []string) *mcpProc {
	cmd := exec.Command(hookdBin, "mcp")
	cmd.Env = env
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	sc.Buffer(nil, 16<<20)
	return &mcpProc{cmd, in, sc}
}

// roundTrip sends one line and reads the answer's line.
func (p *mcpProc) roundTrip(tb testing.TB, line string) string {
	io.WriteString(p.in, line+"\n")
	if !p.out.Scan() {
		tb.Fatalf("hookd mcp answered nothing: %v", p.out.Err())
	}
	return p.out.Text()
}

func (p *mcpProc) stop() { p.in.Close(); p.cmd.Wait() }

const initLineJSON = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`

// BenchmarkMCPInitialize measures, for each of 30 starts, the time from
// starting `hookd mcp` to its answer to initialize; and, as the baseline
// measured in the same run, from starting `hookd version` to its end.
//
//	go test -tags sqlite_fts5 ./cmd/hookd -run XXX -bench MCPInitialize -benchtime 1x
func BenchmarkMCPInitialize(b *testing.B) {
	env := benchEnv(b.TempDir())
	for b.Loop() {
		var inits, versions []time.Duration
		for range 30 {
			t := time.Now()
			p := startMCP(b, env)
			if ans := p.roundTrip(b, initLineJSON); !strings.Contains(ans, `"serverInfo"`) {
				b.Fatalf("initialize: %s", ans)
			}
			inits = append(inits, time.Since(t))
			p.stop()
			t = time.Now()
			v := exec.Command(hookdBin, "version")
			v.Env = env
			if err := v.Run(); err != nil {
				b.Fatal(err)
			}
			versions = append(versions, time.Since(t))
		}
		m, p90 := quantiles(inits)
		vm, _ := quantiles(versions)
		b.ReportMetric(float64(m.Microseconds())/1000, "init-median-ms")
		b.ReportMetric(float64(p90.Microseconds())/1000, "init-p90-ms")
		b.ReportMetric(float64(vm.Microseconds())/1000, "version-median-ms")
	}
}

// millionDB makes (or reuses, at $HOOKD_BENCH_1M) a history of 1,000,000
// commands over 1,000 sessions of the user's: ~10% failed, 20 directories,
// every command text distinct.
func millionDB(tb testing.TB, dir string) string {
	path := os.Getenv("HOOKD_BENCH_1M")
	if path == "" {
		path = filepath.Join(dir, "history-1m.db")
	}
	if _, err := os.Stat(path); err == nil {
		return path
	}
	ctx := context.Background()
	s, err := history.Open(ctx, path, 10*time.Second)
	if err != nil {
		tb.Fatal(err)
	}
	defer s.Close()
	words := []string{"make", "git status", "go test ./...", "docker compose up", "npm run build", "kubectl get pods", "ls -la", "cargo build"}
	const n, per = 1_000_000, 10_000
	base := time.Now().Add(-365 * 24 * time.Hour).UnixMicro()
	for k := 0; k < n/per; k++ {
		tx, err := s.Begin(ctx)
		if err != nil {
			tb.Fatal(err)
		}
		for j := 0; j < per; j++ {
			i := k*per + j
			sess := fmt.Sprintf("sess-%04d", i/1000)
			if i%1000 == 0 {
				tx.AddSession(ctx, history.Session{ID: sess, Shell: "zsh", Capture: "pty"})
			}
			exit := 0
			if i%10 == 3 {
				exit = 1
			}
			if _, err := tx.AddCommand(ctx, history.Entry{Session: sess, Seq: int64(i%1000 + 1),
				Command: fmt.Sprintf("%s --run=%d", words[i%len(words)], i), ExitCode: exit,
				Cwd: fmt.Sprintf("/home/user/src/project%d", i%20), StartedAt: base + int64(i)*30_000_000}); err != nil {
				tb.Fatal(err)
			}
		}
		if err := tx.Commit(); err != nil {
			tb.Fatal(err)
		}
	}
	return path
}

// BenchmarkMCPHistorySearch1M measures history_search through `hookd mcp`
// (stdio, JSON-RPC, a store opened and the spools read per call, as an
// agent has it) over a 1,000,000-command history: the first call (the
// history read into the search engine), then for each query the median and
// p90 of 40 calls, the queries taken in turn.
//
//	go test -tags sqlite_fts5 ./cmd/hookd -run XXX -bench MCPHistorySearch1M -benchtime 1x
func BenchmarkMCPHistorySearch1M(b *testing.B) {
	dir := b.TempDir()
	db := millionDB(b, dir)
	env := benchEnv(dir)
	os.MkdirAll(dir+"/d/hookd", 0o700)
	if err := os.Symlink(db, dir+"/d/hookd/history.db"); err != nil {
		b.Fatal(err)
	}
	queries := []struct{ name, args string }{
		{"recent", `{}`},
		{"common-word", `{"query":"make"}`},
		{"rare-word", `{"query":"no-such-text-anywhere"}`},
		{"one-command", `{"query":"--run=777777"}`},
		{"failed-cwd", `{"failed":true,"cwd":"/home/user/src/project3"}`},
		{"since-1d", `{"query":"git","since":"1d"}`},
	}
	p := startMCP(b, env)
	defer p.stop()
	p.roundTrip(b, initLineJSON)
	io.WriteString(p.in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	id := 10
	call := func(q string) time.Duration {
		id++
		t := time.Now()
		ans := p.roundTrip(b, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"history_search","arguments":%s}}`, id, q))
		d := time.Since(t)
		if strings.Contains(ans, `"isError":true`) || !strings.Contains(ans, `"result"`) {
			b.Fatalf("%s: %s", q, ans)
		}
		return d
	}
	for b.Loop() {
		// The first call reads the history into the engine's memory
		// (no search cache here: the server reads one, never writes it).
		b.ReportMetric(float64(call(`{"query":"first"}`).Microseconds())/1000, "first-call-ms")
		// Then the queries in turn, 40 rounds: no call repeats the one
		// before it (the engine narrows a query that extends the last).
		ds := make([][]time.Duration, len(queries))
		for range 40 {
			for i, q := range queries {
				ds[i] = append(ds[i], call(q.args))
			}
		}
		for i, q := range queries {
			m, p90 := quantiles(ds[i])
			b.ReportMetric(float64(m.Microseconds())/1000, q.name+"-median-ms")
			b.ReportMetric(float64(p90.Microseconds())/1000, q.name+"-p90-ms")
		}
	}
}

// BenchmarkAgentHook measures `hookd agent-hook AGENT` as each agent runs
// it (a process, a payload on stdin) from start to exit, over 100 runs per
// payload, with `hookd version` in the same run as the baseline: Claude
// Code's failure and prompt, Codex's, Gemini CLI's, opencode's and Copilot
// CLI's calls.
//
//	go test -tags sqlite_fts5 ./cmd/hookd -run XXX -bench AgentHook -benchtime 1x
func BenchmarkAgentHook(b *testing.B) {
	fix := "../../internal/recording/agenthook/testdata/"
	payloads := []struct{ name, agent, file string }{
		{"claude", "claude-code", "claude-code/failure.json"}, {"claude-prompt", "claude-code", "claude-code/user_prompt.json"},
		{"codex", "codex", "codex/post_tool_use.json"}, {"gemini", "gemini", "gemini/after_tool.json"},
		{"opencode", "opencode", "opencode/after.json"}, {"copilot", "copilot", "copilot/post_tool_use.json"},
	}
	env := benchEnv(b.TempDir())
	run := func(payload []byte, args ...string) time.Duration {
		cmd := exec.Command(hookdBin, args...)
		cmd.Env = env
		cmd.Stdin = strings.NewReader(string(payload))
		t := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil || args[0] == "agent-hook" && len(out) > 0 && string(out) != "{}\n" {
			b.Fatalf("hookd %v: %v %s", args, err, out)
		}
		return time.Since(t)
	}
	for b.Loop() {
		for _, p := range payloads {
			payload, err := os.ReadFile(fix + p.file)
			if err != nil {
				b.Fatal(err)
			}
			var hooks, versions []time.Duration
			for range 100 {
				hooks = append(hooks, run(payload, "agent-hook", p.agent))
				versions = append(versions, run(nil, "version"))
			}
			m, p90 := quantiles(hooks)
			vm, vp90 := quantiles(versions)
			b.ReportMetric(float64(m.Microseconds())/1000, p.name+"-median-ms")
			b.ReportMetric(float64(p90.Microseconds())/1000, p.name+"-p90-ms")
			b.ReportMetric(float64(vm.Microseconds())/1000, p.name+"-version-median-ms")
			b.ReportMetric(float64(vp90.Microseconds())/1000, p.name+"-version-p90-ms")
		}
	}
}
