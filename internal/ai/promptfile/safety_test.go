package promptfile

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestAllowlistPaths (issue 20, item 4): an allowed command's arguments
// stay inside the project, links followed: git diff with a path outside
// the work tree (git's implicit --no-index) and the user's own patterns
// included.
func TestAllowlistPaths(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "proj")
	secret := filepath.Join(base, "netrc")
	os.MkdirAll(filepath.Join(root, ".git"), 0o755)
	os.WriteFile(secret, []byte("machine x password hunter2\n"), 0o600)
	os.WriteFile(filepath.Join(root, "f.txt"), []byte("x"), 0o644)
	os.Symlink(secret, filepath.Join(root, "link"))
	a := Allowlist{Extra: []string{"wc -l *"}}
	for _, ok := range []string{"git diff", "git diff HEAD~1 -- f.txt", "git log --oneline main..topic", "git diff --stat f.txt",
		"wc -l f.txt", "git log -S/etc/passwd"} {
		if err := a.Check(ok, root); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for _, no := range []string{"git diff " + secret + " /dev/null", "git diff " + secret + " /dev/null | cat", "git diff ../netrc f.txt",
		"git diff link f.txt", "git log -p -- " + secret, "git diff --relative=" + secret, "git diff -O" + secret, "wc -l " + secret,
		"wc -l link", "cat link"} {
		if err := a.Check(no, root); err == nil || !strings.Contains(err.Error(), "not allowed") {
			t.Errorf("%s: allowed (%v)", no, err)
		}
	}
	// Neither the docs nor the config's commented defaults offer make -n
	// as a pattern: a Makefile runs code ($(shell …)) even with -n.
	docs, _ := filepath.Glob(filepath.Join("..", "..", "..", "docs", "*.md"))
	for _, doc := range append(docs, filepath.Join("..", "..", "config", "config.go")) {
		if b, err := os.ReadFile(doc); err == nil && strings.Contains(string(b), "'make -n") {
			t.Errorf("%s offers make -n as a pattern for prompt_files.allow: a Makefile runs code ($(shell …))", doc)
		}
	}
}

// TestPromptFileLinks (issue 20, item 5): a project's prompt file that is
// a link leading outside the project is neither read nor sent; the user's
// own places may link anywhere.
func TestPromptFileLinks(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "proj")
	home := filepath.Join(base, "home")
	secret := filepath.Join(base, "history")
	os.MkdirAll(filepath.Join(root, ".git"), 0o755)
	os.MkdirAll(filepath.Join(root, ".hookd", "commands"), 0o755)
	os.MkdirAll(filepath.Join(root, ".claude", "commands"), 0o755)
	os.MkdirAll(filepath.Join(home, "user"), 0o755)
	os.WriteFile(secret, []byte("secret-history-line\n"), 0o600)
	os.Symlink(secret, filepath.Join(root, ".hookd", "commands", "leak.md"))
	os.Symlink(secret, filepath.Join(root, ".claude", "commands", "x.md"))
	os.WriteFile(filepath.Join(root, "in.md"), []byte("inside\n"), 0o644)
	os.Symlink(filepath.Join(root, "in.md"), filepath.Join(root, ".hookd", "commands", "ok.md"))
	os.Symlink(secret, filepath.Join(home, "user", "mine.md"))
	p := PlacesFor(root, filepath.Join(home, "user"), home)
	for _, name := range []string{"leak", "x"} {
		r := Expand(context.Background(), name, nil, Options{Places: p, Cwd: root})
		if r.Success || r.Error == nil || !strings.Contains(r.Error.Message, "outside its project") || strings.Contains(r.Error.Message, "secret-history-line") {
			t.Errorf("%s: %+v %+v", name, r.Command, r.Error)
		}
	}
	if r := Expand(context.Background(), "ok", nil, Options{Places: p, Cwd: root}); !r.Success || r.Command.Content != "inside\n" {
		t.Errorf("ok: %+v %+v", r.Command, r.Error)
	}
	if r := Expand(context.Background(), "mine", nil, Options{Places: p, Cwd: root}); !r.Success {
		t.Errorf("the user's own link: %+v", r.Error)
	}
	for _, f := range p.List() {
		if f.Name == "leak" && !strings.Contains(f.Warning, "outside its project") {
			t.Errorf("listed without a warning: %+v", f)
		}
	}
}

// TestPromptDirFIFO (issue 20, item 11): a FIFO among the prompt files is
// listed with a warning and never opened: listing, completing and
// expanding return at once.
func TestPromptDirFIFO(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, ".git"), 0o755)
	dir := filepath.Join(root, ".hookd", "commands")
	os.MkdirAll(dir, 0o755)
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "ok.md"), []byte("---\ndescription: fine\n---\nbody\n"), 0o644)
	p := PlacesFor(root, filepath.Join(t.TempDir(), "user"), t.TempDir())
	done := make(chan []File, 1)
	go func() {
		files := p.List()
		Expand(context.Background(), "fifo", nil, Options{Places: p, Cwd: root})
		done <- files
	}()
	select {
	case files := <-done:
		if len(files) != 2 || files[0].Name != "fifo" || !strings.Contains(files[0].Warning, "not a regular file") || files[1].Description != "fine" {
			t.Errorf("List = %+v", files)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("a FIFO in .hookd/commands blocked")
	}
}
