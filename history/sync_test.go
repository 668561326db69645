package history_test

import (
	"context"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/hookd/hookd/history"
)

func syncStore(t *testing.T) *history.Store {
	t.Helper()
	s, err := history.Open(t.Context(), filepath.Join(t.TempDir(), "h.db"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func addCmds(t *testing.T, s *history.Store, session string, cmds ...string) {
	t.Helper()
	ctx := t.Context()
	tx, err := s.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	tx.AddSession(ctx, history.Session{ID: session, Shell: "bash", Host: "box"})
	for i, c := range cmds {
		seq := int64(len(c)*1000 + i)
		if _, err := tx.AddCommand(ctx, history.Entry{Session: session, Seq: seq, Command: c, StartedAt: int64(i + 1)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

func pending(t *testing.T, s *history.Store) history.SyncBatch {
	t.Helper()
	b, err := s.SyncPending(t.Context(), 0, 1000, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func cmdsOf(b history.SyncBatch) []string {
	var out []string
	for _, e := range b.Commands {
		out = append(out, e.Command)
	}
	return out
}

// TestSyncQueue: nothing is queued before sync is on; turning it on
// queues what was recorded here (not what came from elsewhere); after
// that every new command and every forgotten one is queued; an upload
// takes what it covered off the queue.
func TestSyncQueue(t *testing.T) {
	ctx := t.Context()
	s := syncStore(t)
	addCmds(t, s, "s1", "echo before")
	if n, _ := s.SyncQueued(ctx, 0); n != 0 {
		t.Fatalf("%d rows queued before sync is on", n)
	}
	if _, err := s.EnableSync(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := s.EnableSync(ctx); err != nil { // again: nothing queued twice
		t.Fatal(err)
	}
	addCmds(t, s, "s1", "echo after")
	b := pending(t, s)
	if got := cmdsOf(b); !slices.Equal(got, []string{"echo before", "echo after"}) || len(b.Sessions) != 1 || b.Sessions[0].Host != "box" {
		t.Errorf("pending = %q, sessions %+v", got, b.Sessions)
	}
	if err := s.Uploaded(ctx, b.Upto, map[string]string{"sync_seq": "1"}); err != nil {
		t.Fatal(err)
	}
	if b := pending(t, s); b.Upto != 0 {
		t.Errorf("after Uploaded the queue still has %+v", b)
	}
	if n, err := s.ForgetMatch(ctx, regexp.MustCompile("before")); n != 1 || err != nil {
		t.Fatal(n, err)
	}
	if b := pending(t, s); len(b.Tombstones) != 1 || b.Tombstones[0].Session != "s1" || len(b.Commands) != 0 {
		t.Errorf("after forget: %+v; want one tombstone", b)
	}
}

// TestMerge: a batch from another installation is added once, however
// often merged, under its own session ids, and nothing of it is queued
// for upload; its tombstones delete, and a command whose tombstone came
// first is never added.
func TestMerge(t *testing.T) {
	ctx := t.Context()
	s := syncStore(t)
	if _, err := s.EnableSync(ctx); err != nil {
		t.Fatal(err)
	}
	addCmds(t, s, "mine", "echo mine")
	s.Uploaded(ctx, pending(t, s).Upto, nil)
	local := func(w string) string {
		if w == "mine@00000000000000bb" {
			return "mine"
		}
		return w
	}
	b := &history.SyncBatch{
		Sessions:   []history.Session{{ID: "r1@00000000000000aa", Shell: "zsh", Host: "laptop"}},
		Commands:   []history.Entry{{Session: "r1@00000000000000aa", Seq: 1, Command: "echo remote", StartedAt: 5}, {Session: "r1@00000000000000aa", Seq: 2, Command: "echo dead", StartedAt: 6}},
		Tombstones: []history.Key{{Session: "r1@00000000000000aa", Seq: 2}},
	}
	for range 2 {
		st, err := s.Merge(ctx, "00000000000000aa", "laptop", 1, b, local)
		if err != nil {
			t.Fatal(err)
		}
		_ = st
	}
	all, _ := s.List(ctx, history.Query{})
	var got []string
	for _, e := range all {
		got = append(got, e.Command+"/"+e.HostID+"/"+e.Host)
	}
	slices.Sort(got)
	if !slices.Equal(got, []string{"echo mine//box", "echo remote/00000000000000aa/laptop"}) {
		t.Errorf("after merging twice: %q", got)
	}
	if n, _ := s.SyncQueued(ctx, 0); n != 0 {
		t.Errorf("merging queued %d rows for upload", n)
	}
	// A tombstone of one of ours, from elsewhere.
	if _, err := s.Merge(ctx, "00000000000000aa", "laptop", 2, &history.SyncBatch{Tombstones: []history.Key{{Session: "mine@00000000000000bb", Seq: 9000}}}, local); err != nil {
		t.Fatal(err)
	}
	if list, _ := s.List(ctx, history.Query{ThisHost: true}); len(list) != 0 {
		t.Errorf("our command survived its tombstone: %+v", list)
	}
	hosts, _ := s.SyncHosts(ctx)
	if len(hosts) != 1 || hosts[0].Merged != 2 || hosts[0].Commands != 1 {
		t.Errorf("hosts = %+v", hosts)
	}
	if list, _ := s.List(ctx, history.Query{Host: "00000000000000aa"}); len(list) != 1 {
		t.Errorf("Query{Host: id} = %d entries", len(list))
	}
	if list, _ := s.List(ctx, history.Query{Host: "laptop"}); len(list) != 1 {
		t.Errorf("Query{Host: laptop} = %d entries", len(list))
	}
	_ = context.Background
}

// BenchmarkIngestSync: what the upload queue's trigger adds to storing
// commands (the daemon's ingestion; never the prompt's path): 10,000
// commands in one transaction, sync off and on.
func BenchmarkIngestSync(b *testing.B) {
	for _, on := range []bool{false, true} {
		b.Run(map[bool]string{false: "off", true: "on"}[on], func(b *testing.B) {
			ctx := b.Context()
			s, err := history.Open(ctx, filepath.Join(b.TempDir(), "h.db"), time.Second)
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			if on {
				s.EnableSync(ctx)
			}
			seq := int64(0)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				tx, _ := s.Begin(ctx)
				tx.AddSession(ctx, history.Session{ID: "s", Shell: "bash"})
				for range 10000 {
					seq++
					tx.AddCommand(ctx, history.Entry{Session: "s", Seq: seq, Command: "git commit -m 'change " + time.Now().String() + "'", StartedAt: seq})
				}
				if err := tx.Commit(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/10000, "ns/command")
		})
	}
}
