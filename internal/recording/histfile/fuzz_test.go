package histfile

import (
	"bytes"
	"reflect"
	"testing"
	"testing/iotest"
	"time"
)

// metafy encodes b the way zsh does in its history file: the bytes 0x00 and
// 0x83–0xA2 become Meta (0x83) followed by the byte XOR 0x20.
func metafy(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for _, c := range b {
		if c == 0 || (c >= 0x83 && c <= 0xa2) {
			out = append(out, meta, c^0x20)
		} else {
			out = append(out, c)
		}
	}
	return out
}

// zshWrite writes cmd as zsh's savehistfile does (zsh 5.9 Src/hist.c).
func zshWrite(cmd []byte, extended bool) []byte {
	m := metafy(cmd)
	var out []byte
	if extended {
		out = append(out, ": 1700000000:7;"...)
	} else if len(m) > 0 && m[0] == ':' {
		out = append(out, '\\')
	}
	endBackslashes := false
	for _, c := range m {
		if c == '\n' {
			out = append(out, '\\')
		}
		endBackslashes = c == '\\' || (endBackslashes && c == ' ')
		out = append(out, c)
	}
	if endBackslashes {
		out = append(out, ' ')
	}
	return append(out, '\n')
}

// checkResult checks what must hold for any parse.
func checkResult(t *testing.T, name string, data []byte, res Result, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s(%q): error %v", name, data, err)
	}
	last := 0
	for _, x := range res.Entries {
		c := []byte(x.Command)
		if blank(c) || junk(c) != "" || len(c) > MaxLineLen {
			t.Errorf("%s(%q): bad entry %q", name, data, x.Command)
		}
		if x.Line <= last {
			t.Errorf("%s(%q): entry %q at line %d after line %d", name, data, x.Command, x.Line, last)
		}
		last = x.Line
		if x.Duration < 0 {
			t.Errorf("%s(%q): negative duration %v", name, data, x.Duration)
		}
	}
	if want := min(res.Skipped, maxProblems) + min(1, max(0, res.Skipped-maxProblems)); len(res.Problems) != want {
		t.Errorf("%s(%q): %d problems for %d skipped", name, data, len(res.Problems), res.Skipped)
	}
}

func fuzzSeeds(f *testing.F) {
	for _, s := range []string{
		"",
		"ls\npwd\n",
		"#1700000000\nfor i in 1 2; do\n  echo $i\ndone\n#1700000001\npwd\n",
		"#123abc\n\r\n\n#\n",
		": 1700000000:5;make\\\ntest\n\\: x\n",
		"echo \xe6\x83\xb7\xa5 \x83",
		"a\\\n\x00\\\n",
		"echo \\ \nx\\   \n",
		"\x01\x02\x03\xff\n",
		"caf\xe9\r\n",
	} {
		f.Add([]byte(s))
	}
}

func FuzzParseBash(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := ParseBash(bytes.NewReader(data))
		checkResult(t, "ParseBash", data, res, err)
		res2, err := ParseBash(iotest.HalfReader(bytes.NewReader(data)))
		if err != nil || !reflect.DeepEqual(res, res2) {
			t.Fatalf("ParseBash(%q) differs when read in small pieces: %v; want %v", data, res2, res)
		}

		// A single text line reads back as itself, with or without a
		// timestamp.
		if bytes.IndexByte(data, '\n') >= 0 || bytes.HasSuffix(data, []byte("\r")) ||
			blank(data) || junk(data) != "" || (data[0] == '#' && allDigits(data[1:])) {
			return
		}
		want := []Entry{{Command: string(data), Line: 1}}
		res, err = ParseBash(bytes.NewReader(append(data[:len(data):len(data)], '\n')))
		if err != nil || !reflect.DeepEqual(res.Entries, want) || res.Skipped != 0 {
			t.Fatalf("ParseBash(%q) = %v; want %v", data, res.Entries, want)
		}
		want[0].Line, want[0].Time = 2, time.Unix(1700000000, 0).UTC()
		in := append([]byte("#1700000000\n"), data...)
		res, err = ParseBash(bytes.NewReader(in))
		if err != nil || !reflect.DeepEqual(res.Entries, want) || res.Skipped != 0 {
			t.Fatalf("ParseBash(%q) = %v; want %v", in, res.Entries, want)
		}
	})
}

func FuzzParseZsh(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := ParseZsh(bytes.NewReader(data))
		checkResult(t, "ParseZsh", data, res, err)
		res2, err := ParseZsh(iotest.HalfReader(bytes.NewReader(data)))
		if err != nil || !reflect.DeepEqual(res, res2) {
			t.Fatalf("ParseZsh(%q) differs when read in small pieces: %v; want %v", data, res2, res)
		}

		// Any text, written as zsh writes it, reads back as itself: this
		// covers metafication, continuation lines and trailing backslashes.
		if blank(data) || junk(data) != "" || bytes.HasSuffix(data, []byte("\r")) {
			return
		}
		want := []Entry{{Command: string(data), Line: 1, Time: time.Unix(1700000000, 0).UTC(), Duration: 7 * time.Second}}
		in := zshWrite(data, true)
		res, err = ParseZsh(bytes.NewReader(in))
		if err != nil || !reflect.DeepEqual(res.Entries, want) || res.Skipped != 0 {
			t.Fatalf("ParseZsh(%q) = %v; want %v", in, res.Entries, want)
		}
		if bytes.HasPrefix(data, []byte(`\:`)) {
			return // zsh itself reads this back without the backslash
		}
		want[0].Time, want[0].Duration = time.Time{}, 0
		in = zshWrite(data, false)
		res, err = ParseZsh(bytes.NewReader(in))
		if err != nil || !reflect.DeepEqual(res.Entries, want) || res.Skipped != 0 {
			t.Fatalf("ParseZsh(%q) = %v; want %v", in, res.Entries, want)
		}
	})
}
