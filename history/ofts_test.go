package history

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/required"
)

func outputHits(t *testing.T, s *Store, words ...string) int {
	t.Helper()
	es, err := s.SearchOutputs(context.Background(), OutputSearch{Words: words})
	if err != nil {
		t.Fatal(err)
	}
	return len(es)
}

func addRun(t *testing.T, s *Store, seq int64, cmd, out string) {
	t.Helper()
	ctx := context.Background()
	tx, err := s.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	tx.AddSession(ctx, Session{ID: "s", Shell: "bash"})
	if _, err := tx.AddCommand(ctx, Entry{Session: "s", Seq: seq, Command: cmd, StartedAt: seq}); err != nil {
		t.Fatal(err)
	}
	if err := tx.AddOutput(ctx, Output{Session: "s", Seq: seq, Text: []byte(out), Bytes: int64(len(out)), CreatedAt: seq}); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// TestOutputSearchFollowsOutputs: a replaced output is found by its new
// words only; a pruned or forgotten one by none (with the index or without).
func TestOutputSearchFollowsOutputs(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "h.db"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	addRun(t, s, 1, "make", "alpha beta\n")
	addRun(t, s, 2, "make test", "panic: gamma_delta\n")
	if n := outputHits(t, s, "beta"); n != 1 {
		t.Errorf("beta: %d hits; want 1", n)
	}
	if n := outputHits(t, s, "gamma_delta"); n != 1 {
		t.Errorf("gamma_delta: %d hits; want 1", n)
	}
	if n := outputHits(t, s, "PANIC", "delta"); n != 1 {
		t.Errorf("PANIC delta: %d hits; want 1 (case ignored, every word)", n)
	}
	if n := outputHits(t, s, "panic", "beta"); n != 0 {
		t.Errorf("panic beta: %d hits; want 0 (no output holds both)", n)
	}
	addRun(t, s, 1, "make", "epsilon\n") // the same command: replaced
	if n := outputHits(t, s, "beta"); n != 0 {
		t.Errorf("beta after the output was replaced: %d hits; want 0", n)
	}
	if n := outputHits(t, s, "epsilon"); n != 1 {
		t.Errorf("epsilon: %d hits; want 1", n)
	}
	if _, err := s.PruneOutputs(ctx, 2, 0); err != nil { // prunes seq 1 (created at 1)
		t.Fatal(err)
	}
	if n := outputHits(t, s, "epsilon"); n != 0 {
		t.Errorf("epsilon after pruning: %d hits; want 0", n)
	}
	if _, err := s.Forget(ctx, []int64{2}); err != nil {
		t.Fatal(err)
	}
	if n := outputHits(t, s, "panic"); n != 0 {
		t.Errorf("panic after forget: %d hits; want 0", n)
	}
	if s.fts {
		var rows int
		s.db.QueryRow(`SELECT count(*) FROM outputs_fts`).Scan(&rows)
		if rows != 0 {
			t.Errorf("the output index keeps %d rows after prune and forget; want 0", rows)
		}
	}
}

// TestOutputIndexAfterBuildWithout: outputs stored by a build without FTS5
// are found once a build with it opens the database (it rebuilds the index).
func TestOutputIndexAfterBuildWithout(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "h.db")
	s, err := Open(ctx, path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if !s.fts {
		s.Close()
		required.Cannot(t, "this SQLite has no FTS5 (built without -tags sqlite_fts5)")
	}
	addRun(t, s, 1, "make", "before\n")
	s.fts = false // as a build without FTS5 writes
	addRun(t, s, 2, "make test", "zeta written without the index\n")
	var stale int
	s.db.QueryRow(`SELECT count(*) FROM meta WHERE key = 'ofts_stale'`).Scan(&stale)
	if stale != 1 {
		t.Fatalf("ofts_stale = %d; want the note", stale)
	}
	s.Close()
	s, err = Open(ctx, path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// Found at once, by reading the outputs, while the index is filled.
	if s.HasOutputIndex() {
		t.Error("the index is used before it holds the outputs stored without it")
	}
	if n := outputHits(t, s, "zeta"); n != 1 {
		t.Errorf("zeta before the index is filled: %d hits; want 1", n)
	}
	addRun(t, s, 3, "make later", "omega\n") // indexed as it is stored
	for i := 0; ; i++ {
		done, err := s.FillOutputIndex(ctx, 1)
		if err != nil {
			t.Fatal(err)
		}
		if done {
			break
		}
		if i > 10 {
			t.Fatal("the fill does not end")
		}
	}
	if !s.HasOutputIndex() {
		t.Error("the index is not used once filled")
	}
	var rows int
	s.db.QueryRow(`SELECT count(*) FROM outputs_fts`).Scan(&rows)
	if rows != 3 {
		t.Errorf("the index holds %d outputs; want 3 (each once)", rows)
	}
	for _, w := range []string{"zeta", "before", "omega"} {
		if n := outputHits(t, s, w); n != 1 {
			t.Errorf("%s after the fill: %d hits; want 1", w, n)
		}
	}
}

func TestOutputQuery(t *testing.T) {
	for _, tc := range []struct {
		words []string
		want  string
	}{
		{[]string{"panic"}, `"panic"*`},
		{[]string{"foo_bar.go", "x"}, `"foo bar go" AND "x"`},
		{[]string{"foo_bar.gox"}, `"foo bar gox"*`},
		{[]string{"--", `"q"`}, `"q"`},
	} {
		if got := OutputQuery(tc.words); got != tc.want {
			t.Errorf("OutputQuery(%q) = %q; want %q", tc.words, got, tc.want)
		}
	}
}

// TestMergeIndexesOutputs: an output synced in before its command (an
// installation's segments carry outputs and commands as they were stored)
// is found by its words once the command comes; a tombstone takes it out
// of the search again.
func TestMergeIndexesOutputs(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "h.db"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const host = "00000000000000aa"
	sess := "r1" + HostSep + host
	same := func(w string) string { return w }
	out := &SyncBatch{Sessions: []Session{{ID: sess, Shell: "zsh", Host: "laptop"}},
		Outputs: []Output{{Session: sess, Seq: 1, Text: []byte("mergeword here\n"), Bytes: 15, CreatedAt: 5}}}
	if _, err := s.Merge(ctx, host, "laptop", 1, out, same); err != nil {
		t.Fatal(err)
	}
	cmd := &SyncBatch{Commands: []Entry{{Session: sess, Seq: 1, Command: "make remote", StartedAt: 5}}}
	if _, err := s.Merge(ctx, host, "laptop", 2, cmd, same); err != nil {
		t.Fatal(err)
	}
	if n := outputHits(t, s, "mergeword"); n != 1 {
		t.Errorf("mergeword: %d hits after its command came; want 1 (index %v)", n, s.HasOutputIndex())
	}
	gen, _ := s.Generation(ctx)
	if _, err := s.Merge(ctx, host, "laptop", 3, &SyncBatch{Tombstones: []Key{{Session: sess, Seq: 1}}}, same); err != nil {
		t.Fatal(err)
	}
	if n := outputHits(t, s, "mergeword"); n != 0 {
		t.Errorf("mergeword: %d hits after its tombstone; want 0", n)
	}
	if g, _ := s.Generation(ctx); g.Forget == gen.Forget {
		t.Error("a tombstone left the history's generation as it was: a search's cache would keep the command")
	}
}

// TestNewHistoryUsesOutputIndex: a new history searches outputs through
// the index at once (nothing to fill), and a fill noted without its end
// (ofts_fill alone) ends at the daemon's next pass instead of failing at
// each.
func TestNewHistoryUsesOutputIndex(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "h.db"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !s.fts {
		required.Cannot(t, "this SQLite has no FTS5 (built without -tags sqlite_fts5)")
	}
	if !s.HasOutputIndex() {
		t.Fatal("a new history does not search outputs through the index")
	}
	s.db.Exec(`INSERT INTO meta (key, value) VALUES ('ofts_fill', '0')`)
	s.ofts = false
	done, err := s.FillOutputIndex(ctx, 10)
	if err != nil || !done || !s.HasOutputIndex() {
		t.Errorf("FillOutputIndex with no end = %v, %v; index used: %v", done, err, s.HasOutputIndex())
	}
}

// TestSearchOutputsTyped: a query typed key by key looks its last word up
// as the start of a word and the words before it whole; when the prefix
// lookup runs out of time, the whole words' matches come back, cut.
func TestSearchOutputsTyped(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "h.db"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !s.HasOutputIndex() {
		required.Cannot(t, "this SQLite has no FTS5 (built without -tags sqlite_fts5)")
	}
	addRun(t, s, 1, "a", "git push origin\n")
	addRun(t, s, 2, "b", "github pushed\n")
	addRun(t, s, 3, "c", "git pus\n")
	addRun(t, s, 4, "d", "pushing git\n")
	ids := func(es []Entry) []int64 {
		var out []int64
		for _, e := range es {
			out = append(out, e.Seq)
		}
		return out
	}
	typed := func(within time.Duration, words ...string) ([]int64, bool) {
		t.Helper()
		es, cut, err := s.SearchOutputsTyped(ctx, OutputSearch{Words: words, Limit: 10}, within)
		if err != nil {
			t.Fatal(err)
		}
		return ids(es), cut
	}
	// "git" whole (not github), "pus" the start of push, pus, pushing.
	if got, cut := typed(time.Minute, "git", "pus"); cut || !slices.Equal(got, []int64{4, 3, 1}) {
		t.Errorf("git pus = %v (cut %v); want [4 3 1], not cut", got, cut)
	}
	// Every word a prefix, as the untyped search reads them: github too.
	if es, err := s.SearchOutputs(ctx, OutputSearch{Words: []string{"git", "pus"}, Limit: 10}); err != nil || !slices.Equal(ids(es), []int64{4, 3, 2, 1}) {
		t.Errorf("SearchOutputs(git pus) = %v, %v; want [4 3 2 1]", ids(es), err)
	}
	// No time for the prefix: the whole word's matches, cut.
	if got, cut := typed(time.Nanosecond, "git", "pus"); !cut || !slices.Equal(got, []int64{3}) {
		t.Errorf("git pus without time = %v (cut %v); want [3], cut", got, cut)
	}
	// A last word too short to be a prefix needs no time.
	if got, cut := typed(time.Nanosecond, "git", "pu"); cut || len(got) != 0 {
		t.Errorf("git pu = %v (cut %v); want nothing, not cut", got, cut)
	}
	// The caller's own end is an error, not a cut.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, cut, err := s.SearchOutputsTyped(cctx, OutputSearch{Words: []string{"git", "pus"}}, time.Minute); err == nil || cut {
		t.Errorf("a cancelled search = cut %v, %v; want an error", cut, err)
	}
}
