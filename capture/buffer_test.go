package capture

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

func TestBuffer(t *testing.T) {
	in := []byte(strings.Repeat("0123456789abcdefghijklmnopqrstuvwxyz", 300)) // 10800 bytes
	tests := []struct {
		limit, n int // keep limit bytes of in[:n]
	}{
		{16, 0}, {16, 5}, {16, 16}, {16, 17}, {16, 100}, {17, 100}, {1, 50},
		{1000, 999}, {1000, 1000}, {1000, 1001}, {1000, 10800},
	}
	for _, tt := range tests {
		data := in[:tt.n]
		want := string(data)
		if tt.n > tt.limit {
			h := tt.limit / 2
			tl := tt.limit - h
			want = fmt.Sprintf("%s\x18\n[… %d bytes not kept …]\n%s", data[:h], tt.n-tt.limit, data[tt.n-tl:])
		}
		for _, chunk := range []int{1, 3, 7, 16, 64, 1 << 20} {
			t.Run(fmt.Sprintf("limit %d, %d bytes in chunks of %d", tt.limit, tt.n, chunk), func(t *testing.T) {
				b := NewBuffer(tt.limit)
				for p := data; len(p) > 0; {
					k := min(chunk, len(p))
					if n, err := b.Write(p[:k]); n != k || err != nil {
						t.Fatalf("Write = %d, %v", n, err)
					}
					p = p[k:]
				}
				if got := string(b.Bytes()); got != want {
					t.Errorf("Bytes() = %q; want %q", got, want)
				}
				if b.Len() != int64(tt.n) {
					t.Errorf("Len() = %d; want %d", b.Len(), tt.n)
				}
				if c := cap(b.head) + cap(b.tail); c > tt.limit {
					t.Errorf("holds %d bytes of capacity; limit %d", c, tt.limit)
				}
			})
		}
	}
}

func TestBufferUTF8Boundaries(t *testing.T) {
	// "é" is 2 bytes and "世" 3: a cut inside either moves to its edge.
	b := NewBuffer(8)
	_, _ = b.Write([]byte("ab世" + strings.Repeat("-", 10) + "é世"))
	want := "ab\x18\n[… 15 bytes not kept …]\n世"
	if got := string(b.Bytes()); got != want {
		t.Errorf("Bytes() = %q; want %q", got, want)
	}
	text, _ := Render(b.Bytes())
	if want := "ab\n[… 15 bytes not kept …]\n世"; text != want {
		t.Errorf("Render(Bytes()) = %q; want %q", text, want)
	}
}

func TestBufferDefaultLimit(t *testing.T) {
	b := NewBuffer(0)
	chunk := bytes.Repeat([]byte("x"), 64<<10)
	for range 64 { // 4 MiB
		if _, err := b.Write(chunk); err != nil {
			t.Fatal(err)
		}
	}
	if d := b.Dropped(); d != 3<<20 {
		t.Errorf("Dropped() = %d; want %d", d, 3<<20)
	}
	if c := cap(b.head) + cap(b.tail); c > DefaultLimit {
		t.Errorf("holds %d bytes of capacity; limit %d", c, DefaultLimit)
	}
}
