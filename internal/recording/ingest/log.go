package ingest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/hookd/hookd/history"
)

// chunk is how much of a log one transaction takes, unless one record is
// larger: up to the log's own bound on a record (a larger one is skipped as
// malformed).
const chunk = 4 << 20

// ErrReplaced is the error of a pass that found the history database
// replaced under it (see history.Store.Replaced): the caller reopens the
// database and runs the pass again; nothing was lost.
var ErrReplaced = errors.New("the history database was replaced while it was written (moved aside as corrupt, or removed)")

// decodeFunc stores in tx the complete records at the start of buf and
// returns how many bytes they took. more says that the log goes on after
// buf; final that its writer has ended, so that a record cut short at the
// end of buf will never be finished. A record it cannot read is skipped
// (its bytes counted as used) and counted in bad, its problem noted in the
// stats.
type decodeFunc func(ctx context.Context, tx *history.Tx, buf []byte, more, final bool) (used, bad int, err error)

// logFile is an append-only file read by offset: a shell's spool, or a
// proxy's output stream. Its read offset is kept in the history's spools
// table under key, with the inode of the file it belongs to.
type logFile struct {
	f     *os.File
	path  string
	key   string
	inode uint64
	// maxRecord bounds one record: a larger one is skipped as malformed.
	maxRecord int64
}

// openLog opens the log at path read-write, so that punch can free what was
// read (fallocate needs a descriptor open for writing), or read-only where
// that is not allowed. A log removed meanwhile (by another ingester) is
// (nil, nil).
func openLog(path, key string, maxRecord int64) (*logFile, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		f, err = os.Open(path)
	}
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if fi.Mode().Perm()&0o077 != 0 {
		f.Chmod(0o600) // the writer's umask may have been loose
	}
	return &logFile{f: f, path: path, key: key, inode: fi.Sys().(*syscall.Stat_t).Ino, maxRecord: maxRecord}, nil
}

func (l *logFile) Close() error { return l.f.Close() }

// unchanged reports whether the log is as the offsets read before the pass
// left it: then there is nothing to do and no write transaction is needed.
func (l *logFile) unchanged(known history.SpoolState) bool {
	fi, err := l.f.Stat()
	return err == nil && known.Inode == l.inode && known.Offset == fi.Size()
}

// follow stores the records of the log up to limit bytes (its whole size
// when limit < 0), from its committed offset, one chunk per transaction.
func (l *logFile) follow(ctx context.Context, store *history.Store, limit int64, final bool, now time.Time, decode decodeFunc, st *Stats) error {
	for {
		done, err := l.step(ctx, store, limit, final, now, decode, st)
		if err != nil {
			return fmt.Errorf("ingest %s: %w", filepath.Base(l.path), err)
		}
		if done {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
}

// step reads one chunk of new records in one transaction.
func (l *logFile) step(ctx context.Context, store *history.Store, limit int64, final bool, now time.Time, decode decodeFunc, st *Stats) (done bool, err error) {
	tx, err := store.Begin(ctx)
	if err != nil {
		return true, err
	}
	defer tx.Rollback()
	ino, off, err := tx.SpoolOffset(ctx, l.key)
	if err != nil {
		return true, err
	}
	fi, err := l.f.Stat()
	if err != nil {
		return true, err
	}
	if ino != l.inode && fi.Sys().(*syscall.Stat_t).Nlink == 0 {
		// Removed, after it was read to the end, by another ingester that
		// has also dropped its offset: reading it again from 0 would count
		// its records, or the holes punched in it, a second time.
		return true, nil
	}
	size := fi.Size()
	if ino != l.inode || size < off {
		// A new file under an old name. A log never shrinks (punching
		// keeps its size), so a shorter one is new even when the file
		// system gave it the old file's inode number.
		off = 0
	}
	if limit >= 0 {
		size = min(size, limit)
	}
	if size <= off {
		return true, nil
	}
	want := int64(chunk)
	var used, bad int
	var buf []byte
	for {
		n := min(size-off, want)
		buf = make([]byte, n)
		k, err := l.f.ReadAt(buf, off)
		if err != nil && err != io.EOF {
			return true, err
		}
		buf = buf[:k]
		more := off+int64(k) < size
		used, bad, err = decode(ctx, tx, buf, more, final)
		if err != nil {
			return true, err
		}
		if used > 0 || !more {
			break
		}
		if want >= l.maxRecord {
			used, bad = len(buf), 1
			st.Problems = append(st.Problems, fmt.Sprintf("%s: offset %d: record longer than %d bytes", filepath.Base(l.path), off, l.maxRecord))
			break
		}
		want *= 2
	}
	st.Bad += bad
	if used == 0 {
		return true, nil // only the start of a record the writer is still writing
	}
	if err := tx.SetSpoolOffset(ctx, l.key, l.inode, off+int64(used), bad, now.UnixMicro()); err != nil {
		return true, err
	}
	if err := tx.Commit(); err != nil {
		return true, err
	}
	if store.Replaced() {
		// The database was moved aside (found corrupt by another
		// process) while this was written: what was committed went into
		// the old file. The bytes stay in the log, to be read again into
		// the new database.
		return true, ErrReplaced
	}
	punch(l.f, off+int64(used))
	return off+int64(used) >= size, nil
}

// retire removes the log of a writer that has ended, once it is read to the
// end. The file goes first: a crash in between leaves an offset row without
// a file, which the next pass drops, never a file that would be read again
// from 0. It reports whether the log was removed.
func (l *logFile) retire(ctx context.Context, store *history.Store) (bool, error) {
	fi, err := l.f.Stat()
	if err != nil || fi.Sys().(*syscall.Stat_t).Nlink == 0 {
		return false, err // already removed by another ingester
	}
	tx, err := store.Begin(ctx)
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	_, off, err := tx.SpoolOffset(ctx, l.key)
	if err != nil || off < fi.Size() {
		// Not read to the end: bytes written at the last moment are
		// read by the next pass first.
		return false, err
	}
	if err := os.Remove(l.path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return false, fmt.Errorf("remove %s: %w", filepath.Base(l.path), err)
	}
	if err := tx.DeleteSpool(ctx, l.key); err != nil {
		return false, err
	}
	return true, tx.Commit()
}

// writerEnded reports whether the process that writes a session's log (its
// pid is in the id, see spool.SessionPID) has exited.
func writerEnded(pid int) bool {
	return pid > 0 && errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}
