package outbox

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

func TestWriteReadList(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "outputs")
	items := []Item{
		{Session: "1700-42-7", Seq: 2, Status: 1, Size: 5, Time: 99, Raw: []byte("oops\n")},
		{Session: "1700-42-7", Seq: 1, Stream: Stderr, Size: 0, Raw: []byte{}},
		{Session: "1700-42-7", Seq: 1, Stream: Stdout, Size: 3, Raw: []byte("\x00\xff\n")},
	}
	for _, it := range items {
		p, err := Write(dir, it)
		if err != nil {
			t.Fatalf("Write: %v", err)
		}
		if p != Path(dir, it.Session, it.Seq, it.Stream) {
			t.Errorf("Write path %s; Path says %s", p, Path(dir, it.Session, it.Seq, it.Stream))
		}
		fi, err := os.Stat(p)
		if err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v, %v; want 0600", p, fi.Mode(), err)
		}
	}
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("dir mode %v, %v; want 0700", fi.Mode(), err)
	}
	// A writer that died leaves a temporary file: not listed.
	if err := os.WriteFile(filepath.Join(dir, ".tmp-123"), []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := Scan(dir)
	paths := l.Items
	if err != nil || len(paths) != 3 {
		t.Fatalf("List = %v, %v; want 3 items", paths, err)
	}
	for _, p := range paths {
		it, err := Read(p)
		if err != nil {
			t.Fatalf("Read %s: %v", p, err)
		}
		var want Item
		for _, w := range items {
			if Path(dir, w.Session, w.Seq, w.Stream) == p {
				want = w
			}
		}
		if !reflect.DeepEqual(it, want) && !(len(it.Raw) == 0 && len(want.Raw) == 0) {
			t.Errorf("Read %s = %+v; want %+v", p, it, want)
		}
	}
	// Writing the same output again replaces it.
	again := items[0]
	again.Raw = []byte("second\n")
	if _, err := Write(dir, again); err != nil {
		t.Fatal(err)
	}
	it, err := Read(Path(dir, again.Session, again.Seq, again.Stream))
	if err != nil || !bytes.Equal(it.Raw, again.Raw) {
		t.Errorf("after rewrite: %q, %v", it.Raw, err)
	}
	l, _ = Scan(dir)
	l.RemoveStale(time.Now().Add(time.Hour), time.Minute)
	if _, err := os.Stat(filepath.Join(dir, ".tmp-123")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Sweep left the temporary file: %v", err)
	}
	if l, _ := Scan(dir); len(l.Items) != 3 {
		t.Errorf("RemoveStale removed items: %v", l.Items)
	}
}

func TestWriteRejects(t *testing.T) {
	dir := t.TempDir()
	for _, it := range []Item{
		{Session: "", Seq: 1},
		{Session: "../x", Seq: 1},
		{Session: "a.b", Seq: 1},
		{Session: "s", Seq: 0},
		{Session: "s", Seq: 1, Stream: "both"},
	} {
		if _, err := Write(dir, it); err == nil {
			t.Errorf("Write(%+v) succeeded", it)
		}
	}
	if l, _ := Scan(dir); len(l.Items) != 0 {
		t.Errorf("rejected items left files: %v", l.Items)
	}
}

func TestReadBad(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string]string{
		"a.1.term.out": "no header",
		"b.1.term.out": "{\"session\":\"b\",\"seq\":1,\"evil\":1}\nx",
		"c.1.term.out": "{\"session\":\"c\",\"seq\":0}\nx",
		"d.1.term.out": "{\"session\":\"d\",\"seq\":1} {}\nx",
	} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(data), 0o600)
		if _, err := Read(p); !errors.Is(err, ErrBad) {
			t.Errorf("Read(%q) error = %v; want ErrBad", data, err)
		}
	}
	if _, err := Scan(filepath.Join(dir, "missing")); err != nil {
		t.Errorf("List of a missing dir: %v", err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("{\"session\":\"s\",\"seq\":1}\nhello"))
	f.Add([]byte("\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		it, err := parse(data, "x")
		if err == nil && it.valid() != nil {
			t.Fatalf("parse accepted an invalid item %+v", it)
		}
	})
}

func TestStream(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "outputs")
	s, err := OpenStream(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []Item{
		{Session: "1-2-3", Seq: 1, Size: 6, Raw: []byte("hello\n")},
		{Session: "1-2-3", Seq: 2, Raw: []byte{}},
		{Session: "1-2-3", Seq: 3, Size: 3, Raw: []byte("a\nb")},
	}
	for _, it := range want {
		if err := s.Append(it); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	l, err := Scan(dir)
	streams := l.Streams
	if err != nil || len(streams) != 1 {
		t.Fatalf("Scan streams = %v, %v", streams, err)
	}
	if len(l.Items) != 0 {
		t.Errorf("Scan lists streams as items: %v", l.Items)
	}
	for path, size := range streams {
		if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
			t.Errorf("stream mode %v", fi.Mode())
		}
		data, _ := os.ReadFile(path)
		if int64(len(data)) != size {
			t.Fatalf("size %d; file has %d", size, len(data))
		}
		// Every cut decodes the complete items before it, and no more.
		for cut := 0; cut <= len(data); cut++ {
			items, n, err := DecodeStream(data[:cut])
			if err != nil {
				t.Fatalf("cut %d: %v", cut, err)
			}
			if n > cut || len(items) > len(want) {
				t.Fatalf("cut %d: %d items, %d bytes", cut, len(items), n)
			}
			for i, it := range items {
				if it.Seq != want[i].Seq || !bytes.Equal(it.Raw, want[i].Raw) || it.Size != want[i].Size {
					t.Fatalf("cut %d: item %d = %+v; want %+v", cut, i, it, want[i])
				}
			}
		}
		items, n, _ := DecodeStream(data)
		if len(items) != 3 || n != len(data) {
			t.Errorf("whole stream: %d items, %d of %d bytes", len(items), n, len(data))
		}
		if _, _, err := DecodeStream(append([]byte("garbage\n"), data...)); !errors.Is(err, ErrBad) {
			t.Errorf("garbage: %v; want ErrBad", err)
		}
	}
}

func FuzzDecodeStream(f *testing.F) {
	f.Add([]byte("{\"session\":\"s\",\"seq\":1,\"len\":2}\nhi"))
	f.Fuzz(func(t *testing.T, data []byte) {
		items, n, _ := DecodeStream(data)
		if n < 0 || n > len(data) {
			t.Fatalf("n = %d of %d", n, len(data))
		}
		for _, it := range items {
			if it.valid() != nil {
				t.Fatalf("invalid item %+v", it)
			}
		}
	})
}
