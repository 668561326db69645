// Package history keeps the command history in a SQLite database.
//
// One process writes at a time (SQLite serialises writers; the agent and a
// CLI flushing spools both go through Tx); any number read. Times are
// microseconds since the epoch.
package history

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	sqlite3 "github.com/mattn/go-sqlite3"
)

// Entry is one recorded command.
type Entry struct {
	ID          int64
	Session     string
	Seq         int64
	Command     string
	ExitCode    int
	Pipestatus  []int
	Cwd         string
	StartedAt   int64 // microseconds since the epoch
	DurationUS  int64
	Shell       string
	Host        string
	User        string
	TTY         string
	OutputBytes int64  // size of the stored output (0: none)
	Source      string // "hook", "import" or "run"
}

// Session describes the shell a command came from.
type Session struct {
	ID        string
	Shell     string
	Version   string
	PID       int
	Host      string
	User      string
	UID       int
	TTY       string
	StartedAt int64
	// Capture is the session's output capture: "pty", "off", or "" when
	// the shell did not say (hooks older than capture, imports).
	Capture string
}

// ErrCorrupt reports a database file that SQLite cannot read.
var ErrCorrupt = errors.New("database is corrupt")

// Store is an open history database.
type Store struct {
	db   *sql.DB
	path string
	fts  bool // the full-text index is there and up to date (fts.go)
}

// Open opens the database at path, creating it (0600, in a 0700 directory)
// and migrating its schema as needed. busy is how long to wait for a lock
// held by another process. A file that is not a readable database gives an
// error wrapping ErrCorrupt: see Recover.
func Open(ctx context.Context, path string, busy time.Duration) (*Store, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("open history: %w", err)
	}
	if f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600); err == nil {
		f.Close()
	} else {
		return nil, fmt.Errorf("open history %s: %w", path, err)
	}
	dsn := fmt.Sprintf("file:%s?_busy_timeout=%d&_journal_mode=WAL&_synchronous=NORMAL&_foreign_keys=off&_txlock=immediate",
		escapePath(path), busy.Milliseconds())
	db, err := sql.Open("sqlite3", dsn)
	if err != nil {
		return nil, fmt.Errorf("open history %s: %w", path, err)
	}
	db.SetMaxOpenConns(1) // one connection: no surprise locks between our own statements
	s := &Store{db: db, path: path}
	// Processes opening a new database at once race to switch it to WAL
	// mode, and SQLite does not wait for the lock that takes: the loser's
	// connection fails at once with SQLITE_BUSY. Try again until busy.
	deadline := time.Now().Add(busy)
	for {
		err = s.migrate(ctx)
		var se sqlite3.Error
		if err == nil || !errors.As(err, &se) || se.Code != sqlite3.ErrBusy || !time.Now().Before(deadline) {
			break
		}
		select {
		case <-ctx.Done():
		case <-time.After(10 * time.Millisecond):
		}
	}
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("open history %s: %w", path, classify(err))
	}
	if err := s.initFTS(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("open history %s: %w", path, classify(err))
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		os.Chmod(path+suffix, 0o600) // best effort: they may not exist yet
	}
	return s, nil
}

func escapePath(p string) string {
	return strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(p)
}

// classify wraps errors that mean the file is not a usable database.
func classify(err error) error {
	var se sqlite3.Error
	if errors.As(err, &se) && (se.Code == sqlite3.ErrCorrupt || se.Code == sqlite3.ErrNotADB) {
		return fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	return err
}

// OpenRecover opens the database at path like Open, after a quick integrity
// check when check is set. A database found corrupt is moved aside (see
// Recover) and a new one started; aside then says where the old one went.
func OpenRecover(ctx context.Context, path string, busy time.Duration, check bool) (s *Store, aside string, err error) {
	s, err = Open(ctx, path, busy)
	if err == nil && check {
		if err = s.Check(ctx); err != nil {
			s.Close()
		}
	}
	if errors.Is(err, ErrCorrupt) {
		if aside, err = Recover(path, time.Now()); err != nil {
			return nil, "", err
		}
		s, err = Open(ctx, path, busy)
	}
	if err != nil {
		return nil, aside, err
	}
	return s, aside, nil
}

// IsBusy reports an error caused by another process holding the database.
func IsBusy(err error) bool {
	var se sqlite3.Error
	return errors.As(err, &se) && (se.Code == sqlite3.ErrBusy || se.Code == sqlite3.ErrLocked)
}

// Recover moves a corrupt database (and its WAL files) aside, so that a new
// one can be created, and returns where it went.
func Recover(path string, now time.Time) (string, error) {
	aside := fmt.Sprintf("%s.corrupt-%s", path, now.UTC().Format("20060102T150405Z"))
	if err := os.Rename(path, aside); err != nil {
		return "", fmt.Errorf("move corrupt history aside: %w", err)
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		if err := os.Rename(path+suffix, aside+suffix); err != nil && !errors.Is(err, os.ErrNotExist) {
			return aside, fmt.Errorf("move corrupt history aside: %w", err)
		}
	}
	return aside, nil
}

// Path returns the database file's path.
func (s *Store) Path() string { return s.path }

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// Check runs SQLite's quick integrity check.
func (s *Store) Check(ctx context.Context) error {
	var res string
	if err := s.db.QueryRowContext(ctx, "PRAGMA quick_check").Scan(&res); err != nil {
		return classify(err)
	}
	if res != "ok" {
		return fmt.Errorf("%w: %s", ErrCorrupt, res)
	}
	return nil
}
