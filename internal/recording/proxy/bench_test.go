//go:build linux

package proxy

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkProxyThroughput measures `cat` of a 50 MB text file through Run,
// with Stdout on /dev/null (the proxy's own cost) and on a pty drained by a
// goroutine (the realistic case: a terminal takes the output). MB/s counts
// the file's bytes; the inner terminal adds a \r per line on top.
func BenchmarkProxyThroughput(b *testing.B) {
	const size = 50 << 20
	path := filepath.Join(b.TempDir(), "data")
	line := append(bytes.Repeat([]byte("0123456789abcdef"), 5)[:79], '\n')
	if err := os.WriteFile(path, bytes.Repeat(line, size/len(line)), 0o644); err != nil {
		b.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	stdin, err := os.Open(os.DevNull)
	if err != nil {
		b.Fatal(err)
	}
	defer stdin.Close()

	run := func(b *testing.B, stdout *os.File) {
		b.SetBytes(st.Size())
		for b.Loop() {
			status, err := Run(context.Background(), Options{
				Argv:   []string{"cat", path},
				Stdin:  stdin,
				Stdout: stdout,
			})
			if err != nil || status != 0 {
				b.Fatalf("Run = %d, %v", status, err)
			}
		}
	}

	b.Run("devnull", func(b *testing.B) {
		devNull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
		if err != nil {
			b.Fatal(err)
		}
		defer devNull.Close()
		run(b, devNull)
	})
	b.Run("pty", func(b *testing.B) {
		master, tty, err := openPTY()
		if err != nil {
			b.Fatal(err)
		}
		defer tty.Close()
		done := make(chan struct{})
		go func() {
			defer close(done)
			_, _ = io.Copy(io.Discard, master)
		}()
		run(b, tty)
		master.Close()
		<-done
	})
}
