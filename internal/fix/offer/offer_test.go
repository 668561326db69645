package offer

import (
	"os"
	"slices"
	"testing"
)

func TestWriteReadClear(t *testing.T) {
	dir := t.TempDir() + "/fixes"
	const s = "1700000000000000-42-abcd"
	if got, err := Read(dir, s); err != nil || got != nil {
		t.Fatalf("Read before Write = %q, %v; want none", got, err)
	}
	cmds := []string{"git status", "echo 'a\nb'", "ls", "fourth"}
	if err := Write(dir, s, cmds); err != nil {
		t.Fatal(err)
	}
	got, err := Read(dir, s)
	if err != nil || !slices.Equal(got, cmds[:Max]) {
		t.Fatalf("Read = %q, %v; want %q", got, err, cmds[:Max])
	}
	b, _ := os.ReadFile(Path(dir, s))
	if string(b) != "git status\x00echo 'a\nb'\x00ls\x00" {
		t.Errorf("file = %q; want NUL-terminated commands (the shell code reads this)", b)
	}
	if fi, _ := os.Stat(Path(dir, s)); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v; want 0600", fi.Mode().Perm())
	}
	if err := Clear(dir, s); err != nil {
		t.Fatal(err)
	}
	if got, _ := Read(dir, s); got != nil {
		t.Errorf("Read after Clear = %q", got)
	}
	for _, bad := range []string{"", "../x", ".hidden"} {
		if err := Write(dir, bad, cmds); err == nil {
			t.Errorf("Write(session %q) = nil; want an error", bad)
		}
	}
	if err := Write(dir, s, []string{"a\x00b"}); err == nil {
		t.Errorf("Write of a command with a NUL = nil; want an error")
	}
}

func TestClearNext(t *testing.T) {
	dir := t.TempDir()
	if err := ClearNext(dir, "s1"); err != nil {
		t.Fatalf("ClearNext with no offer: %v", err)
	}
	if err := WriteNext(dir, "s1", "echo hi"); err != nil {
		t.Fatal(err)
	}
	if err := ClearNext(dir, "s1"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(NextPath(dir, "s1")); !os.IsNotExist(err) {
		t.Errorf("the offer is still there: %v", err)
	}
	if err := ClearNext(dir, "../x"); err == nil {
		t.Errorf("ClearNext took a bad session id")
	}
}
