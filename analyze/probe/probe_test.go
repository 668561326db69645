package probe

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/shelltest"

	"github.com/hookd/hookd/internal/required"
)

func write(t *testing.T, path, data string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), mode); err != nil {
		t.Fatal(err)
	}
}

func TestPath(t *testing.T) {
	bin := t.TempDir()
	write(t, filepath.Join(bin, "tool"), "#!/bin/sh\n", 0o755)
	write(t, filepath.Join(bin, "data"), "x", 0o644)
	p := New(Options{Path: bin + ":relative:" + filepath.Join(bin, "missing")})
	ctx := t.Context()
	if !p.LookPath(ctx, "tool") {
		t.Error("LookPath(tool) = false; want true")
	}
	if p.LookPath(ctx, "data") {
		t.Error("LookPath(data) = true for a file without execute permission")
	}
	if p.LookPath(ctx, "nope") || p.LookPath(ctx, "../tool") {
		t.Error("LookPath found what is not there")
	}
	if got, want := p.Executables(ctx), []string{"data", "tool"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Executables() = %v; want %v", got, want)
	}
}

func TestFiles(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "run.sh"), "#!/bin/sh\necho hi\n", 0o755)
	write(t, filepath.Join(dir, "src", "main.go"), "package main\n", 0o644)
	if err := os.Symlink("src", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	p := New(Options{})
	ctx := t.Context()
	es, err := p.ReadDir(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name)
		switch e.Name {
		case "run.sh":
			if !e.Exec || e.Dir {
				t.Errorf("run.sh = %+v; want an executable file", e)
			}
		case "link":
			if !e.Dir || !e.Symlink {
				t.Errorf("link = %+v; want a symbolic link to a directory", e)
			}
		}
	}
	if want := []string{"link", "run.sh", "src"}; !reflect.DeepEqual(names, want) {
		t.Errorf("ReadDir names = %v; want %v", names, want)
	}
	if _, err := p.ReadDir(ctx, filepath.Join(dir, "nope")); err == nil {
		t.Error("ReadDir of a missing directory succeeded")
	}
	if e, err := p.Stat(ctx, filepath.Join(dir, "src")); err != nil || !e.Dir {
		t.Errorf("Stat(src) = %+v, %v; want a directory", e, err)
	}
	head, err := p.ReadHead(ctx, filepath.Join(dir, "run.sh"), 9)
	if err != nil || string(head) != "#!/bin/sh" {
		t.Errorf("ReadHead = %q, %v; want the #! line", head, err)
	}
	if _, err := p.ReadHead(ctx, filepath.Join(dir, "src"), 9); err == nil {
		t.Error("ReadHead of a directory succeeded")
	}
}

func TestProjectFiles(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "package.json"), `{"name":"x","scripts":{"test":"node --test","build":"tsc","dev":"vite"}}`, 0o644)
	write(t, filepath.Join(dir, "Makefile"), "VAR := 1\nall: build\n\nbuild test: dep\n\tgo build\n%.o: %.c\n\tcc\n.PHONY: all build\ninstall::\n\tcp\n", 0o644)
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	p := New(Options{})
	ctx := t.Context()
	if got, err := p.PackageScripts(ctx, sub); err != nil || !reflect.DeepEqual(got, []string{"build", "dev", "test"}) {
		t.Errorf("PackageScripts(sub) = %v, %v; want the scripts of the parent's package.json", got, err)
	}
	if got, err := p.MakeTargets(ctx, dir); err != nil || !reflect.DeepEqual(got, []string{"all", "build", "install", "test"}) {
		t.Errorf("MakeTargets = %v, %v", got, err)
	}
	if _, err := p.MakeTargets(ctx, sub); err == nil {
		t.Error("MakeTargets found a makefile where there is none")
	}
	write(t, filepath.Join(sub, "package.json"), "{not json", 0o644)
	if _, err := New(Options{}).PackageScripts(ctx, sub); err == nil {
		t.Error("PackageScripts accepted a broken package.json")
	}
}

