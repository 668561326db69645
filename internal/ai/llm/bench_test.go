package llm_test

import (
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/ai/llm"
	"github.com/hookd/hookd/internal/ai/llm/llmtest"
)

// BenchmarkStream streams 200 chunks from each fake, reporting the time to
// the first chunk and per chunk: the cost of the client's parsing. (Set
// llmtest.Reply.Interval to pace the chunks for a latency benchmark.)
func BenchmarkStream(b *testing.B) {
	chunks := strings.Split(strings.Repeat("tok ", 200), " ")[:200]
	for _, f := range fakes {
		b.Run(f.provider, func(b *testing.B) {
			s := f.start(b)
			s.SetReply(llmtest.Reply{Text: chunks, InputTokens: 1, OutputTokens: 200})
			p, err := llm.New(llm.Config{Provider: f.provider, Model: "m", BaseURL: f.base(s), APIKey: "k"}, nil)
			if err != nil {
				b.Fatal(err)
			}
			var first time.Duration
			b.ResetTimer()
			for b.Loop() {
				start := time.Now()
				seen := false
				_, err := p.Stream(b.Context(), question, func(llm.Event) error {
					if !seen {
						first += time.Since(start)
						seen = true
					}
					return nil
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(first.Microseconds())/float64(b.N), "µs-first/op")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/200, "ns/chunk")
		})
	}
}
