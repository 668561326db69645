package search

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"unsafe"

	"github.com/junegunn/fzf/src/util"
)

// The corpus cache: the corpus as a file, so that Ctrl-R on a history of a
// million commands need not read them all from SQLite each time (~2 s of
// CPU); only those added since. It holds the same command lines as the
// database (redacted as stored), 0600, and is made again from the database
// whenever commands were deleted since (history.Generation), so a forgotten
// command never comes back from it; hookd forget also removes it.
//
// The file is the corpus's arrays as they are in memory (little-endian,
// 8-byte aligned), so that reading it is one read and no decoding: the
// slices and strings of the corpus point into the file's bytes.
//
//	magic (16 bytes) | 8 × uint64: max id, runs, texts, cwds, sessions,
//	string bytes, len(forget), len(tag) | id, at: runs × int64 |
//	text, cwd, sess, exit: runs × int32 (padded to 8) | the offsets of the
//	texts, cwds, sessions: (n+1) × uint32 each (padded to 8) | the strings:
//	texts, cwds, sessions, forget, tag

var cacheMagic = [16]byte{'h', 'o', 'o', 'k', 'd', '-', 's', 'e', 'a', 'r', 'c', 'h', '-', 'c', '2', '\n'}

// littleEndian: the cache is only used where memory is little-endian.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

var errBadCache = errors.New("bad search cache")