func TestGit(t *testing.T) {
	git := required.Tool(t, "git")
	dir := t.TempDir()
	env := append(os.Environ(), "HOME="+dir, "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@b", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@b")
	for _, args := range [][]string{
		{"init", "-q", "-b", "main"},
		{"commit", "-q", "--allow-empty", "-m", "x"},
		{"branch", "develop"},
		{"checkout", "-q", "-b", "feature"},
		{"remote", "add", "origin", "https://example.com/x.git"},
	} {
		cmd := exec.CommandContext(t.Context(), git, args...)
		cmd.Dir, cmd.Env = dir, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	sub := filepath.Join(dir, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	p := New(Options{})
	g, err := p.Git(t.Context(), sub)
	if err != nil {
		t.Fatal(err)
	}
	if g.Branch != "feature" || g.Detached || !reflect.DeepEqual(g.Branches, []string{"develop", "feature", "main"}) || !reflect.DeepEqual(g.Remotes, []string{"origin"}) {
		t.Errorf("Git = %+v", g)
	}
	if _, err := p.Git(t.Context(), t.TempDir()); err == nil {
		t.Error("Git outside a repository succeeded")
	}
}

func TestListeningPort(t *testing.T) {
	if _, err := os.Stat("/proc/net/tcp"); err != nil {
		required.Cannot(t, "no /proc/net/tcp: not Linux, or /proc is not mounted")
	}
	l, port := listenLocal(t)
	defer l.Close()
	p := New(Options{Timeout: shelltest.Scale(30 * time.Second)}) // only bounds a hang
	got, ok := p.ListeningPort(t.Context(), port)
	if !ok {
		t.Fatalf("ListeningPort(%d) = false; want true", port)
	}
	if got.PID != os.Getpid() {
		t.Errorf("ListeningPort(%d) = %+v; want this process, %d", port, got, os.Getpid())
	}
	if _, ok := p.ListeningPort(t.Context(), 1); ok {
		t.Error("ListeningPort(1) = true; nothing should listen on port 1")
	}
}

func TestAptLists(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "deb_dists_main_binary-amd64_Packages"), "Package: python3-venv\nVersion: 1\n\nPackage: python3-pip\n\nPackage: perl\n", 0o644)
	write(t, filepath.Join(dir, "deb_dists_main_binary-amd64_Packages.lz4"), "Package: python3-zzz\n", 0o644)
	got, err := aptNames(t.Context(), dir, "python3-")
	if err != nil || !reflect.DeepEqual(got, []string{"python3-pip", "python3-venv"}) {
		t.Errorf("aptNames = %v, %v", got, err)
	}
}

func TestConcurrentAndCached(t *testing.T) {
	bin := t.TempDir()
	write(t, filepath.Join(bin, "tool"), "", 0o755)
	p := New(Options{Path: bin})
	var wg sync.WaitGroup
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if !p.LookPath(context.Background(), "tool") || len(p.Executables(context.Background())) != 1 {
				t.Error("concurrent look-ups disagree")
			}
			_, _ = p.ReadDir(context.Background(), bin)
		}()
	}
	wg.Wait()
	// Cached: a file created afterwards is not seen by the same probe.
	write(t, filepath.Join(bin, "later"), "", 0o755)
	if strings.Contains(strings.Join(p.Executables(t.Context()), " "), "later") {
		t.Error("Executables was computed again")
	}
}

func TestTimeout(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	start := time.Now()
	_, err := within(t.Context(), 20*time.Millisecond, func(context.Context) (int, error) {
		<-release // slower than the timeout, whatever the context says
		return 1, nil
	})
	if err == nil {
		t.Error("within returned no error for a slow function")
	}
	// fn never returns by itself: any return is the timeout's doing.
	if d := time.Since(start); d > shelltest.Scale(10*time.Second) {
		t.Errorf("within took %v; want about 20ms", d)
	}
}

// TestAptListsCompressed reads a fixture lists directory as Debian images
// keep it: lz4 (linked 64 KiB blocks; block checksums and content size),
// gzip and plain lists, other files left alone.
func TestAptListsCompressed(t *testing.T) {
	got, err := aptNames(t.Context(), "testdata/apt", "python3-")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"python3-yaml", "python3-pkg00000", "python3-pkg05999", "python3-dateutil", "python3-requests", "python3-jwt"} {
		if !slices.Contains(got, want) {
			t.Errorf("aptNames lacks %s", want)
		}
	}
	if len(got) != 6004 {
		t.Errorf("aptNames = %d names; want 6004", len(got))
	}
}

