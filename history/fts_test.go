package history

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/required"
)

// TestFullTextSameResults checks that queries give the same rows through the
// full-text index as by scanning, including after a build without the index
// wrote to and deleted from the database. It needs -tags sqlite_fts5.
func TestFullTextSameResults(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "h.db")
	s, err := Open(ctx, path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !s.fts {
		required.Cannot(t, "this SQLite has no FTS5 (built without -tags sqlite_fts5)")
	}
	add := func(s *Store, from, to int) {
		tx, err := s.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for i := from; i < to; i++ {
			text := fmt.Sprintf("echo common %d", i)
			switch {
			case i%500 == 7:
				text = fmt.Sprintf(`grep "Rare-Word" file%d.txt`, i)
			case i%97 == 3:
				text = fmt.Sprintf("make -C dir%d ab", i)
			}
			if _, err := tx.AddCommand(ctx, Entry{Session: "s", Seq: int64(i + 1), Command: text, StartedAt: int64(i)}); err != nil {
				t.Fatal(err)
			}
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	add(s, 0, 3000)
	// A build without FTS5 adds and forgets rows: it cannot touch the index.
	noFTS := &Store{db: s.db, path: s.path}
	add(noFTS, 3000, 4000)
	if _, err := noFTS.Forget(ctx, []int64{8, 1508}); err != nil {
		t.Fatal(err)
	}
	// The next open with FTS5 brings the index up to date.
	s2, err := Open(ctx, path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	scan := &Store{db: s2.db, path: s2.path}
	for _, q := range []string{"rare-word", "RARE-WORD file", "ab", "make ab", "common", `"Rare`, "no such thing", "dir3000"} {
		for _, failed := range []bool{false, true} {
			query := Query{Text: q, Limit: 20, Failed: failed}
			want, err1 := scan.List(ctx, query)
			got, err2 := s2.List(ctx, query)
			if err1 != nil || err2 != nil || !reflect.DeepEqual(ids(got), ids(want)) {
				t.Errorf("List(%+v) with the index = %v, %v; by scanning %v, %v", query, ids(got), err2, ids(want), err1)
			}
		}
	}
	if got, _ := s2.List(ctx, Query{Text: "rare-word"}); len(got) != 8-2 {
		t.Errorf("rare-word: %d rows; want 6 (8 added, 2 forgotten)", len(got))
	}
}

func ids(es []Entry) []int64 {
	var v []int64
	for _, e := range es {
		v = append(v, e.ID)
	}
	return v
}
