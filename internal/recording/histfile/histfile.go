// Package histfile reads the history files that bash, zsh and fish write.
//
// ParseBash and ParseZsh turn a history file into a list of entries, one
// per command, keeping each command's bytes exactly as the shell would read
// them back (multi-line commands stay multi-line, zsh's metafication is
// undone, invalid UTF-8 is kept as it is). Lines that cannot be read, such
// as binary junk left behind by a crash, are skipped, counted and described
// in the Result, so that everything that is readable can still be imported.
//
// Both parsers read their input once, front to back, line by line through
// a bufio.Reader; besides the Result, they keep only the entry being read,
// which is never allowed to grow much past MaxLineLen. Parsing is
// deterministic: the same input always gives the same Result.
package histfile

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"time"
	"unicode/utf8"
)

// MaxLineLen is the longest line, and the longest entry, that the parsers
// accept, in bytes (1 MiB). Longer lines and entries are skipped.
const MaxLineLen = 1 << 20

// maxProblems is how many Problems a Result lists one by one; the rest are
// summarised in one final line.
const maxProblems = 20

// Entry is one command from a history file.
type Entry struct {
	// Command is the command exactly as the shell stored it: a multi-line
	// command keeps its newlines, zsh's metafication is undone, and bytes
	// that are not valid UTF-8 are kept as they are.
	Command string
	// Time is when the command was started, in UTC, or the zero Time when
	// the file has no timestamp for it (a timestamp of 0 counts as none).
	Time time.Time
	// Duration is the elapsed time recorded by zsh's EXTENDED_HISTORY
	// option; it is 0 for bash, for plain zsh entries and when the
	// recorded time is negative.
	Duration time.Duration
	// Line is the 1-based number of the line where the command starts (for
	// bash, the line after its "#<epoch>" timestamp line).
	Line int
}

// Result is what a parse found.
type Result struct {
	// Entries are the commands that were read, in file order.
	Entries []Entry
	// Skipped counts the entries or lines that could not be read.
	Skipped int
	// Problems holds one short human-readable line, such as
	// "line 12: binary data", for each of the first 20 skipped things; if
	// more were skipped, a final line says how many are not listed.
	Problems []string
}

// results builds a Result.
//
// To save allocations, the commands of consecutive entries are first
// gathered in arena and then turned into one string, which the entries'
// Commands share.
type results struct {
	Result
	arena  []byte
	ends   []int // where each entry from sealed on ends in arena
	sealed int   // entries before this one have their Command set
}

// add appends an entry with the command cmd.
func (r *results) add(e Entry, cmd []byte) {
	r.arena = append(r.arena, cmd...)
	r.ends = append(r.ends, len(r.arena))
	if len(r.Entries) == cap(r.Entries) {
		// Double, rather than let append grow large slices by 25%.
		grown := make([]Entry, len(r.Entries), max(64, 2*cap(r.Entries)))
		copy(grown, r.Entries)
		r.Entries = grown
	}
	r.Entries = append(r.Entries, e)
	if len(r.arena) >= 32<<10 {
		r.seal()
	}
}

// seal sets the Command of the entries added since the last seal.
func (r *results) seal() {
	s := string(r.arena)
	start := 0
	for i, end := range r.ends {
		r.Entries[r.sealed+i].Command = s[start:end]
		start = end
	}
	r.sealed = len(r.Entries)
	r.arena, r.ends = r.arena[:0], r.ends[:0]
}

// skip records one skipped entry or line.
func (r *results) skip(line int, reason string) {
	r.Skipped++
	if len(r.Problems) < maxProblems {
		r.Problems = append(r.Problems, fmt.Sprintf("line %d: %s", line, reason))
	}
}

// finish completes and returns the Result.
func (r *results) finish() Result {
	r.seal()
	if more := r.Skipped - len(r.Problems); more > 0 {
		r.Problems = append(r.Problems, fmt.Sprintf("... and %d more skipped", more))
	}
	return r.Result
}

