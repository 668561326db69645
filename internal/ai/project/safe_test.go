package project

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/ai/trust"
	"github.com/hookd/hookd/internal/config"

	"github.com/hookd/hookd/internal/required"
)

// TestLoadReadsOnce (issue 20, item 3): a writer swapping the file between
// an allowed content and another never gets the other's commands trusted:
// what is parsed is what was hashed.
func TestLoadReadsOnce(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, ".hookd.yml")
	store := trust.Store{Dir: filepath.Join(dir, "trust")}
	good := "ask:\n  context_commands:\n    - {name: good, command: echo good}\n"
	evil := "ask:\n  context_commands:\n    - {name: evil, command: touch pwned}\n"
	mkfile(t, file, good)
	if _, _, err := Allow(file, store); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			content := good
			if i%2 == 1 {
				content = evil
			}
			tmp := filepath.Join(dir, "tmp")
			os.WriteFile(tmp, []byte(content), 0o644)
			os.Rename(tmp, file)
		}
	}()
	var allowed, evilSeen int
	deadline := time.Now().Add(30 * time.Second)
	for i := 0; i < 3000 && time.Now().Before(deadline); i++ {
		p, _ := Load(file, store)
		for _, c := range p.Commands() {
			if c.Name == "evil" {
				evilSeen++
				if p.Trusted() {
					close(stop)
					wg.Wait()
					t.Fatalf("try %d: the swapped-in file's command was trusted", i)
				}
			}
		}
		if p.Trusted() {
			allowed++
		}
	}
	close(stop)
	wg.Wait()
	t.Logf("%d loads trusted, %d saw the other content", allowed, evilSeen)
}

// TestLinkNotTrusted (issue 20, item 2): a .hookd.yml that is a link to an
// allowed file is not trusted (trust binds the file's own path), and one
// that leads outside its directory is not used at all, with a reason.
func TestLinkNotTrusted(t *testing.T) {
	root := t.TempDir()
	t.Setenv("HOME", root)
	store := trust.Store{Dir: filepath.Join(root, "trust")}
	real := filepath.Join(root, "proj", ".hookd.yml")
	mkfile(t, real, "ask:\n  context_commands:\n    - {command: ./tool.sh}\n")
	os.MkdirAll(filepath.Join(root, "proj", ".git"), 0o755)
	if _, _, err := Allow(real, store); err != nil {
		t.Fatal(err)
	}
	evil := filepath.Join(root, "evil")
	os.MkdirAll(filepath.Join(evil, ".git"), 0o755)
	link := filepath.Join(evil, ".hookd.yml")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if st, err := store.Check(link); err != nil || st == trust.Allowed {
		t.Errorf("the link is %v (%v); want it untrusted", st, err)
	}
	path, ignored := Lookup(evil, root)
	if path != "" || len(ignored) != 1 || !strings.Contains(ignored[0].Why, "a symbolic link to "+real+", outside its own directory") {
		t.Errorf("Lookup = %q, %+v", path, ignored)
	}
	q, warns, err := ForQuestion(config.Ask{}, evil, "", Places{Trust: store.Dir})
	if err != nil || len(q.Commands) != 0 || len(q.Skipped) != 0 || len(warns) != 1 || !strings.Contains(warns[0].String(), link+": a symbolic link to") {
		t.Errorf("ForQuestion: %v, commands %+v, skipped %+v, warnings %v", err, q.Commands, q.Skipped, warns)
	}
	if _, err := Target(evil, root, "", "allow"); err == nil || !strings.Contains(err.Error(), "outside its own directory") {
		t.Errorf("Target: %v", err)
	}
	// A link inside its own directory is used, and trusted by its own path.
	inside := filepath.Join(root, "other")
	mkfile(t, filepath.Join(inside, "conf.yml"), "ask:\n  context_commands:\n    - {command: echo hi}\n")
	os.Symlink("conf.yml", filepath.Join(inside, ".hookd.yml"))
	if p, ig := Lookup(inside, root); p != filepath.Join(inside, ".hookd.yml") || len(ig) != 0 {
		t.Errorf("Lookup inside = %q %+v", p, ig)
	}
	if st, _ := store.Check(filepath.Join(inside, ".hookd.yml")); st != trust.Untrusted {
		t.Errorf("state %v", st)
	}
}

// TestUnsafeIgnored (issue 20, item 6): a project file another user owns,
// or one in a directory anyone may write to, is passed over with a reason.
func TestUnsafeIgnored(t *testing.T) {
	root := t.TempDir()
	shared := filepath.Join(root, "shared")
	mkfile(t, filepath.Join(shared, ".hookd.yml"), "ask: {}\n")
	os.MkdirAll(filepath.Join(shared, ".git"), 0o755)
	os.MkdirAll(filepath.Join(shared, "x"), 0o755)
	os.Chmod(shared, 0o1777)
	path, ignored := Lookup(filepath.Join(shared, "x"), root)
	if path != "" || len(ignored) != 1 || !strings.Contains(ignored[0].Why, "which any user may write to") {
		t.Errorf("world-writable: %q %+v", path, ignored)
	}
	os.Chmod(shared, 0o755)
	if path, _ := Lookup(filepath.Join(shared, "x"), root); path == "" {
		t.Error("a safe file was ignored")
	}
	if os.Geteuid() != 0 {
		required.Cannot(t, "chown to another user needs root")
	}
	if err := os.Lchown(filepath.Join(shared, ".hookd.yml"), 65534, 65534); err != nil {
		t.Fatal(err)
	}
	path, ignored = Lookup(filepath.Join(shared, "x"), root)
	if path != "" || len(ignored) != 1 || ignored[0].Why != "owned by uid 65534, not by you" {
		t.Errorf("another's file: %q %+v", path, ignored)
	}
}

// TestReadRegularFIFO (issue 20, item 11): a FIFO is refused at once.
func TestReadRegularFIFO(t *testing.T) {
	p := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := ReadRegular(p, 100); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("err = %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ReadRegular blocked on a FIFO")
	}
}
