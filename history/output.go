package history

import (
	"context"
	"database/sql"
	"fmt"
)

// OutputFlags describe a stored output.
type OutputFlags int

const (
	// OutputTruncated: the command wrote more than the capture limit;
	// the text keeps its head and tail around a marker.
	OutputTruncated OutputFlags = 1 << iota
	// OutputFullScreen: a full-screen program (alternate screen) ran; its
	// screens are not kept, the text says so.
	OutputFullScreen
	// OutputPruned: the text was removed by the retention limits.
	OutputPruned
	// OutputWithheld: the command printed a secret (hookd sync init's
	// recovery phrase): nothing of its output was kept, the text says so.
	OutputWithheld
)

// Output is the captured output of one command, in one stream.
type Output struct {
	Session string
	Seq     int64
	// Stream is "" for the output as the terminal showed it, or "stdout"
	// or "stderr" (hookd run keeps them apart too), or "sgr" for the
	// colours of the output as the terminal showed it (package capture's
	// Colours: runs of SGR parameters over the text of stream "").
	Stream string
	// Text is the output as plain text (nil once pruned).
	Text []byte
	// Bytes is how many bytes the command wrote.
	Bytes     int64
	Flags     OutputFlags
	CreatedAt int64 // microseconds since the epoch
}

// AddOutput stores an output, replacing one already stored for the same
// command and stream.
func (t *Tx) AddOutput(ctx context.Context, o Output) error {
	text := o.Text
	if text == nil && o.Flags&OutputPruned == 0 {
		text = []byte{}
	}
	_, err := t.tx.ExecContext(ctx, `INSERT OR REPLACE INTO outputs (session, seq, stream, text, bytes, flags, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?)`, o.Session, o.Seq, o.Stream, text, o.Bytes, int(o.Flags), o.CreatedAt)
	if err != nil {
		return fmt.Errorf("add output %s:%d: %w", o.Session, o.Seq, classify(err))
	}
	if o.Stream == "" {
		if t.fts {
			err = oftsPut(ctx, t.tx, o.Session, o.Seq, text)
		} else if !t.ofStale {
			err = oftsStale(ctx, t.tx)
			t.ofStale = true
		}
		if err != nil {
			return fmt.Errorf("add output %s:%d: index: %w", o.Session, o.Seq, classify(err))
		}
	}
	return nil
}

// HasCommand reports whether the command with sequence number seq of
// session is in the history.
func (t *Tx) HasCommand(ctx context.Context, session string, seq int64) (bool, error) {
	var one int
	err := t.tx.QueryRowContext(ctx, "SELECT 1 FROM commands WHERE session = ? AND seq = ?", session, seq).Scan(&one)
	if err == sql.ErrNoRows {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("find command %s:%d: %w", session, seq, classify(err))
	}
	return true, nil
}

// Output returns the stored output of the command with sequence number seq
// of session, in stream; an error wrapping ErrNotFound when there is none.
func (s *Store) Output(ctx context.Context, session string, seq int64, stream string) (Output, error) {
	o := Output{Session: session, Seq: seq, Stream: stream}
	var flags int
	err := s.db.QueryRowContext(ctx, `SELECT text, bytes, flags, created_at FROM outputs
		WHERE session = ? AND seq = ? AND stream = ?`, session, seq, stream).Scan(&o.Text, &o.Bytes, &flags, &o.CreatedAt)
	if err == sql.ErrNoRows {
		return o, fmt.Errorf("output of %s:%d: %w", session, seq, ErrNotFound)
	}
	if err != nil {
		return o, fmt.Errorf("output of %s:%d: %w", session, seq, classify(err))
	}
	o.Flags = OutputFlags(flags)
	if o.Text == nil && o.Flags&OutputPruned == 0 {
		o.Text = []byte{}
	}
	return o, nil
}

// PruneStats says what PruneOutputs removed.
type PruneStats struct {
	Outputs int   // outputs whose text was removed (their colours go with them, uncounted)
	Bytes   int64 // bytes of text removed
}

// PruneOutputs applies the retention limits: it removes the text of
// outputs created before the time before (µs; 0: no age limit), then of
// the oldest outputs until the text kept totals at most maxBytes (0 or
// less: no size limit). A pruned output keeps its row, so that hookd can
// say its text was pruned rather than never captured.
func (s *Store) PruneOutputs(ctx context.Context, before int64, maxBytes int64) (PruneStats, error) {
	var st PruneStats
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return st, fmt.Errorf("prune outputs: %w", classify(err))
	}
	defer tx.Rollback()
	prune := func(where string, args ...any) error {
		var n, b int64
		if err := tx.QueryRowContext(ctx, `SELECT COALESCE(SUM(stream <> 'sgr'), 0), COALESCE(SUM(length(text)), 0) FROM outputs
			WHERE text IS NOT NULL AND `+where, args...).Scan(&n, &b); err != nil {
			return err
		}
		if n == 0 && b == 0 {
			return nil
		}
		// The index forgets the text too.
		var err error
		if s.fts {
			_, err = tx.ExecContext(ctx, `DELETE FROM outputs_fts WHERE rowid IN (SELECT c.id FROM outputs o
				JOIN commands c ON c.session = o.session AND c.seq = o.seq
				WHERE o.stream = '' AND o.text IS NOT NULL AND `+where+`)`, args...)
		} else {
			err = oftsStale(ctx, tx)
		}
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE outputs SET text = NULL, flags = flags | ?
			WHERE text IS NOT NULL AND `+where, append([]any{int(OutputPruned)}, args...)...); err != nil {
			return err
		}
		st.Outputs += int(n)
		st.Bytes += b
		return nil
	}
	if before > 0 {
		if err := prune("created_at < ?", before); err != nil {
			return st, fmt.Errorf("prune outputs: %w", classify(err))
		}
	}
	if maxBytes > 0 {
		var total int64
		if err := tx.QueryRowContext(ctx, "SELECT COALESCE(SUM(length(text)), 0) FROM outputs").Scan(&total); err != nil {
			return st, fmt.Errorf("prune outputs: %w", classify(err))
		}
		if total > maxBytes {
			// The newest outputs that fit are kept: find the creation
			// time from which the running total (newest first) exceeds
			// the limit, and prune everything up to it.
			var cut sql.NullInt64
			err := tx.QueryRowContext(ctx, `SELECT created_at FROM (
					SELECT created_at, SUM(length(text)) OVER (ORDER BY created_at DESC, session, seq, stream) AS run
					FROM outputs WHERE text IS NOT NULL)
				WHERE run > ? ORDER BY created_at DESC LIMIT 1`, maxBytes).Scan(&cut)
			if err != nil && err != sql.ErrNoRows {
				return st, fmt.Errorf("prune outputs: %w", classify(err))
			}
			if cut.Valid {
				if err := prune("created_at <= ?", cut.Int64); err != nil {
					return st, fmt.Errorf("prune outputs: %w", classify(err))
				}
			}
		}
	}
	if err := tx.Commit(); err != nil {
		return st, fmt.Errorf("prune outputs: %w", classify(err))
	}
	return st, nil
}
