package history

import (
	"path/filepath"
	"reflect"
	"regexp"
	"testing"
	"time"
)

// contextStore is a store with one session of this installation: ./run.sh
// worked on main in /r with a virtualenv, then failed on feature without
// it; the environment changed between them.
func contextStore(t *testing.T) *Store {
	t.Helper()
	ctx := t.Context()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "h.db"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if _, err := s.EnableSync(ctx); err != nil {
		t.Fatal(err)
	}
	tx, err := s.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	tx.AddSession(ctx, Session{ID: "s1", Shell: "bash", Host: "box"})
	if err := tx.AddEnv(ctx, "s1", 1, map[string]string{"PATH": "/v/bin:/bin", "VIRTUAL_ENV": "/v"}); err != nil {
		t.Fatal(err)
	}
	if err := tx.AddEnv(ctx, "s1", 2, map[string]string{"PATH": "/bin"}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		seq    int64
		exit   int
		branch string
	}{{1, 0, "main"}, {2, 1, "feature"}} {
		if _, err := tx.AddCommand(ctx, Entry{Session: "s1", Seq: c.seq, Command: "./run.sh", ExitCode: c.exit, Cwd: "/r",
			StartedAt: c.seq * 1e6}); err != nil {
			t.Fatal(err)
		}
		if err := tx.AddContext(ctx, "s1", c.seq, c.exit == 0, c.seq*1e6, Context{Key: 42, Repo: "/r", Branch: c.branch, Dirty: 0}); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	return s
}

func (s *Store) count(t *testing.T, table string) int {
	t.Helper()
	var n int
	if err := s.db.QueryRowContext(t.Context(), "SELECT COUNT(*) FROM "+table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestContextsTravel: a command's context (its key, work tree, branch,
// changes, and the environment its shell noted) goes with it through
// sync, and another installation reads the same context for it; a last
// success is looked up on the failure's own installation only; a
// tombstone takes the contexts, and what only they used, with the
// commands.
func TestContextsTravel(t *testing.T) {
	ctx := t.Context()
	a := contextStore(t)
	b, err := a.SyncPending(ctx, 0, 100, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Commands) != 2 || len(b.Contexts) != 2 {
		t.Fatalf("pending: %d commands, contexts %+v; want 2 and 2", len(b.Commands), b.Contexts)
	}
	want := Context{Key: 42, Repo: "/r", Branch: "feature", Dirty: 0, Env: map[string]string{"PATH": "/bin"}}
	if got := b.Contexts[Key{"s1", 2}]; !reflect.DeepEqual(got, want) {
		t.Errorf("pending context of #2 = %+v; want %+v", got, want)
	}

	// Merged elsewhere, under the session's name there.
	other, err := Open(ctx, filepath.Join(t.TempDir(), "h.db"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	const host = "00000000000000aa"
	wire := &SyncBatch{Contexts: map[Key]Context{}}
	for _, se := range b.Sessions {
		se.ID += HostSep + host
		wire.Sessions = append(wire.Sessions, se)
	}
	for _, e := range b.Commands {
		k := Key{e.Session, e.Seq}
		e.Session += HostSep + host
		wire.Commands = append(wire.Commands, e)
		wire.Contexts[Key{e.Session, e.Seq}] = b.Contexts[k]
	}
	for range 2 { // twice: nothing doubles
		if _, err := other.Merge(ctx, host, "box", 1, wire, func(s string) string { return s }); err != nil {
			t.Fatal(err)
		}
	}
	es, err := other.List(ctx, Query{})
	if err != nil || len(es) != 2 {
		t.Fatalf("merged: %d entries, %v", len(es), err)
	}
	for _, e := range es {
		got, ok, err := other.Context(ctx, e)
		wantEnv := map[string]string{"PATH": "/v/bin:/bin", "VIRTUAL_ENV": "/v"}
		branch := "main"
		if e.Seq == 2 {
			wantEnv, branch = map[string]string{"PATH": "/bin"}, "feature"
		}
		if err != nil || !ok || got.Key != 42 || got.Repo != "/r" || got.Branch != branch || got.Dirty != 0 || !reflect.DeepEqual(got.Env, wantEnv) {
			t.Errorf("context of merged #%d = %+v, %v, %v; want key 42, /r, %s, env %v", e.Seq, got, ok, err, branch, wantEnv)
		}
	}
	if n := other.count(t, "session_envs"); n != 2 {
		t.Errorf("merging twice left %d environment rows; want 2", n)
	}
	// The success is the other installation's: not one of this one's,
	// but the one a failure synced from there is compared with.
	if got, _ := other.Successes(ctx, 42, 10e6, "", 5); len(got) != 0 {
		t.Errorf("Successes here = %+v; want none (the success ran elsewhere)", got)
	}
	if got, _ := other.Successes(ctx, 42, 10e6, host, 5); len(got) != 1 || got[0].Seq != 1 {
		t.Errorf("Successes of %s = %+v; want #1", host, got)
	}
	if got, _ := a.Successes(ctx, 42, 10e6, "", 5); len(got) != 1 {
		t.Errorf("Successes where it ran = %+v; want #1", got)
	}

	// Forgotten: the contexts go, and so do the environments and the work
	// tree no command refers to any more.
	for _, s := range []*Store{a, other} {
		if n, err := s.ForgetMatch(ctx, regexp.MustCompile(`run\.sh`)); n != 2 || err != nil {
			t.Fatalf("ForgetMatch = %d, %v", n, err)
		}
		for _, table := range []string{"contexts", "session_envs", "envs", "repos"} {
			if n := s.count(t, table); n != 0 {
				t.Errorf("%d rows left in %s after forgetting every command", n, table)
			}
		}
	}
}

// TestForgetKeepsSharedContexts: forgetting one command keeps what other
// commands still use: the session's environments, the work tree.
func TestForgetKeepsSharedContexts(t *testing.T) {
	ctx := t.Context()
	s := contextStore(t)
	es, _ := s.List(ctx, Query{})
	var failed Entry
	for _, e := range es {
		if e.Seq == 2 {
			failed = e
		}
	}
	if n, err := s.Forget(ctx, []int64{failed.ID}); n != 1 || err != nil {
		t.Fatalf("Forget = %d, %v", n, err)
	}
	if n := s.count(t, "contexts"); n != 1 {
		t.Errorf("%d contexts left; want the success's", n)
	}
	for _, table := range []string{"session_envs", "envs", "repos"} {
		if s.count(t, table) == 0 {
			t.Errorf("forgetting one command emptied %s, which the other still uses", table)
		}
	}
}
