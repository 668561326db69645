package history_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/hookd/hookd/history"
)

func ExampleStore_List() {
	dir, _ := os.MkdirTemp("", "hookd-example")
	defer os.RemoveAll(dir)
	ctx := context.Background()
	s, err := history.Open(ctx, filepath.Join(dir, "history.db"), time.Second)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()

	tx, _ := s.Begin(ctx)
	for i, text := range []string{"make build", "make test", "git push"} {
		tx.AddCommand(ctx, history.Entry{Session: "s1", Seq: int64(i + 1), Command: text, ExitCode: i % 2, StartedAt: int64(i)})
	}
	tx.Commit()

	failed, _ := s.List(ctx, history.Query{Text: "MAKE", Failed: true})
	for _, e := range failed {
		fmt.Printf("%d %s (exit %d)\n", e.Seq, e.Command, e.ExitCode)
	}
	// Output:
	// 2 make test (exit 1)
}
