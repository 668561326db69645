package histfile

import (
	"io"
	"time"
)

// ParseBash reads a bash history file ($HISTFILE, usually ~/.bash_history).
//
// Without timestamps, every non-empty line is one command, as bash itself
// reads it. When bash saves timestamps (HISTTIMEFORMAT is set), a line
// "#<epoch seconds>" precedes each command, and every line up to the next
// such timestamp line belongs to that command, so the multi-line commands
// written with "shopt -s lithist" are read back whole, joined with "\n".
// Only '#' followed by nothing but digits is a timestamp line; "#123abc" is
// a command. Lines before the first timestamp line, or after a skipped
// line, are single-line commands without a time. Empty lines between
// commands are ignored; empty lines inside a multi-line command are kept
// (bash itself drops them). A trailing "\r" is removed from every line.
//
// Lines holding a NUL byte, lines of binary data (more than 30% of their
// bytes control characters or invalid UTF-8) and lines longer than
// MaxLineLen are skipped; such a line also ends the command before it, so
// junk after a timestamped command is not taken as part of it. A command
// of several lines longer than MaxLineLen in all is skipped too. Invalid
// UTF-8 alone is no reason to skip: its bytes are kept. ParseBash returns an error only when reading r fails,
// together with what was parsed until then.
func ParseBash(r io.Reader) (Result, error) {
	var p bashParser
	lr := newLineReader(r)
	for {
		line, long, err := lr.next()
		if err != nil {
			p.flush()
			if ioError(err) {
				return p.res.finish(), err
			}
			return p.res.finish(), nil
		}
		p.line(lr.line, line, long)
	}
}

// bashParser holds the state of ParseBash between lines.
type bashParser struct {
	res results

	// The timestamp line just read, not yet attached to a command.
	pending     bool
	pendingTime time.Time

	// The command being read.
	active      bool
	timestamped bool // it follows a timestamp line, so later lines join it
	start       int
	when        time.Time
	buf         []byte
	blanks      int  // empty lines read since its last line
	tooLong     bool // it grew past MaxLineLen
}

func (p *bashParser) line(n int, line []byte, long bool) {
	if long {
		p.flush()
		p.pending = false
		p.res.skip(n, reasonLongLine)
		return
	}
	if len(line) == 0 {
		if p.active {
			p.blanks++
		}
		return
	}
	if line[0] == '#' {
		if allDigits(line[1:]) {
			sec, _ := parseUint(line[1:]) // 0, no time, if out of range
			p.flush()
			p.pending = true
			p.pendingTime = epoch(sec)
			return
		}
	}
	if reason := junk(line); reason != "" {
		p.flush()
		p.pending = false
		p.res.skip(n, reason)
		return
	}
	if p.active && p.timestamped && !p.pending {
		// A further line of a multi-line command (lithist).
		if p.tooLong || len(p.buf)+p.blanks+1+len(line) > MaxLineLen {
			p.tooLong = true
			return
		}
		for range p.blanks + 1 {
			p.buf = append(p.buf, '\n')
		}
		p.buf = append(p.buf, line...)
		p.blanks = 0
		return
	}
	p.flush()
	p.active = true
	p.timestamped = p.pending
	p.when = time.Time{}
	if p.pending {
		p.when = p.pendingTime
	}
	p.pending = false
	p.start = n
	p.buf = append(p.buf[:0], line...)
}

// flush ends the command being read, if any.
func (p *bashParser) flush() {
	if !p.active {
		return
	}
	switch {
	case p.tooLong:
		p.res.skip(p.start, reasonLongEntry)
	case blank(p.buf):
		// Nothing to import.
	default:
		p.res.add(Entry{Time: p.when, Line: p.start}, p.buf)
	}
	p.active = false
	p.tooLong = false
	p.blanks = 0
}

// allDigits reports whether b is a non-empty run of ASCII digits.
func allDigits(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
