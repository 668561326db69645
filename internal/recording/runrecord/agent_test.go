package runrecord

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookd/hookd/capture"
	"github.com/hookd/hookd/internal/recording/outbox"
	"github.com/hookd/hookd/internal/recording/spool"
)

func TestNextSeqConcurrent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "agent-seq")
	var mu sync.Mutex
	seen := map[int64]bool{}
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			n, err := NextSeq(path)
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			seen[n] = true
			mu.Unlock()
		})
	}
	wg.Wait()
	for i := int64(1); i <= 20; i++ {
		if !seen[i] {
			t.Errorf("20 concurrent NextSeq: %d missing (got %v)", i, seen)
		}
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("counter file: %v, %v; want 0600", fi, err)
	}
	// A damaged counter starts again rather than failing the agent.
	os.WriteFile(path, []byte("garbage"), 0o600)
	if n, err := NextSeq(path); err != nil || n != 1 {
		t.Errorf("NextSeq after garbage = %d, %v", n, err)
	}
}

func TestAgentSession(t *testing.T) {
	if got := AgentSession("claude-code", "0b5f-4c2e_9"); got != "claude-code-0b5f-4c2e_9" {
		t.Errorf("AgentSession = %q", got)
	}
	for _, key := range []string{"", "../../etc/passwd", "a.b", strings.Repeat("x", 200), "ü"} {
		got := AgentSession("my.tool", key)
		if !spool.ValidSessionID(got) || !strings.HasPrefix(got, "my_tool-h") {
			t.Errorf("AgentSession(my.tool, %q) = %q; want a safe id, the key hashed", key, got)
		}
	}
	if AgentSession("a", "../x") == AgentSession("a", "../y") {
		t.Error("two keys share a hashed session")
	}
	for name, ok := range map[string]bool{"claude-code": true, "aider.v2": true, "": false, "-x": false, "a b": false, "a/b": false, strings.Repeat("a", 65): false} {
		if ValidAuthor(name) != ok {
			t.Errorf("ValidAuthor(%q) = %v", name, !ok)
		}
	}
}

func TestSaveAgent(t *testing.T) {
	dir := t.TempDir()
	spoolDir, outDir := filepath.Join(dir, "spool"), filepath.Join(dir, "out")
	out := capture.NewBuffer(1 << 20)
	fmt.Fprint(out, "ok\n")
	start := time.Unix(1_800_000_000, 0)
	c := Command{Text: "go test ./...", Cwd: "/src", Status: 1, Start: start, End: start.Add(time.Second), Output: out}
	w := Writer{Shell: "agent", PID: os.Getpid(), Author: "claude-code"}
	for seq := int64(1); seq <= 2; seq++ {
		if err := SaveAgent(spoolDir, outDir, w, c, "claude-code-s1", seq); err != nil {
			t.Fatal(err)
		}
	}
	files, _ := os.ReadDir(spoolDir)
	if len(files) != 2 {
		t.Fatalf("spool dir holds %d files; want one per command", len(files))
	}
	for _, f := range files {
		b, _ := os.ReadFile(filepath.Join(spoolDir, f.Name()))
		recs, _, bad := spool.Decode(b, true)
		if len(bad) != 0 || len(recs) != 2 || recs[0].Session.Session != "claude-code-s1" || recs[0].Session.Author != "claude-code" {
			t.Errorf("%s holds %+v (bad %v)", f.Name(), recs, bad)
		}
	}
	l, _ := outbox.Scan(outDir)
	if len(l.Items) != 2 {
		t.Errorf("outbox holds %d items; want the terminal output of each command", len(l.Items))
	}
	if err := SaveAgent(spoolDir, outDir, Writer{Author: "bad name"}, c, "s", 1); err == nil {
		t.Error("a bad author was recorded")
	}
	if err := SaveAgent(spoolDir, outDir, w, c, "../s", 1); err == nil {
		t.Error("a bad session id was recorded")
	}
}
