package history

import (
	"context"
	"encoding/binary"
	"os"
)

// Reading a damaged SQLite file without SQLite: its pages one at a time
// (preferring the last committed copy in the WAL), the cells of its b-tree
// leaf pages, their overflow chains and their records. Nothing here trusts
// a byte it reads: every length and page number is checked against the
// page and the file, so that arbitrary bytes make rows go missing, never a
// panic or an unbounded allocation. The format is
// https://www.sqlite.org/fileformat2.html.

const (
	sqliteMagic = "SQLite format 3\x00"
	maxPayload  = 1 << 30 // SQLite's own default limit on a value's length
	maxColumns  = 16      // more than any hookd table has
)

// pager reads the pages of a database file of a given page size.
type pager struct {
	f      *os.File
	size   int64 // of the main file
	ps     int   // page size
	usable int   // page size less the reserved bytes at the end of each page
	npages uint32
	wal    *os.File
	walAt  map[uint32]int64 // page number → offset in the WAL of its last committed copy
}

// page reads page n (from 1) into buf, which has room for ps bytes; false
// when the page is beyond the file or cannot be read whole.
func (p *pager) page(n uint32, buf []byte) bool {
	if n == 0 || n > p.npages {
		return false
	}
	buf = buf[:p.ps]
	if off, ok := p.walAt[n]; ok {
		if _, err := p.wal.ReadAt(buf, off); err == nil {
			return true
		}
	}
	off := int64(n-1) * int64(p.ps)
	if off+int64(p.ps) > p.size {
		return false
	}
	_, err := p.f.ReadAt(buf, off)
	return err == nil
}

// readWAL indexes the committed frames of the WAL file f, whose header
// must be intact, valid and for pages of size ps (0: any). It returns the
// WAL's page size, or 0 when the WAL is unusable. Frames are valid up to the
// first whose checksum or salt is wrong, and count up to the last commit
// frame before it, as SQLite's own recovery of the WAL does.
func readWAL(ctx context.Context, f *os.File, ps int) (int, map[uint32]int64) {
	var h [32]byte
	if _, err := f.ReadAt(h[:], 0); err != nil {
		return 0, nil
	}
	magic := binary.BigEndian.Uint32(h[0:])
	if magic&^1 != 0x377f0682 {
		return 0, nil
	}
	var order binary.ByteOrder = binary.LittleEndian
	if magic&1 == 1 {
		order = binary.BigEndian
	}
	wps := int(binary.BigEndian.Uint32(h[8:]))
	if !validPageSize(wps) || (ps != 0 && wps != ps) {
		return 0, nil
	}
	s0, s1 := walChecksum(order, h[:24], 0, 0)
	if s0 != binary.BigEndian.Uint32(h[24:]) || s1 != binary.BigEndian.Uint32(h[28:]) {
		return 0, nil
	}
	salt := h[16:24]
	at := map[uint32]int64{}
	pending := map[uint32]int64{}
	frame := make([]byte, 24+wps)
	for off := int64(32); ; off += int64(len(frame)) {
		if _, err := f.ReadAt(frame, off); err != nil || ctx.Err() != nil {
			break
		}
		if string(frame[8:16]) != string(salt) {
			break
		}
		s0, s1 = walChecksum(order, frame[:8], s0, s1)
		s0, s1 = walChecksum(order, frame[24:], s0, s1)
		if s0 != binary.BigEndian.Uint32(frame[16:]) || s1 != binary.BigEndian.Uint32(frame[20:]) {
			break
		}
		n := binary.BigEndian.Uint32(frame[0:])
		if n == 0 {
			break
		}
		pending[n] = off + 24
		if binary.BigEndian.Uint32(frame[4:]) != 0 { // a commit frame
			for k, v := range pending {
				at[k] = v
			}
			clear(pending)
		}
	}
	return wps, at
}

// walChecksum continues the WAL's checksum over b (a multiple of 8 bytes).
func walChecksum(order binary.ByteOrder, b []byte, s0, s1 uint32) (uint32, uint32) {
	for i := 0; i+8 <= len(b); i += 8 {
		s0 += order.Uint32(b[i:]) + s1
		s1 += order.Uint32(b[i+4:]) + s0
	}
	return s0, s1
}

func validPageSize(ps int) bool {
	return ps >= 512 && ps <= 65536 && ps&(ps-1) == 0
}

// headerPageSize returns the page size and usable size the database header
// in page 1 gives, or 0, 0 when the header is not intact.
func headerPageSize(b []byte) (ps, usable int) {
	if len(b) < 100 || string(b[:16]) != sqliteMagic {
		return 0, 0
	}
	ps = int(binary.BigEndian.Uint16(b[16:]))
	if ps == 1 {
		ps = 65536
	}
	usable = ps - int(b[20])
	if !validPageSize(ps) || usable < 480 {
		return 0, 0
	}
	return ps, usable
}

