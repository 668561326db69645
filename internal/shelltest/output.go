package shelltest

import (
	"bytes"
	"regexp"
	"regexp/syntax"
	"sync"
	"sync/atomic"
	"time"
)

// output is everything a shell printed, kept up to date as it arrives: the
// raw bytes, the same without control sequences and carriage returns (the
// plain text), and the number of prompt marks. Both byte slices only grow,
// so a slice of them taken under the lock stays valid, and can be searched,
// after the lock is released. Each change closes the changed channel (and
// makes a new one): waits sleep on it rather than polling.
type output struct {
	mu       sync.Mutex
	raw      []byte
	plain    []byte
	plainAt  int // raw[:plainAt] is converted into plain; the rest may be an unfinished sequence
	prompts  int // prompt marks (promptMark) in raw
	promptAt int // where the next search for a prompt mark starts
	changed  chan struct{}
	closed   bool // the shell's side of the terminal is gone: no more output

	searched atomic.Int64 // bytes the waits have searched, for the tests
}

// promptMark is the mark the hooks print where a prompt starts (OSC 133;A,
// as terminals that understand semantic prompts expect it).
const promptMark = "\x1b]133;A\a"

func newOutput() *output { return &output{changed: make(chan struct{})} }

func (o *output) write(p []byte) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.raw = append(o.raw, p...)
	var n int
	o.plain, n = appendPlain(o.plain, o.raw[o.plainAt:], false)
	o.plainAt += n
	for {
		i := bytes.Index(o.raw[o.promptAt:], []byte(promptMark))
		if i < 0 {
			// A mark may have begun in the last few bytes.
			o.promptAt = max(o.promptAt, len(o.raw)-len(promptMark)+1)
			break
		}
		o.prompts++
		o.promptAt += i + len(promptMark)
	}
	close(o.changed)
	o.changed = make(chan struct{})
}

// close records that no more output will come, and converts what was held
// back as a possibly unfinished sequence.
func (o *output) close() {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return
	}
	o.closed = true
	o.plain, _ = appendPlain(o.plain, o.raw[o.plainAt:], true)
	o.plainAt = len(o.raw)
	close(o.changed)
}

// view returns the raw or plain bytes so far, the channel the next change
// closes, and whether the output has ended.
func (o *output) view(plain bool) ([]byte, <-chan struct{}, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	b := o.raw
	if plain {
		b = o.plain
	}
	return b[:len(b):len(b)], o.changed, o.closed
}

// plainString is the whole plain text, a sequence still unfinished at the
// end included as it stands.
func (o *output) plainString() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	tail, _ := appendPlain(nil, o.raw[o.plainAt:], true)
	return string(o.plain) + string(tail)
}

// escapes are the terminal control sequences Plain removes: CSI sequences,
// OSC strings (ended by BEL or ST) and the two-byte charset and keypad
// selections, and carriage returns.
var escapes = regexp.MustCompile(`\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[=>()][0-9A-Za-z]?|\r`)

// escapeAt is escapes without the carriage return, anchored.
var escapeAt = regexp.MustCompile(`\A(?:\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[=>()][0-9A-Za-z]?)`)

// maxHeld bounds how much output an unfinished sequence may hold back from
// the plain text: an OSC string that never ends does not hide everything
// after it from the waits.
const maxHeld = 64 << 10

// appendPlain appends src to dst without the control sequences escapes
// matches, and returns dst and how much of src it consumed. Unless final, it
// stops before a sequence that is not finished yet at the end of src (the
// rest of it is still to come), so that converting the output piece by
// piece as it arrives gives what escapes.ReplaceAll gives on the whole.
func appendPlain(dst, src []byte, final bool) ([]byte, int) {
	i := 0
	for i < len(src) {
		j := bytes.IndexAny(src[i:], "\x1b\r")
		if j < 0 {
			return append(dst, src[i:]...), len(src)
		}
		dst = append(dst, src[i:i+j]...)
		i += j
		if src[i] == '\r' {
			i++
			continue
		}
		rest := src[i:]
		held := !final && len(rest) <= maxHeld
		if loc := escapeAt.FindIndex(rest); loc != nil {
			// ESC ( may be followed by the charset's letter.
			if held && loc[1] == 2 && loc[1] == len(rest) {
				return dst, i
			}
			i += loc[1]
			continue
		}
		if held && unfinished(rest) {
			return dst, i
		}
		dst = append(dst, '\x1b')
		i++
	}
	return dst, i
}

