package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// BenchmarkServeFirstPaint: a command's page with a 10 MB output, in
// headless chromium, from the navigation to the first contentful paint
// (the browser's own figure, performance.getEntriesByType("paint")), and
// to the page's load event. The output is recorded by hookd run with
// output.limit raised to 16 MiB.
func BenchmarkServeFirstPaint(b *testing.B) {
	h := newHome(b)
	os.MkdirAll(filepath.Join(h.Dir, ".config", "hookd"), 0o700)
	if err := os.WriteFile(filepath.Join(h.Dir, ".config", "hookd", "config.yaml"), []byte("output:\n  limit: 16MiB\n"), 0o600); err != nil {
		b.Fatal(err)
	}
	// Two of them, visited in turn: each visit reads and cuts its output
	// anew (the server keeps the last one cut).
	for _, f := range []string{"build step %06g: compiling a module of the project, with a line of its log", "test %06g: ok, with a line of its log long enough to make ten megabytes"} {
		out, errOut, err := hookdRun(h, nil, "run", "--no-suggest", "--", "seq", "-f", f, "1", "150000")
		if err != nil || len(out) < 10<<20 {
			b.Fatalf("hookd run: %v (%d bytes)\n%s", err, len(out), errOut)
		}
	}
	u := startServe(b, h)
	root := strings.SplitN(u, "?", 2)[0]
	ctx := browser(b)
	c, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	if err := chromedp.Do(c, chromedp.Navigate(u)); err != nil {
		b.Fatal(err)
	}
	var paint, load, response []float64
	id := 0
	for b.Loop() {
		id = id%2 + 1
		if err := chromedp.Do(c, chromedp.Navigate(root+"c/"+strconv.Itoa(id)), chromedp.WaitVisible(chromedp.ID("output"))); err != nil {
			b.Fatal(err)
		}
		fcp, err := chromedp.Run(c, chromedp.Poll[float64](`(performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime`))
		if err != nil {
			b.Fatal(err)
		}
		ld, err := chromedp.Run(c, chromedp.Poll[float64](`performance.getEntriesByType('navigation')[0].loadEventEnd || 0`))
		if err != nil {
			b.Fatal(err)
		}
		resp, err := chromedp.Run(c, chromedp.Evaluate[float64](`performance.getEntriesByType('navigation')[0].responseEnd`))
		if err != nil {
			b.Fatal(err)
		}
		paint, load, response = append(paint, fcp), append(load, ld), append(response, resp)
	}
	slices.Sort(paint)
	slices.Sort(load)
	slices.Sort(response)
	b.ReportMetric(response[len(response)/2], "response-ms")
	b.ReportMetric(paint[len(paint)/2], "first-paint-ms")
	b.ReportMetric(paint[len(paint)-1], "first-paint-max-ms")
	b.ReportMetric(load[len(load)/2], "load-ms")
}
