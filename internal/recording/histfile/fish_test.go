package histfile

import (
	"path/filepath"
	"testing"
)

func TestParseFish(t *testing.T) {
	const ts = 1700000000
	runCases(t, "ParseFish", ParseFish, []parseCase{
		{name: "empty", in: ""},
		{name: "plain", in: "- cmd: ls -l\n  when: 1700000000\n- cmd: pwd\n  when: 1700000005\n",
			want: []Entry{et(1, "ls -l", ts), et(3, "pwd", ts+5)}},
		{name: "paths", in: "- cmd: cat a.txt b\\\\c\n  when: 1700000000\n  paths:\n    - a.txt\n    - b\\\\c\n- cmd: pwd\n  when: 1700000001\n",
			want: []Entry{et(1, `cat a.txt b\c`, ts), et(6, "pwd", ts+1)}},
		{name: "multi-line", in: "- cmd: begin\\necho two\\nend\n  when: 1700000000\n",
			want: []Entry{et(1, "begin\necho two\nend", ts)}},
		{name: "escapes", in: "- cmd: echo a\\\\nb \\t \\\\\\\\ \\x end\\\\\n  when: 1700000000\n",
			want: []Entry{et(1, `echo a\nb \t \\ \x end\`, ts)}},
		{name: "no when", in: "- cmd: ls\n- cmd: pwd\n", want: []Entry{e(1, "ls"), e(2, "pwd")}},
		{name: "zero when", in: "- cmd: ls\n  when: 0\n", want: []Entry{e(1, "ls")}},
		{name: "bad when", in: "- cmd: ls\n  when: soon\n", want: []Entry{e(1, "ls")}},
		{name: "no space after colon", in: "- cmd:ls\n", want: []Entry{e(1, "ls")}},
		{name: "utf8", in: "- cmd: echo ü 日本 😀\n", want: []Entry{e(1, "echo ü 日本 😀")}},
		{name: "blank command", in: "- cmd: \n  when: 1700000000\n- cmd:    \n", want: nil},
		{name: "crlf", in: "- cmd: ls\r\n  when: 1700000000\r\n", want: []Entry{et(1, "ls", ts)}},
		{name: "fish 1 lines skipped quietly", in: "# 1700000000\nls\n- cmd: pwd\n", want: []Entry{e(3, "pwd")}},
		{name: "a when before any cmd", in: "  when: 1700000000\n- cmd: ls\n", want: []Entry{e(2, "ls")}},
		{name: "binary cmd", in: "- cmd: \x01\x02\x03\xff\xfe\n  when: 1\n- cmd: pwd\n", want: []Entry{e(3, "pwd")}, skipped: 1},
		{name: "nul line ends the entry", in: "- cmd: ls\n\x00\x00\n  when: 1700000000\n- cmd: pwd\n",
			want: []Entry{e(1, "ls"), e(4, "pwd")}, skipped: 1},
	})
}

func TestFishFile(t *testing.T) {
	if got := FishFile("/h", ""); got != filepath.Join("/h", ".local", "share", "fish", "fish_history") {
		t.Errorf("FishFile = %q", got)
	}
	if got := FishFile("/h", "/d"); got != "/d/fish/fish_history" {
		t.Errorf("FishFile with XDG_DATA_HOME = %q", got)
	}
}