// unfinished reports whether b, which starts with ESC and matches no
// sequence, is the beginning of one that more bytes could complete.
func unfinished(b []byte) bool {
	if len(b) == 1 {
		return true
	}
	switch b[1] {
	case '[':
		i := 2
		for i < len(b) && (b[i] >= '0' && b[i] <= '9' || b[i] == ';' || b[i] == '?') {
			i++
		}
		for i < len(b) && b[i] >= ' ' && b[i] <= '/' {
			i++
		}
		return i == len(b)
	case ']':
		j := bytes.IndexAny(b[2:], "\x07\x1b")
		// No terminator yet, or an ESC that may be the start of ST.
		return j < 0 || b[2+j] == '\x1b' && 2+j == len(b)-1
	}
	return false
}

// matchLen is the longest text re can match, or -1 when there is no bound
// or the match depends on what comes before it (^, \b): a bounded match
// not found in the output up to some point can only end after it, which
// lets a wait search only the new bytes and a few before them.
func matchLen(re *regexp.Regexp) int {
	p, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return -1
	}
	return maxLen(p.Simplify())
}

func maxLen(re *syntax.Regexp) int {
	const runeMax = 4 // bytes in a UTF-8 encoded rune
	switch re.Op {
	case syntax.OpNoMatch, syntax.OpEmptyMatch, syntax.OpEndLine, syntax.OpEndText:
		return 0
	case syntax.OpLiteral:
		return runeMax * len(re.Rune)
	case syntax.OpCharClass, syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		return runeMax
	case syntax.OpCapture, syntax.OpQuest:
		return maxLen(re.Sub[0])
	case syntax.OpRepeat:
		n := maxLen(re.Sub[0])
		if re.Max < 0 || n < 0 {
			return -1
		}
		return re.Max * n
	case syntax.OpConcat, syntax.OpAlternate:
		total := 0
		for _, sub := range re.Sub {
			n := maxLen(sub)
			if n < 0 {
				return -1
			}
			if re.Op == syntax.OpConcat {
				total += n
			} else {
				total = max(total, n)
			}
		}
		return total
	}
	// OpStar, OpPlus, OpBeginLine, OpBeginText, OpWordBoundary,
	// OpNoWordBoundary.
	return -1
}

// rescanEvery is how often a wait for an unbounded pattern searches again
// from its mark when the output grows slowly: it also searches each time
// the output has grown by a quarter since the last search, which keeps the
// work linear in the output's size however the output arrives.
const rescanEvery = 100 * time.Millisecond

// search waits until re matches the output (plain or raw) after from, or
// the output ends, or timeout passes, and returns the bytes then and the
// match's submatch indexes in them (nil when none).
func (o *output) search(from int, plain bool, re *regexp.Regexp, timeout time.Duration) ([]byte, []int) {
	bound := matchLen(re)
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	scanned := from // the bytes before scanned were searched, in vain
	var lastScan time.Time
	var rescan <-chan time.Time
	find := func(b []byte, start int) []int {
		o.searched.Add(int64(len(b) - start))
		loc := re.FindSubmatchIndex(b[start:])
		for i := range loc {
			if loc[i] >= 0 {
				loc[i] += start
			}
		}
		return loc
	}
	for {
		b, changed, closed := o.view(plain)
		if len(b) > scanned || closed {
			switch {
			case bound >= 0:
				if loc := find(b, max(from, scanned-bound)); loc != nil {
					return b, loc
				}
				scanned = len(b)
			case closed || len(b)-scanned >= (scanned-from)/4 || time.Since(lastScan) >= rescanEvery:
				if loc := find(b, from); loc != nil {
					return b, loc
				}
				scanned, lastScan, rescan = len(b), time.Now(), nil
			case rescan == nil:
				rescan = time.After(rescanEvery)
			}
		}
		if closed {
			return b, nil
		}
		select {
		case <-changed:
		case <-rescan:
			rescan, lastScan = nil, time.Time{}
		case <-timer.C:
			b, _, _ = o.view(plain)
			return b, find(b, from)
		}
	}
}
