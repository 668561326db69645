package ingest_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/recording/ingest"
	"github.com/hookd/hookd/internal/recording/spool"
	"github.com/hookd/hookd/internal/redact"
)

var benchTemplates = []string{
	"git status", "git diff --stat HEAD~%d", "git commit -am 'fix %s handling in %s'", "git checkout -b feature/%s-%s",
	"cd ~/src/%s/%s", "ls -la %s/", "make -j8 %s", "go test ./%s/... -run Test%s", "docker run --rm -it %s:latest sh",
	"kubectl get pods -n %s -o wide", "vim %s/%s.go", "grep -rn '%s' %s/", "npm install --save-dev %s",
	"python3 manage.py %s --settings=%s", "cargo build --release -p %s", "tail -f /var/log/%s/%s.log",
	"curl -fsSL https://%s.example.com/%s/health", "export API_TOKEN=ghp_%s%s0123456789abcdefABCDEF",
}

var benchWords = []string{"parser", "server", "config", "build", "deploy", "api", "frontend", "backend", "docs",
	"release", "cache", "auth", "worker", "queue", "metrics", "db", "infra", "tests", "lint", "vendor"}

// benchText returns typical command lines, about 40 bytes long; about one
// in a hundred holds a token to redact.
func benchText(r *rand.Rand) string {
	tmpl := benchTemplates[r.IntN(len(benchTemplates)-1)]
	if r.IntN(100) == 0 {
		tmpl = benchTemplates[len(benchTemplates)-1]
	}
	args := make([]any, strings.Count(tmpl, "%"))
	for i := range args {
		if strings.Contains(tmpl, "%d") {
			args[i] = r.IntN(10)
		} else {
			args[i] = benchWords[r.IntN(len(benchWords))]
		}
	}
	return fmt.Sprintf(tmpl, args...)
}

// writeBenchSpools writes spools×perSpool commands and returns their bytes.
func writeBenchSpools(b *testing.B, dir string, spools, perSpool int, r *rand.Rand) (bytes int) {
	for k := range spools {
		buf := spool.AppendSession(nil, spool.Session{Shell: "zsh", Version: "5.9", PID: livePID, Host: hostname(), User: "u", UID: 1000, Start: base})
		for seq := 1; seq <= perSpool; seq++ {
			c := spool.Command{Seq: int64(seq), Start: base + int64(seq)*1e6, End: base + int64(seq)*1e6 + int64(r.IntN(2e6)),
				Exit: r.IntN(10) / 9, Cwd: "/home/u/src/" + benchWords[r.IntN(len(benchWords))], Text: benchText(r)}
			if seq%2 == 0 {
				buf = spool.AppendHistoryCommand(buf, c, 1000+seq) // as bash writes it
			} else {
				buf = spool.AppendCommand(buf, c)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, sessionID(livePID, k)+spool.Suffix), buf, 0o600); err != nil {
			b.Fatal(err)
		}
		bytes += len(buf)
	}
	return bytes
}

// BenchmarkIngest moves 100,000 typical commands from 10 spools into a new
// history, with the built-in redaction.
func BenchmarkIngest(b *testing.B) {
	const spools, perSpool = 10, 10_000
	red, err := redact.New(nil)
	if err != nil {
		b.Fatal(err)
	}
	rules := &ingest.Rules{Redactor: red}
	r := rand.New(rand.NewPCG(1, 2))
	var elapsed time.Duration
	var size int
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		root := b.TempDir()
		dir := filepath.Join(root, "spool")
		if err := os.Mkdir(dir, 0o700); err != nil {
			b.Fatal(err)
		}
		size = writeBenchSpools(b, dir, spools, perSpool, r)
		store, err := history.Open(context.Background(), filepath.Join(root, "history.db"), 10*time.Second)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		start := time.Now()
		st, err := ingest.Spools(context.Background(), store, dir, rules, time.Now())
		elapsed += time.Since(start)
		b.StopTimer()
		if err != nil || st.Added != spools*perSpool || st.Bad != 0 {
			b.Fatalf("Ingest = %+v, %v; want %d added", st, err, spools*perSpool)
		}
		store.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(spools*perSpool*b.N)/elapsed.Seconds(), "records/s")
	b.ReportMetric(float64(size)/(spools*perSpool), "spool-bytes/record")
}

// BenchmarkIngestIdle is the daemon's pass every second when nothing is new,
// over 10 spools.
func BenchmarkIngestIdle(b *testing.B) {
	root := b.TempDir()
	dir := filepath.Join(root, "spool")
	if err := os.Mkdir(dir, 0o700); err != nil {
		b.Fatal(err)
	}
	writeBenchSpools(b, dir, 10, 100, rand.New(rand.NewPCG(1, 2)))
	store, err := history.Open(context.Background(), filepath.Join(root, "history.db"), 10*time.Second)
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	rules := &ingest.Rules{}
	if st, err := ingest.Spools(context.Background(), store, dir, rules, time.Now()); err != nil || st.Added != 1000 {
		b.Fatalf("first pass = %+v, %v", st, err)
	}
	for b.Loop() {
		if st, err := ingest.Spools(context.Background(), store, dir, rules, time.Now()); err != nil || st.Added != 0 {
			b.Fatalf("idle pass = %+v, %v", st, err)
		}
	}
}
