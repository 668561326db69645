package capture

import (
	"strconv"
	"unicode/utf8"
)

// DefaultLimit is the default number of bytes a [Buffer] keeps: 1 MiB.
const DefaultLimit = 1 << 20

// Buffer keeps a bounded part of one command's raw output: the first half
// of its limit and the last half, however much is written. It never holds
// more than its limit in memory (its slices grow to at most half the
// limit each), so large outputs stream through it at the cost of a copy.
//
// The zero Buffer is not usable; call [NewBuffer].
type Buffer struct {
	headCap, tailCap int
	head             []byte
	tail             []byte // a ring once it is full
	pos              int    // where the ring's oldest byte is, once full
	total            int64
}

// NewBuffer returns a Buffer that keeps at most limit bytes; a limit of
// zero or less means [DefaultLimit].
func NewBuffer(limit int) *Buffer {
	if limit <= 0 {
		limit = DefaultLimit
	}
	return &Buffer{headCap: limit / 2, tailCap: limit - limit/2}
}

// Write keeps what fits of p. It never fails.
func (b *Buffer) Write(p []byte) (int, error) {
	b.add(p)
	return len(p), nil
}

// add keeps what fits of p.
func (b *Buffer) add(p []byte) {
	b.total += int64(len(p))
	if len(b.head) < b.headCap {
		k := min(len(p), b.headCap-len(b.head))
		b.head = appendCapped(b.head, p[:k], b.headCap)
		p = p[k:]
	}
	if len(p) == 0 {
		return
	}
	if len(p) >= b.tailCap {
		b.tail = appendCapped(b.tail[:0], p[len(p)-b.tailCap:], b.tailCap)
		b.pos = 0
		return
	}
	if len(b.tail) < b.tailCap {
		k := min(len(p), b.tailCap-len(b.tail))
		b.tail = appendCapped(b.tail, p[:k], b.tailCap)
		p = p[k:]
	}
	for len(p) > 0 { // the ring is full: overwrite the oldest bytes
		k := copy(b.tail[b.pos:], p)
		p = p[k:]
		b.pos = (b.pos + k) % b.tailCap
	}
}

// appendCapped appends p to b, growing b's capacity to at most limit (append
// alone could overshoot it).
func appendCapped(b, p []byte, limit int) []byte {
	if need := len(b) + len(p); need > cap(b) {
		c := min(max(need, 2*cap(b), 512), limit)
		nb := make([]byte, len(b), c)
		copy(nb, b)
		b = nb
	}
	return append(b, p...)
}

// Len returns the number of bytes written to b, kept or not.
func (b *Buffer) Len() int64 { return b.total }

// Dropped returns the number of bytes written to b and not kept.
func (b *Buffer) Dropped() int64 { return b.total - int64(len(b.head)+len(b.tail)) }

// Bytes returns the kept bytes in a new slice. When bytes were dropped, it
// returns the head, an elision marker and the tail; the head is cut back
// and the tail moved forward to UTF-8 character boundaries (the few bytes
// this drops are counted in the marker). The marker reads
//
//	CAN "\n[… N bytes not kept …]\n"
//
// CAN (0x18) cancels an escape sequence the cut may have left unfinished,
// as on a terminal, so that [Render] shows the marker as written.
func (b *Buffer) Bytes() []byte {
	head, tail := b.head, b.tail
	if len(tail) == b.tailCap && b.pos > 0 {
		tail = append(append(make([]byte, 0, len(tail)), tail[b.pos:]...), tail[:b.pos]...)
	}
	dropped := b.Dropped()
	if dropped == 0 {
		return append(append(make([]byte, 0, len(head)+len(tail)), head...), tail...)
	}
	for i := len(head) - 1; i >= 0 && i >= len(head)-utf8.UTFMax; i-- {
		if utf8.RuneStart(head[i]) {
			if !utf8.FullRune(head[i:]) {
				dropped += int64(len(head) - i)
				head = head[:i]
			}
			break
		}
	}
	for i := 0; i < len(tail) && i < utf8.UTFMax-1 && !utf8.RuneStart(tail[0]); i++ {
		tail = tail[1:]
		dropped++
	}
	marker := "\x18\n[… " + strconv.FormatInt(dropped, 10) + " bytes not kept …]\n"
	out := make([]byte, 0, len(head)+len(marker)+len(tail))
	return append(append(append(out, head...), marker...), tail...)
}

// Capture is the output of one command, as collected by a [Collector].
type Capture struct {
	// ID is the history row the output belongs to.
	ID ID
	// Status is the exit status, or -1 when Complete is false.
	Status int
	// Complete reports whether the end of the command was seen.
	Complete bool
	// Raw holds the kept raw bytes (see [Buffer.Bytes]); [Render] turns
	// them into text.
	Raw []byte
	// Size is the number of bytes the command wrote, kept or not.
	Size int64
	// Withheld reports that the command printed a secret (a
	// [WithholdMark]): Raw is empty, nothing of the output is kept.
	Withheld bool
}

// Collector is a [Sink] that keeps each command's output in its own
// [Buffer] and hands it over when the command ends.
type Collector struct {
	limit    int
	done     func(Capture)
	buf      *Buffer
	id       ID
	withheld bool
}

// NewCollector returns a Collector whose buffers keep at most limit bytes
// each (zero or less means [DefaultLimit]) and which calls done with each
// command's capture when the command ends. done runs on the Scanner's
// path to the terminal, so it should hand the capture on (to a channel,
// say) rather than store it itself.
func NewCollector(limit int, done func(Capture)) *Collector {
	return &Collector{limit: limit, done: done}
}

// Begin implements [Sink].
func (c *Collector) Begin(id ID) {
	c.id, c.buf, c.withheld = id, NewBuffer(c.limit), false
}

// Output implements [Sink].
func (c *Collector) Output(p []byte) {
	if c.buf != nil && !c.withheld {
		c.buf.add(p)
	}
}

// Withhold implements [Withholder]: the bytes kept so far are dropped, and
// the capture handed over at the end is marked Withheld, with no bytes.
func (c *Collector) Withhold(id ID) {
	if c.buf != nil && id == c.id {
		c.withheld = true
		c.buf = NewBuffer(1)
	}
}

// End implements [Sink].
func (c *Collector) End(id ID, status int, complete bool) {
	if c.buf == nil || id != c.id {
		return
	}
	cp := Capture{ID: id, Status: status, Complete: complete, Raw: c.buf.Bytes(), Size: c.buf.Len(), Withheld: c.withheld}
	if c.withheld {
		cp.Raw, cp.Size = nil, 0
	}
	c.buf = nil
	if c.done != nil {
		c.done(cp)
	}
}
