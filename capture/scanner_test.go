package capture

import (
	"bytes"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

const testNonce = "0123456789abcdef0123456789abcdef"

// logSink records what a Scanner reports, merging consecutive outputs.
type logSink struct{ ev []string }

func (l *logSink) Begin(id ID) { l.ev = append(l.ev, "begin "+id.String()) }

func (l *logSink) Output(p []byte) {
	if n := len(l.ev); n > 0 && strings.HasPrefix(l.ev[n-1], "out ") {
		l.ev[n-1] += string(p)
		return
	}
	l.ev = append(l.ev, "out "+string(p))
}

func (l *logSink) End(id ID, status int, complete bool) {
	l.ev = append(l.ev, fmt.Sprintf("end %s %d %v", id, status, complete))
}

// scanChunks runs input through a Scanner in the given chunks and closes
// it; it returns what was forwarded and what the sink saw.
func scanChunks(t testing.TB, nonce string, chunks [][]byte) (string, []string) {
	t.Helper()
	var out bytes.Buffer
	var sink logSink
	s := NewScanner(&out, &sink, nonce)
	for _, c := range chunks {
		if n, err := s.Write(c); n != len(c) || err != nil {
			t.Fatalf("Write(%q) = %d, %v; want %d, nil", c, n, err, len(c))
		}
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	return out.String(), sink.ev
}

var (
	s1   = ID{"171234-42-7", 1}
	s2   = ID{"171234-42-7", 2}
	s3   = ID{"171234-42-7", 3}
	c133 = "\x1b]133;C\a"
	d133 = "\x1b]133;D;0\a"
	a133 = "\x1b]133;A\a"
	b133 = "\x1b]133;B\a"
)

// st replaces the BEL terminators of s with ESC \.
func st(s string) string { return strings.ReplaceAll(s, "\a", "\x1b\\") }

func TestScanner(t *testing.T) {
	begin1, end1 := BeginMark(testNonce, s1), EndMark(testNonce, s1, 0)
	begin2, end2 := BeginMark(testNonce, s2), EndMark(testNonce, s2, 130)
	wrong := BeginMark("ffffffffffffffffffffffffffffffff", s2)
	tests := []struct {
		name   string
		nonce  string
		in     string
		fwd    string // forwarded; empty means in without the valid marks
		events []string
	}{
		{name: "plain", in: "hello\r\nworld\r\n"},
		{name: "empty", in: ""},
		{name: "colours", in: "\x1b[1;31mred\x1b[0m \x1b]0;title\a\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\"},
		{
			name:   "one command",
			in:     a133 + "$ " + b133 + "ls\r\n" + c133 + begin1 + "a  b\r\n" + end1 + d133 + a133 + "$ ",
			fwd:    a133 + "$ " + b133 + "ls\r\n" + c133 + "a  b\r\n" + d133 + a133 + "$ ",
			events: []string{"begin 171234-42-7:1", "out a  b\r\n", "end 171234-42-7:1 0 true"},
		},
		{
			name:   "ESC backslash terminators",
			in:     st(c133 + begin1 + "x\r\n" + end1 + d133),
			fwd:    st(c133 + "x\r\n" + d133),
			events: []string{"begin 171234-42-7:1", "out x\r\n", "end 171234-42-7:1 0 true"},
		},
		{
			name: "back to back, without and with output",
			in:   begin1 + end1 + begin2 + "out2" + end2,
			fwd:  "out2",
			events: []string{
				"begin 171234-42-7:1", "end 171234-42-7:1 0 true",
				"begin 171234-42-7:2", "out out2", "end 171234-42-7:2 130 true",
			},
		},
		{
			name:   "output without marks around it",
			in:     "before" + begin1 + "in" + end1 + "after",
			fwd:    "beforeinafter",
			events: []string{"begin 171234-42-7:1", "out in", "end 171234-42-7:1 0 true"},
		},
		{
			name:   "fake OSC 133 marks are output",
			in:     begin1 + "x" + d133 + a133 + "$ " + b133 + c133 + "y" + end1,
			events: []string{"begin 171234-42-7:1", "out x" + d133 + a133 + "$ " + b133 + c133 + "y", "end 171234-42-7:1 0 true"},
		},
		{
			name:   "wrong nonce is output",
			in:     begin1 + "x" + wrong + "y" + EndMark("nope", s1, 1) + "z" + end1,
			events: []string{"begin 171234-42-7:1", "out x" + wrong + "y" + EndMark("nope", s1, 1) + "z", "end 171234-42-7:1 0 true"},
		},
		{
			name:   "end of another command is ignored",
			in:     begin1 + "x" + end2 + "y" + end1,
			fwd:    "xy",
			events: []string{"begin 171234-42-7:1", "out xy", "end 171234-42-7:1 0 true"},
		},
		{
			name:   "lost end",
			in:     begin1 + "x" + begin2 + "y" + end2,
			fwd:    "xy",
			events: []string{"begin 171234-42-7:1", "out x", "end 171234-42-7:1 -1 false", "begin 171234-42-7:2", "out y", "end 171234-42-7:2 130 true"},
		},
		{
			name:   "closed while running",
			in:     begin1 + "x",
			fwd:    "x",
			events: []string{"begin 171234-42-7:1", "out x", "end 171234-42-7:1 -1 false"},
		},
		{
			name:   "unfinished mark is flushed on close",
			in:     begin1 + "x\x1b]6973;hookd;" + testNonce + ";D;171",
			fwd:    "x\x1b]6973;hookd;" + testNonce + ";D;171",
			events: []string{"begin 171234-42-7:1", "out x\x1b]6973;hookd;" + testNonce + ";D;171", "end 171234-42-7:1 -1 false"},
		},
		{
			name:   "garbage before a mark",
			in:     "\x1b\x1b]\x1b]6973\x1b]6973;hookd;\x1b]6973;hookd;" + testNonce + ";C\x1b" + begin1 + "o" + end1,
			fwd:    "\x1b\x1b]\x1b]6973\x1b]6973;hookd;\x1b]6973;hookd;" + testNonce + ";C\x1bo",
			events: []string{"begin 171234-42-7:1", "out o", "end 171234-42-7:1 0 true"},
		},
		{
			name: "malformed marks are output",
			in: begin1 +
				"\x1b]6973;hookd;" + testNonce + ";C;s;\a" + // no seq
				"\x1b]6973;hookd;" + testNonce + ";C;s;1x\a" + // bad seq
				"\x1b]6973;hookd;" + testNonce + ";D;171234-42-7;1\a" + // no status
				"\x1b]6973;hookd;" + testNonce + ";D;171234-42-7;1;--1\a" + // bad status
				"\x1b]6973;hookd;" + testNonce + ";E;s;1\a" + // unknown kind
				"\x1b]6973;hookd;" + testNonce + ";C;s p;1\a" + // space in session
				"\x1b]6973;hookd;" + testNonce + ";C;s;1\x1bx" + // bad ST
				"\x1b]6973;hookd;" + testNonce + ";C;s;1;2\a" + // extra field
				"\x1b]6973;hookd;" + testNonce + ";C;" + strings.Repeat("s", 129) + ";1\a" + // long session
				"\x1b]6973;hookd;" + testNonce + ";C;s;" + strings.Repeat("1", 20) + "\a" + // long seq
				"\x1b]6973;hookd;" + testNonce + ";C;s;1\x9c" + // 8-bit ST
				end1,
			events: []string{"begin 171234-42-7:1", "out " +
				"\x1b]6973;hookd;" + testNonce + ";C;s;\a" +
				"\x1b]6973;hookd;" + testNonce + ";C;s;1x\a" +
				"\x1b]6973;hookd;" + testNonce + ";D;171234-42-7;1\a" +
				"\x1b]6973;hookd;" + testNonce + ";D;171234-42-7;1;--1\a" +
				"\x1b]6973;hookd;" + testNonce + ";E;s;1\a" +
				"\x1b]6973;hookd;" + testNonce + ";C;s p;1\a" +
				"\x1b]6973;hookd;" + testNonce + ";C;s;1\x1bx" +
				"\x1b]6973;hookd;" + testNonce + ";C;s;1;2\a" +
				"\x1b]6973;hookd;" + testNonce + ";C;" + strings.Repeat("s", 129) + ";1\a" +
				"\x1b]6973;hookd;" + testNonce + ";C;s;" + strings.Repeat("1", 20) + "\a" +
				"\x1b]6973;hookd;" + testNonce + ";C;s;1\x9c",
				"end 171234-42-7:1 0 true"},
		},
		{
			name:   "negative status and longest fields",
			in:     BeginMark(testNonce, ID{strings.Repeat("s", 128), 1234567890123456789}) + "o" + EndMark(testNonce, ID{strings.Repeat("s", 128), 1234567890123456789}, -123456789),
			fwd:    "o",
			events: []string{"begin " + strings.Repeat("s", 128) + ":1234567890123456789", "out o", "end " + strings.Repeat("s", 128) + ":1234567890123456789 -123456789 true"},
		},
		{
			name:   "empty nonce honours nothing",
			nonce:  "-",
			in:     BeginMark("", s1) + "x" + EndMark("", s1, 0),
			fwd:    BeginMark("", s1) + "x" + EndMark("", s1, 0),
			events: nil,
		},
	}
	for _, tt := range tests {
		nonce := tt.nonce
		switch nonce {
		case "":
			nonce = testNonce
		case "-":
			nonce = ""
		}
		want := tt.fwd
		if want == "" { // the input without the valid marks
			want = strings.NewReplacer(begin1, "", end1, "", begin2, "", end2, "").Replace(tt.in)
		}
		in := []byte(tt.in)
		check := func(t *testing.T, how string, chunks [][]byte) bool {
			t.Helper()
			fwd, ev := scanChunks(t, nonce, chunks)
			ok := true
			if fwd != want {
				t.Errorf("%s: forwarded\n%q; want\n%q", how, fwd, want)
				ok = false
			}
			if strings.Join(ev, "|") != strings.Join(tt.events, "|") {
				t.Errorf("%s: events\n%q; want\n%q", how, ev, tt.events)
				ok = false
			}
			return ok
		}
		t.Run(tt.name, func(t *testing.T) {
			if !check(t, "one write", [][]byte{in}) {
				return
			}
			for i := range in {
				if !check(t, fmt.Sprintf("split at %d", i), [][]byte{in[:i], in[i:]}) {
					return
				}
			}
			var bytewise [][]byte
			for i := range in {
				bytewise = append(bytewise, in[i:i+1])
			}
			check(t, "byte by byte", bytewise)
		})
	}
}

// TestScannerWithhold: an S mark (hookd printed a secret) withholds the
// open command's output from the sink, before and after it; it reaches the
// terminal, and the command ends as usual. Outside a command it does
// nothing; with another nonce it is output.
func TestScannerWithhold(t *testing.T) {
	hold := WithholdMark(testNonce)
	in := "x" + hold + BeginMark(testNonce, s1) + "sync: a new history\r\n" + hold + "hookd1-secret\r\n" + EndMark(testNonce, s1, 0) +
		BeginMark(testNonce, s2) + "y" + WithholdMark("ffffffffffffffffffffffffffffffff") + "z" + EndMark(testNonce, s2, 0)
	fwd, ev := scanChunks(t, testNonce, [][]byte{[]byte(in)})
	if want := "xsync: a new history\r\nhookd1-secret\r\ny" + WithholdMark("ffffffffffffffffffffffffffffffff") + "z"; fwd != want {
		t.Errorf("forwarded %q; want %q without the valid mark", fwd, want)
	}
	want := []string{"begin 171234-42-7:1", "out sync: a new history\r\n", "end 171234-42-7:1 0 true",
		"begin 171234-42-7:2", "out y" + WithholdMark("ffffffffffffffffffffffffffffffff") + "z", "end 171234-42-7:2 0 true"}
	if strings.Join(ev, "|") != strings.Join(want, "|") {
		t.Errorf("events\n%q; want\n%q", ev, want)
	}

	// The collector drops what it had and hands over no byte of it.
	var got []Capture
	c := NewCollector(0, func(cp Capture) { got = append(got, cp) })
	s := NewScanner(io.Discard, c, testNonce)
	s.Write([]byte(BeginMark(testNonce, s1) + "before\r\n" + hold + "hookd1-secret\r\n" + EndMark(testNonce, s1, 0) +
		BeginMark(testNonce, s2) + "kept" + EndMark(testNonce, s2, 0)))
	wantC := []Capture{{ID: s1, Status: 0, Complete: true, Withheld: true}, {ID: s2, Status: 0, Complete: true, Raw: []byte("kept"), Size: 4}}
	if !reflect.DeepEqual(got, wantC) {
		t.Errorf("captures\n%+v; want\n%+v", got, wantC)
	}
}

// errWriter fails every write.
type errWriter struct{}

func (errWriter) Write([]byte) (int, error) { return 0, fmt.Errorf("broken") }

func TestScannerWriterError(t *testing.T) {
	s := NewScanner(errWriter{}, nil, testNonce)
	if _, err := s.Write([]byte("x")); err == nil {
		t.Fatalf("Write to a broken writer: no error")
	}
	if _, err := s.Write([]byte("y")); err == nil {
		t.Fatalf("second Write after an error: no error")
	}
	if err := s.Close(); err == nil {
		t.Fatalf("Close after an error: no error")
	}
}

func TestCollector(t *testing.T) {
	var got []Capture
	c := NewCollector(16, func(cp Capture) { got = append(got, cp) })
	var out bytes.Buffer
	s := NewScanner(&out, c, testNonce)
	in := BeginMark(testNonce, s1) + strings.Repeat("0123456789", 10) + EndMark(testNonce, s1, 2) +
		BeginMark(testNonce, s2) + "short"
	if _, err := s.Write([]byte(in)); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	// A discarded command comes to the collector as incomplete.
	s.Write([]byte(BeginMark(testNonce, s2) + "secret" + DiscardMark(testNonce, s2)))
	want := []Capture{
		{ID: s1, Status: 2, Complete: true, Raw: []byte("01234567\x18\n[… 84 bytes not kept …]\n23456789"), Size: 100},
		{ID: s2, Status: -1, Raw: []byte("short"), Size: 5},
		{ID: s2, Status: -1, Raw: []byte("secret"), Size: 6},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("captures\n%+v; want\n%+v", got, want)
	}
}

// refScan is the oracle for FuzzScanner: the marks found by a regular
// expression over the whole input, applied in order.
func refScan(in []byte, re *regexp.Regexp) (string, []string) {
	var out bytes.Buffer
	var sink logSink
	open, held := false, false
	var cur ID
	plain := func(p []byte) {
		out.Write(p)
		if open && !held && len(p) > 0 {
			sink.Output(p)
		}
	}
	last := 0
	for _, m := range re.FindAllSubmatchIndex(in, -1) {
		plain(in[last:m[0]])
		last = m[1]
		if m[16] >= 0 { // S: the open command's output is withheld
			held = held || open
			continue
		}
		if m[2] >= 0 {
			if open {
				sink.End(cur, -1, false)
			}
			seq, _ := strconv.ParseUint(string(in[m[4]:m[5]]), 10, 64)
			cur, open, held = ID{string(in[m[2]:m[3]]), seq}, true, false
			sink.Begin(cur)
			continue
		}
		if m[12] >= 0 { // X: ends the command as incomplete
			seq, _ := strconv.ParseUint(string(in[m[14]:m[15]]), 10, 64)
			if id := (ID{string(in[m[12]:m[13]]), seq}); open && id == cur {
				open = false
				sink.End(id, -1, false)
			}
			continue
		}
		seq, _ := strconv.ParseUint(string(in[m[8]:m[9]]), 10, 64)
		status, _ := strconv.Atoi(string(in[m[10]:m[11]]))
		if id := (ID{string(in[m[6]:m[7]]), seq}); open && id == cur {
			open = false
			sink.End(id, status, true)
		}
	}
	plain(in[last:])
	if open {
		sink.End(cur, -1, false)
	}
	return out.String(), sink.ev
}

// markRE returns a regular expression for the valid marks with nonce.
func markRE(nonce string) *regexp.Regexp {
	return regexp.MustCompile(`\x1b\]6973;hookd;` + regexp.QuoteMeta(nonce) +
		`;(?:C;([!-:<-~]{1,128});([0-9]{1,19})|D;([!-:<-~]{1,128});([0-9]{1,19});(-?[0-9]{1,9})|X;([!-:<-~]{1,128});([0-9]{1,19})|(S))(?:\x07|\x1b\\)`)
}

func FuzzScanner(f *testing.F) {
	n := "n0nce"
	re := markRE(n)
	f.Add([]byte("plain text\r\n"), uint8(0))
	f.Add([]byte(BeginMark(n, s1)+"out\r\n"+EndMark(n, s1, 1)), uint8(3))
	f.Add([]byte(st(c133+BeginMark(n, s1)+"o"+d133+EndMark(n, s1, 0)+d133)), uint8(7))
	f.Add([]byte(BeginMark(n, s1)+BeginMark("x", s2)+EndMark(n, s2, 0)+"\x1b\x1b]6973;hookd;n0nce;D"), uint8(1))
	f.Add([]byte(BeginMark(n, s1)+"hidden"+DiscardMark(n, s2)+DiscardMark(n, s1)+BeginMark(n, s2)+"x"+EndMark(n, s2, 0)), uint8(5))
	f.Add([]byte(WithholdMark(n)+BeginMark(n, s1)+"a"+WithholdMark(n)+"secret"+WithholdMark("x")+EndMark(n, s1, 0)+"b"), uint8(2))
	f.Fuzz(func(t *testing.T, in []byte, step uint8) {
		// Split the input into chunks of 1 to 32 bytes, by step.
		var chunks [][]byte
		for i, k := 0, 0; i < len(in); k++ {
			size := 1 + int(step+uint8(k)*7)%32
			if step == 0 {
				size = len(in)
			}
			j := min(i+size, len(in))
			chunks = append(chunks, in[i:j])
			i = j
		}
		fwd, ev := scanChunks(t, n, chunks)
		wantFwd, wantEv := refScan(in, re)
		if fwd != wantFwd {
			t.Errorf("forwarded %q; want %q", fwd, wantFwd)
		}
		if strings.Join(ev, "\x00") != strings.Join(wantEv, "\x00") {
			t.Errorf("events %q; want %q", ev, wantEv)
		}
	})
}

// TestScannerPause: the bytes between a P and an R mark are forwarded but
// not captured; a forged pause (another nonce) is ordinary output and
// hides nothing; a pause left open ends with its command.
func TestScannerPause(t *testing.T) {
	forged := PauseMark("ffffffffffffffffffffffffffffffff")
	in := BeginMark(testNonce, s1) + "a" + PauseMark(testNonce) + "direnv: loading\r\n" + ResumeMark(testNonce) + "b" + EndMark(testNonce, s1, 0) +
		BeginMark(testNonce, s2) + "c" + forged + "d" + PauseMark(testNonce) + "e" + EndMark(testNonce, s2, 1) +
		BeginMark(testNonce, s3) + "f" + EndMark(testNonce, s3, 0)
	fwd, ev := scanChunks(t, testNonce, [][]byte{[]byte(in)})
	if want := "adirenv: loading\r\nbc" + forged + "def"; fwd != want {
		t.Errorf("forwarded %q; want %q", fwd, want)
	}
	want := []string{"begin 171234-42-7:1", "out ab", "end 171234-42-7:1 0 true",
		"begin 171234-42-7:2", "out c" + forged + "d", "end 171234-42-7:2 1 true",
		"begin 171234-42-7:3", "out f", "end 171234-42-7:3 0 true"}
	if strings.Join(ev, "|") != strings.Join(want, "|") {
		t.Errorf("events\n%q; want\n%q", ev, want)
	}
}
