package spool

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"time"
)

func sampleCommand(seq int64, text string) Command {
	return Command{Seq: seq, Start: 1700000000000000 + seq, End: 1700000000500000 + seq, Exit: 1,
		Pipestatus: []int{0, 1}, Cwd: "/home/u/src", Text: text}
}

func TestDecodeRoundTrip(t *testing.T) {
	texts := []string{
		"ls -la",
		"echo 'a b'\n  && echo \"c\"",
		"printf '\\e[31mred\\e[0m'\t# tab",
		"echo \x1b[2J \xff\xfe invalid",
		"日本語 ✓",
		" leading space",
		"",
	}
	var buf []byte
	sess := Session{Shell: "zsh", Version: "5.9", PID: 42, Host: "h", User: "u", UID: 1000, Start: 1700000000000000}
	buf = AppendSession(buf, sess)
	want := []Record{{Session: &sess}}
	for i, text := range texts {
		c := sampleCommand(int64(i+1), text)
		if i%2 == 0 {
			buf = AppendCommand(buf, c)
		} else {
			buf = AppendHistoryCommand(buf, c, 100000+i)
		}
		want = append(want, Record{Command: &c})
	}
	got, n, bad := Decode(buf, true)
	if n != len(buf) || len(bad) != 0 {
		t.Fatalf("Decode consumed %d of %d bytes, bad=%v", n, len(buf), bad)
	}
	if !reflect.DeepEqual(got, want) {
		for i := range got {
			t.Logf("got[%d]=%+v %+v", i, got[i].Session, got[i].Command)
		}
		t.Fatalf("Decode round trip mismatch")
	}
}

func TestDecodeIncompleteWaits(t *testing.T) {
	full := AppendCommand(nil, sampleCommand(1, "make test"))
	for cut := 0; cut < len(full); cut++ {
		recs, n, bad := Decode(full[:cut], false)
		if len(recs) != 0 || n != 0 || len(bad) != 0 {
			t.Fatalf("Decode(first %d bytes, more to come) = %d records, n=%d, bad=%v; want nothing", cut, len(recs), n, bad)
		}
	}
}

func TestDecodeSkipsGarbage(t *testing.T) {
	good1 := AppendCommand(nil, sampleCommand(1, "one"))
	good2 := AppendCommand(nil, sampleCommand(2, "two"))
	partial := good2[:len(good2)-9] // a record cut short by a crash
	tests := []struct {
		name    string
		buf     []byte
		want    []string
		wantBad int
	}{
		{"garbage between", cat(good1, []byte("junk\x00more junk\x00"), good2), []string{"one", "two"}, 1},
		{"cut short", cat(good1, partial, good2), []string{"one", "two"}, 1},
		{"bad number", cat([]byte("\nC1\x00x 1 2 0 0\x00/\x00r\x00ls\x00"), good2), []string{"two"}, 1},
		{"too few numbers", cat([]byte("\nC1\x001 1 2\x00/\x00r\x00ls\x00"), good2), []string{"two"}, 1},
		{"bad format", cat([]byte("\nC1\x001 1 2 0 0\x00/\x00q\x00ls\x00"), good2), []string{"two"}, 1},
		{"bad history line", cat([]byte("\nC1\x001 1 2 0 0\x00/\x00h\x00ls\x00"), good2), []string{"two"}, 1},
		{"trailing garbage", cat(good1, []byte("zzz")), []string{"one"}, 1},
		{"no NUL at all", []byte("\xff\xfe binary"), nil, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs, n, bad := Decode(tt.buf, true)
			var got []string
			for _, r := range recs {
				got = append(got, r.Command.Text)
			}
			if !reflect.DeepEqual(got, tt.want) || len(bad) != tt.wantBad || n != len(tt.buf) {
				t.Errorf("Decode(%q) = %q, %d bad (%v), n=%d/%d; want %q, %d bad", tt.buf, got, len(bad), bad, n, len(tt.buf), tt.want, tt.wantBad)
			}
		})
	}
}

