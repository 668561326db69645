package histfile

import (
	"bytes"
	"io"
	"path/filepath"
)

// ParseFish reads a fish history file (~/.local/share/fish/fish_history,
// in $XDG_DATA_HOME when it is set), the YAML-like form fish 2.0 and later
// write:
//
//   - cmd: echo one\ntwo
//     when: 1700000000
//     paths:
//   - one
//
// Each entry starts with "- cmd: " and the command, escaped as fish
// escapes it: a backslash as \\ and a newline as \n (a multi-line command
// is one line); a backslash before anything else is itself. "when:" is the
// start time in seconds; "paths:" and its items (the arguments that named
// files, which fish uses for its suggestions) are read and left out.
// Other lines (fish 1's format, anything unknown) are skipped quietly, as
// fish does; a line that is binary data or holds a NUL byte is skipped
// and counted, and so is an entry longer than MaxLineLen. Blank commands
// are ignored. ParseFish returns an error only when reading r fails,
// together with what was parsed until then.
func ParseFish(r io.Reader) (Result, error) {
	var (
		res  results
		lr   = newLineReader(r)
		cmd  []byte // the unescaped command of the entry being read
		when int64
		line int // where it starts; 0 when there is none
	)
	flush := func() {
		if line != 0 && !blank(cmd) {
			res.add(Entry{Time: epoch(when), Line: line}, cmd)
		}
		line, when, cmd = 0, 0, cmd[:0]
	}
	for {
		l, long, err := lr.next()
		if err != nil {
			flush()
			if ioError(err) {
				return res.finish(), err
			}
			return res.finish(), nil
		}
		switch {
		case long:
			flush()
			res.skip(lr.line, reasonLongLine)
		case bytes.HasPrefix(l, []byte("- cmd:")):
			flush()
			rest := bytes.TrimPrefix(bytes.TrimPrefix(l, []byte("- cmd:")), []byte(" "))
			c := unescapeFish(cmd[:0], rest)
			if reason := junk(c); reason != "" {
				res.skip(lr.line, reason)
				continue
			}
			cmd, line = c, lr.line
		case line != 0 && bytes.HasPrefix(l, []byte("  when:")):
			if n, ok := parseUint(bytes.TrimSpace(l[len("  when:"):])); ok {
				when = n
			}
		case bytes.IndexByte(l, 0) >= 0:
			flush()
			res.skip(lr.line, reasonNUL)
		}
	}
}

// unescapeFish appends b to dst with fish's history escapes undone: \\ is
// a backslash, \n a newline; any other backslash is itself.
func unescapeFish(dst, b []byte) []byte {
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c == '\\' && i+1 < len(b) {
			switch b[i+1] {
			case '\\':
				i++
			case 'n':
				c = '\n'
				i++
			}
		}
		dst = append(dst, c)
	}
	return dst
}

// FishFile returns where fish keeps its history by default: fish_history
// in $XDG_DATA_HOME/fish (dataHome), or in ~/.local/share/fish.
func FishFile(home, dataHome string) string {
	if dataHome == "" {
		dataHome = filepath.Join(home, ".local", "share")
	}
	return filepath.Join(dataHome, "fish", "fish_history")
}
