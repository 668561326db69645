package ingest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hookd/hookd/capture"
	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/recording/outbox"
	"github.com/hookd/hookd/internal/recording/spool"
	"github.com/hookd/hookd/internal/redact"
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
	st, err := Spools(ctx, store, spoolDir, rules, now)
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
	if store.Replaced() {
		return ErrReplaced // the files stay, for the new database
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
	o, colours, redacted := StoredOutputColours(it, rules)
	if o.CreatedAt == 0 {
		o.CreatedAt = now.UnixMicro()
	}
	if err := tx.AddOutput(ctx, o); err != nil {
		return err
	}
	if colours != nil {
		colours.CreatedAt = o.CreatedAt
		if err := tx.AddOutput(ctx, *colours); err != nil {
			return err
		}
	}
	st.Outputs++
	st.Redacted += redacted
	return nil
}

// StoredOutput turns a captured output into what the history keeps: the
// text the terminal showed (see capture.Render; for a recorded output, one
// that reached no terminal, capture.RenderRecorded), with secrets redacted
// by the rules' redactor; a withheld one is a note. It returns how many secrets were replaced.
func StoredOutput(it outbox.Item, rules *Rules) (history.Output, int) {
	o, _, n := storedOutput(it, rules, false)
	return o, n
}

// StoredOutputColours is StoredOutput that also gives the output's colours
// (capture.Colours over the redacted text), to be stored in stream
// capture.ColourStream beside it: nil when it showed none. The colours are
// taken apart from the text before redaction, so a secret split by colour
// sequences is whole in the text the redactor reads, and the colours hold
// nothing but SGR parameters and offsets.
func StoredOutputColours(it outbox.Item, rules *Rules) (history.Output, *history.Output, int) {
	return storedOutput(it, rules, true)
}

func storedOutput(it outbox.Item, rules *Rules, colours bool) (history.Output, *history.Output, int) {
	o := history.Output{Session: it.Session, Seq: it.Seq, Stream: it.Stream, Bytes: it.Size, CreatedAt: it.Time}
	if it.Withheld {
		o.Flags |= history.OutputWithheld
		o.Text = []byte(capture.WithheldNote)
		return o, nil, 0
	}
	text, cs, full := capture.RenderColoured(it.Raw, it.Recorded)
	if full {
		o.Flags |= history.OutputFullScreen
	}
	if it.Size > int64(len(it.Raw)) {
		o.Flags |= history.OutputTruncated
	}
	var redacted int
	if rules != nil {
		plain := text
		text, redacted = rules.Redactor.String(text)
		if redacted > 0 {
			cs = cs.Remap(plain, text, redact.Marker)
		}
	}
	o.Text = []byte(text)
	if !colours || len(cs) == 0 || full || it.Stream != "" {
		return o, nil, redacted
	}
	c := &history.Output{Session: it.Session, Seq: it.Seq, Stream: capture.ColourStream, Text: cs,
		Bytes: int64(len(cs)), CreatedAt: it.Time}
	return o, c, redacted
}

// maxStreamItem bounds one output in a stream: the capture limit
// (output.limit) is far below it.
const maxStreamItem = 1 << 30

// streamKeyPrefix names a stream's read offset in the spools table, apart
// from the spools' own.
const streamKeyPrefix = "outs:"

// ingestStream stores the outputs appended to the stream at path up to
// size (its size when the outbox was listed, before the spools were read),
// exactly once (see the package documentation); the stream of a proxy that
// has ended is removed once read.
func ingestStream(ctx context.Context, store *history.Store, path string, size int64, rules *Rules, now time.Time, st *Stats) error {
	base := filepath.Base(path)
	l, err := openLog(path, streamKeyPrefix+base, maxStreamItem)
	if err != nil {
		return fmt.Errorf("ingest %s: %w", base, err)
	}
	if l == nil {
		return nil
	}
	defer l.Close()
	ended := writerEnded(spool.SessionPID(strings.TrimSuffix(base, outbox.StreamSuffix)))
	decode := func(ctx context.Context, tx *history.Tx, buf []byte, more, final bool) (int, int, error) {
		items, used, derr := outbox.DecodeStream(buf)
		bad := 0
		if derr != nil {
			// What follows a malformed item cannot be trusted: skip to the
			// end of what was read.
			bad = 1
			st.Problems = append(st.Problems, fmt.Sprintf("%s: %v", base, derr))
			used = len(buf)
		}
		for _, it := range items {
			if err := storeItem(ctx, tx, it, rules, now, st); err != nil {
				return 0, 0, err
			}
		}
		return used, bad, nil
	}
	if err := l.follow(ctx, store, size, ended, now, decode, st); err != nil {
		return err
	}
	if !ended {
		return nil
	}
	// Its proxy has ended: nothing more will come (a partial item at the
	// end was cut by a full disk, and will never be whole).
	_, err = l.retire(ctx, store)
	return err
}
