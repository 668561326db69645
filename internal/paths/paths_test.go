package paths

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestNew(t *testing.T) {
	d := Dirs{Home: "/h", ConfigHome: "/h/.config", DataHome: "/h/.local/share", StateHome: "/h/.local/state", TempDir: "/tmp", UID: 1000}
	l := New(d)
	for _, c := range []struct{ name, got, want string }{
		{"Config", l.Config, "/h/.config/hookd/config.yaml"},
		{"DB", l.DB, "/h/.local/share/hookd/history.db"},
		{"Spool", l.Spool, "/h/.local/state/hookd/spool"},
		{"Offers", l.Offers, "/h/.local/state/hookd/fixes"},
		{"Runtime", l.Runtime, "/tmp/hookd-1000"},
		{"Trust", l.Trust, "/h/.local/share/hookd/trust"},
	} {
		if c.got != c.want {
			t.Errorf("New(%+v).%s = %q; want %q", d, c.name, c.got, c.want)
		}
	}
	d.RuntimeDir = "relative"
	if got := New(d).Runtime; got != "/tmp/hookd-1000" {
		t.Errorf("relative XDG_RUNTIME_DIR: Runtime = %q; want the temp dir's", got)
	}
	d.RuntimeDir = "/run/user/1000"
	if got := New(d).Runtime; got != "/run/user/1000/hookd" {
		t.Errorf("Runtime = %q; want /run/user/1000/hookd", got)
	}
}

func TestPrivateAndTighten(t *testing.T) {
	root := t.TempDir()
	loose := filepath.Join(root, "loose")
	if err := os.Mkdir(loose, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := Tighten(loose, filepath.Join(root, "missing")); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(loose); fi.Mode().Perm() != 0o700 {
		t.Errorf("Tighten: %s is %v; want 0700", loose, fi.Mode().Perm())
	}
	if _, err := os.Stat(filepath.Join(root, "missing")); !os.IsNotExist(err) {
		t.Errorf("Tighten made a missing directory")
	}
	p := filepath.Join(root, "a", "b")
	if err := Private(p); err != nil {
		t.Fatal(err)
	}
	os.Chmod(p, 0o750)
	if err := Private(p); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o700 {
		t.Errorf("Private: %s is %v; want 0700", p, fi.Mode().Perm())
	}
	link := filepath.Join(root, "link")
	os.Symlink(p, link)
	if err := Private(link); err == nil {
		t.Errorf("Private(symlink) = nil; want an error")
	}
}

// TestWritePrivateOnce: the file is written 0600 in a 0700 directory; the
// same data again leaves it as it was (not replaced); other data replaces
// it.
func TestWritePrivateOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d", "f")
	if err := WritePrivateOnce(path, []byte("one")); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	di, derr := os.Stat(filepath.Dir(path))
	if err != nil || derr != nil || fi.Mode().Perm() != 0o600 || di.Mode().Perm() != 0o700 {
		t.Fatalf("file %v %v in %v %v; want 0600 in 0700", fi, err, di, derr)
	}
	ino := fi.Sys().(*syscall.Stat_t).Ino
	if err := WritePrivateOnce(path, []byte("one")); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(path); fi.Sys().(*syscall.Stat_t).Ino != ino {
		t.Errorf("the same data replaced the file")
	}
	if err := WritePrivateOnce(path, []byte("two")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "two" {
		t.Errorf("file holds %q; want two", b)
	}
}
