package shelltest

import (
	"bytes"
	"math/rand/v2"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// samples hold every kind of sequence Plain removes, sequences it keeps
// (malformed ones), and text around them.
var samples = []string{
	"plain text\r\nnext line\n",
	"\x1b[1;32mgreen\x1b[0m \x1b[?2004h\x1b[?2004l\x1b[2 q",
	"\x1b]0;title\x07after\x1b]133;A\x1b\\prompt \x1b]133;D;0\x07",
	"\x1b(B\x1b)0\x1b=\x1b>\x1b(",
	"\x1b[12:3mnot CSI\x1b[", // a colon is no parameter: the ESC stays
	"\x1b]unterminated \x1b x\x1b]ok\x07\x1bM\x1b",
	"日本語 ✓\r\n\x1b]6973;hookd;0123;D;x;1;0\x07spoof",
}

// feed writes text into o in the pieces cuts gives.
func feed(o *output, text string, cuts []int) {
	prev := 0
	for _, c := range cuts {
		o.write([]byte(text[prev:c]))
		prev = c
	}
	o.write([]byte(text[prev:]))
}

// TestPlainInPieces: the plain text built piece by piece as output arrives
// is what the regular expression gives on the whole, wherever the pieces
// are cut, and what is converted before the end is a prefix of it.
func TestPlainInPieces(t *testing.T) {
	all := strings.Join(samples, "")
	texts := append(append([]string{}, samples...), all)
	for _, text := range texts {
		want := escapes.ReplaceAllString(text, "")
		// Every single cut.
		for c := 0; c <= len(text); c++ {
			o := newOutput()
			feed(o, text, []int{c})
			if !strings.HasPrefix(want, string(o.plain)) {
				t.Fatalf("%q cut at %d: %q before the end is no prefix of %q", text, c, o.plain, want)
			}
			if got := o.plainString(); got != want {
				t.Fatalf("%q cut at %d: plainString %q; want %q", text, c, got, want)
			}
			o.close()
			if string(o.plain) != want {
				t.Fatalf("%q cut at %d: %q; want %q", text, c, o.plain, want)
			}
		}
		// Byte by byte.
		o := newOutput()
		for i := range len(text) {
			o.write([]byte{text[i]})
		}
		o.close()
		if string(o.plain) != want {
			t.Fatalf("%q byte by byte: %q; want %q", text, o.plain, want)
		}
	}
	// Random cuts of random mixes.
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		var b strings.Builder
		for range 1 + r.IntN(8) {
			b.WriteString(samples[r.IntN(len(samples))])
		}
		text := b.String()
		var cuts []int
		for c := 0; c < len(text); c += 1 + r.IntN(7) {
			cuts = append(cuts, c)
		}
		o := newOutput()
		feed(o, text, cuts)
		o.close()
		if want := escapes.ReplaceAllString(text, ""); string(o.plain) != want {
			t.Fatalf("%q cut at %v: %q; want %q", text, cuts, o.plain, want)
		}
	}
}

// An OSC string that never ends holds back no more than maxHeld.
func TestPlainHoldsBackLittle(t *testing.T) {
	o := newOutput()
	o.write([]byte("before\x1b]0;" + strings.Repeat("t", maxHeld+10)))
	o.write([]byte("after"))
	if !bytes.HasSuffix(o.plain, []byte("after")) {
		t.Fatalf("plain ends %q", o.plain[max(0, len(o.plain)-20):])
	}
}

func TestPromptCount(t *testing.T) {
	text := strings.Repeat("$ x\r\n"+promptMark+"\x1b]133;B\x07", 50)
	r := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		var cuts []int
		for c := 0; c < len(text); c += 1 + r.IntN(11) {
			cuts = append(cuts, c)
		}
		o := newOutput()
		feed(o, text, cuts)
		if o.prompts != 50 {
			t.Fatalf("cut at %v: %d prompts; want 50", cuts, o.prompts)
		}
	}
}

func TestMatchLen(t *testing.T) {
	for _, tt := range []struct {
		re   string
		want int
	}{
		{`SYNC_1_OK`, 36},
		{`\nEND\n`, 20},
		{`(?i)(stopped|suspended)`, 36},
		{`bg:(\d+)`, -1},
		{`a{2,3}b?`, 16},
		{`x.*y`, -1},
		{`^foo`, -1},
		{`(?m)^foo$`, -1},
		{`\bword`, -1},
		{`end$`, 12},
		{`\x1b\[\?2004h`, 32},
	} {
		if got := matchLen(regexp.MustCompile(tt.re)); got != tt.want {
			t.Errorf("matchLen(%q) = %d; want %d", tt.re, got, tt.want)
		}
	}
}

// TestSearchIsLinear: a wait that lasts while megabytes arrive searches
// each byte a bounded number of times, not the whole output again at each
// piece, for a pattern of bounded length and for one without a bound.
func TestSearchIsLinear(t *testing.T) {
	const size, piece = 10_000_000, 32 << 10
	for _, tt := range []struct {
		name, re string
		plain    bool
	}{
		{"literal", `END-OF-BIG`, false},
		{"bounded plain", `\nEND-OF-[A-Z]{3}\n`, true},
		{"unbounded", `END-OF-\S+\r\n`, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			o := newOutput()
			var loc []int
			var b []byte
			var wg sync.WaitGroup
			wg.Add(1)
			go func() {
				defer wg.Done()
				b, loc = o.search(0, tt.plain, regexp.MustCompile(tt.re), time.Minute)
			}()
			// Coloured lines of 100 characters.
			chunk := bytes.Repeat([]byte("\x1b[32m"+strings.Repeat("x", 100)+"\x1b[0m\r\n"), piece/111)
			start := time.Now()
			for n := 0; n < size; n += len(chunk) {
				o.write(chunk)
			}
			o.write([]byte("\r\nEND-OF-BIG\r\n"))
			wg.Wait()
			elapsed := time.Since(start)
			if loc == nil || string(b[loc[0]:loc[1]]) == "" {
				t.Fatalf("no match")
			}
			searched := o.searched.Load()
			limit := int64(2 * size)
			if tt.name == "unbounded" {
				// A quarter's growth each time, and one search per
				// rescanEvery besides.
				limit = int64(6*size) + int64(elapsed/rescanEvery+1)*size
			}
			if searched > limit {
				t.Errorf("searched %d bytes for %d of output; want at most %d", searched, size, limit)
			}
			t.Logf("searched %d bytes for %d of output in %v", searched, size, elapsed)
		})
	}
}

// A search from a mark ignores what came before it; one still waiting
// when the output ends says so.
func TestSearchFromMark(t *testing.T) {
	o := newOutput()
	o.write([]byte("old TOKEN\n"))
	mark := len(o.raw)
	done := make(chan []int)
	go func() {
		_, loc := o.search(mark, false, regexp.MustCompile(`TOKEN`), time.Minute)
		done <- loc
	}()
	o.write([]byte("TOK"))
	o.write([]byte("EN"))
	if loc := <-done; loc == nil || loc[0] != mark {
		t.Fatalf("match at %v; want at %d", loc, mark)
	}
	go func() {
		_, loc := o.search(len(o.raw), false, regexp.MustCompile(`never`), time.Minute)
		done <- loc
	}()
	o.close()
	if loc := <-done; loc != nil {
		t.Fatalf("found %v after the end", loc)
	}
}
