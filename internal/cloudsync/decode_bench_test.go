package cloudsync

import (
	"fmt"
	"testing"

	"github.com/hookd/hookd/history"
)

// BenchmarkDecode: decoding a segment of 25,000 commands (the most an
// upload writes) with contexts.
func BenchmarkDecode(b *testing.B) {
	batch := &history.SyncBatch{Contexts: map[history.Key]history.Context{}}
	for i := range 25000 {
		s := fmt.Sprintf("sess-%d", i/300)
		batch.Commands = append(batch.Commands, history.Entry{Session: s, Seq: int64(i%300 + 1), Command: fmt.Sprintf("git commit -m 'change %d' && make test-%d", i, i%97),
			Cwd: "/home/me/src/hookd", StartedAt: int64(i) * 1e6, Pipestatus: []int{0}})
		batch.Contexts[history.Key{Session: s, Seq: int64(i%300 + 1)}] = history.Context{Key: int64(i % 50), Repo: "/home/me/src/hookd", Branch: "main",
			Env: map[string]string{"PATH": "/usr/bin:/bin"}}
	}
	plain, err := encode(wireSegment{Host: "0123456789abcdef", Start: 1, End: 1}, batch, naming{self: "0123456789abcdef"})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(plain)))
	for b.Loop() {
		if _, _, err := decode(plain); err != nil {
			b.Fatal(err)
		}
	}
}
