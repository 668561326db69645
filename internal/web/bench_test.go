package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/recording/recall"
	"github.com/hookd/hookd/internal/search"

	"github.com/hookd/hookd/internal/required"
)

// benchServer is a server over bench/searchgen's history
// (HOOKD_SEARCH_BENCH_DB; bench/search.sh makes it), its search's corpus
// read first when load is set.
func benchServer(b *testing.B, load bool) *Server {
	path := os.Getenv("HOOKD_SEARCH_BENCH_DB")
	if path == "" {
		required.Cannot(b, "HOOKD_SEARCH_BENCH_DB is not set (bench/search.sh sets it)")
	}
	ctx := context.Background()
	st, err := history.Open(ctx, path, 10*time.Second)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	eng := search.New(st, search.Here{Cwd: "/home/dev/src/kalo/mine"}, "")
	if load {
		start := time.Now()
		if err := eng.Load(ctx); err != nil {
			b.Fatal(err)
		}
		b.Logf("corpus read in %v", time.Since(start))
	}
	s, err := newServer(Options{Store: st, Engine: eng, Reader: &recall.Reader{Store: st, Outbox: filepath.Join(b.TempDir(), "outbox")}}, 8080)
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkServeKeys: the page's search as it is typed, one request a
// key (as the page asks: typed, its outputs' prefix lookup bounded, and
// for a key whose outputs were cut short the request for every match the
// page makes once typing pauses, reported apart as "settled"), through
// the whole handler (the checks, the engine over the commands
// and the outputs, the results drawn), on the generated history of
// bench/searchgen (HOOKD_SEARCH_BENCH_DB; bench/search.sh makes it).
// Reports the median and the 99th percentile of the requests.
func BenchmarkServeKeys(b *testing.B) {
	s := benchServer(b, true)
	h := s.Handler()
	// Typed as people type: commands (fuzzy), words of outputs, a filter.
	queries := []struct{ text, extra string }{
		{"git push", ""}, {"kubectl get pods", ""}, {"docker run", ""}, {"make --vem", ""}, {"go test ./", ""},
		{"gtpsh", ""}, {"needle512", "&in=output"}, {"lotavhix", ""}, {"error", "&failed=1"}, {"grep -rn", "&scope=directory"},
	}
	// As the page asks: the command lines at each key, then both when
	// the query searches outputs (search.TypedOutputs).
	type timed struct {
		d, cpu time.Duration
		q      string
	}
	var keys, outs, settles []timed
	cut := 0
	var body string
	get := func(query string) (time.Duration, time.Duration) {
		req := httptest.NewRequest("GET", "/?frag=1&p=bench&"+query, nil)
		req.Host = s.addr
		req.AddCookie(&http.Cookie{Name: s.cookieName(), Value: s.token})
		rec := httptest.NewRecorder()
		c0 := cpuTime()
		t := time.Now()
		h.ServeHTTP(rec, req)
		d := time.Since(t)
		cpu := cpuTime() - c0
		if rec.Code != 200 {
			b.Fatalf("%s: status %d: %s", req.URL, rec.Code, rec.Body)
		}
		body = rec.Body.String()
		return d, cpu
	}
	add := func(ts *[]timed, q string, d, cpu time.Duration) { *ts = append(*ts, timed{d, cpu, q}) }
	for b.Loop() {
		for _, q := range queries {
			for i := 1; i <= len(q.text); i++ {
				text := q.text[:i]
				if !strings.Contains(q.extra, "in=output") {
					d, cpu := get("q=" + url.QueryEscape(text) + q.extra + "&in=command")
					add(&keys, text+q.extra, d, cpu)
				}
				if search.TypedOutputs(search.Query{Text: text}) {
					d, cpu := get("q=" + url.QueryEscape(text) + q.extra)
					add(&outs, text+q.extra, d, cpu)
					if strings.Contains(body, `data-partial="1"`) {
						// Cut short: the page asks for every match
						// once typing pauses.
						cut++
						d, cpu := get("q=" + url.QueryEscape(text) + q.extra + "&all=1")
						add(&settles, text+q.extra, d, cpu)
					}
				}
			}
		}
	}
	report := func(name string, ts []timed) {
		slices.SortFunc(ts, func(a, b timed) int { return int(a.d - b.d) })
		pct := func(p float64) float64 { return float64(ts[int(p*float64(len(ts)-1))].d) / 1e6 }
		b.ReportMetric(pct(0.5), name+"-p50-ms")
		b.ReportMetric(pct(0.99), name+"-p99-ms")
		b.ReportMetric(float64(ts[len(ts)-1].d)/1e6, name+"-max-ms")
		cpus := make([]time.Duration, len(ts))
		for i, x := range ts {
			cpus[i] = x.cpu
		}
		slices.Sort(cpus)
		b.ReportMetric(float64(cpus[len(cpus)/2])/1e6, name+"-cpu-p50-ms")
		b.ReportMetric(float64(cpus[len(cpus)*99/100])/1e6, name+"-cpu-p99-ms")
		for _, x := range ts[max(0, len(ts)-5):] {
			b.Logf("%s: %v (CPU %v) %q", name, x.d, x.cpu, x.q)
		}
	}
	report("key", keys)
	report("outputs", outs)
	b.ReportMetric(float64(cut), "outputs-cut")
	if len(settles) > 0 {
		report("settled", settles)
	}
}

// cpuTime is the CPU time the process used so far (user and system).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkServeStats: the statistics page (/stats, 90 days) on the same
// history: a year's calendar, runs by day, the commands by time and by
// failures, each from package stats.
func BenchmarkServeStats(b *testing.B) {
	s := benchServer(b, false)
	h := s.Handler()
	for b.Loop() {
		req := httptest.NewRequest("GET", "/stats?since=90d", nil)
		req.Host = s.addr
		req.AddCookie(&http.Cookie{Name: s.cookieName(), Value: s.token})
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != 200 || !strings.Contains(rec.Body.String(), "svg") {
			b.Fatalf("status %d: %.500s", rec.Code, rec.Body)
		}
	}
}

// BenchmarkServeTyping: the page's search as a person types it, on the
// same history: the ten queries of BenchmarkServeKeys, a key every
// HOOKD_TYPING_MS (default 60 ms), each key asking as the page does (the
// command lines, then both when outputs are searched) whether or not the
// previous key's requests have been answered; the page's next key
// supersedes its requests still in flight. Reports each key's list (the
// command lines: what the reader sees change) from the key to its answer,
// median and 99th percentile, and how many keys were superseded before
// their list came.
func BenchmarkServeTyping(b *testing.B) {
	s := benchServer(b, true)
	h := s.Handler()
	every := 60 * time.Millisecond
	if v, err := strconv.Atoi(os.Getenv("HOOKD_TYPING_MS")); err == nil && v > 0 {
		every = time.Duration(v) * time.Millisecond
	}
	queries := []struct{ text, extra string }{
		{"git push", ""}, {"kubectl get pods", ""}, {"docker run", ""}, {"make --vem", ""}, {"go test ./", ""},
		{"gtpsh", ""}, {"needle512", ""}, {"lotavhix", ""}, {"error", "&failed=1"}, {"grep -rn", "&scope=directory"},
	}
	get := func(query string) (int, time.Duration) {
		req := httptest.NewRequest("GET", "/?frag=1&p=bench&"+query, nil)
		req.Host = s.addr
		req.AddCookie(&http.Cookie{Name: s.cookieName(), Value: s.token})
		rec := httptest.NewRecorder()
		t := time.Now()
		h.ServeHTTP(rec, req)
		return rec.Code, time.Since(t)
	}
	var (
		mu         sync.Mutex
		lists      []time.Duration
		superseded int
	)
	for b.Loop() {
		for _, q := range queries {
			var wg sync.WaitGroup
			for i := 1; i <= len(q.text); i++ {
				text := q.text[:i]
				wg.Add(1)
				go func() {
					defer wg.Done()
					code, d := get("q=" + url.QueryEscape(text) + q.extra + "&in=command")
					mu.Lock()
					if code == http.StatusOK {
						lists = append(lists, d)
					} else {
						superseded++
					}
					mu.Unlock()
					if code == http.StatusOK && search.TypedOutputs(search.Query{Text: text}) {
						get("q=" + url.QueryEscape(text) + q.extra)
					}
				}()
				time.Sleep(every)
			}
			wg.Wait()
		}
	}
	slices.Sort(lists)
	pct := func(p float64) float64 { return float64(lists[int(p*float64(len(lists)-1))]) / 1e6 }
	b.ReportMetric(pct(0.5), "list-p50-ms")
	b.ReportMetric(pct(0.99), "list-p99-ms")
	b.ReportMetric(float64(lists[len(lists)-1])/1e6, "list-max-ms")
	b.ReportMetric(float64(superseded), "superseded")
	b.ReportMetric(float64(len(lists)), "answered")
}