func TestHistoryLine(t *testing.T) {
	tests := []struct{ in, want string }{
		{"    1  ls\n", "ls"},
		{"   12* edited\n", "edited"},
		{"123456  big number\n", "big number"},
		{"    3    two leading spaces\n", "  two leading spaces"},
		{"    4  multi\nline\n", "multi\nline"},
		{"    5  cat <<EOF\nx\nEOF\n\n", "cat <<EOF\nx\nEOF"},
	}
	for _, tt := range tests {
		got, err := historyLine(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("historyLine(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	for _, in := range []string{"", "ls\n", "  x  ls\n", "   1ls\n"} {
		if got, err := historyLine(in); err == nil {
			t.Errorf("historyLine(%q) = %q, nil; want an error", in, got)
		}
	}
}

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

func FuzzDecode(f *testing.F) {
	f.Add(AppendCommand(nil, sampleCommand(1, "ls")), "echo hi")
	f.Add([]byte("\nC1\x00"), "a\nb")
	f.Add([]byte{}, "\x1b[31m")
	f.Fuzz(func(t *testing.T, prefix []byte, text string) {
		// Never panics, always consumes everything at EOF.
		_, n, _ := Decode(prefix, true)
		if n != len(prefix) {
			t.Fatalf("Decode(%q, atEOF) consumed %d of %d", prefix, n, len(prefix))
		}
		// A well-formed record after any garbage round-trips.
		if strings.IndexByte(text, 0) >= 0 {
			return
		}
		c := sampleCommand(7, text)
		buf := AppendCommand(append(bytes.Clone(prefix), 0), c)
		recs, _, _ := Decode(buf, true)
		if len(recs) == 0 || recs[len(recs)-1].Command == nil || !reflect.DeepEqual(*recs[len(recs)-1].Command, c) {
			t.Fatalf("record after %q not decoded back: %+v", prefix, recs)
		}
	})
}

func TestParseTime(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"1700000000123456", 1700000000123456, true},
		{"1700000000.123456", 1700000000123456, true},
		{"1700000000,5", 1700000000500000, true},
		{"1700000000.0", 1700000000000000, true},
		{"1700000000.123456789", 1700000000123456, true},
		{"1700000000.1234567891", 1700000000123456, true},
		{"1700000000.", 0, false},
		{"1700000000.1e5", 0, false},
		{"x", 0, false},
		{"1.2.3", 0, false},
		// fish's sums: boot time in µs + uptime in seconds (+ a duration
		// in ms).
		{"1700000000000000+1234.56", 1700001234560000, true},
		{"1700000000000000+1234.56+250ms", 1700001234810000, true},
		{"1700000000000000+0ms", 1700000000000000, true},
		{"+1234.56", 0, false},
		{"1700000000000000+", 0, false},
		{"1700000000000000+-5ms", 0, false},
		{"1700000000000000+x", 0, false},
		{"1+1+1+1+1", 0, false},
		{"1700000000000000+1234.56-250ms", 1700001234310000, true},
		{"1700000000000000+1234.56-0ms", 1700001234560000, true},
		{"1700000000000000-1234.56", 0, false},
		{"1700000000000000+1234.56-", 0, false},
		{"1700000000000000+1234.56--5ms", 0, false},
		{"-5ms", 0, false},
		{"5ms-10ms", 0, false},
		// fish without /proc/uptime: "now" is the time the record is read
		// (timeNow, fixed here at 1800000000 s).
		{"0+now", 1800000000000000, true},
		{"0+now-250ms", 1799999999750000, true},
		{"now", 1800000000000000, true},
		{"0+nowx", 0, false},
	}
	old := timeNow
	timeNow = func() time.Time { return time.Unix(1800000000, 0) }
	defer func() { timeNow = old }()
	for _, tt := range tests {
		got, err := parseTime(tt.in)
		if (err == nil) != tt.ok || (tt.ok && got != tt.want) {
			t.Errorf("parseTime(%q) = %d, %v; want %d (ok=%v)", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

func TestDecodeShellForms(t *testing.T) {
	// What bash writes: EPOCHREALTIME as it is, pipestatus joined by IFS.
	buf := []byte("\nC1\x003 1700000000123456 1700000001.5 1 0,1\x00/tmp\x00h\x00   12  make\n\x00")
	recs, n, bad := Decode(buf, true)
	want := Command{Seq: 3, Start: 1700000000123456, End: 1700000001500000, Exit: 1, Pipestatus: []int{0, 1}, Cwd: "/tmp", Text: "make"}
	if len(recs) != 1 || n != len(buf) || len(bad) != 0 || !reflect.DeepEqual(*recs[0].Command, want) {
		t.Fatalf("Decode(%q) = %+v, %d, %v; want %+v", buf, recs, n, bad, want)
	}
}

func TestSessionCaptureHeader(t *testing.T) {
	in := Session{Shell: "zsh", Version: "5.9", PID: 42, Host: "h", User: "u", UID: 1000, Start: 1700000000000000, Capture: "pty"}
	buf := AppendSession(nil, in)
	if !bytes.HasPrefix(buf, []byte("\nS2\x00")) {
		t.Fatalf("a header with a capture mode should be S2: %q", buf)
	}
	buf = AppendCommand(buf, Command{Seq: 1, Start: 1, End: 2, Text: "ls"})
	// An S1 header (no capture mode) after it still decodes.
	old := in
	old.Capture = ""
	buf = AppendSession(buf, old)
	recs, n, bad := Decode(buf, true)
	if len(bad) > 0 || n != len(buf) || len(recs) != 3 {
		t.Fatalf("Decode: %d records, %d of %d bytes, bad %v", len(recs), n, len(buf), bad)
	}
	if got := *recs[0].Session; got != in {
		t.Errorf("S2 header = %+v; want %+v", got, in)
	}
	if got := *recs[2].Session; got != old {
		t.Errorf("S1 header = %+v; want %+v", got, old)
	}
	// An S2 header cut short resyncs on the command after it.
	cut := append([]byte("\nS2\x00zsh\x00"), AppendCommand(nil, Command{Seq: 2, Start: 1, End: 2, Text: "pwd"})...)
	recs, _, bad = Decode(cut, true)
	if len(recs) != 1 || recs[0].Command == nil || recs[0].Command.Text != "pwd" || len(bad) != 1 {
		t.Errorf("cut S2 header: records %+v, bad %v; want the command and one problem", recs, bad)
	}
}

func TestSessionAuthorHeader(t *testing.T) {
	in := Session{Shell: "agent", Version: "1", PID: 42, Host: "h", User: "u", UID: 1000, Start: 1700000000000000,
		Capture: "run", Author: "claude-code", Session: "claude-code-0b5f"}
	buf := AppendSession(nil, in)
	if !bytes.HasPrefix(buf, []byte("\nS3\x00")) {
		t.Fatalf("a header with an author should be S3: %q", buf)
	}
	buf = AppendCommand(buf, Command{Seq: 9, Start: 1, End: 2, Text: "go test ./..."})
	recs, n, bad := Decode(buf, true)
	if len(bad) > 0 || n != len(buf) || len(recs) != 2 {
		t.Fatalf("Decode: %d records, %d of %d bytes, bad %v", len(recs), n, len(buf), bad)
	}
	if got := *recs[0].Session; got != in {
		t.Errorf("S3 header = %+v; want %+v", got, in)
	}
	// A session id that could name a file elsewhere is refused, and the
	// command after it still read.
	evil := in
	evil.Session = "../../etc"
	buf = AppendCommand(AppendSession(nil, evil), Command{Seq: 1, Start: 1, End: 2, Text: "ls"})
	recs, _, bad = Decode(buf, true)
	if len(bad) != 1 || len(recs) != 1 || recs[0].Command == nil {
		t.Errorf("S3 with a bad session: records %+v, bad %v; want the command and one problem", recs, bad)
	}
}

func TestEnvRecord(t *testing.T) {
	in := Env{Seq: 3, Names: []string{"PATH", "VIRTUAL_ENV", "API_URL"}, Values: []string{"/usr/bin:/bin", "", "http://x y\n"}}
	buf := AppendSession(nil, Session{Shell: "bash", PID: 1, Start: 1})
	buf = AppendEnv(buf, in)
	buf = AppendCommand(buf, Command{Seq: 3, Start: 1, End: 2, Text: "ls"})
	recs, n, bad := Decode(buf, true)
	if len(bad) > 0 || n != len(buf) || len(recs) != 3 || recs[1].Env == nil {
		t.Fatalf("Decode: %+v, %d of %d bytes, bad %v", recs, n, len(buf), bad)
	}
	if !reflect.DeepEqual(*recs[1].Env, in) {
		t.Errorf("env = %+v; want %+v", *recs[1].Env, in)
	}
	// What the shells write: bash joins the names with its IFS (here a
	// newline), zsh with a space.
	sh := []byte("\nE1\x001\x00PATH\nVIRTUAL_ENV\x00/bin\x1f/v\x1f\x00")
	recs, _, bad = Decode(sh, true)
	if len(bad) > 0 || len(recs) != 1 || !reflect.DeepEqual(*recs[0].Env, Env{Seq: 1, Names: []string{"PATH", "VIRTUAL_ENV"}, Values: []string{"/bin", "/v"}}) {
		t.Errorf("Decode(%q) = %+v, %v", sh, recs, bad)
	}
	// A value holding the separator is written with it shown (␟), as the
	// hooks do: the record keeps every value.
	odd := AppendEnv(nil, Env{Seq: 3, Names: []string{"ODD", "PATH"}, Values: []string{"a\x1fb", "/bin"}})
	recs, _, bad = Decode(odd, true)
	if len(bad) > 0 || len(recs) != 1 || !reflect.DeepEqual(*recs[0].Env, Env{Seq: 3, Names: []string{"ODD", "PATH"}, Values: []string{"a␟b", "/bin"}}) {
		t.Errorf("Decode(%q) = %+v, %v", odd, recs, bad)
	}
	// Malformed: as many problems, and the command after each still read.
	for _, b := range []string{
		"\nE1\x000\x00PATH\x00/bin\x1f\x00",             // sequence number 0
		"\nE1\x001\x00PATH VIRTUAL_ENV\x00/bin\x1f\x00", // one value short
		"\nE1\x001\x00PATH\x00/bin\x00",                 // value not ended
		"\nE1\x001\x00\x00\x1f\x00",                     // no names
		"\nE1\x001\x00PATH\x00",                         // cut short
	} {
		buf := append([]byte(b), AppendCommand(nil, Command{Seq: 2, Start: 1, End: 2, Text: "pwd"})...)
		recs, _, bad := Decode(buf, true)
		if len(bad) != 1 || len(recs) != 1 || recs[0].Command == nil {
			t.Errorf("Decode(%q) = %+v, bad %v; want the command and one problem", buf, recs, bad)
		}
	}
}

func TestWhyRecord(t *testing.T) {
	in := []Why{{Seq: 7, Time: 1_800_000_000_000_000, Kind: WhyPrompt, Text: "fix the build\nplease"},
		{Seq: 8, Time: 1_800_000_001_000_000, Kind: WhyIntent, Text: "Run the tests"}}
	buf := AppendSession(nil, Session{Shell: "agent", PID: 1, Start: 1, Author: "claude-code", Session: "claude-code-s1"})
	for _, w := range in {
		buf = AppendWhy(buf, w)
	}
	recs, n, bad := Decode(buf, true)
	if len(bad) > 0 || n != len(buf) || len(recs) != 3 || recs[1].Why == nil || recs[2].Why == nil {
		t.Fatalf("Decode: %+v, %d of %d bytes, bad %v", recs, n, len(buf), bad)
	}
	for i, w := range in {
		if *recs[i+1].Why != w {
			t.Errorf("why %d = %+v; want %+v", i, *recs[i+1].Why, w)
		}
	}
	// Malformed: a problem each, and the command after it still read.
	for _, b := range []string{
		"\nW1\x000 1\x00i\x00x\x00", // sequence number 0
		"\nW1\x001\x00i\x00x\x00",   // no time
		"\nW1\x001 1\x00x\x00x\x00", // unknown kind
		"\nW1\x001 1\x00i\x00",      // cut short
	} {
		buf := append([]byte(b), AppendCommand(nil, Command{Seq: 2, Start: 1, End: 2, Text: "pwd"})...)
		recs, _, bad := Decode(buf, true)
		if len(bad) != 1 || len(recs) != 1 || recs[0].Command == nil {
			t.Errorf("Decode(%q) = %+v, bad %v; want the command and one problem", buf, recs, bad)
		}
	}
}
