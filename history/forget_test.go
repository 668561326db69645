package history_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hookd/hookd/history"
)

// rawBytes returns the database file and its WAL, as they are on disk.
func rawBytes(t *testing.T, path string) []byte {
	t.Helper()
	var all []byte
	for _, p := range []string{path, path + "-wal"} {
		b, err := os.ReadFile(p)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		all = append(all, b...)
	}
	return all
}

func TestForget(t *testing.T) {
	ctx := t.Context()
	s := sampleStore(t)
	all, err := s.List(ctx, history.Query{})
	if err != nil {
		t.Fatal(err)
	}
	byCmd := map[string]int64{}
	for _, e := range all {
		byCmd[e.Command] = e.ID
	}
	ids := []int64{byCmd["make test"], byCmd["cat a_b.txt"], 999999, byCmd["make test"]}
	n, err := s.Forget(ctx, ids)
	if err != nil || n != 2 {
		t.Errorf("Forget(%v) = %d, %v; want 2 (unknown and repeated ids not counted)", ids, n, err)
	}
	for _, c := range []string{"make test", "cat a_b.txt"} {
		if _, err := s.Get(ctx, byCmd[c]); err == nil {
			t.Errorf("Get(%d) (%q) after Forget succeeded", byCmd[c], c)
		}
	}
	got, err := s.List(ctx, history.Query{})
	if err != nil || len(got) != len(all)-2 {
		t.Errorf("List after Forget = %d entries, %v; want %d", len(got), err, len(all)-2)
	}
	if n, err := s.Forget(ctx, nil); n != 0 || err != nil {
		t.Errorf("Forget(nil) = %d, %v; want 0, nil", n, err)
	}
}

func TestForgetMatch(t *testing.T) {
	tests := []struct {
		re   string
		n    int
		left []string // what stays, newest first
	}{
		{`^git `, 2, nil},
		{`(?i)^git\b`, 3, nil},
		{`done$`, 2, nil},
		{`^$`, 0, nil},
		{`.`, len(sample), []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.re, func(t *testing.T) {
			ctx := t.Context()
			s := sampleStore(t)
			re := regexp.MustCompile(tt.re)
			n, err := s.ForgetMatch(ctx, re)
			if err != nil || n != tt.n {
				t.Fatalf("ForgetMatch(%s) = %d, %v; want %d", tt.re, n, err, tt.n)
			}
			got, err := s.List(ctx, history.Query{})
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, e := range slices.Backward(sample) {
				if !re.MatchString(e.Command) {
					want = append(want, e.Command)
				}
			}
			if want == nil {
				want = []string{}
			}
			if c := commands(got); !reflect.DeepEqual(c, want) {
				t.Errorf("after ForgetMatch(%s): List = %q; want %q", tt.re, c, want)
			}
		})
	}
}

// TestForgetLeavesNoTrace checks that a forgotten command is gone from the
// bytes on disk, not just from the queries: in the database file and in its
// WAL, whether it was still in the WAL or already checkpointed, short or
// spilling onto overflow pages.
func TestForgetLeavesNoTrace(t *testing.T) {
	tests := []struct {
		name       string
		checkpoint bool // move everything into the main file first
		long       bool // text larger than a page
		match      bool // ForgetMatch rather than Forget
	}{
		{"in WAL", false, false, false},
		{"checkpointed", true, false, false},
		{"long in WAL", false, true, false},
		{"long checkpointed", true, true, true},
		{"match checkpointed", true, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := t.Context()
			path := filepath.Join(t.TempDir(), "history.db")
			s := openAt(t, path)
			secret := "curl -H 'X-Secret: zq8RPvW3kLm9TtY2'"
			if tt.long {
				secret += " -d '" + strings.Repeat("zq8RPvW3kLm9TtY2 payload ", 400) + "'"
			}
			var es []history.Entry
			for i := range 300 {
				es = append(es, history.Entry{Session: "s", Seq: int64(i + 1), Command: fmt.Sprintf("echo keep %d", i), StartedAt: t0 + int64(i)})
			}
			es[150].Command = secret
			add(t, s, nil, es...)
			if tt.checkpoint {
				if _, err := rawDB(t, path).Exec("PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
					t.Fatal(err)
				}
			}
			needle := []byte("zq8RPvW3kLm9TtY2")
			if !bytes.Contains(rawBytes(t, path), needle) {
				t.Fatalf("the secret is not on disk before Forget: the test proves nothing")
			}

			var n int
			var err error
			if tt.match {
				n, err = s.ForgetMatch(ctx, regexp.MustCompile(`X-Secret`))
			} else {
				var e history.Entry
				e, err = s.Recent(ctx, "s", 150)
				if err != nil || e.Command != secret {
					t.Fatalf("Recent(s, 150) = %.40q, %v", e.Command, err)
				}
				n, err = s.Forget(ctx, []int64{e.ID})
			}
			if err != nil || n != 1 {
				t.Fatalf("Forget = %d, %v; want 1", n, err)
			}
			if raw := rawBytes(t, path); bytes.Contains(raw, needle) {
				t.Errorf("the forgotten command is still in the database file or WAL (at byte %d of %d)", bytes.Index(raw, needle), len(raw))
			}
			// The rest is intact.
			got, err := s.List(ctx, history.Query{})
			if err != nil || len(got) != 299 {
				t.Errorf("List after Forget = %d entries, %v; want 299", len(got), err)
			}
			if err := s.Check(ctx); err != nil {
				t.Errorf("Check after Forget: %v", err)
			}
		})
	}
}