// TestAptIndexCached: the names are kept in the index file, which later
// probes read instead of the lists, until the lists change.
func TestAptIndexCached(t *testing.T) {
	lists := t.TempDir()
	list := filepath.Join(lists, "deb_main_binary-amd64_Packages")
	write(t, list, "Package: python3-yaml\n\nPackage: python3-venv\n", 0o644)
	index := filepath.Join(t.TempDir(), "state", "apt-names")
	p := New(Options{AptLists: lists, AptIndex: index})
	if got := p.AptPackages(t.Context(), "python3-y"); !reflect.DeepEqual(got, []string{"python3-yaml"}) {
		t.Fatalf("AptPackages = %v", got)
	}
	b, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(index); fi.Mode().Perm() != 0o600 {
		t.Errorf("index mode %v; want 0600", fi.Mode().Perm())
	}
	// A later probe reads the index, not the lists.
	os.WriteFile(index, []byte(strings.Replace(string(b), "python3-yaml", "python3-yamlx", 1)), 0o600)
	if got := New(Options{AptLists: lists, AptIndex: index}).AptPackages(t.Context(), "python3-y"); !reflect.DeepEqual(got, []string{"python3-yamlx"}) {
		t.Errorf("AptPackages from the index = %v; want the index's python3-yamlx", got)
	}
	// apt update: the lists changed, the index is made again.
	write(t, list, "Package: python3-yaml\n\nPackage: python3-yarl\n", 0o644)
	os.Chtimes(list, time.Now(), time.Now().Add(time.Hour))
	if got := New(Options{AptLists: lists, AptIndex: index}).AptPackages(t.Context(), "python3-y"); !reflect.DeepEqual(got, []string{"python3-yaml", "python3-yarl"}) {
		t.Errorf("AptPackages after the lists changed = %v", got)
	}
}

// BenchmarkAptIndex is what the PEP 668 rule's look-up costs with this
// machine's apt lists (docs/benchmarks.md §27): /cold reads and
// decompresses the lists and writes the index (once per apt update),
// /warm reads the index, as every later analysis does.
func BenchmarkAptIndex(b *testing.B) {
	const lists = "/var/lib/apt/lists"
	if st, err := aptStamp(lists); err != nil || st == "" {
		required.Cannot(b, "no apt lists here: not a Debian-like system")
	}
	index := filepath.Join(b.TempDir(), "apt-names")
	b.Run("cold", func(b *testing.B) {
		for b.Loop() {
			os.Remove(index)
			if got := New(Options{AptIndex: index}).AptPackages(b.Context(), "python3-yaml"); len(got) == 0 {
				b.Fatal("python3-yaml not found")
			}
		}
	})
	b.Run("warm", func(b *testing.B) {
		for b.Loop() {
			if got := New(Options{AptIndex: index}).AptPackages(b.Context(), "python3-yaml"); len(got) == 0 {
				b.Fatal("python3-yaml not found")
			}
		}
	})
}

// TestExecutablesCached: with ExeIndex set, the PATH's names are kept in a
// 0600 file and read back from it while the directories are as they were;
// a program installed in one of them makes it again.
func TestExecutablesCached(t *testing.T) {
	ctx := context.Background()
	a, b := t.TempDir(), t.TempDir()
	write(t, filepath.Join(a, "make"), "", 0o755)
	write(t, filepath.Join(b, "git"), "", 0o755)
	os.Mkdir(filepath.Join(b, "subdir"), 0o755)
	index := filepath.Join(t.TempDir(), "state", "path-names")
	opts := Options{Path: a + ":" + b + ":/nonexistent", ExeIndex: index}
	if got := New(opts).Executables(ctx); !slices.Equal(got, []string{"git", "make"}) {
		t.Fatalf("Executables = %q; want git, make", got)
	}
	st, err := os.Stat(index)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("the index: %v, mode %v; want a 0600 file", err, st)
	}
	// Read back from the file, not the directories: what it says is what
	// a second probe answers.
	b0, _ := os.ReadFile(index)
	header, _, _ := strings.Cut(string(b0), "\n")
	os.WriteFile(index, []byte(header+"\nfrom-the-index\n"), 0o600)
	if got := New(opts).Executables(ctx); !slices.Equal(got, []string{"from-the-index"}) {
		t.Fatalf("Executables = %q; want the index's names", got)
	}
	// A program installed: the directory changed, the index is made again.
	before, _ := os.Stat(a)
	write(t, filepath.Join(a, "gcc"), "", 0o755)
	if after, _ := os.Stat(a); after.ModTime().Equal(before.ModTime()) {
		// The kernel's coarse clock gave the directory the same time.
		os.Chtimes(a, time.Time{}, before.ModTime().Add(time.Second))
	}
	if got := New(opts).Executables(ctx); !slices.Equal(got, []string{"gcc", "git", "make"}) {
		t.Fatalf("Executables after an install = %q; want gcc, git, make", got)
	}
	// No index: the directories are read each time.
	if got := New(Options{Path: a}).Executables(ctx); !slices.Equal(got, []string{"gcc", "make"}) {
		t.Fatalf("Executables without an index = %q", got)
	}
}
