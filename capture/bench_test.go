package capture

import (
	"bytes"
	"fmt"
	"io"
	"testing"
)

// benchText returns n bytes of output lines, coloured with SGR sequences
// when ansi is true.
func benchText(n int, ansi bool) []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < n; i++ {
		if ansi {
			fmt.Fprintf(&b, "\x1b[1;3%dm%6d\x1b[0m \x1b[32mok\x1b[0m  src/pkg/file_%d.go:%d: \x1b[2mall good here\x1b[0m\r\n", i%8, i, i%97, i)
		} else {
			fmt.Fprintf(&b, "%6d ok  src/pkg/file_%d.go:%d: all good here, nothing to see\r\n", i, i%97, i)
		}
	}
	return b.Bytes()[:n]
}

// benchScanner streams 64 MiB through a Scanner in 32 KiB writes (a
// PTY read's size), inside one command captured by a Collector.
func benchScanner(b *testing.B, ansi bool) {
	const size = 64 << 20
	data := benchText(size, ansi)
	begin := []byte(BeginMark(testNonce, s1))
	end := []byte(EndMark(testNonce, s1, 0))
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		s := NewScanner(io.Discard, NewCollector(0, nil), testNonce)
		if _, err := s.Write(begin); err != nil {
			b.Fatal(err)
		}
		for p := data; len(p) > 0; {
			k := min(32<<10, len(p))
			if _, err := s.Write(p[:k]); err != nil {
				b.Fatal(err)
			}
			p = p[k:]
		}
		if _, err := s.Write(end); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkScannerPlain(b *testing.B) { benchScanner(b, false) }

func BenchmarkScannerANSI(b *testing.B) { benchScanner(b, true) }

func BenchmarkRender(b *testing.B) { benchRender(b, false) }

// BenchmarkRenderColoured: the same, keeping the colours (what ingest
// stores).
func BenchmarkRenderColoured(b *testing.B) { benchRender(b, true) }

func benchRender(b *testing.B, colours bool) {
	// 1 MiB of coloured lines with a progress bar every 64 lines.
	var raw bytes.Buffer
	text := benchText(1<<20, true)
	for i, line := range bytes.SplitAfter(text, []byte("\n")) {
		if i%64 == 0 {
			raw.WriteString("[#   ] 25%\r[##  ] 50%\r[####] 100%\r\n")
		}
		raw.Write(line)
	}
	in := raw.Bytes()[:1<<20]
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		if colours {
			RenderColoured(in, false)
		} else {
			Render(in)
		}
	}
}
