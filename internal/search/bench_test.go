package search

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/hookd/hookd/history"

	"github.com/hookd/hookd/internal/required"
)

// The benchmarks run on a generated history (bench/searchgen; bench/search.sh
// makes it): HOOKD_SEARCH_BENCH_DB names it. Without it they are skipped.

func benchStore(b *testing.B) *history.Store {
	b.Helper()
	path := os.Getenv("HOOKD_SEARCH_BENCH_DB")
	if path == "" {
		required.Cannot(b, "HOOKD_SEARCH_BENCH_DB is not set (bench/search.sh sets it)")
	}
	s, err := history.Open(context.Background(), path, 10*time.Second)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}

var benchHere = Here{Cwd: "/home/dev/src/kalo/mine"}

// BenchmarkLoadFromDB: the corpus read whole from SQLite (the first search,
// or the first after a forget).
func BenchmarkLoadFromDB(b *testing.B) {
	s := benchStore(b)
	for b.Loop() {
		e := New(s, benchHere, "")
		if err := e.Load(b.Context()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoadFromCache: the corpus from its cache file, plus what the
// database has beyond it (nothing here).
func BenchmarkLoadFromCache(b *testing.B) {
	s := benchStore(b)
	cache := filepath.Join(b.TempDir(), "search.cache")
	e := New(s, benchHere, cache)
	if err := e.Load(b.Context()); err != nil {
		b.Fatal(err)
	}
	if err := e.SaveCache(); err != nil {
		b.Fatal(err)
	}
	fi, _ := os.Stat(cache)
	b.ReportMetric(float64(fi.Size())/(1<<20), "cache-MB")
	for b.Loop() {
		e := New(s, benchHere, cache)
		if err := e.Load(b.Context()); err != nil {
			b.Fatal(err)
		}
		if !e.Loaded() || e.full {
			b.Fatal("the cache was not used")
		}
	}
}

// typed are queries as typed, key by key, fuzzy over every distinct command.
var typed = []string{"git push", "kubectl get pods", "docker run", "make --vem", "go test ./", "cd ~/src/ka", "ssh polwex", "grep -rn", "dkr rn", "gtpsh"}

// BenchmarkKeys: each key typed to its updated list (Engine.Commands over
// every distinct command line; the first key of each query from scratch,
// the next ones on what the previous matched). Reports the median and the
// 99th percentile of the keys.
func BenchmarkKeys(b *testing.B) {
	s := benchStore(b)
	e := New(s, benchHere, "")
	if err := e.Load(b.Context()); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(len(e.c.texts)), "distinct")
	e.Warm(Filter{}) // as Ctrl-R does while the first screen shows
	var lat []time.Duration
	cpu0 := cpuTime()
	for b.Loop() {
		for _, q := range typed {
			e.last = lastMatch{}
			for i := 1; i <= len(q); i++ {
				t0 := time.Now()
				e.Commands(Query{Text: q[:i], Limit: 50})
				lat = append(lat, time.Since(t0))
			}
		}
	}
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(len(lat)), "cpu-ms/key")
	reportPercentiles(b, lat)
}

// cpuTime is the CPU time this process used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkFirstKeyAllScopes: the first key in each scope and failed-only
// (the view of a filter is computed on its first use).
func BenchmarkFirstKeyAllScopes(b *testing.B) {
	s := benchStore(b)
	var lat []time.Duration
	for b.Loop() {
		e := New(s, Here{Cwd: benchHere.Cwd, Session: "s0042"}, "")
		if err := e.Load(b.Context()); err != nil {
			b.Fatal(err)
		}
		for _, f := range []Filter{{Scope: ScopeSession}, {Scope: ScopeDir}, {Scope: ScopeHost}, {Failed: true}} {
			t0 := time.Now()
			e.Commands(Query{Text: "g", Filter: f, Limit: 50})
			lat = append(lat, time.Since(t0))
		}
	}
	reportPercentiles(b, lat)
}

// BenchmarkOutputOnly: hookd search --output-only WORD, the engine's part:
// the output index, the entries, the matching lines.
func BenchmarkOutputOnly(b *testing.B) {
	s := benchStore(b)
	if !s.HasOutputIndex() {
		b.Log("no output index (build with -tags sqlite_fts5): the outputs are scanned")
	}
	words := []string{"needle512", "needle7", "lotavhix"}
	var lat []time.Duration
	for b.Loop() {
		for _, w := range words {
			e := New(s, benchHere, "")
			t0 := time.Now()
			res, err := e.Search(b.Context(), Query{Text: w, In: InOutput, Limit: 20})
			if err != nil {
				b.Fatal(err)
			}
			lat = append(lat, time.Since(t0))
			if len(res) == 0 {
				b.Fatalf("%s: nothing found", w)
			}
		}
	}
	reportPercentiles(b, lat)
}

func reportPercentiles(b *testing.B, lat []time.Duration) {
	slices.Sort(lat)
	if len(lat) == 0 {
		return
	}
	at := func(p float64) float64 { return float64(lat[int(float64(len(lat)-1)*p)].Microseconds()) / 1000 }
	b.ReportMetric(at(0.5), "p50-ms")
	b.ReportMetric(at(0.99), "p99-ms")
	b.ReportMetric(at(1), "max-ms")
}
