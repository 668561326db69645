package runctx

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/required"
)

func TestWordsAndKey(t *testing.T) {
	tests := []struct {
		line   string
		words  []string
		simple bool
		key    string
	}{
		{"make test", []string{"make", "test"}, true, "make test"},
		{"./run.sh", []string{"./run.sh"}, true, "./run.sh"},
		{"git -c x=y push --force origin main", []string{"git", "-c", "x=y", "push", "--force", "origin", "main"}, true, "git x=y"},
		{"python3 -m pytest tests/a.py -k 'one two'", []string{"python3", "-m", "pytest", "tests/a.py", "-k", "one two"}, true, "python3 pytest"},
		{`API_URL=http://x sudo -E ./deploy.sh "a b"`, []string{"API_URL=http://x", "sudo", "-E", "./deploy.sh", "a b"}, true, "./deploy.sh a b"},
		{"make test > log 2>&1", []string{"make", "test"}, true, "make test"},
		{"make test &>/dev/null", []string{"make", "test"}, true, "make test"},
		{"cat <in.txt", []string{"cat"}, true, "cat"},
		{"make test;", []string{"make", "test"}, true, "make test"},
		{"sleep 10 &", []string{"sleep", "10"}, true, "sleep 10"},
		{`echo a\ b "c \"d\""`, []string{"echo", "a b", `c "d"`}, true, `echo a b`},
		{"make && ./run.sh", []string{"make"}, false, "\x00make && ./run.sh"},
		{"ls | wc -l", []string{"ls"}, false, "\x00ls | wc -l"},
		{"echo $(date)", []string{"echo", "$(…)"}, false, "\x00echo $(date)"},
		{"echo 'open", nil, false, "\x00echo 'open"},
		// A wrapper's option takes its value (issue 31): the key is the
		// program's, as for the same command without the wrapper.
		{"sudo -u root make test", []string{"sudo", "-u", "root", "make", "test"}, true, "make test"},
		{"nice -n 10 make", []string{"nice", "-n", "10", "make"}, true, "make"},
		{"env -u HOME make test", []string{"env", "-u", "HOME", "make", "test"}, true, "make test"},
		{"timeout -s KILL 30s make test", []string{"timeout", "-s", "KILL", "30s", "make", "test"}, true, "make test"},
		{"FOO=1", []string{"FOO=1"}, true, ""},
		{"", nil, true, ""},
	}
	for _, tt := range tests {
		w, simple := Words(tt.line)
		if !reflect.DeepEqual(w, tt.words) || simple != tt.simple {
			t.Errorf("Words(%q) = %q, %v; want %q, %v", tt.line, w, simple, tt.words, tt.simple)
		}
		if k := Key(tt.line); k != tt.key {
			t.Errorf("Key(%q) = %q; want %q", tt.line, k, tt.key)
		}
	}
	if KeyHash("make test") != KeyHash("make   test") || KeyHash("make test") == KeyHash("make check") || KeyHash("") != 0 {
		t.Errorf("KeyHash: same key, same number; other key, other number; none, 0")
	}
	if KeyHash("make test") <= 0 {
		t.Errorf("KeyHash is not positive")
	}
}

// git runs git in dir for the test (package runctx itself never does).
func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@x", "GIT_COMMITTER_NAME=t",
		"GIT_COMMITTER_EMAIL=t@x", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

func newRepo(t *testing.T) string {
	required.Tool(t, "git")
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	os.WriteFile(filepath.Join(dir, "run.sh"), []byte("echo hi\n"), 0o755)
	os.MkdirAll(filepath.Join(dir, "src", "deep"), 0o755)
	os.WriteFile(filepath.Join(dir, "src", "deep", "x.go"), []byte("package x\n"), 0o644)
	git(t, dir, "add", ".")
	git(t, dir, "commit", "-qm", "one")
	return dir
}

