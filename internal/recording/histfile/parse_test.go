package histfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

// e is an entry without a time.
func e(line int, cmd string) Entry { return Entry{Command: cmd, Line: line} }

// et is an entry with a start time.
func et(line int, cmd string, sec int64) Entry {
	return Entry{Command: cmd, Line: line, Time: time.Unix(sec, 0).UTC()}
}

// etd is an entry with a start time and a duration.
func etd(line int, cmd string, sec int64, d time.Duration) Entry {
	x := et(line, cmd, sec)
	x.Duration = d
	return x
}

type parseCase struct {
	name    string
	in      string
	want    []Entry
	skipped int
}

func runCases(t *testing.T, fname string, parse func(io.Reader) (Result, error), cases []parseCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, r := range []struct {
				name string
				r    io.Reader
			}{
				{"whole", strings.NewReader(tc.in)},
				{"bytewise", iotest.OneByteReader(strings.NewReader(tc.in))},
			} {
				res, err := parse(r.r)
				if err != nil {
					t.Fatalf("%s(%q) [%s]: error %v", fname, tc.in, r.name, err)
				}
				if !reflect.DeepEqual(res.Entries, tc.want) {
					t.Errorf("%s(%q) [%s] = %v; want %v", fname, tc.in, r.name, res.Entries, tc.want)
				}
				if res.Skipped != tc.skipped || len(res.Problems) != tc.skipped {
					t.Errorf("%s(%q) [%s]: Skipped = %d, Problems = %q; want %d skipped",
						fname, tc.in, r.name, res.Skipped, res.Problems, tc.skipped)
				}
			}
		})
	}
}

func TestParseBash(t *testing.T) {
	const ts = 1700000000
	runCases(t, "ParseBash", ParseBash, []parseCase{
		{name: "empty", in: ""},
		{name: "plain", in: "ls -l\npwd\n", want: []Entry{e(1, "ls -l"), e(2, "pwd")}},
		{name: "no final newline", in: "ls\npwd", want: []Entry{e(1, "ls"), e(2, "pwd")}},
		{name: "crlf", in: "ls\r\npwd\r\n", want: []Entry{e(1, "ls"), e(2, "pwd")}},
		{name: "only one cr stripped", in: "ls -l\r\r\n", want: []Entry{e(1, "ls -l\r")}},
		{name: "blank lines", in: "\n\nls\n\n  \t\npwd\n\n", want: []Entry{e(3, "ls"), e(6, "pwd")}},
		{name: "plain lines are separate", in: "for i in 1 2; do\necho $i\ndone\n",
			want: []Entry{e(1, "for i in 1 2; do"), e(2, "echo $i"), e(3, "done")}},
		{name: "timestamps", in: "#1700000000\nls\n#1700000005\npwd\n",
			want: []Entry{et(2, "ls", ts), et(4, "pwd", ts+5)}},
		{name: "lithist", in: "#1700000000\nfor i in 1 2; do\n  echo $i\ndone\n#1700000001\npwd\n",
			want: []Entry{et(2, "for i in 1 2; do\n  echo $i\ndone", ts), et(6, "pwd", ts+1)}},
		{name: "empty line inside command kept", in: "#1700000000\necho \"a\n\nb\"\n\n\n#1700000001\nls\n",
			want: []Entry{et(2, "echo \"a\n\nb\"", ts), et(8, "ls", ts+1)}},
		{name: "empty lines after timestamp", in: "#1700000000\n\n\nls\n",
			want: []Entry{et(4, "ls", ts)}},
		{name: "hash letters is no timestamp", in: "#123abc\nls\n",
			want: []Entry{e(1, "#123abc"), e(2, "ls")}},
		{name: "hash alone is no timestamp", in: "#\n# 12\n#12 \n",
			want: []Entry{e(1, "#"), e(2, "# 12"), e(3, "#12 ")}},
		{name: "hash letters inside lithist", in: "#1700000000\n#123abc\nls\n",
			want: []Entry{et(2, "#123abc\nls", ts)}},
		{name: "timestamp crlf", in: "#1700000000\r\nls\r\n",
			want: []Entry{et(2, "ls", ts)}},
		{name: "plain lines then timestamps", in: "a\nb\n#1700000000\nc\nd\n",
			want: []Entry{e(1, "a"), e(2, "b"), et(4, "c\nd", ts)}},
		{name: "timestamp without command", in: "#1700000000\n#1700000001\nls\n#1700000002\n",
			want: []Entry{et(3, "ls", ts+1)}},
		{name: "zero timestamp", in: "#0\nls\nx\n", want: []Entry{e(2, "ls\nx")}},
		{name: "huge timestamp", in: "#99999999999999999999\nls\nx\n", want: []Entry{e(2, "ls\nx")}},
		{name: "whitespace command dropped", in: "#1700000000\n   \n", want: nil},
		{name: "whitespace line inside command kept", in: "#1700000000\n  \nls\n",
			want: []Entry{et(2, "  \nls", ts)}},
		{name: "utf8", in: "echo ü 日本 😀\n", want: []Entry{e(1, "echo ü 日本 😀")}},
		{name: "invalid utf8 kept", in: "echo caf\xe9\n", want: []Entry{e(1, "echo caf\xe9")}},
		{name: "some control bytes kept", in: "echo \x1b[1mbold\x1b[0m\n",
			want: []Entry{e(1, "echo \x1b[1mbold\x1b[0m")}},
		{name: "tab kept", in: "a\tb\n", want: []Entry{e(1, "a\tb")}},
		{name: "nul line", in: "ls\nfoo\x00bar\npwd\n", want: []Entry{e(1, "ls"), e(3, "pwd")}, skipped: 1},
		{name: "binary line", in: "ls\n\x01\x02\x03\xff\xfeabc\npwd\n", want: []Entry{e(1, "ls"), e(3, "pwd")}, skipped: 1},
		{name: "nul block after lithist entry",
			in:   "#1700000000\nls -l\n\x00\x00\x00\x00#1700000001\npwd\n#1700000002\nid\n",
			want: []Entry{et(2, "ls -l", ts), e(4, "pwd"), et(6, "id", ts+2)}, skipped: 1},
		{name: "junk drops pending timestamp", in: "#1700000000\n\x00\nls\nx\n",
			want: []Entry{e(3, "ls"), e(4, "x")}, skipped: 1},
	})
}

