package history

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/user"
	"strconv"
	"syscall"
	"time"
)

// ReadOnlyError says why the history could be opened only for reading:
// the file (or its directory, or the file system) cannot be written.
// Reading works; recording is stopped until it can be written again, and
// commands wait in the spool meanwhile: nothing is lost.
type ReadOnlyError struct {
	Path  string
	Owner string // the file's owner when it is not the user ("root"), else ""
	Err   error
}

func (e *ReadOnlyError) Error() string {
	why := e.Err.Error()
	var pe *fs.PathError
	if errors.As(e.Err, &pe) {
		why = pe.Err.Error()
	}
	msg := fmt.Sprintf("recording is stopped: %s cannot be written (%s", e.Path, why)
	if e.Owner != "" {
		msg += "; it belongs to " + e.Owner
	}
	msg += "); new commands wait in the spool and nothing is lost"
	switch {
	case e.Owner != "":
		msg += fmt.Sprintf("; `sudo chown %s %s` lets hookd record again", currentUser(), e.Path)
	case errors.Is(e.Err, syscall.EROFS):
		msg += "; the file system is mounted read-only"
	default:
		msg += fmt.Sprintf("; `chmod u+w %s` lets hookd record again", e.Path)
	}
	return msg
}

func (e *ReadOnlyError) Unwrap() error { return e.Err }

func currentUser() string {
	if u, err := user.Current(); err == nil {
		return u.Username
	}
	return "$USER"
}

// DiskFullError says that the disk holding the history is full: what is
// stored can be read, and recording waits for room.
type DiskFullError struct {
	Path string
	Err  error
}

func (e *DiskFullError) Error() string {
	return fmt.Sprintf("recording is paused: the disk holding %s is full (%v); commands wait in the spool and nothing is lost: hookd stores them once there is room again", e.Path, e.Err)
}

func (e *DiskFullError) Unwrap() error { return e.Err }

// IsDiskFull reports whether err means the disk is full: SQLITE_FULL, or
// an I/O error whose cause is ENOSPC (or EDQUOT, a full quota).
func IsDiskFull(err error) bool {
	code, errno, ok := sqliteError(err)
	if ok && (code == sqliteFull || errno == syscall.ENOSPC || errno == syscall.EDQUOT || errno == syscall.EFBIG) {
		return true
	}
	// (EFBIG: a file past `ulimit -f`, as full as the disk for the writer.)
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) || errors.Is(err, syscall.EFBIG)
}

// readOnly reports whether err means the database cannot be written (the
// file, its directory or the file system), as opposed to missing or
// damaged.
func readOnly(err error) bool {
	if sqliteIs(err, sqliteReadonly, sqlitePerm) {
		return true
	}
	return errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS)
}

// openReadOnly opens an existing database at path for reading only, why
// being the error that writing it gave.
func openReadOnly(ctx context.Context, path string, busy time.Duration, why error) (*Store, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	var reason error
	ro := &ReadOnlyError{Path: path, Err: why}
	if IsDiskFull(why) {
		reason = &DiskFullError{Path: path, Err: why}
	} else {
		reason = ro
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Geteuid() {
		ro.Owner = "uid " + strconv.Itoa(int(st.Uid))
		if u, err := user.LookupId(strconv.Itoa(int(st.Uid))); err == nil {
			ro.Owner = u.Username
		}
	}
	// A WAL database read without write access to its -shm: SQLite reads
	// it as it is (immutable) when it cannot share the WAL index.
	for _, mode := range []string{"mode=ro", "mode=ro&immutable=1"} {
		dsn := fmt.Sprintf("file:%s?%s&_busy_timeout=%d&_query_only=1", escapePath(path), mode, busy.Milliseconds())
		db, err := sql.Open("sqlite3", dsn)
		if err != nil {
			return nil, err
		}
		db.SetMaxOpenConns(1)
		s := &Store{db: db, path: path, file: identify(path), readOnly: reason}
		var n int
		if err = db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master").Scan(&n); err == nil {
			s.fts = s.ftsUpToDate(ctx)
			for _, suffix := range []string{"-wal", "-shm"} {
				os.Chmod(path+suffix, 0o600) // best effort, as Open does
			}
			return s, nil
		}
		db.Close()
		if mode != "mode=ro" {
			return nil, fmt.Errorf("open history %s read-only: %w", path, classify(err))
		}
	}
	return nil, nil
}

// ReadOnly is nil when the history can be written, else why not (a
// *ReadOnlyError or a *DiskFullError): reading works, recording is
// stopped.
func (s *Store) ReadOnly() error { return s.readOnly }

// ftsUpToDate reports whether the full-text index is there and current,
// without writing (a read-only store cannot bring it up to date).
func (s *Store) ftsUpToDate(ctx context.Context) bool {
	var upto string
	var max, stale, exists int64
	err := s.db.QueryRowContext(ctx, `SELECT COALESCE((SELECT value FROM meta WHERE key = 'fts_upto'), ''),
		(SELECT COALESCE(max(id), 0) FROM commands), (SELECT count(*) FROM meta WHERE key = 'fts_stale'),
		(SELECT count(*) FROM sqlite_master WHERE name = 'commands_fts')`).Scan(&upto, &max, &stale, &exists)
	return err == nil && exists == 1 && upto == strconv.FormatInt(max, 10) && stale == 0
}