func TestRepoHeadAndDirty(t *testing.T) {
	dir := newRepo(t)
	r, ok := FindRepo(filepath.Join(dir, "src", "deep"))
	if !ok || r.Root != dir || r.GitDir != filepath.Join(dir, ".git") {
		t.Fatalf("FindRepo = %+v, %v", r, ok)
	}
	if _, ok := FindRepo(t.TempDir()); ok {
		t.Errorf("FindRepo found a repository in an empty directory")
	}
	if h, err := r.Head(); err != nil || h.Branch != "main" {
		t.Errorf("Head = %+v, %v", h, err)
	}
	if !r.HasBranch("main") || r.HasBranch("nope") {
		t.Errorf("HasBranch main/nope")
	}
	for _, v := range []string{"2", "3", "4"} {
		git(t, dir, "update-index", "--index-version", v)
		if d, known := r.Dirty(1000); d || !known {
			t.Errorf("index v%s: a fresh commit: Dirty = %v, %v", v, d, known)
		}
	}
	if _, known := r.Dirty(1); known {
		t.Errorf("an index over the limit should be unknown")
	}
	os.WriteFile(filepath.Join(dir, "src", "deep", "x.go"), []byte("package x // changed\n"), 0o644)
	if d, known := r.Dirty(1000); !d || !known {
		t.Errorf("a modified file: Dirty = %v, %v", d, known)
	}
	git(t, dir, "checkout", "-q", "--", ".")
	os.Remove(filepath.Join(dir, "run.sh"))
	if d, _ := r.Dirty(1000); !d {
		t.Errorf("a deleted file: not dirty")
	}
	git(t, dir, "checkout", "-q", "--", ".")
	os.WriteFile(filepath.Join(dir, "untracked"), nil, 0o644)
	if d, _ := r.Dirty(1000); d {
		t.Errorf("an untracked file made it dirty")
	}
	// Packed refs, and a linked work tree.
	git(t, dir, "branch", "feature")
	git(t, dir, "pack-refs", "--all")
	if !r.HasBranch("feature") {
		t.Errorf("HasBranch: packed branch not found")
	}
	wt := filepath.Join(t.TempDir(), "wt")
	git(t, dir, "worktree", "add", "-q", wt, "feature")
	w, ok := FindRepo(wt)
	if !ok || w.Root != wt || w.Common != filepath.Join(dir, ".git") {
		t.Fatalf("FindRepo(linked work tree) = %+v, %v", w, ok)
	}
	if h, _ := w.Head(); h.Branch != "feature" || !w.HasBranch("main") {
		t.Errorf("linked work tree: Head %+v", h)
	}
	if d, known := w.Dirty(1000); d || !known {
		t.Errorf("linked work tree: Dirty = %v, %v", d, known)
	}
}

func TestHeadAt(t *testing.T) {
	dir := newRepo(t)
	r, _ := FindRepo(dir)
	git(t, dir, "branch", "feature")
	// The reflog counts seconds: write it by hand, with known times.
	log := filepath.Join(dir, ".git", "logs", "HEAD")
	z := strings.Repeat("0", 40)
	a := strings.Repeat("a", 40)
	b := strings.Repeat("b", 40)
	lines := []string{
		z + " " + a + " t <t@x> 1000 +0000\tcommit (initial): one",
		a + " " + a + " t <t@x> 2000 +0000\tcheckout: moving from main to feature",
		a + " " + b + " t <t@x> 2500 +0000\tcommit: two",
		b + " " + a + " t <t@x> 3000 +0000\tcheckout: moving from feature to " + a,
		a + " " + a + " t <t@x> 4000 +0000\tcheckout: moving from " + a + " to feature",
	}
	if err := os.WriteFile(log, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, ".git", "HEAD"), []byte("ref: refs/heads/feature\n"), 0o644)
	us := func(sec float64) int64 { return int64(sec * 1e6) }
	tests := []struct {
		at   float64
		own  bool
		want string
	}{
		{5000, false, "feature"},
		{4000.5, false, "feature"},                 // the checkout in that second came first
		{4000.5, true, "detached at aaaaaaaaaaaa"}, // … or after: the command's own, or a later one's
		{3500, false, "detached at aaaaaaaaaaaa"},
		{2600, false, "feature"},
		{1500, false, "main"},
		{10, false, "main"},
	}
	for _, tt := range tests {
		h, err := r.HeadAt(us(tt.at), tt.own)
		if err != nil || h.String() != tt.want {
			t.Errorf("HeadAt(%v, %v) = %q, %v; want %q", tt.at, tt.own, h, err, tt.want)
		}
	}
	// When the file was written tells, for its last entry, which side of
	// the start it is on, whatever ownSecond says.
	os.Chtimes(log, time.UnixMicro(us(4000.7)), time.UnixMicro(us(4000.7)))
	for _, tt := range []struct {
		at   float64
		own  bool
		want string
	}{{4000.5, false, "detached at aaaaaaaaaaaa"}, {4000.9, true, "feature"}} {
		if h, _ := r.HeadAt(us(tt.at), tt.own); h.String() != tt.want {
			t.Errorf("written at 4000.7: HeadAt(%v, %v) = %q; want %q", tt.at, tt.own, h, tt.want)
		}
	}
	// Now, through git itself: a switch recorded in real time.
	before := time.Now().Add(-2 * time.Second).UnixMicro()
	git(t, dir, "switch", "-q", "main")
	if h, _ := r.HeadAt(before, false); h.Branch != "feature" {
		t.Errorf("before the switch: %q", h)
	}
	if h, _ := r.HeadAt(time.Now().Add(2*time.Second).UnixMicro(), false); h.Branch != "main" {
		t.Errorf("after the switch: %q", h)
	}
}

// BenchmarkKeyHash is the key's cost per recorded command (the daemon
// computes it at ingest).
func BenchmarkKeyHash(b *testing.B) {
	lines := []string{"make test", "sudo -u root make test", `git commit -m "fix: a b"`, "python3 -m pytest tests/a.py -k 'one two'", "ls | wc -l"}
	for i := 0; b.Loop(); i++ {
		KeyHash(lines[i%len(lines)])
	}
}