// freePages returns the pages on the freelist that the header of page 1
// describes, or nil unless the whole list reads consistently (a freelist
// damaged into naming live pages must not hide them).
func (p *pager) freePages(page1 []byte) map[uint32]bool {
	first := binary.BigEndian.Uint32(page1[32:])
	total := binary.BigEndian.Uint32(page1[36:])
	if first == 0 || total == 0 || total > p.npages {
		return nil
	}
	free := map[uint32]bool{}
	buf := make([]byte, p.ps)
	for trunk := first; trunk != 0; {
		if trunk > p.npages || free[trunk] || !p.page(trunk, buf) {
			return nil
		}
		free[trunk] = true
		k := binary.BigEndian.Uint32(buf[4:])
		if int64(k) > int64(p.usable/4-2) {
			return nil
		}
		for i := range int(k) {
			n := binary.BigEndian.Uint32(buf[8+4*i:])
			if n < 2 || n > p.npages || free[n] {
				return nil
			}
			free[n] = true
		}
		if uint32(len(free)) > total {
			return nil
		}
		trunk = binary.BigEndian.Uint32(buf[0:])
	}
	if uint32(len(free)) != total {
		return nil
	}
	return free
}

// A value is one column of a record.
type value struct {
	kind byte // one of the kind constants
	i    int64
	b    []byte // text or blob; points into the record
}

const (
	kindNull = iota
	kindInt
	kindFloat
	kindText
	kindBlob
)

// varint decodes SQLite's big-endian variable-length integer at the start
// of b, returning it and its length (0 when b is too short).
func varint(b []byte) (uint64, int) {
	var v uint64
	for i := 0; i < 9; i++ {
		if i >= len(b) {
			return 0, 0
		}
		if i == 8 {
			return v<<8 | uint64(b[i]), 9
		}
		v = v<<7 | uint64(b[i]&0x7f)
		if b[i] < 0x80 {
			return v, i + 1
		}
	}
	return 0, 0
}

// decodeRecord splits a record into its values, appending to vals; false
// unless the record's header and body agree exactly.
func decodeRecord(rec []byte, vals []value) ([]value, bool) {
	hsize, n := varint(rec)
	if n == 0 || hsize < uint64(n) || hsize > uint64(len(rec)) {
		return vals, false
	}
	hdr := rec[n:hsize]
	body := rec[hsize:]
	for len(hdr) > 0 {
		if len(vals) == maxColumns {
			return vals, false
		}
		st, k := varint(hdr)
		if k == 0 {
			return vals, false
		}
		hdr = hdr[k:]
		var size uint64
		v := value{}
		switch {
		case st == 0:
		case st <= 6:
			size = [...]uint64{0, 1, 2, 3, 4, 6, 8}[st]
			v.kind = kindInt
		case st == 7:
			size = 8
			v.kind = kindFloat
		case st == 8 || st == 9:
			v.kind, v.i = kindInt, int64(st-8)
		case st == 10 || st == 11:
			return vals, false
		default:
			size = (st - 12) / 2
			v.kind = kindBlob
			if st%2 == 1 {
				v.kind = kindText
			}
		}
		if size > uint64(len(body)) {
			return vals, false
		}
		field := body[:size]
		body = body[size:]
		switch v.kind {
		case kindInt:
			if size > 0 {
				x := int64(int8(field[0]))
				for _, c := range field[1:] {
					x = x<<8 | int64(c)
				}
				v.i = x
			}
		case kindText, kindBlob:
			v.b = field
		}
		vals = append(vals, v)
	}
	return vals, len(body) == 0
}

// A cell is one decoded b-tree cell: a row of a table (rowid set), or an
// entry of an index (for hookd, a row of a WITHOUT ROWID table).
type cell struct {
	index bool
	rowid int64
	vals  []value
	pages []uint32 // the page it was on, then its overflow pages
}

// scanner walks the b-tree pages of a database, one at a time.
type scanner struct {
	p        *pager
	page     []byte // the page being scanned
	ovf      []byte // a page of an overflow chain
	payload  []byte // a payload assembled from overflow pages
	vals     []value
	pages    []uint32
	keepPath bool // record in cell.pages where each cell came from (tests)
}

func newScanner(p *pager) *scanner {
	return &scanner{p: p, page: make([]byte, p.ps), ovf: make([]byte, p.ps)}
}

// Page kinds as scanPage reports them.
const (
	pageBtree   = iota // a b-tree page whose header reads consistently
	pageOther          // empty, an overflow page or on the freelist, as far as one can tell
	pageBad            // unreadable, or a damaged b-tree page
	pageMissing        // beyond the end of the file
)