// loadCache reads the corpus cached at path; nil when there is none or it
// cannot be read.
func loadCache(path string) *corpus {
	if !littleEndian {
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || fi.Size() < 16+64 || fi.Size() > 1<<34 {
		return nil
	}
	// []uint64 for alignment.
	words := make([]uint64, (fi.Size()+7)/8)
	data := unsafe.Slice((*byte)(unsafe.Pointer(&words[0])), len(words)*8)[:fi.Size()]
	if _, err := f.ReadAt(data, 0); err != nil {
		return nil
	}
	c, err := decodeCorpus(data)
	if err != nil {
		return nil
	}
	return c
}

func pad8(n int) int { return (n + 7) &^ 7 }

// decodeCorpus makes a corpus whose arrays and strings point into data
// (8-byte aligned).
func decodeCorpus(data []byte) (*corpus, error) {
	if len(data) < 16+64 || [16]byte(data[:16]) != cacheMagic {
		return nil, errBadCache
	}
	h := unsafe.Slice((*uint64)(unsafe.Pointer(&data[16])), 8)
	maxID, nr, nt, nc, ns, sb, fl, tl := int64(h[0]), h[1], h[2], h[3], h[4], h[5], h[6], h[7]
	const huge = 1 << 31
	if nr > huge || nt > huge || nc > huge || ns > huge || sb > 1<<34 || fl > sb || tl > sb {
		return nil, errBadCache
	}
	off := 16 + 64
	take := func(n int) (int, bool) {
		at := off
		off += pad8(n)
		return at, off <= len(data)
	}
	i64 := func(n uint64) []int64 {
		at, ok := take(int(n) * 8)
		if !ok || n == 0 {
			return nil
		}
		return unsafe.Slice((*int64)(unsafe.Pointer(&data[at])), n)
	}
	i32 := func(n uint64) []int32 {
		at, ok := take(int(n) * 4)
		if !ok || n == 0 {
			return nil
		}
		return unsafe.Slice((*int32)(unsafe.Pointer(&data[at])), n)
	}
	u32 := func(n uint64) []uint32 {
		at, ok := take(int(n) * 4)
		if !ok {
			return nil
		}
		return unsafe.Slice((*uint32)(unsafe.Pointer(&data[at])), n)
	}
	c := newCorpus()
	c.id, c.at = i64(nr), i64(nr)
	c.text, c.cwd, c.sess, c.exit = i32(nr), i32(nr), i32(nr), i32(nr)
	to, co, so := u32(nt+1), u32(nc+1), u32(ns+1)
	if off+int(sb) > len(data) || to == nil || co == nil || so == nil {
		return nil, errBadCache
	}
	blob := data[off : off+int(sb)]
	str := func(offs []uint32, i int) (string, bool) {
		a, b := offs[i], offs[i+1]
		if a > b || int(b) > len(blob) {
			return "", false
		}
		if a == b {
			return "", true
		}
		return unsafe.String(&blob[a], b-a), true
	}
	strs := func(offs []uint32, n uint64) ([]string, bool) {
		out := make([]string, n)
		for i := range out {
			s, ok := str(offs, i)
			if !ok {
				return nil, false
			}
			out[i] = s
		}
		return out, true
	}
	var ok1, ok2, ok3 bool
	c.texts, ok1 = strs(to, nt)
	c.cwds, ok2 = strs(co, nc)
	c.sessions, ok3 = strs(so, ns)
	end := int(so[ns])
	if !ok1 || !ok2 || !ok3 || end+int(fl+tl) > len(blob) {
		return nil, errBadCache
	}
	c.gen.MaxID = maxID
	c.gen.Forget = string(blob[end : end+int(fl)])
	c.gen.Tag = string(blob[end+int(fl) : end+int(fl+tl)])
	for r := range c.id {
		if uint64(c.text[r]) >= nt || uint64(c.cwd[r]) >= nc || uint64(c.sess[r]) >= ns {
			return nil, errBadCache
		}
	}
	// fzf's matcher reads the texts' bytes where they are (a text
	// beyond ASCII is decoded into runes).
	c.chars = make([]charsT, nt)
	for i := range c.texts {
		c.chars[i] = util.ToChars(blob[to[i]:to[i+1]])
	}
	c.textOf = nil // made when first needed (textIndex)
	for i, d := range c.cwds {
		c.cwdOf[d] = int32(i)
	}
	for i, id := range c.sessions {
		c.sessOf[id] = int32(i)
	}
	return c, nil
}

// saveCache writes c to path (0600, atomically).
func saveCache(path string, c *corpus) error {
	if !littleEndian {
		return nil
	}
	nr := len(c.id)
	var blob []byte
	offsets := func(v []string) []uint32 {
		o := make([]uint32, 0, len(v)+1)
		for _, s := range v {
			o = append(o, uint32(len(blob)))
			blob = append(blob, s...)
		}
		return append(o, uint32(len(blob)))
	}
	to, co, so := offsets(c.texts), offsets(c.cwds), offsets(c.sessions)
	blob = append(blob, c.gen.Forget...)
	blob = append(blob, c.gen.Tag...)
	if len(blob) > 1<<32-1 {
		return errors.New("search cache: too large")
	}
	b := make([]byte, 0, 80+pad8(nr*8)*2+pad8(nr*4)*4+pad8(4*(len(to)+len(co)+len(so)))+len(blob)+24)
	b = append(b, cacheMagic[:]...)
	for _, v := range []uint64{uint64(c.gen.MaxID), uint64(nr), uint64(len(c.texts)), uint64(len(c.cwds)), uint64(len(c.sessions)),
		uint64(len(blob)), uint64(len(c.gen.Forget)), uint64(len(c.gen.Tag))} {
		b = binary.LittleEndian.AppendUint64(b, v)
	}
	pad := func() {
		for len(b)%8 != 0 {
			b = append(b, 0)
		}
	}
	for _, a := range [][]int64{c.id, c.at} {
		for _, v := range a {
			b = binary.LittleEndian.AppendUint64(b, uint64(v))
		}
		pad()
	}
	for _, a := range [][]int32{c.text, c.cwd, c.sess, c.exit} {
		for _, v := range a {
			b = binary.LittleEndian.AppendUint32(b, uint32(v))
		}
		pad()
	}
	for _, a := range [][]uint32{to, co, so} {
		for _, v := range a {
			b = binary.LittleEndian.AppendUint32(b, v)
		}
		pad()
	}
	b = append(b, blob...)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("search cache: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".search-cache-*")
	if err != nil {
		return fmt.Errorf("search cache: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return fmt.Errorf("search cache: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("search cache: %w", err)
	}
	return os.Rename(tmp.Name(), path)
}

// RemoveCache deletes the corpus cache at path (hookd forget does, so that
// no copy of a forgotten command is left in it).
func RemoveCache(path string) error {
	err := os.Remove(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	return err
}
