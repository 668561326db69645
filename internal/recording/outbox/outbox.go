// Package outbox hands captured command outputs from the processes that
// capture them (hookd shell, hookd run) to the daemon that stores them.
//
// Each output is one file in the outbox directory, written whole under a
// temporary name and renamed into place, so a reader never sees half of
// one. The file is a one-line JSON header followed by the output's raw
// bytes (at most the capture limit: the capturer keeps head and tail of a
// larger output). The daemon renders, redacts and stores an item, commits,
// and only then removes the file: an item is stored at least once, and
// storing it twice replaces the first copy with the same bytes.
//
// Files are 0600 in a 0700 directory: until the daemon has redacted them
// they hold the output exactly as the command wrote it.
package outbox

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/hookd/hookd/internal/recording/spool"
)

// Suffix ends the name of every complete item.
const Suffix = ".out"

// Streams of an output.
const (
	// Terminal is the output as the terminal showed it, stdout and stderr
	// interleaved.
	Terminal = ""
	Stdout   = "stdout"
	Stderr   = "stderr"
)

// Item is one captured output.
type Item struct {
	// Session and Seq name the history row the output belongs to.
	Session string `json:"session"`
	Seq     int64  `json:"seq"`
	// Stream is Terminal, Stdout or Stderr.
	Stream string `json:"stream,omitempty"`
	// Status is the command's exit status.
	Status int `json:"status"`
	// Size is how many bytes the command wrote, kept or not.
	Size int64 `json:"size"`
	// Time is when the output ended, in microseconds since the epoch.
	Time int64 `json:"time"`
	// Raw holds the kept bytes, as the command wrote them.
	Raw []byte `json:"-"`
	// Len is the length of Raw, in a stream's headers only.
	Len int `json:"len,omitempty"`
	// Withheld: the command printed a secret (hookd's recovery phrase);
	// Raw is empty and the output is not kept (see capture.WithholdMark).
	Withheld bool `json:"withheld,omitempty"`
	// Recorded: the output reached no terminal (a coding agent's, as its
	// tool gave it), so that escape sequences in it switched no screen.
	Recorded bool `json:"recorded,omitempty"`
}

// name returns the file name of an item: session, sequence number and
// stream, so that a second capture of the same output replaces the first.
func (it Item) name() string {
	s := it.Stream
	if s == Terminal {
		s = "term"
	}
	return it.Session + "." + strconv.FormatInt(it.Seq, 10) + "." + s + Suffix
}

// valid reports whether the item can be written: a session id that is safe
// in a file name, a positive sequence number, a known stream.
func (it Item) valid() error {
	if it.Session == "" || len(it.Session) > 128 || strings.ContainsAny(it.Session, "/.\x00") {
		return fmt.Errorf("outbox: bad session id %q", it.Session)
	}
	if it.Seq < 1 {
		return fmt.Errorf("outbox: bad sequence number %d", it.Seq)
	}
	switch it.Stream {
	case Terminal, Stdout, Stderr:
	default:
		return fmt.Errorf("outbox: unknown stream %q", it.Stream)
	}
	return nil
}

// Write puts it into the outbox directory dir (created 0700 if missing) and
// returns the file's path.
func Write(dir string, it Item) (string, error) {
	if err := it.valid(); err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("outbox: %w", err)
	}
	hdr, err := json.Marshal(it)
	if err != nil {
		return "", fmt.Errorf("outbox: %w", err)
	}
	f, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return "", fmt.Errorf("outbox: %w", err)
	}
	tmp := f.Name()
	ok := false
	defer func() {
		if !ok {
			f.Close()
			os.Remove(tmp)
		}
	}()
	w := bufio.NewWriterSize(f, 64<<10)
	w.Write(hdr)
	w.WriteByte('\n')
	w.Write(it.Raw)
	if err := w.Flush(); err != nil {
		return "", fmt.Errorf("outbox: write %s: %w", it.name(), err)
	}
	if err := f.Close(); err != nil {
		return "", fmt.Errorf("outbox: write %s: %w", it.name(), err)
	}
	path := filepath.Join(dir, it.name())
	if err := os.Rename(tmp, path); err != nil {
		return "", fmt.Errorf("outbox: %w", err)
	}
	ok = true
	return path, nil
}

// ErrBad reports a file in the outbox that is not an item.
var ErrBad = errors.New("not an outbox item")

// Read reads the item in the file at path.
func Read(path string) (Item, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Item{}, fmt.Errorf("outbox: %w", err)
	}
	return parse(data, filepath.Base(path))
}

func parse(data []byte, name string) (Item, error) {
	i := bytes.IndexByte(data, '\n')
	if i < 0 {
		return Item{}, fmt.Errorf("outbox: %s: no header: %w", name, ErrBad)
	}
	var it Item
	dec := json.NewDecoder(bytes.NewReader(data[:i]))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&it); err != nil {
		return Item{}, fmt.Errorf("outbox: %s: header: %v: %w", name, err, ErrBad)
	}
	if err := it.valid(); err != nil {
		return Item{}, fmt.Errorf("%v: %w", err, ErrBad)
	}
	if _, err := dec.Token(); err != io.EOF {
		return Item{}, fmt.Errorf("outbox: %s: trailing header data: %w", name, ErrBad)
	}
	it.Raw = data[i+1:]
	return it, nil
}