// scanPage reads page n and calls fn for each cell of it that holds a whole
// record, returning what the page looked like and how many cells were bad.
func (sc *scanner) scanPage(n uint32, fn func(*cell)) (kind, badCells int) {
	p := sc.p
	if !p.page(n, sc.page) {
		return pageMissing, 0
	}
	data := sc.page[:p.usable]
	hdr := 0
	if n == 1 {
		hdr = 100
	}
	var hl int
	switch data[hdr] {
	case 0x0d, 0x0a: // table and index leaves
		hl = 8
	case 0x02, 0x05: // index and table interiors
		hl = 12
	default:
		return sc.otherPage(data), 0
	}
	ncell := int(binary.BigEndian.Uint16(data[hdr+3:]))
	ptrs := hdr + hl
	end := ptrs + 2*ncell
	content := int(binary.BigEndian.Uint16(data[hdr+5:]))
	if content == 0 {
		content = 65536
	}
	if end > len(data) || (ncell > 0 && (content < end || content > len(data))) || data[hdr+7] > 60 {
		return pageBad, 0
	}
	if data[hdr] == 0x05 { // rowids and child pages only: nothing to salvage
		return pageBtree, 0
	}
	for i := range ncell {
		off := int(binary.BigEndian.Uint16(data[ptrs+2*i:]))
		if off < end || off >= len(data) {
			badCells++
			continue
		}
		c, ok := sc.cell(n, data[hdr], data, off)
		if !ok {
			badCells++
			continue
		}
		fn(c)
	}
	return pageBtree, badCells
}

// otherPage tells a page that holds no b-tree from a damaged one: an empty
// page, a freelist page and an overflow page start with zeros or a page
// number within the file.
func (sc *scanner) otherPage(data []byte) int {
	if next := binary.BigEndian.Uint32(data); next <= sc.p.npages {
		return pageOther
	}
	return pageBad
}

// cell decodes the cell at off of page n, of page type typ.
func (sc *scanner) cell(n uint32, typ byte, data []byte, off int) (*cell, bool) {
	p := sc.p
	c := &cell{index: typ != 0x0d}
	if typ == 0x02 {
		off += 4 // the left child's page number
	}
	size, k := varint(data[min(off, len(data)):])
	if k == 0 || size > maxPayload {
		return nil, false
	}
	off += k
	if typ == 0x0d {
		rowid, k := varint(data[min(off, len(data)):])
		if k == 0 {
			return nil, false
		}
		c.rowid = int64(rowid)
		off += k
	}
	// How much of the payload is on this page (fileformat2, "Cell Payload
	// Overflow Pages").
	u := uint64(p.usable)
	x := u - 35
	if c.index {
		x = (u-12)*64/255 - 23
	}
	local := size
	if size > x {
		m := (u-12)*32/255 - 23
		local = m + (size-m)%(u-4)
		if local > x {
			local = m
		}
	}
	if uint64(off)+local > uint64(len(data)) {
		return nil, false
	}
	sc.pages = append(sc.pages[:0], n)
	rec := data[off : off+int(local)]
	if local < size {
		if uint64(off)+local+4 > uint64(len(data)) {
			return nil, false
		}
		first := binary.BigEndian.Uint32(data[off+int(local):])
		var ok bool
		if rec, ok = sc.overflow(rec, first, size); !ok {
			return nil, false
		}
	}
	var ok bool
	if sc.vals, ok = decodeRecord(rec, sc.vals[:0]); !ok {
		return nil, false
	}
	c.vals = sc.vals
	if sc.keepPath {
		c.pages = append([]uint32(nil), sc.pages...)
	}
	return c, true
}

// overflow assembles a payload of size bytes from its local part and the
// chain of overflow pages from first. The chain must have exactly the pages
// the size calls for, each within the file, the last ending it with 0: a
// chain broken by damage, a cycle or a page reused since loses the row.
func (sc *scanner) overflow(local []byte, first uint32, size uint64) ([]byte, bool) {
	p := sc.p
	per := uint64(p.usable - 4)
	need := size - uint64(len(local))
	if (need+per-1)/per > uint64(p.npages) {
		return nil, false
	}
	// The buffer grows with the pages actually read, not with what a
	// damaged cell claims.
	out := append(sc.payload[:0], local...)
	pg := first
	for need > 0 {
		if pg < 2 || !p.page(pg, sc.ovf) {
			return nil, false
		}
		sc.pages = append(sc.pages, pg)
		k := min(need, per)
		out = append(out, sc.ovf[4:4+k]...)
		need -= k
		pg = binary.BigEndian.Uint32(sc.ovf)
	}
	sc.payload = out[:0]
	return out, pg == 0
}

// scanAll scans every page from 1, calling fn for each cell, and counts
// pages. It stops early when stop returns true (checked at every page).
func (sc *scanner) scanAll(skip map[uint32]bool, stop func() bool, fn func(*cell)) (pages, bad int) {
	for n := uint32(1); n <= sc.p.npages; n++ {
		if stop != nil && stop() {
			break
		}
		pages++
		if skip[n] {
			continue
		}
		kind, badCells := sc.scanPage(n, fn)
		if kind == pageBad || kind == pageMissing || badCells > 0 {
			bad++
		}
	}
	return pages, bad
}
