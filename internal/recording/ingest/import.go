package ingest

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"time"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/recording/histfile"
)

// Import adds the entries of a shell's history file to store, under one
// session per shell ("import-bash", "import-zsh"). Each gets a sequence
// number derived from its time, text and how often that pair came before,
// so importing the same file again, or a longer version of it, adds nothing
// twice. Entries without a time get one just before the file's modification
// time, in file order. It returns how many were added and how many the
// rules left out.
func Import(ctx context.Context, store *history.Store, rules *Rules, shell string, entries []histfile.Entry, mtime time.Time) (added, ignored int, err error) {
	session := "import-" + shell
	tx, err := store.Begin(ctx)
	if err != nil {
		return 0, 0, err
	}
	defer tx.Rollback()
	if err := tx.AddSession(ctx, history.Session{ID: session, Shell: shell}); err != nil {
		return 0, 0, err
	}
	seen := map[[32]byte]int{}
	for i, en := range entries {
		if i%1024 == 0 && ctx.Err() != nil {
			return 0, 0, ctx.Err()
		}
		at := en.Time
		if at.IsZero() {
			at = mtime.Add(-time.Duration(len(entries)-i) * time.Microsecond)
		}
		key := sha256.Sum256([]byte(fmt.Sprintf("%d\x00%s", en.Time.Unix(), en.Command)))
		seen[key]++
		h := sha256.Sum256(append(key[:], byte(seen[key]), byte(seen[key]>>8), byte(seen[key]>>16)))
		seq := int64(binary.BigEndian.Uint64(h[:8]) >> 1)
		if seq == 0 {
			seq = 1
		}
		text, ok, _ := rules.Filter(en.Command, "")
		if !ok {
			ignored++
			continue
		}
		ok, err := tx.AddCommand(ctx, history.Entry{Session: session, Seq: seq, Command: text, StartedAt: at.UnixMicro(),
			DurationUS: en.Duration.Microseconds(), Source: "import"})
		if err != nil {
			return 0, 0, err
		}
		if ok {
			added++
		}
	}
	return added, ignored, tx.Commit()
}
