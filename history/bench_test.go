package history_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookd/hookd/history"
)

func TestMain(m *testing.M) {
	code := m.Run()
	if bigHistory.dir != "" {
		os.RemoveAll(bigHistory.dir)
	}
	os.Exit(code)
}

// bigHistory is a database of a million commands, built at most once per
// process (only benchmarks ask for it) and shared by the sub-benchmarks.
var bigHistory struct {
	once  sync.Once
	dir   string
	path  string
	err   error
	build time.Duration
}

const (
	bigRows     = 1_000_000
	bigSessions = 2_000
	rareText    = "somerare word" // in rareRows commands
	rareRows    = 10
)

var (
	words = []string{"parser", "server", "config", "build", "deploy", "api", "frontend", "backend", "docs",
		"release", "cache", "auth", "worker", "queue", "metrics", "db", "infra", "tests", "lint", "vendor"}
	hosts        = []string{"prod-1", "staging", "db-replica", "bastion", "ci-runner"}
	cmdTemplates = []string{
		"git status", "git diff --stat", "git commit -am 'fix %s handling in %s'", "git checkout -b feature/%s-%s",
		"git push origin HEAD", "git log --oneline -n 20 -- %s", "cd ~/src/%s/%s", "ls -la %s/", "make -j8 %s",
		"go test ./%s/... -run Test%s", "docker run --rm -it %s:latest sh", "kubectl get pods -n %s -o wide",
		"vim %s/%s.go", "grep -rn '%s' %s/", "ssh deploy@%s.example.com", "npm install --save-dev %s",
		"python3 manage.py %s --settings=%s", "cargo build --release -p %s", "tail -f /var/log/%s/%s.log",
		"curl -fsSL https://%s.example.com/%s/health",
	}
)

// bigEntry returns the i-th command of the big history: about 40 bytes of
// typical text, one in ten failed, spread over sessions and directories.
func bigEntry(r *rand.Rand, i int, rare map[int]bool) history.Entry {
	w := func() string { return words[r.IntN(len(words))] }
	tmpl := cmdTemplates[r.IntN(len(cmdTemplates))]
	var text string
	switch {
	case rare[i]:
		text = "echo " + rareText + " here"
	case strings.HasPrefix(tmpl, "ssh "):
		text = fmt.Sprintf(tmpl, hosts[r.IntN(len(hosts))])
	default:
		args := make([]any, strings.Count(tmpl, "%s"))
		for j := range args {
			args[j] = w()
		}
		text = fmt.Sprintf(tmpl, args...)
	}
	exit := 0
	if r.IntN(10) == 0 {
		exit = 1 + r.IntN(127)
	}
	// Four shells at a time, each running 500 commands.
	const perSession, open = bigRows / bigSessions, 4
	k := i/(perSession*open)*open + i%open
	return history.Entry{
		Session:    bigSession(k),
		Seq:        int64(i%(perSession*open)/open + 1),
		Command:    text,
		ExitCode:   exit,
		Cwd:        "/home/u/src/" + w() + "/" + w(),
		StartedAt:  1_600_000_000_000_000 + int64(i)*30_000_000, // a command every 30 s
		DurationUS: int64(r.IntN(5_000_000)),
		Source:     "hook",
	}
}

// bigSession names the k-th session of the big history.
func bigSession(k int) string {
	return fmt.Sprintf("%d-%d-%04x", 1_600_000_000_000_000+int64(k)*15_000_000_000, 10000+k, k)
}

// buildBig fills a new database at path with bigRows commands.
func buildBig(ctx context.Context, path string) error {
	s, err := history.Open(ctx, path, 10*time.Second)
	if err != nil {
		return err
	}
	defer s.Close()
	r := rand.New(rand.NewPCG(1, 2))
	rare := map[int]bool{}
	for len(rare) < rareRows {
		rare[r.IntN(bigRows)] = true
	}
	const batch = 50_000
	for start := 0; start < bigRows; start += batch {
		tx, err := s.Begin(ctx)
		if err != nil {
			return err
		}
		if start == 0 {
			for k := range bigSessions {
				if err := tx.AddSession(ctx, history.Session{ID: bigSession(k), Shell: []string{"bash", "zsh"}[k%2],
					Version: "5.9", PID: 10000 + k, Host: "laptop", User: "u", UID: 1000,
					StartedAt: 1_600_000_000_000_000 + int64(k)*15_000_000_000}); err != nil {
					tx.Rollback()
					return err
				}
			}
		}
		for i := start; i < start+batch && i < bigRows; i++ {
			if _, err := tx.AddCommand(ctx, bigEntry(r, i, rare)); err != nil {
				tx.Rollback()
				return err
			}
		}
		if err := tx.Commit(); err != nil {
			return err
		}
	}
	return nil
}

// big returns the path of the shared million-command database.
func big(b *testing.B) string {
	b.Helper()
	bigHistory.once.Do(func() {
		bigHistory.dir, bigHistory.err = os.MkdirTemp("", "hookd-bench-")
		if bigHistory.err != nil {
			return
		}
		bigHistory.path = filepath.Join(bigHistory.dir, "history.db")
		start := time.Now()
		bigHistory.err = buildBig(context.Background(), bigHistory.path)
		bigHistory.build = time.Since(start)
	})
	if bigHistory.err != nil {
		b.Fatalf("building the big history: %v", bigHistory.err)
	}
	return bigHistory.path
}

// BenchmarkList measures queries on a history of a million commands.
func BenchmarkList(b *testing.B) {
	path := big(b)
	b.Logf("built %d rows in %v", bigRows, bigHistory.build.Round(time.Millisecond))
	s, err := history.Open(b.Context(), path, 10*time.Second)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	st, err := s.Stats(b.Context())
	if err != nil || st.Commands != bigRows {
		b.Fatalf("Stats = %+v, %v; want %d commands", st, err, bigRows)
	}
	session := bigSession(1234)
	queries := []struct {
		name string
		q    history.Query
		min  int // fewest results expected
	}{
		{"Limit20", history.Query{Limit: 20}, 20},
		{"Failed", history.Query{Failed: true, Limit: 20}, 20},
		{"RareText", history.Query{Text: rareText, Limit: 20}, rareRows},
		{"CommonText", history.Query{Text: "git", Limit: 20}, 20},
		{"TwoCommonWords", history.Query{Text: "git parser", Limit: 20}, 20},
		{"Session", history.Query{Session: session, Limit: 20}, 20},
		{"Cwd", history.Query{Cwd: "/home/u/src/parser/docs", Limit: 20}, 20},
		{"FailedSince", history.Query{Failed: true, Since: 1_600_000_000_000_000 + int64(bigRows-1000)*30_000_000}, 50},
	}
	for _, tt := range queries {
		b.Run(tt.name, func(b *testing.B) {
			ctx := b.Context()
			got, err := s.List(ctx, tt.q)
			if err != nil || len(got) < tt.min {
				b.Fatalf("List(%+v) = %d entries, %v; want at least %d", tt.q, len(got), err, tt.min)
			}
			for b.Loop() {
				if _, err := s.List(ctx, tt.q); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("Recent", func(b *testing.B) {
		for b.Loop() {
			if _, err := s.Recent(b.Context(), session, 1); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Size", func(b *testing.B) {
		var st history.Stats
		for b.Loop() {
			st, err = s.Stats(b.Context())
			if err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(st.SizeBytes)/(1<<20)*(1e6/float64(st.Commands)), "MiB/Mrows")
		b.ReportMetric(float64(st.SizeBytes)/float64(st.Commands), "bytes/row")
	})
}
