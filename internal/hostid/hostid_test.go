package hostid

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// TestGet: the id is made once, private, and every caller (at once, or
// later) gets the same one; a damaged file is an error, not a new id.
func TestGet(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hookd", "host-id")
	if _, err := Read(path); !os.IsNotExist(err) {
		t.Fatalf("Read before Get = %v; want not-exist", err)
	}
	ids := make([]string, 8)
	var wg sync.WaitGroup
	for i := range ids {
		wg.Add(1)
		go func() { defer wg.Done(); ids[i], _ = Get(path) }()
	}
	wg.Wait()
	for _, id := range ids {
		if id != ids[0] || !Valid(id) {
			t.Fatalf("concurrent Get gave %q", ids)
		}
	}
	if again, err := Get(path); err != nil || again != ids[0] {
		t.Errorf("Get again = %q, %v; want %q", again, err, ids[0])
	}
	fi, _ := os.Stat(path)
	di, _ := os.Stat(filepath.Dir(path))
	if fi.Mode().Perm() != 0o600 || di.Mode().Perm() != 0o700 {
		t.Errorf("modes %v %v; want 0600 in 0700", fi.Mode(), di.Mode())
	}
	os.WriteFile(path, []byte("not an id\n"), 0o600)
	if _, err := Get(path); err == nil {
		t.Error("Get on a damaged file made a new id silently")
	}
}

// TestRenew: a new id replaces the old one in the file; renewing an id the
// file no longer holds changes nothing.
func TestRenew(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hookd", "host-id")
	old, err := Get(path)
	if err != nil {
		t.Fatal(err)
	}
	id, err := Renew(path, old)
	if err != nil || id == old || !Valid(id) {
		t.Fatalf("Renew = %q, %v; want a new valid id", id, err)
	}
	if got, _ := Read(path); got != id {
		t.Errorf("file holds %q; want %q", got, id)
	}
	if again, err := Renew(path, old); err != nil || again != id {
		t.Errorf("Renew(old) again = %q, %v; want the id already there", again, err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode())
	}
}
