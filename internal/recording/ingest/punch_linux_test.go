package ingest_test

import (
	"os"
	"syscall"
	"testing"
)

// punchSupported reports whether the file system under dir can punch holes.
func punchSupported(t *testing.T, dir string) bool {
	f, err := os.CreateTemp(dir, "punch-probe")
	if err != nil {
		t.Fatal(err)
	}
	defer os.Remove(f.Name())
	defer f.Close()
	if _, err := f.Write(make([]byte, 64<<10)); err != nil {
		t.Fatal(err)
	}
	const punchHole, keepSize = 0x02, 0x01
	return syscall.Fallocate(int(f.Fd()), punchHole|keepSize, 0, 8192) == nil
}