func TestParseZsh(t *testing.T) {
	const ts = 1700000000
	runCases(t, "ParseZsh", ParseZsh, []parseCase{
		{name: "empty", in: ""},
		{name: "plain", in: "ls -l\npwd\n", want: []Entry{e(1, "ls -l"), e(2, "pwd")}},
		{name: "no final newline", in: "ls\npwd", want: []Entry{e(1, "ls"), e(2, "pwd")}},
		{name: "extended", in: ": 1700000000:5;make test\n: 1700000009:0;ls\n",
			want: []Entry{etd(1, "make test", ts, 5*time.Second), et(2, "ls", ts+9)}},
		{name: "mixed", in: "ls\n: 1700000000:1;pwd\n",
			want: []Entry{e(1, "ls"), etd(2, "pwd", ts, time.Second)}},
		{name: "lenient header", in: ":  1700000000: 2;ls\n: 1700000000:-3;pwd\n",
			want: []Entry{etd(1, "ls", ts, 2*time.Second), et(2, "pwd", ts)}},
		{name: "zero start", in: ": 0:0;ls\n", want: []Entry{e(1, "ls")}},
		{name: "semicolons in command", in: ": 1700000000:0;a; b;c\n", want: []Entry{et(1, "a; b;c", ts)}},
		{name: "multi-line", in: ": 1700000000:0;for i in 1 2; do\\\n  echo $i\\\ndone\n: 1700000001:0;pwd\n",
			want: []Entry{et(1, "for i in 1 2; do\n  echo $i\ndone", ts), et(4, "pwd", ts+1)}},
		{name: "plain multi-line", in: "a\\\nb\nc\n", want: []Entry{e(1, "a\nb"), e(3, "c")}},
		{name: "backslash before newline in command", in: "echo a\\\\\nb\n", want: []Entry{e(1, "echo a\\\nb")}},
		{name: "trailing backslash space", in: "echo \\ \n", want: []Entry{e(1, "echo \\")}},
		{name: "trailing backslash spaces", in: "x\\   \n", want: []Entry{e(1, "x\\  ")}},
		{name: "trailing spaces kept", in: "x  \n", want: []Entry{e(1, "x  ")}},
		{name: "backslash at end of file", in: "ls\necho \\\n", want: []Entry{e(1, "ls"), e(2, "echo \\")}},
		{name: "backslash at end without newline", in: "echo \\", want: []Entry{e(1, "echo \\")}},
		{name: "continuation ends at empty line", in: "a\\\n\nb\n", want: []Entry{e(1, "a\n"), e(3, "b")}},
		{name: "escaped colon", in: "\\: colon\n", want: []Entry{e(1, ": colon")}},
		{name: "escaped colon only in plain lines", in: ": 1700000000:0;\\: x\n", want: []Entry{et(1, "\\: x", ts)}},
		{name: "double backslash colon", in: "\\\\:\n", want: []Entry{e(1, "\\\\:")}},
		{name: "colon command", in: ":q\n: > file\n", want: []Entry{e(1, ":q"), e(2, ": > file")}},
		{name: "malformed header", in: ": 17000\n: 1700000000:0 ls\nok\n", want: []Entry{e(3, "ok")}, skipped: 2},
		{name: "empty command", in: ": 1700000000:0;\n\n\nls\n", want: []Entry{e(4, "ls")}},
		{name: "crlf", in: ": 1700000000:0;a\\\r\nb\r\nc\r\n", want: []Entry{et(1, "a\nb", ts), e(3, "c")}},
		{name: "metafied", in: ": 1700000000:0;echo \xe6\x83\xb7\xa5\xe6\x83\xbc\xac\n",
			want: []Entry{et(1, "echo 日本", ts)}},
		{name: "unmetafied utf8", in: "echo ü\n", want: []Entry{e(1, "echo ü")}},
		{name: "raw high byte kept", in: "echo \x90\n", want: []Entry{e(1, "echo \x90")}},
		{name: "metafied meta", in: "echo a\x83\xa3b\n", want: []Entry{e(1, "echo a\x83b")}},
		{name: "lone meta", in: "echo \x83\nls\n", want: []Entry{e(2, "ls")}, skipped: 1},
		{name: "lone meta before continuation", in: "echo \x83\\\nx\n", want: []Entry{e(1, "echo *x")}}, // as zsh: Meta+'\n' is '*'

		{name: "metafied nul", in: "echo \x83 x\nls\n", want: []Entry{e(2, "ls")}, skipped: 1},
		{name: "raw nul", in: "echo \x00x\nls\n", want: []Entry{e(2, "ls")}, skipped: 1},
		{name: "nul in continuation", in: "a\\\n\x00\\\nb\nc\n", want: []Entry{e(4, "c")}, skipped: 1},
		{name: "binary", in: "\x01\x02\x03\x04\x05\x06ab\nls\n", want: []Entry{e(2, "ls")}, skipped: 1},
		{name: "invalid utf8 kept", in: "echo caf\xe9\n", want: []Entry{e(1, "echo caf\xe9")}},
	})
}

