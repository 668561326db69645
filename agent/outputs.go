package agent

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/hookd/hookd/capture"
	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/outbox"
)

// outputBatch bounds how many outputs one transaction stores.
const outputBatch = 64

// Pass is one ingestion pass: the spools in spoolDir, then the captured
// outputs in outDir.
//
// The outbox is listed before the spools are read. A capturer writes an
// output only after the shell has written its command's record (the hooks
// write the record, then print the mark that ends the output), so every
// output listed has its command in a spool by then, and once the spools
// are ingested an output whose command is not in the history belongs to a
// command that was not recorded (a leading space, an ignore rule): it is
// dropped, never stored.
func Pass(ctx context.Context, store *history.Store, spoolDir, outDir string, rules *Rules, now time.Time) (Stats, error) {
	listed, lerr := outbox.Scan(outDir)
	st, err := Ingest(ctx, store, spoolDir, rules, now)
	if err != nil {
		// A spool not fully read may hold the commands of listed outputs:
		// they wait for the next pass.
		return st, err
	}
	if lerr != nil {
		st.Problems = append(st.Problems, lerr.Error())
		return st, lerr
	}
	if err := IngestOutputs(ctx, store, listed.Items, rules, now, &st); err != nil {
		return st, err
	}
	for path, size := range listed.Streams {
		if err := ingestStream(ctx, store, path, size, rules, now, &st); err != nil {
			st.Problems = append(st.Problems, err.Error())
			return st, err
		}
	}
	listed.RemoveStale(now, time.Hour)
	return st, nil
}

// IngestOutputs stores the outputs in the outbox files at paths as plain
// text with secrets redacted, and removes each file once its output is
// committed (or once it is known to belong to no recorded command).
func IngestOutputs(ctx context.Context, store *history.Store, paths []string, rules *Rules, now time.Time, st *Stats) error {
	for len(paths) > 0 {
		n := min(len(paths), outputBatch)
		if err := ingestOutputs(ctx, store, paths[:n], rules, now, st); err != nil {
			st.Problems = append(st.Problems, err.Error())
			return err
		}
		paths = paths[n:]
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	return nil
}

func ingestOutputs(ctx context.Context, store *history.Store, paths []string, rules *Rules, now time.Time, st *Stats) error {
	tx, err := store.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var done []string
	for _, p := range paths {
		it, err := outbox.Read(p)
		if errors.Is(err, os.ErrNotExist) {
			continue // another ingester took it
		}
		if err != nil {
			st.Bad++
			st.Problems = append(st.Problems, err.Error())
			if errors.Is(err, outbox.ErrBad) {
				done = append(done, p)
			}
			continue
		}
		if err := storeItem(ctx, tx, it, rules, now, st); err != nil {
			return err
		}
		done = append(done, p)
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	for _, p := range done {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			st.Problems = append(st.Problems, fmt.Sprintf("outbox: %v", err))
		}
	}
	return nil
}

// storeItem stores one captured output in tx, unless its command is not in
// the history (it was not recorded): then the output is dropped.
func storeItem(ctx context.Context, tx *history.Tx, it outbox.Item, rules *Rules, now time.Time, st *Stats) error {
	ok, err := tx.HasCommand(ctx, it.Session, it.Seq)
	if err != nil {
		return err
	}
	if !ok {
		st.OutputsDropped++
		return nil
	}
	o, redacted := StoredOutput(it, rules)
	if o.CreatedAt == 0 {
		o.CreatedAt = now.UnixMicro()
	}
	if err := tx.AddOutput(ctx, o); err != nil {
		return err
	}
	st.Outputs++
	st.Redacted += redacted
	return nil
}

// StoredOutput turns a captured output into what the history keeps: the
// text the terminal showed (see capture.Render), with secrets redacted by
// the rules' redactor. It returns how many secrets were replaced.
func StoredOutput(it outbox.Item, rules *Rules) (history.Output, int) {
	o := history.Output{Session: it.Session, Seq: it.Seq, Stream: it.Stream, Bytes: it.Size, CreatedAt: it.Time}
	text, full := capture.Render(it.Raw)
	if full {
		o.Flags |= history.OutputFullScreen
	}
	if it.Size > int64(len(it.Raw)) {
		o.Flags |= history.OutputTruncated
	}
	var redacted int
	if rules != nil {
		text, redacted = rules.Redactor.String(text)
	}
	o.Text = []byte(text)
	return o, redacted
}

// streamOffsetPrefix names a stream's read offset in the spools table,
// apart from the spools' own.
const streamOffsetPrefix = "outs:"

// ingestStream stores the outputs appended to the stream at path up to
// size (its size when the outbox was listed, before the spools were read),
// exactly once: the read offset is committed with the outputs. What was
// read is punched out of the file; the stream of a proxy that has ended is
// removed once read.
func ingestStream(ctx context.Context, store *history.Store, path string, size int64, rules *Rules, now time.Time, st *Stats) error {
	base := filepath.Base(path)
	key := streamOffsetPrefix + base
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("ingest %s: %w", base, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("ingest %s: %w", base, err)
	}
	inode := fi.Sys().(*syscall.Stat_t).Ino
	ended := sessionEnded(strings.TrimSuffix(base, outbox.StreamSuffix))
	for {
		tx, err := store.Begin(ctx)
		if err != nil {
			return err
		}
		ino, off, err := tx.SpoolOffset(ctx, key)
		if err != nil {
			tx.Rollback()
			return err
		}
		if ino != inode {
			off = 0
		}
		if off >= size {
			tx.Rollback()
			break
		}
		buf := make([]byte, min(size-off, chunk))
		k, err := f.ReadAt(buf, off)
		if err != nil && k < len(buf) {
			tx.Rollback()
			return fmt.Errorf("ingest %s: %w", base, err)
		}
		items, used, derr := outbox.DecodeStream(buf[:k])
		if derr != nil {
			// What follows a malformed item cannot be trusted: skip to the
			// end of what was listed.
			st.Bad++
			st.Problems = append(st.Problems, fmt.Sprintf("%s: %v", base, derr))
			used = k
		}
		for _, it := range items {
			if err := storeItem(ctx, tx, it, rules, now, st); err != nil {
				tx.Rollback()
				return err
			}
		}
		if used == 0 {
			tx.Rollback()
			break // an item larger than a chunk is not possible; one still being written is
		}
		if err := tx.SetSpoolOffset(ctx, key, inode, off+int64(used), 0, now.UnixMicro()); err != nil {
			tx.Rollback()
			return err
		}
		if err := tx.Commit(); err != nil {
			return err
		}
		punch(f, off+int64(used))
		if int64(k) < min(size-off, chunk) || off+int64(used) >= size {
			break
		}
	}
	if !ended {
		return nil
	}
	// Its proxy has ended: nothing more will come (a partial item at the
	// end was cut by a full disk, and will never be whole).
	tx, err := store.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	// Bytes written after the listing (just before the proxy ended) are
	// read by the next pass first.
	if now, err := f.Stat(); err != nil || now.Size() > size {
		return err
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove %s: %w", base, err)
	}
	if err := tx.DeleteSpool(ctx, key); err != nil {
		return err
	}
	return tx.Commit()
}
