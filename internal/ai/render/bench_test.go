package render

import (
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// benchAnswer returns an answer of about 2,000 tokens (taking a word and
// the space before it as a token) in deltas of 1 to 4 tokens, as a model
// streams them.
func benchAnswer() []string {
	section := "## Step\n\nTo find what fills the disk, look at the largest directories first and then at the files in them; " +
		"`du` and `sort` together are enough for **most** cases, and *ncdu* is nicer when it is installed.\n\n" +
		"- check `/var/log` for old logs\n- check the *package cache*\n- look at `~/.cache`\n\n" +
		"```bash\nsudo du -xh / --max-depth=2 2>/dev/null | sort -rh | head -20\nsudo journalctl --vacuum-size=200M\n```\n\n" +
		"| path | size |\n|---|---|\n| /var/log | 2G |\n| ~/.cache | 5G |\n\n"
	var tokens []string
	for len(tokens) < 2000 {
		tokens = append(tokens, strings.SplitAfter(section, " ")...)
	}
	tokens = tokens[:2000]
	r := rand.New(rand.NewPCG(1, 2))
	var deltas []string
	for len(tokens) > 0 {
		n := min(1+r.IntN(4), len(tokens))
		deltas = append(deltas, strings.Join(tokens[:n], ""))
		tokens = tokens[n:]
	}
	return deltas
}

// BenchmarkText reports the cost of Text per delta (ns/delta) and the
// slowest delta seen (max-ns/delta): a delta that ends a line is rendered.
//
//	go test -run '^$' -bench Text -benchtime 20x ./answer
func BenchmarkText(b *testing.B) {
	deltas := benchAnswer()
	for _, style := range []string{"dark", "plain"} {
		b.Run(style, func(b *testing.B) {
			var slowest time.Duration
			b.ReportAllocs()
			for b.Loop() {
				w := NewWriter(io.Discard, Options{Width: 100, Height: 40, Style: style})
				for _, d := range deltas {
					start := time.Now()
					if err := w.Text(d); err != nil {
						b.Fatal(err)
					}
					slowest = max(slowest, time.Since(start))
				}
				if err := w.Close(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(deltas)), "ns/delta")
			b.ReportMetric(float64(slowest.Nanoseconds()), "max-ns/delta")
		})
	}
}
