package promptblock

import (
	"fmt"
	"strings"
	"testing"
)

func BenchmarkExcerpt1MiB(b *testing.B) {
	var sb strings.Builder
	for i := 0; sb.Len() < 1<<20; i++ {
		fmt.Fprintf(&sb, "building module number %d of the project, everything fine so far\n", i)
	}
	text := sb.String()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Excerpt(text, 8000)
	}
}
