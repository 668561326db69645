package ingest

import (
	"context"
	"errors"
	"time"

	"github.com/hookd/hookd/history"
)

// Flush opens the history for a command that reads it, after a pass that
// moves every finished command (and captured output) from the spools and
// the outbox into it, so that the last command typed is there.
type Flush struct {
	DB, SpoolDir, OutboxDir string
	Rules                   *Rules
	// Busy is how long to wait for a database another process writes.
	Busy time.Duration
	// Aside, when set, is told where a corrupt database was moved (what
	// could be read of it is salvaged into a new one).
	Aside func(path string)
}

// Flushed is what the passes of a Flush did.
type Flushed struct {
	// Problems says what the passes found wrong (malformed records, say),
	// one line each, for the daemon's log.
	Problems []string
	// Err is why the last pass failed, if it did: the history is read as
	// it is (a busy database is no reason not to read it). A full disk is
	// a *history.DiskFullError, which says that nothing was lost.
	Err error
	// ReadOnly, when the history could be opened only for reading, is
	// why (Store.ReadOnly): what waits stays in the spools, and no pass
	// ran.
	ReadOnly error
}

// Open opens the history and runs the pass. A database found corrupt
// during the pass (a damage that opening alone does not show), or moved
// aside by another process meanwhile, is opened again with a quick check,
// recovered if need be, and the pass is run again: nothing taken from a
// spool was lost, since a pass commits what it reads with the offsets.
func (f Flush) Open(ctx context.Context) (*history.Store, Flushed, error) {
	s, err := f.open(ctx, false)
	if err != nil {
		return nil, Flushed{}, err
	}
	var res Flushed
	if ro := s.ReadOnly(); ro != nil {
		res.ReadOnly = ro
		return s, res, nil
	}
	st, err := Pass(ctx, s, f.SpoolDir, f.OutboxDir, f.Rules, time.Now())
	if errors.Is(err, history.ErrCorrupt) || errors.Is(err, ErrReplaced) {
		s.Close()
		res.Problems = st.Problems
		if s, err = f.open(ctx, true); err != nil {
			return nil, res, err
		}
		st, err = Pass(ctx, s, f.SpoolDir, f.OutboxDir, f.Rules, time.Now())
	}
	res.Problems = append(res.Problems, st.Problems...)
	if history.IsDiskFull(err) {
		err = &history.DiskFullError{Path: f.DB, Err: err}
	}
	res.Err = err
	return s, res, nil
}

func (f Flush) open(ctx context.Context, check bool) (*history.Store, error) {
	s, aside, err := history.OpenRecover(ctx, f.DB, f.Busy, check)
	if aside != "" && f.Aside != nil {
		f.Aside(aside)
	}
	return s, err
}
