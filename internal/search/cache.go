package search

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// The corpus cache: the corpus as a file, so that Ctrl-R on a history of a
// million commands need not read them all from SQLite each time (~1 s);
// only those added since. It holds the same command lines as the database
// (redacted as stored), 0600, and is made again from the database whenever
// commands were deleted since (history.Generation), so a forgotten command
// never comes back from it; hookd forget also removes it.

var cacheMagic = []byte("hookd-search-cache 1\n")

// loadCache reads the corpus cached at path; nil when there is none or it
// cannot be read.
func loadCache(path string) *corpus {
	data, err := os.ReadFile(path)
	if err != nil || !bytes.HasPrefix(data, cacheMagic) {
		return nil
	}
	c, err := decodeCorpus(data[len(cacheMagic):])
	if err != nil {
		return nil
	}
	return c
}

type reader struct {
	b   []byte
	err error
}

func (r *reader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = errors.New("bad cache")
		r.b = nil
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) varint() int64 {
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.err = errors.New("bad cache")
		r.b = nil
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) str() string {
	n := r.uvarint()
	if n > uint64(len(r.b)) {
		r.err = errors.New("bad cache")
		r.b = nil
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}

func (r *reader) strs() []string {
	n := r.uvarint()
	if n > uint64(len(r.b)) {
		r.err = errors.New("bad cache")
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = r.str()
	}
	return out
}

func decodeCorpus(b []byte) (*corpus, error) {
	r := &reader{b: b}
	c := newCorpus()
	c.gen.MaxID = int64(r.uvarint())
	c.gen.Forget = r.str()
	c.gen.Tag = r.str()
	texts := r.strs()
	c.cwds = r.strs()
	c.sessions = r.strs()
	n := r.uvarint()
	if r.err != nil || n > uint64(len(r.b)) {
		return nil, errors.New("bad cache")
	}
	c.texts = texts
	c.chars = make([]charsT, len(texts))
	for i, t := range texts {
		c.textOf[t] = int32(i)
		c.chars[i] = toChars(t)
	}
	for i, s := range c.cwds {
		c.cwdOf[s] = int32(i)
	}
	for i, s := range c.sessions {
		c.sessOf[s] = int32(i)
	}
	c.id = make([]int64, n)
	c.text = make([]int32, n)
	c.at = make([]int64, n)
	c.cwd = make([]int32, n)
	c.sess = make([]int32, n)
	c.exit = make([]int32, n)
	var id, at int64
	for i := range c.id {
		id += int64(r.uvarint())
		at += r.varint()
		c.id[i], c.at[i] = id, at
		c.text[i] = int32(r.uvarint())
		c.cwd[i] = int32(r.uvarint())
		c.sess[i] = int32(r.uvarint())
		c.exit[i] = int32(r.varint())
		if r.err != nil {
			return nil, r.err
		}
		if int(c.text[i]) >= len(texts) || int(c.cwd[i]) >= len(c.cwds) || int(c.sess[i]) >= len(c.sessions) {
			return nil, errors.New("bad cache")
		}
	}
	if r.err != nil {
		return nil, r.err
	}
	return c, nil
}

// saveCache writes c to path (0600, atomically).
func saveCache(path string, c *corpus) error {
	b := append([]byte{}, cacheMagic...)
	b = binary.AppendUvarint(b, uint64(c.gen.MaxID))
	str := func(s string) {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	strs := func(v []string) {
		b = binary.AppendUvarint(b, uint64(len(v)))
		for _, s := range v {
			str(s)
		}
	}
	str(c.gen.Forget)
	str(c.gen.Tag)
	strs(c.texts)
	strs(c.cwds)
	strs(c.sessions)
	b = binary.AppendUvarint(b, uint64(len(c.id)))
	var id, at int64
	for i := range c.id {
		b = binary.AppendUvarint(b, uint64(c.id[i]-id))
		b = binary.AppendVarint(b, c.at[i]-at)
		id, at = c.id[i], c.at[i]
		b = binary.AppendUvarint(b, uint64(c.text[i]))
		b = binary.AppendUvarint(b, uint64(c.cwd[i]))
		b = binary.AppendUvarint(b, uint64(c.sess[i]))
		b = binary.AppendVarint(b, int64(c.exit[i]))
	}
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