func TestProblemsCapped(t *testing.T) {
	for _, p := range []struct {
		name  string
		parse func(io.Reader) (Result, error)
	}{{"ParseBash", ParseBash}, {"ParseZsh", ParseZsh}} {
		t.Run(p.name, func(t *testing.T) {
			in := "ls\n" + strings.Repeat("x\x00y\n", 30) + "pwd\n"
			res, err := p.parse(strings.NewReader(in))
			if err != nil {
				t.Fatal(err)
			}
			if want := []Entry{e(1, "ls"), e(32, "pwd")}; !reflect.DeepEqual(res.Entries, want) {
				t.Errorf("%s(...) = %v; want %v", p.name, res.Entries, want)
			}
			if res.Skipped != 30 {
				t.Errorf("Skipped = %d; want 30", res.Skipped)
			}
			if len(res.Problems) != maxProblems+1 {
				t.Fatalf("got %d problems; want %d: %q", len(res.Problems), maxProblems+1, res.Problems)
			}
			if got, want := res.Problems[0], "line 2: contains a NUL byte"; got != want {
				t.Errorf("Problems[0] = %q; want %q", got, want)
			}
			if got, want := res.Problems[maxProblems], "... and 10 more skipped"; got != want {
				t.Errorf("last problem = %q; want %q", got, want)
			}
		})
	}
}

