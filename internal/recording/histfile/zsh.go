package histfile

import (
	"bytes"
	"io"
	"time"
)

// meta is the byte zsh writes before a metafied byte; see ParseZsh.
const meta = 0x83

// ParseZsh reads a zsh history file ($HISTFILE, often ~/.zsh_history or
// ~/.histfile).
//
// Each command is one line, either plain or, with EXTENDED_HISTORY, in the
// form ": <start epoch>:<elapsed seconds>;<command>"; both forms may be
// mixed in one file. As zsh reads it:
//   - a line ending in a backslash continues on the next line: the
//     backslash is removed and the lines are joined with "\n";
//   - if the command then ends in a backslash followed by spaces, one
//     space (which zsh adds when saving such a command) is removed;
//   - a plain line starting with `\:` loses the backslash (zsh writes a
//     plain command starting with ':' that way);
//   - the command is unmetafied: zsh writes the bytes 0x00 and 0x83–0xA2 as
//     0x83 (Meta) followed by the byte XOR 0x20, so every Meta pair is
//     replaced by the byte it stands for, giving back UTF-8 text such as
//     "日本" intact; other bytes, including unmetafied high bytes from old
//     zsh versions, are kept as they are.
//
// Unlike zsh, ParseZsh keeps a backslash at the very end of the file, and
// removes a trailing "\r" from every line (for files saved with CRLF line
// ends).
//
// Entries are skipped, and counted in the Result, when they hold a NUL
// byte (raw or metafied), are binary data (more than 30% of their bytes
// control characters or invalid UTF-8), have a line or in all are longer
// than MaxLineLen, end in a lone Meta byte, or start like an
// extended-history line (": <digit>") without being one. A line starting
// with ':' that does not look like one is taken as a plain command. Empty
// commands are ignored. Invalid UTF-8 alone is no reason to skip. ParseZsh
// returns an error only when reading r fails, together with what was
// parsed until then.
func ParseZsh(r io.Reader) (Result, error) {
	var (
		res   results
		lr    = newLineReader(r)
		buf   []byte // raw (metafied) text of the entry being read
		plain []byte // scratch space for unmetafying
		start int    // line where the entry starts
		cont  bool   // the last line ended with a backslash
		bad   string // why the entry being read will be skipped
	)
	for {
		line, long, err := lr.next()
		if err != nil {
			if cont {
				// Nothing follows the backslash: keep it.
				buf[len(buf)-1] = '\\'
				zshEntry(&res, start, buf, bad, plain)
			}
			if ioError(err) {
				return res.finish(), err
			}
			return res.finish(), nil
		}
		if !cont {
			start, buf, bad = lr.line, buf[:0], ""
		}
		cont = len(line) > 0 && line[len(line)-1] == '\\'
		if cont {
			line = line[:len(line)-1]
		}
		switch {
		case bad != "":
		case long:
			bad = reasonLongLine
		default:
			buf = append(buf, line...)
			if cont {
				buf = append(buf, '\n')
			}
			if len(buf) > MaxLineLen {
				bad = reasonLongEntry
			}
		}
		if bad != "" {
			buf = buf[:0] // the entry is skipped; don't hold on to it
			if cont {
				buf = append(buf, '\n') // room for the backslash at EOF
			}
		}
		if cont {
			continue
		}
		plain = zshEntry(&res, start, buf, bad, plain)
	}
}

// zshEntry adds the entry with raw text buf, starting on line n, to res, or
// records why it is skipped. It returns plain, the scratch buffer, for reuse.
func zshEntry(res *results, n int, buf []byte, bad string, plain []byte) []byte {
	if bad != "" {
		res.skip(n, bad)
		return plain
	}
	if len(buf) == 0 {
		return plain
	}
	// zsh adds a space to a command ending in a backslash and spaces.
	if buf[len(buf)-1] == ' ' {
		i := len(buf) - 1
		for i >= 0 && buf[i] == ' ' {
			i--
		}
		if i >= 0 && buf[i] == '\\' {
			buf = buf[:len(buf)-1]
		}
	}
	var (
		when time.Time
		dur  time.Duration
		cmd  = buf
	)
	switch {
	case buf[0] == ':':
		if st, el, rest, ok := zshHeader(buf); ok {
			when, cmd = epoch(st), rest
			if el > 0 && el <= int64(1<<63-1)/int64(time.Second) {
				dur = time.Duration(el) * time.Second
			}
		} else if looksLikeHeader(buf) {
			res.skip(n, "malformed extended-history line")
			return plain
		}
	case len(buf) > 1 && buf[0] == '\\' && buf[1] == ':':
		cmd = buf[1:]
	}
	if bytes.IndexByte(cmd, meta) >= 0 {
		var ok bool
		if plain, ok = unmetafy(plain[:0], cmd); !ok {
			res.skip(n, "ends in a lone Meta byte (0x83)")
			return plain
		}
		cmd = plain
	}
	if blank(cmd) {
		return plain
	}
	if reason := junk(cmd); reason != "" {
		res.skip(n, reason)
		return plain
	}
	res.add(Entry{Time: when, Duration: dur, Line: n}, cmd)
	return plain
}

// zshHeader parses an extended-history line ": <start>:<elapsed>;<command>"
// as zsh writes it, allowing blanks before either number and a minus sign
// on the elapsed time.
func zshHeader(b []byte) (start, elapsed int64, cmd []byte, ok bool) {
	i := skipBlanks(b, 1)
	j := digitsEnd(b, i)
	if start, ok = parseUint(b[i:j]); !ok || j == len(b) || b[j] != ':' {
		return 0, 0, nil, false
	}
	i = skipBlanks(b, j+1)
	neg := i < len(b) && b[i] == '-'
	if neg {
		i++
	}
	j = digitsEnd(b, i)
	if elapsed, ok = parseUint(b[i:j]); !ok || j == len(b) || b[j] != ';' {
		return 0, 0, nil, false
	}
	if neg {
		elapsed = -elapsed
	}
	return start, elapsed, b[j+1:], true
}

// looksLikeHeader reports whether b starts like an extended-history line:
// ':', blanks, a digit.
func looksLikeHeader(b []byte) bool {
	i := skipBlanks(b, 1)
	return i < len(b) && b[i] >= '0' && b[i] <= '9'
}

func skipBlanks(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
		i++
	}
	return i
}

func digitsEnd(b []byte, i int) int {
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	return i
}

// unmetafy appends src to dst with every Meta pair replaced by the byte it
// stands for. ok is false if src ends in a lone Meta byte.
func unmetafy(dst, src []byte) (out []byte, ok bool) {
	for {
		i := bytes.IndexByte(src, meta)
		if i < 0 {
			return append(dst, src...), true
		}
		if i+1 == len(src) {
			return dst, false
		}
		dst = append(dst, src[:i]...)
		dst = append(dst, src[i+1]^0x20)
		src = src[i+2:]
	}
}
