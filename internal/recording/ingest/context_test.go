package ingest_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/recording/ingest"
	"github.com/hookd/hookd/internal/recording/runctx"
	"github.com/hookd/hookd/internal/recording/spool"

	"github.com/hookd/hookd/internal/required"
)

func gitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@x", "GIT_COMMITTER_NAME=t",
		"GIT_COMMITTER_EMAIL=t@x", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// TestContexts: the environment records are stored per session (values
// redacted), and each command gets its key, its git work tree and the
// branch it started on (from the reflog, though the branch changed before
// the ingest), and the work tree's changes when ingested soon after.
func TestContexts(t *testing.T) {
	required.Tool(t, "git")
	e := newEnv(t)
	repo := t.TempDir()
	gitIn(t, repo, "init", "-q", "-b", "main")
	os.WriteFile(filepath.Join(repo, "run.sh"), []byte("echo hi\n"), 0o755)
	gitIn(t, repo, "add", ".")
	gitIn(t, repo, "commit", "-qm", "one")

	now := time.Now()
	at := func(d time.Duration) int64 { return now.Add(d).UnixMicro() }
	names := []string{"PATH", "VIRTUAL_ENV", "API_URL", "API_KEY"}
	sess := sessionID(livePID, 1)
	b := header(livePID)
	b = spool.AppendEnv(b, spool.Env{Seq: 1, Names: names,
		Values: []string{"/v/bin:/bin", "/v", "http://api.local", "sk-abcdefghijklmnopqrstuvwxyz0123456789ABCD"}})
	b = spool.AppendCommand(b, spool.Command{Seq: 1, Start: at(-5 * time.Second), End: at(-4 * time.Second), Cwd: repo, Text: "./run.sh"})
	b = spool.AppendEnv(b, spool.Env{Seq: 2, Names: names, Values: []string{"/bin", "", "", ""}})
	b = spool.AppendCommand(b, spool.Command{Seq: 2, Start: at(2 * time.Second), End: at(3 * time.Second), Exit: 127, Cwd: repo, Text: "./run.sh"})
	b = spool.AppendCommand(b, spool.Command{Seq: 3, Start: at(4 * time.Second), End: at(5 * time.Second), Cwd: "/nowhere/at/all", Text: "make test"})
	e.write(sess, b)
	// The branch changes after the first command, before the ingest.
	gitIn(t, repo, "switch", "-q", "-c", "feature")
	if _, err := ingest.Spools(t.Context(), e.store, e.dir, e.rules, now.Add(5*time.Second)); err != nil {
		t.Fatal(err)
	}
	es := e.entries()
	if len(es) != 3 {
		t.Fatalf("%d entries", len(es))
	}
	get := func(seq int64) (history.Entry, history.Context) {
		for _, en := range es {
			if en.Seq == seq {
				c, ok, err := e.store.Context(t.Context(), en)
				if err != nil || !ok {
					t.Fatalf("Context(%d) = %+v, %v, %v", seq, c, ok, err)
				}
				return en, c
			}
		}
		t.Fatalf("no command %d", seq)
		return history.Entry{}, history.Context{}
	}
	e1, c1 := get(1)
	if c1.Key != runctx.KeyHash("./run.sh") || c1.Repo != repo || c1.Branch != "main" || c1.Dirty != 0 {
		t.Errorf("first command's context = %+v", c1)
	}
	if c1.Env["VIRTUAL_ENV"] != "/v" || c1.Env["API_URL"] != "http://api.local" || c1.Env["PATH"] != "/v/bin:/bin" {
		t.Errorf("first command's environment = %q", c1.Env)
	}
	if v := c1.Env["API_KEY"]; !strings.Contains(v, "[REDACTED]") || strings.Contains(v, "abcdefgh") {
		t.Errorf("the secret was stored: API_KEY=%q", v)
	}
	_, c2 := get(2)
	if c2.Branch != "feature" || c2.Env["VIRTUAL_ENV"] != "" || len(c2.Env) != 1 {
		t.Errorf("second command's context = %+v", c2)
	}
	_, c3 := get(3)
	if c3.Repo != "" || c3.Key != runctx.KeyHash("make test") {
		t.Errorf("third command's context = %+v", c3)
	}
	ok, err := e.store.Successes(t.Context(), runctx.KeyHash("./run.sh"), at(time.Minute), "", 5)
	if err != nil || len(ok) != 1 || ok[0].ID != e1.ID {
		t.Errorf("Successes = %+v, %v; want the first command", ok, err)
	}
	// Forgetting a command forgets its context.
	if _, err := e.store.Forget(t.Context(), []int64{e1.ID}); err != nil {
		t.Fatal(err)
	}
	if ok, _ := e.store.Successes(t.Context(), runctx.KeyHash("./run.sh"), at(time.Minute), "", 5); len(ok) != 0 {
		t.Errorf("after forget, Successes = %+v", ok)
	}
}

// TestEnvNamesChecked: a shell's environment record whose names include
// one no shell could export (a rogue process can write the spool; the
// parser splits names at any character a name cannot hold, so what is left
// is a name starting with a digit) is stored without it: the names of a stored environment are
// always words of an `export` line, never code (issue 30 item 5; the
// merge's way in is internal/cloudsync's TestForgedEnvNames).
func TestEnvNamesChecked(t *testing.T) {
	e := newEnv(t)
	now := time.Now()
	sess := sessionID(livePID, 1)
	b := header(livePID)
	b = spool.AppendEnv(b, spool.Env{Seq: 1, Names: []string{"PATH", "1A", "VIRTUAL_ENV"},
		Values: []string{"/bin", "1", "/v"}})
	b = spool.AppendCommand(b, spool.Command{Seq: 1, Start: now.Add(-time.Second).UnixMicro(), End: now.UnixMicro(), Cwd: "/", Text: "./run.sh"})
	e.write(sess, b)
	if _, err := ingest.Spools(t.Context(), e.store, e.dir, e.rules, now.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	es := e.entries()
	if len(es) != 1 {
		t.Fatalf("%d entries", len(es))
	}
	c, ok, err := e.store.Context(t.Context(), es[0])
	if err != nil || !ok {
		t.Fatalf("Context = %v, %v", ok, err)
	}
	if len(c.Env) != 2 || c.Env["PATH"] != "/bin" || c.Env["VIRTUAL_ENV"] != "/v" {
		t.Errorf("environment stored = %q; want PATH and VIRTUAL_ENV only", c.Env)
	}
}