// Reasons for skipping, used in Problems.
const (
	reasonNUL       = "contains a NUL byte"
	reasonBinary    = "binary data"
	reasonLongLine  = "line longer than 1 MiB"
	reasonLongEntry = "entry longer than 1 MiB"
)

// lineReader splits its input into lines, without holding more than
// MaxLineLen bytes of any line.
type lineReader struct {
	r    *bufio.Reader
	buf  []byte
	line int // number of the line last returned
	err  error
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 64<<10)}
}

// next returns the next line without its "\n" and without one trailing
// "\r". The slice is valid only until the following call. If the line is
// longer than MaxLineLen, long is true and line holds only its last (up to
// two) bytes. At the end of the input next returns io.EOF; other errors are
// I/O errors.
func (lr *lineReader) next() (line []byte, long bool, err error) {
	if lr.err != nil {
		return nil, false, lr.err
	}
	chunk, err := lr.r.ReadSlice('\n')
	if err == nil {
		// Fast path: the whole line is in the reader's buffer, which is
		// far smaller than MaxLineLen.
		lr.line++
		return trimEOL(chunk), false, nil
	}
	lr.buf = lr.buf[:0]
	var tail [3]byte // the last bytes of the line, kept for long lines
	total := 0
	for {
		total += len(chunk)
		if total <= MaxLineLen+2 { // room for "\r\n"
			lr.buf = append(lr.buf, chunk...)
		}
		for _, c := range chunk[max(0, len(chunk)-len(tail)):] {
			tail[0], tail[1], tail[2] = tail[1], tail[2], c
		}
		if err != bufio.ErrBufferFull {
			break
		}
		chunk, err = lr.r.ReadSlice('\n')
	}
	if err != nil {
		lr.err = err
		if total == 0 || err != io.EOF {
			// Nothing left, or an I/O error: an incomplete line is dropped.
			return nil, false, err
		}
		// A last line without "\n"; io.EOF comes with the next call.
	}
	lr.line++
	line = trimEOL(lr.buf)
	if total > MaxLineLen+2 || len(line) > MaxLineLen {
		t := trimEOL(tail[len(tail)-min(total, len(tail)):])
		return t[max(0, len(t)-2):], true, nil
	}
	return line, false, nil
}

// trimEOL removes one trailing "\n" and then one trailing "\r".
func trimEOL(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\n' {
		b = b[:n-1]
	}
	if n := len(b); n > 0 && b[n-1] == '\r' {
		b = b[:n-1]
	}
	return b
}

// junk reports why b cannot be a command: it holds a NUL byte, or more than
// 30% of its bytes are control characters or not valid UTF-8. It returns ""
// for text, including text with some invalid UTF-8.
func junk(b []byte) string {
	if bytes.IndexByte(b, 0) >= 0 {
		return reasonNUL
	}
	bad := 0
	for i := 0; i < len(b); {
		c := b[i]
		if c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		if c < 0x80 {
			if c != '\t' && c != '\n' {
				bad++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if (r == utf8.RuneError && size == 1) || r <= 0x9f { // invalid or a C1 control
			bad += size
		}
		i += size
	}
	if bad*10 > len(b)*3 {
		return reasonBinary
	}
	return ""
}

// blank reports whether b holds only white space.
func blank(b []byte) bool {
	for _, c := range b {
		switch c {
		case ' ', '\t', '\n', '\r', '\v', '\f':
		default:
			return false
		}
	}
	return true
}

// parseUint parses a non-empty run of ASCII digits. ok is false if b holds
// anything else or the value does not fit in an int64.
func parseUint(b []byte) (n int64, ok bool) {
	if len(b) == 0 {
		return 0, false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		d := int64(c - '0')
		if n > (1<<63-1-d)/10 {
			return 0, false
		}
		n = n*10 + d
	}
	return n, true
}

// epoch converts seconds since 1970 to a UTC time; 0 means no time.
func epoch(sec int64) time.Time {
	if sec == 0 {
		return time.Time{}
	}
	return time.Unix(sec, 0).UTC()
}

// ioError reports whether err ends a parse with an error.
func ioError(err error) bool {
	return err != nil && !errors.Is(err, io.EOF)
}
