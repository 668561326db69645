package main

import (
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/hookd/hookd/internal/ai/llm/llmtest"
)

// BenchmarkAskTokenLatency measures how long a token takes from the moment
// a local server sends it (the fake flushes one every 20 ms) to its
// appearance on hookd ask's terminal (a PTY, rendering on): the metrics are
// the median and the worst over 60 tokens.
//
//	go test ./cmd/hookd -run XXX -bench AskTokenLatency -benchtime 3x
func BenchmarkAskTokenLatency(b *testing.B) {
	const n = 60
	var toks []string
	for i := 0; i < n; i++ {
		toks = append(toks, fmt.Sprintf("tok%02dx ", i))
	}
	var lats []time.Duration
	for b.Loop() {
		fake := llmtest.NewOpenAI(b)
		fake.SetReply(llmtest.Reply{Text: toks, Interval: 20 * time.Millisecond})
		home := b.TempDir()
		cmd := exec.Command(hookdBin, "ask", "count")
		cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+home+"/c", "XDG_DATA_HOME="+home+"/d",
			"XDG_STATE_HOME="+home+"/s", "XDG_RUNTIME_DIR="+home+"/r", "HOOKD_SESSION=",
			"HOOKD_LLM_PROVIDER=openai", "HOOKD_LLM_BASE_URL="+fake.URL, "HOOKD_LLM_API_KEY=k", "TERM=xterm-256color")
		f, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: 200, Rows: 50})
		if err != nil {
			b.Fatal(err)
		}
		seen := make([]time.Time, n)
		var out strings.Builder
		buf := make([]byte, 4096)
		next := 0
		for next < n {
			k, err := f.Read(buf)
			now := time.Now()
			out.Write(buf[:k])
			for next < n && strings.Contains(out.String(), strings.TrimSpace(toks[next])) {
				seen[next] = now
				next++
			}
			if err != nil {
				break
			}
		}
		cmd.Wait()
		f.Close()
		sent := fake.Sent()
		if next < n || len(sent) < n {
			b.Fatalf("saw %d of %d tokens (%d sent):\n%q", next, n, len(sent), out.String())
		}
		for i := 0; i < n; i++ {
			lats = append(lats, seen[i].Sub(sent[i]))
		}
	}
	slices.Sort(lats)
	b.ReportMetric(float64(lats[len(lats)/2].Microseconds()), "µs-median")
	b.ReportMetric(float64(lats[len(lats)*99/100].Microseconds()), "µs-p99")
	b.ReportMetric(float64(lats[len(lats)-1].Microseconds()), "µs-max")
}