func TestLongLines(t *testing.T) {
	exact := strings.Repeat("a", MaxLineLen)
	over := exact + "b"
	mid := strings.Repeat("m", 100<<10) // longer than the bufio buffer
	tests := []struct {
		name    string
		parse   func(io.Reader) (Result, error)
		in      string
		want    []Entry
		skipped int
	}{
		{"bash exact", ParseBash, exact + "\nls\n", []Entry{e(1, exact), e(2, "ls")}, 0},
		{"bash exact crlf", ParseBash, exact + "\r\nls\r\n", []Entry{e(1, exact), e(2, "ls")}, 0},
		{"bash exact at eof", ParseBash, "ls\n" + exact, []Entry{e(1, "ls"), e(2, exact)}, 0},
		{"bash over", ParseBash, over + "\nls\n", []Entry{e(2, "ls")}, 1},
		{"bash over at eof", ParseBash, "ls\n" + over + over, []Entry{e(1, "ls")}, 1},
		{"bash mid", ParseBash, mid + "\n" + mid + "\n", []Entry{e(1, mid), e(2, mid)}, 0},
		{"bash long lithist entry", ParseBash, "#1\n" + exact[:600<<10] + "\n" + exact[:600<<10] + "\n#2\nls\n",
			[]Entry{et(5, "ls", 2)}, 1},
		{"bash long line in lithist entry", ParseBash, "#1\nls\n" + over + "\nx\n#2\npwd\n",
			[]Entry{et(2, "ls", 1), e(4, "x"), et(6, "pwd", 2)}, 1},
		{"zsh exact", ParseZsh, exact + "\nls\n", []Entry{e(1, exact), e(2, "ls")}, 0},
		{"zsh over", ParseZsh, over + "\nls\n", []Entry{e(2, "ls")}, 1},
		{"zsh over continued", ParseZsh, over + "\\\nmore\nls\n", []Entry{e(3, "ls")}, 1},
		{"zsh over continued crlf", ParseZsh, over + "\\\r\nmore\r\nls\r\n", []Entry{e(3, "ls")}, 1},
		{"zsh long entry", ParseZsh, exact[:600<<10] + "\\\n" + exact[:600<<10] + "\\\n" + "x\nls\n",
			[]Entry{e(4, "ls")}, 1},
		{"zsh mid", ParseZsh, mid + "\\\n" + mid + "\n", []Entry{e(1, mid+"\n"+mid)}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := tc.parse(strings.NewReader(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(res.Entries, tc.want) {
				t.Errorf("got %d entries %.200v; want %d entries %.200v", len(res.Entries), res.Entries, len(tc.want), tc.want)
			}
			if res.Skipped != tc.skipped {
				t.Errorf("Skipped = %d (%q); want %d", res.Skipped, res.Problems, tc.skipped)
			}
		})
	}
}

func TestReadError(t *testing.T) {
	boom := errors.New("boom")
	for _, p := range []struct {
		name  string
		parse func(io.Reader) (Result, error)
	}{{"ParseBash", ParseBash}, {"ParseZsh", ParseZsh}} {
		for _, in := range []string{"ls\npwd\n", "ls\npwd\npartial"} {
			r := io.MultiReader(strings.NewReader(in), iotest.ErrReader(boom))
			res, err := p.parse(r)
			if !errors.Is(err, boom) {
				t.Errorf("%s(%q + error): error %v; want %v", p.name, in, err, boom)
			}
			if want := []Entry{e(1, "ls"), e(2, "pwd")}; !reflect.DeepEqual(res.Entries, want) {
				t.Errorf("%s(%q + error) = %v; want %v", p.name, in, res.Entries, want)
			}
		}
	}
}

func TestJunk(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		{"", ""},
		{"ls -l", ""},
		{"echo 日本語 😀", ""},
		{"caf\xe9", ""},
		{"a\tb\nc", ""},
		{"abcdefg\x01\x02\x03", ""}, // 30%
		{"abcdef\x01\x02\x03", reasonBinary},
		{"\xff\xfe\xfd", reasonBinary},
		{"x\u0085\u0086", reasonBinary}, // C1 controls
		{"abc\x00", reasonNUL},
	}
	for _, tc := range tests {
		if got := junk([]byte(tc.in)); got != tc.want {
			t.Errorf("junk(%q) = %q; want %q", tc.in, got, tc.want)
		}
	}
}

func TestUnmetafy(t *testing.T) {
	tests := []struct {
		in   string
		want string
		ok   bool
	}{
		{"", "", true},
		{"abc", "abc", true},
		{"\x83\xa3", "\x83", true},
		{"\x83 ", "\x00", true},
		{"a\x83\xb7b\x83\xbcc", "a\x97b\x9cc", true},
		{"a\x83", "", false},
	}
	for _, tc := range tests {
		got, ok := unmetafy(nil, []byte(tc.in))
		if ok != tc.ok || (ok && string(got) != tc.want) {
			t.Errorf("unmetafy(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
	// metafy (the test helper) and unmetafy are inverses on all bytes.
	var all []byte
	for c := range 256 {
		all = append(all, byte(c))
	}
	if got, ok := unmetafy(nil, metafy(all)); !ok || !bytes.Equal(got, all) {
		t.Errorf("unmetafy(metafy(all bytes)) = %q, %v", got, ok)
	}
}

func TestProblemText(t *testing.T) {
	res, _ := ParseZsh(strings.NewReader("ok\n: 12x\necho \x83\n\x01\x02\x03\n"))
	want := []string{
		"line 2: malformed extended-history line",
		"line 3: ends in a lone Meta byte (0x83)",
		"line 4: binary data",
	}
	if fmt.Sprint(res.Problems) != fmt.Sprint(want) {
		t.Errorf("Problems = %q; want %q", res.Problems, want)
	}
}
