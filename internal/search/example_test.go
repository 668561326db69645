package search_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/search"
)

// An engine over a history: the command whose output said "panic", found
// by that word, with the line that matched.
func Example() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "search-example")
	defer os.RemoveAll(dir)
	s, err := history.Open(ctx, filepath.Join(dir, "history.db"), time.Second)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	tx, _ := s.Begin(ctx)
	tx.AddSession(ctx, history.Session{ID: "s1", Shell: "bash"})
	tx.AddCommand(ctx, history.Entry{Session: "s1", Seq: 1, Command: "go test ./...", ExitCode: 1, Cwd: "/src/api", StartedAt: 1})
	out := "ok  \tapi/db\npanic: runtime error: index out of range [3]\n"
	tx.AddOutput(ctx, history.Output{Session: "s1", Seq: 1, Text: []byte(out), Bytes: int64(len(out))})
	if err := tx.Commit(); err != nil {
		fmt.Println(err)
		return
	}

	e := search.New(s, search.Here{Cwd: "/src/api"}, "")
	res, err := e.Search(ctx, search.Query{Text: "panic", Filter: search.Filter{Failed: true}, Limit: 10})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range res {
		fmt.Printf("%s (exit %d, %d run) matched in the %s, line %d: %s\n", r.Command, r.ExitCode, r.Count, r.Matched, r.LineNo, r.Line)
	}
	// Output:
	// go test ./... (exit 1, 1 run) matched in the output, line 2: panic: runtime error: index out of range [3]
}
