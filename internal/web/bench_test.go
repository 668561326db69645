package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/recording/recall"
	"github.com/hookd/hookd/internal/search"
)

// BenchmarkServeKeys: the page's search as it is typed, one request a
// key, through the whole handler (the checks, the engine over the commands
// and the outputs, the results drawn), on the generated history of
// bench/searchgen (HOOKD_SEARCH_BENCH_DB; bench/search.sh makes it).
// Reports the median and the 99th percentile of the requests.
func BenchmarkServeKeys(b *testing.B) {
	path := os.Getenv("HOOKD_SEARCH_BENCH_DB")
	if path == "" {
		b.Skip("HOOKD_SEARCH_BENCH_DB is not set (bench/search.sh sets it)")
	}
	ctx := context.Background()
	st, err := history.Open(ctx, path, 10*time.Second)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	eng := search.New(st, search.Here{Cwd: "/home/dev/src/kalo/mine"}, "")
	start := time.Now()
	if err := eng.Load(ctx); err != nil {
		b.Fatal(err)
	}
	b.Logf("corpus read in %v", time.Since(start))
	s, err := newServer(Options{Store: st, Engine: eng, Reader: &recall.Reader{Store: st, Outbox: filepath.Join(b.TempDir(), "outbox")}}, 8080)
	if err != nil {
		b.Fatal(err)
	}
	h := s.Handler()
	// Typed as people type: commands (fuzzy), words of outputs, a filter.
	queries := []struct{ text, extra string }{
		{"git push", ""}, {"kubectl get pods", ""}, {"docker run", ""}, {"make --vem", ""}, {"go test ./", ""},
		{"gtpsh", ""}, {"needle512", "&in=output"}, {"lotavhix", ""}, {"error", "&failed=1"}, {"grep -rn", "&scope=directory"},
	}
	var times []time.Duration
	for b.Loop() {
		for _, q := range queries {
			for i := 1; i <= len(q.text); i++ {
				req := httptest.NewRequest("GET", "/?frag=1&q="+url.QueryEscape(q.text[:i])+q.extra, nil)
				req.Host = s.addr
				req.AddCookie(&http.Cookie{Name: s.cookieName(), Value: s.token})
				rec := httptest.NewRecorder()
				t := time.Now()
				h.ServeHTTP(rec, req)
				times = append(times, time.Since(t))
				if rec.Code != 200 {
					b.Fatalf("%s: status %d: %s", req.URL, rec.Code, rec.Body)
				}
			}
		}
	}
	slices.Sort(times)
	pct := func(p float64) float64 { return float64(times[int(p*float64(len(times)-1))]) / 1e6 }
	b.ReportMetric(pct(0.5), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
	b.ReportMetric(float64(times[len(times)-1])/1e6, "max-ms")
	b.ReportMetric(float64(len(times))/float64(b.N), "keys/op")
}
