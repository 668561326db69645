package histfile

import (
	"bytes"
	"fmt"
	"testing"
)

// benchEntries is the number of entries in the benchmark files.
const benchEntries = 100_000

// zshBenchFile is an EXTENDED_HISTORY file of benchEntries entries, some
// multi-line and some with metafied UTF-8.
func zshBenchFile() []byte {
	var b bytes.Buffer
	for i := range benchEntries {
		fmt.Fprintf(&b, ": %d:%d;", 1700000000+i, i%7)
		switch i % 10 {
		case 0:
			fmt.Fprintf(&b, "for f in *.go; do\\\n  gofmt -l $f # %d\\\ndone\n", i)
		case 1:
			b.Write(zshWrite([]byte(fmt.Sprintf("echo 日本語 ü %d", i)), false))
		default:
			fmt.Fprintf(&b, "git commit -m 'change number %d' --author someone\n", i)
		}
	}
	return b.Bytes()
}

// bashBenchFile is a timestamped bash history of benchEntries entries,
// some multi-line.
func bashBenchFile() []byte {
	var b bytes.Buffer
	for i := range benchEntries {
		fmt.Fprintf(&b, "#%d\n", 1700000000+i)
		switch i % 10 {
		case 0:
			fmt.Fprintf(&b, "for f in *.go; do\n  gofmt -l $f # %d\ndone\n", i)
		case 1:
			fmt.Fprintf(&b, "echo 日本語 ü %d\n", i)
		default:
			fmt.Fprintf(&b, "git commit -m 'change number %d' --author someone\n", i)
		}
	}
	return b.Bytes()
}

func benchmarkParse(b *testing.B, file []byte, parse func(*bytes.Reader) (Result, error)) {
	b.SetBytes(int64(len(file)))
	b.ReportAllocs()
	for b.Loop() {
		res, err := parse(bytes.NewReader(file))
		if err != nil || len(res.Entries) != benchEntries || res.Skipped != 0 {
			b.Fatalf("got %d entries, %d skipped, error %v", len(res.Entries), res.Skipped, err)
		}
	}
}

// BenchmarkParseZsh parses a 100,000-entry zsh history file per op.
func BenchmarkParseZsh(b *testing.B) {
	benchmarkParse(b, zshBenchFile(), func(r *bytes.Reader) (Result, error) { return ParseZsh(r) })
}

// BenchmarkParseBash parses a 100,000-entry bash history file per op.
func BenchmarkParseBash(b *testing.B) {
	benchmarkParse(b, bashBenchFile(), func(r *bytes.Reader) (Result, error) { return ParseBash(r) })
}
