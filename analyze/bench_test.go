package analyze_test

import (
	"testing"

	"github.com/hookd/hookd/analyze"
)

// BenchmarkAnalyze analyses every generated-pool output once per iteration.
func BenchmarkAnalyze(b *testing.B) {
	var ins []analyze.Input
	for i, c := range genCommands {
		ins = append(ins, analyze.Input{Command: c, ExitCode: genExits[i%len(genExits)], Output: genOutputs[i%len(genOutputs)], Cwd: "/w", Env: baseFacts()})
	}
	b.ResetTimer()
	for b.Loop() {
		for _, in := range ins {
			analyze.Analyze(b.Context(), in)
		}
	}
}