// Path returns where the item for session, seq and stream is (or would be)
// in dir.
func Path(dir, session string, seq int64, stream string) string {
	return filepath.Join(dir, Item{Session: session, Seq: seq, Stream: stream}.name())
}

// Listing is what an outbox directory holds, read once.
type Listing struct {
	// Items are the paths of the complete items, in name order.
	Items []string
	// Streams are the paths of the streams, with their sizes then.
	Streams map[string]int64
	// temps are the temporary files of writers (still writing, or dead).
	temps []os.DirEntry
	dir   string
}

// Scan lists the outbox directory dir (a missing one holds nothing).
func Scan(dir string) (Listing, error) {
	l := Listing{dir: dir, Streams: map[string]int64{}}
	ents, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return l, nil
	}
	if err != nil {
		return l, fmt.Errorf("outbox: %w", err)
	}
	for _, e := range ents {
		n := e.Name()
		switch {
		case !e.Type().IsRegular():
		case strings.HasPrefix(n, ".tmp-"):
			l.temps = append(l.temps, e)
		case strings.HasSuffix(n, Suffix):
			l.Items = append(l.Items, filepath.Join(dir, n))
		case strings.HasSuffix(n, StreamSuffix):
			if fi, err := e.Info(); err == nil {
				l.Streams[filepath.Join(dir, n)] = fi.Size()
			}
		}
	}
	sort.Strings(l.Items)
	return l, nil
}

// RemoveStale removes the temporary files listed that are older than age:
// what a writer that died mid-write left behind.
func (l Listing) RemoveStale(now time.Time, age time.Duration) {
	for _, e := range l.temps {
		if fi, err := e.Info(); err == nil && now.Sub(fi.ModTime()) > age {
			os.Remove(filepath.Join(l.dir, e.Name()))
		}
	}
}

// StreamSuffix ends the name of an output stream: the file one proxy
// appends the outputs of successful commands to, one item after another,
// rather than creating a file per output (a file costs a directory entry
// created and removed per command, a stream one write). The name before
// the suffix is "<µs>-<pid>-<random>", as a session id, so that the daemon
// can tell when its writer has ended.
const StreamSuffix = ".outs"

// Stream is an output stream open for appending.
type Stream struct {
	f   *os.File
	buf []byte
	bad bool // a write failed: the stream may end in a partial item
}

// OpenStream creates a new stream in dir (created 0700 if missing).
func OpenStream(dir string) (*Stream, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("outbox: %w", err)
	}
	name := spool.NewSessionID(time.Now(), os.Getpid()) + StreamSuffix
	f, err := os.OpenFile(filepath.Join(dir, name), os.O_WRONLY|os.O_APPEND|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("outbox: %w", err)
	}
	return &Stream{f: f}, nil
}

// Append adds it to the stream in one write. After a failed write (a full
// disk) the stream is not used again: the caller opens a new one.
func (s *Stream) Append(it Item) error {
	if err := it.valid(); err != nil {
		return err
	}
	if s.bad {
		return fmt.Errorf("outbox: stream %s is broken", filepath.Base(s.f.Name()))
	}
	it.Len = len(it.Raw)
	hdr, err := json.Marshal(it)
	if err != nil {
		return fmt.Errorf("outbox: %w", err)
	}
	s.buf = append(append(append(s.buf[:0], hdr...), '\n'), it.Raw...)
	if _, err := s.f.Write(s.buf); err != nil {
		s.bad = true
		return fmt.Errorf("outbox: %w", err)
	}
	if cap(s.buf) > 4<<20 {
		s.buf = nil // a large output's buffer is not kept
	}
	return nil
}

// Broken reports whether a write failed.
func (s *Stream) Broken() bool { return s.bad }

// Close closes the stream.
func (s *Stream) Close() error { return s.f.Close() }

// DecodeStream decodes the complete items at the start of buf and returns
// them and the bytes they took. An item cut off by the end of buf is left
// for later; a malformed one is an error wrapping ErrBad (the bytes after
// it cannot be trusted).
func DecodeStream(buf []byte) ([]Item, int, error) {
	var items []Item
	n := 0
	for n < len(buf) {
		i := bytes.IndexByte(buf[n:], '\n')
		if i < 0 {
			if len(buf)-n > 4096 {
				return items, n, fmt.Errorf("outbox: stream header too long at offset %d: %w", n, ErrBad)
			}
			break
		}
		var it Item
		dec := json.NewDecoder(bytes.NewReader(buf[n : n+i]))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&it); err != nil {
			return items, n, fmt.Errorf("outbox: stream item at offset %d: %v: %w", n, err, ErrBad)
		}
		if err := it.valid(); err != nil || it.Len < 0 {
			return items, n, fmt.Errorf("outbox: stream item at offset %d: bad header: %w", n, ErrBad)
		}
		end := n + i + 1 + it.Len
		if end > len(buf) {
			break
		}
		it.Raw = buf[n+i+1 : end]
		it.Len = 0
		items = append(items, it)
		n = end
	}
	return items, n, nil
}
