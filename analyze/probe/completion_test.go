package probe

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestCompletionCache: a tool's vocabulary is read from its bash and zsh
// completion files, kept per tool in a 0600 file of a 0700 directory, read
// back from there while nothing changed, and read again when a completion
// file or the tool's program (its version) changes.
func TestCompletionCache(t *testing.T) {
	dir := t.TempDir()
	bashDir, zshDir, bin, cache := filepath.Join(dir, "bash"), filepath.Join(dir, "zsh"), filepath.Join(dir, "bin"), filepath.Join(dir, "state", "vocab")
	write(t, filepath.Join(bashDir, "frob"), "COMPREPLY=($(compgen -W 'start stop' -- \"$cur\"))\n", 0o644)
	write(t, filepath.Join(zshDir, "_frob"), "_arguments '(-s --signal)'{-s,--signal}'[signal]'\n", 0o644)
	write(t, filepath.Join(bin, "frob"), "#!/bin/sh\n", 0o755)
	opts := Options{Path: bin, VocabDir: cache, BashCompletions: bashDir, ZshDirs: []string{zshDir}}
	get := func() []string {
		v := New(opts).Completion(t.Context(), "frob")
		return append(append([]string{}, v.Options...), v.Commands...)
	}
	if got, want := get(), []string{"--signal", "start", "stop"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("Completion = %v; want %v", got, want)
	}
	fi, err := os.Stat(filepath.Join(cache, "frob"))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("cache file: %v, %v", fi, err)
	}
	if di, err := os.Stat(cache); err != nil || di.Mode().Perm() != 0o700 {
		t.Fatalf("cache dir: %v, %v", di, err)
	}
	// The cache answers: its content stands while the stamp holds.
	b, _ := os.ReadFile(filepath.Join(cache, "frob"))
	os.WriteFile(filepath.Join(cache, "frob"), []byte(strings.Replace(string(b), "c stop", "c cached", 1)), 0o600)
	if got := get(); !reflect.DeepEqual(got, []string{"--signal", "start", "cached"}) {
		t.Errorf("from the cache: %v", got)
	}
	// A new version of the program: read again.
	later := time.Now().Add(time.Minute)
	os.Chtimes(filepath.Join(bin, "frob"), later, later)
	if got := get(); !reflect.DeepEqual(got, []string{"--signal", "start", "stop"}) {
		t.Errorf("after the program changed: %v", got)
	}
	// A completion file changed: read again.
	write(t, filepath.Join(bashDir, "frob"), "COMPREPLY=($(compgen -W 'start halted' -- \"$cur\"))\n", 0o644)
	if got := get(); !reflect.DeepEqual(got, []string{"--signal", "start", "halted"}) {
		t.Errorf("after the completion file changed: %v", got)
	}
	// No completion file: nothing, and no cache file for a hostile name.
	if v := New(opts).Completion(t.Context(), "../frob"); len(v.Options)+len(v.Commands) != 0 {
		t.Errorf("../frob: %v", v)
	}
}
