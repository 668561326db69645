package outbox

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
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
	paths, err := List(dir)
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
	Sweep(dir, func(os.FileInfo) bool { return true })
	if _, err := os.Stat(filepath.Join(dir, ".tmp-123")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Sweep left the temporary file: %v", err)
	}
	if paths, _ := List(dir); len(paths) != 3 {
		t.Errorf("Sweep removed items: %v", paths)
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
	if paths, _ := List(dir); len(paths) != 0 {
		t.Errorf("rejected items left files: %v", paths)
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
	if _, err := List(filepath.Join(dir, "missing")); err != nil {
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
