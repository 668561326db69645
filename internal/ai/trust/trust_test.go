package trust

import (
	"os"
	"path/filepath"
	"testing"
)

func TestLifecycle(t *testing.T) {
	root := t.TempDir()
	s := Store{Dir: filepath.Join(root, "data", "trust")}
	file := filepath.Join(root, "proj", ".hookd.yml")
	os.MkdirAll(filepath.Dir(file), 0o755)
	write := func(content string) {
		if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("ask: {}\n")
	steps := []struct {
		name string
		do   func() error
		want State
	}{
		{"new file", nil, Untrusted},
		{"allowed", func() error { return s.Allow(file) }, Allowed},
		{"edited", func() error { write("ask: {context_commands: [{command: id}]}\n"); return nil }, Changed},
		{"allowed again", func() error { return s.Allow(file) }, Allowed},
		{"denied", func() error { return s.Deny(file) }, Denied},
		{"edited while denied", func() error { write("ask: {}\n"); return nil }, Denied},
		{"allowed after deny", func() error { return s.Allow(file) }, Allowed},
		{"edited back to what was once allowed", func() error { write("ask: {context_commands: [{command: id}]}\n"); return nil }, Changed},
	}
	for _, st := range steps {
		if st.do != nil {
			if err := st.do(); err != nil {
				t.Fatalf("%s: %v", st.name, err)
			}
		}
		got, err := s.Check(file)
		if err != nil || got != st.want {
			t.Errorf("%s: Check = %v, %v; want %v", st.name, got, err, st.want)
		}
	}
	fi, err := os.Stat(s.Dir)
	if err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("store dir: %v %v; want 0700", fi.Mode(), err)
	}
	des, _ := os.ReadDir(s.Dir)
	if len(des) != 1 {
		t.Errorf("%d records for one file; want 1", len(des))
	}
	for _, de := range des {
		fi, _ := de.Info()
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("record %s: mode %v; want 0600", de.Name(), fi.Mode())
		}
	}
}

func TestSymlinkAndCopies(t *testing.T) {
	root := t.TempDir()
	s := Store{Dir: filepath.Join(root, "trust")}
	real := filepath.Join(root, "real")
	os.MkdirAll(real, 0o755)
	file := filepath.Join(real, ".hookd.yml")
	os.WriteFile(file, []byte("ask: {}\n"), 0o644)
	link := filepath.Join(root, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	// Allowed through a symlinked directory, and by a relative path: the
	// same file.
	if err := s.Allow(filepath.Join(link, ".hookd.yml")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(real)
	for _, p := range []string{file, ".hookd.yml", filepath.Join(link, ".", ".hookd.yml")} {
		if st, err := s.Check(p); st != Allowed || err != nil {
			t.Errorf("Check(%s) = %v, %v; want allowed", p, st, err)
		}
	}
	// The same content in another place is not trusted.
	other := filepath.Join(root, "other.yml")
	os.WriteFile(other, []byte("ask: {}\n"), 0o644)
	if st, _ := s.Check(other); st != Untrusted {
		t.Errorf("a copy elsewhere: %v; want untrusted", st)
	}
	if _, err := s.Check(filepath.Join(root, "missing.yml")); err == nil {
		t.Error("Check of a missing file: no error")
	}
}

func TestList(t *testing.T) {
	root := t.TempDir()
	s := Store{Dir: filepath.Join(root, "trust")}
	if es, err := s.List(); err != nil || len(es) != 0 {
		t.Fatalf("empty store: %v %v", es, err)
	}
	files := map[string]string{"a.yml": "a", "b.yml": "b", "c.yml": "c", "d.yml": "d"}
	for name, content := range files {
		os.WriteFile(filepath.Join(root, name), []byte(content), 0o644)
	}
	p := func(name string) string { return filepath.Join(root, name) }
	s.Allow(p("a.yml"))
	s.Allow(p("b.yml"))
	os.WriteFile(p("b.yml"), []byte("edited"), 0o644)
	s.Deny(p("c.yml"))
	s.Allow(p("d.yml"))
	os.Remove(p("d.yml"))
	es, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	want := []Entry{{Path: p("a.yml"), State: Allowed}, {Path: p("b.yml"), State: Changed},
		{Path: p("c.yml"), State: Denied}, {Path: p("d.yml"), State: Allowed, Missing: true}}
	if len(es) != len(want) {
		t.Fatalf("List = %+v", es)
	}
	for i, e := range es {
		w := want[i]
		if e.Path != w.Path || e.State != w.State || e.Missing != w.Missing || e.At.IsZero() {
			t.Errorf("List[%d] = %+v; want %+v", i, e, w)
		}
	}
}

func TestStateString(t *testing.T) {
	for st, want := range map[State]string{Untrusted: "untrusted", Allowed: "allowed", Changed: "changed", Denied: "denied"} {
		if st.String() != want {
			t.Errorf("%d.String() = %q", st, st.String())
		}
	}
}
