package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/required"
)

// BenchmarkMCPSearchOutput1G measures search_output through `hookd mcp`
// (stdio, JSON-RPC, the store opened per call, as an agent has it) over
// bench/searchgen's history of 1,000,000 commands and 1 GB of output, at
// $HOOKD_SEARCH_BENCH_DB: for each query the median and p90 of 40 calls,
// the queries taken in turn, and what the last call read.
//
//	go run -tags sqlite_fts5 ./bench/searchgen -db /tmp/h.db   # once, minutes
//	HOOKD_SEARCH_BENCH_DB=/tmp/h.db go test -tags sqlite_fts5 ./cmd/hookd -run XXX -bench MCPSearchOutput1G -benchtime 1x
func BenchmarkMCPSearchOutput1G(b *testing.B) {
	db := os.Getenv("HOOKD_SEARCH_BENCH_DB")
	if db == "" {
		required.Cannot(b, "HOOKD_SEARCH_BENCH_DB is not set: a history made by bench/searchgen")
	}
	dir := b.TempDir()
	env := benchEnv(dir)
	os.MkdirAll(dir+"/d/hookd", 0o700)
	if err := os.Symlink(db, dir+"/d/hookd/history.db"); err != nil {
		b.Fatal(err)
	}
	queries := []struct{ name, args string }{
		// A marker word in one output in a thousand (needleN: one output).
		{"rare-word", `{"query":"needle512","author":"any"}`},
		// A word of the vocabulary in many outputs: the newest are read
		// until 20 lines match.
		{"common-word", `{"query":"lotavhix","author":"any"}`},
		{"two-words", `{"query":"needle77 lotavhix","author":"any","context_lines":3}`},
		// A regular expression whose literal word narrows the outputs
		// (needle51*: ten outputs).
		{"regex-word", `{"regex":"\\bneedle51\\d\\b","author":"any"}`},
		{"no-match", `{"query":"nosuchwordanywhere","author":"any"}`},
		{"failed-common", `{"query":"lotavhix","failed":true,"author":"any"}`},
		// No literal word: the newest outputs read in turn, to a bound.
		{"regex-no-word", `{"regex":"q{3}","author":"any"}`},
	}
	p := startMCP(b, env)
	defer p.stop()
	p.roundTrip(b, initLineJSON)
	io.WriteString(p.in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	id := 10
	call := func(q string) (time.Duration, string) {
		id++
		t := time.Now()
		ans := p.roundTrip(b, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"search_output","arguments":%s}}`, id, q))
		d := time.Since(t)
		if strings.Contains(ans, `"isError":true`) || !strings.Contains(ans, `"result"`) {
			b.Fatalf("%s: %s", q, ans)
		}
		return d, ans
	}
	for b.Loop() {
		ds := make([][]time.Duration, len(queries))
		last := make([]string, len(queries))
		for range 40 {
			for i, q := range queries {
				var d time.Duration
				d, last[i] = call(q.args)
				ds[i] = append(ds[i], d)
			}
		}
		for i, q := range queries {
			m, p90 := quantiles(ds[i])
			b.ReportMetric(float64(m.Microseconds())/1000, q.name+"-median-ms")
			b.ReportMetric(float64(p90.Microseconds())/1000, q.name+"-p90-ms")
			var res struct {
				Result struct {
					StructuredContent struct {
						Matches  int   `json:"matches"`
						Outputs  int   `json:"outputs_read"`
						Bytes    int64 `json:"bytes_read"`
						Complete bool  `json:"complete"`
					} `json:"structuredContent"`
				} `json:"result"`
			}
			json.Unmarshal([]byte(last[i]), &res)
			sc := res.Result.StructuredContent
			b.Logf("%s: %d matching lines, %d outputs read, %d bytes, complete %v", q.name, sc.Matches, sc.Outputs, sc.Bytes, sc.Complete)
		}
	}
}
