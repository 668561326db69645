// Package history keeps the command history in a SQLite database.
//
// One process writes at a time (SQLite serialises writers; the daemon and a
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
	"strconv"
	"strings"
	"syscall"
	"time"
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
	Source      string // "hook", "import", "run" or "agent"
	// Author is who ran it: "" for the user's own shells, a coding
	// agent's name ("claude-code") for an agent's (see Session.Author).
	Author string
	// HostID is the installation that recorded the command when it came
	// through sync from another one; "" when it was recorded here.
	HostID string
}

// StatusKnown reports whether ExitCode is the command's real status: a
// shell's history file keeps none, so an imported command carries 0
// (a non-zero status there came from elsewhere, as fish's, and is kept).
func (e Entry) StatusKnown() bool { return e.Source != "import" || e.ExitCode != 0 }

// DurationKnown reports whether DurationUS was measured: an imported
// command and an agent's record without a duration carry 0. (A hook's 0,
// from fish, whose clock counts whole milliseconds, means under one.)
func (e Entry) DurationKnown() bool {
	return e.DurationUS != 0 || e.Source != "import" && e.Source != "agent"
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
	// Author is "" for the user's own shells, and the name of the coding
	// agent whose commands the session holds otherwise ("claude-code").
	Author string
}

// ErrCorrupt reports a database file that SQLite cannot read.
var ErrCorrupt = errors.New("database is corrupt")

// Store is an open history database.
type Store struct {
	db   *sql.DB
	path string
	fts  bool // the full-text index is there and up to date (fts.go)
	ofts bool // the output index holds every output (ofts.go): searches go through it
	// file and wal identify the database file opened and its WAL file
	// (device and inode), so that Replaced can tell when the path names
	// another one.
	file, wal fileID
	// readOnly says why the database is open for reading only (nil:
	// writable); see ReadOnly.
	readOnly error
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
	// A 16 MiB page cache (SQLite's default is 2 MiB): a transaction of
	// a spool's records touches the pages of every index of commands and
	// of the stats totals, and spilled them to the log over and over.
	dsn := fmt.Sprintf("file:%s?_busy_timeout=%d&_journal_mode=WAL&_synchronous=NORMAL&_foreign_keys=off&_txlock=immediate&_cache_size=-16384",
		escapePath(path), busy.Milliseconds())
	db, err := sql.Open(driverName, dsn)
	if err != nil {
		return nil, fmt.Errorf("open history %s: %w", path, err)
	}
	db.SetMaxOpenConns(1) // one connection: no surprise locks between our own statements
	s := &Store{db: db, path: path, file: identify(path)}
	// Processes opening a new database at once race to switch it to WAL
	// mode, and SQLite does not wait for the lock that takes: the loser's
	// connection fails at once with SQLITE_BUSY. Try again until busy.
	deadline := time.Now().Add(busy)
	for {
		err = s.migrate(ctx)
		if code, _ := sqliteErr(err); err == nil || code != codeBusy || !time.Now().Before(deadline) {
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
	// The WAL file lives as long as a connection is open (ours).
	s.wal = identify(path + "-wal")
	return s, nil
}

// unwrapOpen is the cause of an error of Open ("open history P: …").
func unwrapOpen(err error) error {
	if u := errors.Unwrap(err); u != nil {
		return u
	}
	return err
}

func escapePath(p string) string {
	return strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(p)
}

// classify wraps errors that mean the file is not a usable database.
func classify(err error) error {
	if code, _ := sqliteErr(err); code == codeCorrupt || code == codeNotADB {
		return fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	return err
}

// OpenRecover opens the database at path like Open, after a quick integrity
// check when check is set. A database found corrupt is moved aside, what can
// be read of it is salvaged into a new one (see recoverDB), and the new one is
// returned; aside then says where the old one went.
//
// A database that exists but cannot be written is opened for reading
// only: its ReadOnly says why, and recording is stopped.
func OpenRecover(ctx context.Context, path string, busy time.Duration, check bool) (s *Store, aside string, err error) {
	s, err = Open(ctx, path, busy)
	if err != nil && (readOnly(err) || IsDiskFull(err)) {
		if ro, rerr := openReadOnly(ctx, path, busy, unwrapOpen(err)); rerr == nil && ro != nil {
			return ro, "", nil
		}
	}
	var found fileID
	if err == nil && check {
		if err = s.Check(ctx); err != nil {
			found = s.file
			s.Close()
		}
	} else if err != nil {
		found = identify(path)
	}
	if errors.Is(err, ErrCorrupt) {
		return recoverDB(ctx, path, found, busy, time.Now())
	}
	if err != nil {
		return nil, "", err
	}
	return s, "", nil
}

// IsBusy reports an error caused by another process holding the database.
func IsBusy(err error) bool {
	code, _ := sqliteErr(err)
	return code == codeBusy || code == codeLocked
}

// recoverDB moves the corrupt database at path (and its WAL files) aside,
// opens a new one there, salvages into it every row it can read from the
// old one (see Store.Salvage), and returns it and where the old one went.
// found identifies the file that was found corrupt: when path names
// another file by the time the recovery lock is taken, another process has
// recovered it already, and that new database is opened instead (aside is
// then "").
//
// Processes that had the old file open keep writing into it: they must not
// trust a write until they have checked Replaced after it (package ingest
// does, before it removes anything from a spool).
func recoverDB(ctx context.Context, path string, found fileID, busy time.Duration, now time.Time) (s *Store, aside string, err error) {
	unlock, err := lockRecovery(ctx, path, busy)
	if err != nil {
		return nil, "", err
	}
	defer unlock()
	if cur := identify(path); cur != found && cur != (fileID{}) {
		s, err := Open(ctx, path, busy)
		return s, "", err
	}
	aside = fmt.Sprintf("%s.corrupt-%s", path, now.UTC().Format("20060102T150405.000Z"))
	if err := os.Rename(path, aside); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, "", fmt.Errorf("move corrupt history aside: %w", err)
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		if err := os.Rename(path+suffix, aside+suffix); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, aside, fmt.Errorf("move corrupt history aside: %w", err)
		}
	}
	if s, err = Open(ctx, path, busy); err != nil {
		return nil, aside, err
	}
	st, err := s.Salvage(ctx, aside)
	if err != nil {
		s.Close()
		return nil, aside, fmt.Errorf("salvage %s: %w", aside, err)
	}
	if err := s.setMeta(ctx, salvagedKey+filepath.Base(aside), strconv.Itoa(st.Commands)); err != nil {
		s.Close()
		return nil, aside, err
	}
	return s, aside, nil
}

// salvagedKey prefixes the meta key that says how many commands were
// salvaged from a database moved aside (its file name follows).
const salvagedKey = "salvaged:"

// Aside is a corrupt database that was moved aside and is still there.
type Aside struct {
	Path string
	// Salvaged is how many of its commands were copied into the history
	// (-1: not known, it was moved by an older hookd).
	Salvaged int
}

// Asides lists the corrupt databases moved aside next to the history that
// are still there, for `hookd status` to name until the user removes them.
func (s *Store) Asides(ctx context.Context) []Aside {
	matches, _ := filepath.Glob(s.path + ".corrupt-*")
	var out []Aside
	for _, m := range matches {
		if strings.HasSuffix(m, "-wal") || strings.HasSuffix(m, "-shm") {
			continue
		}
		a := Aside{Path: m, Salvaged: -1}
		var v string
		if s.db.QueryRowContext(ctx, "SELECT value FROM meta WHERE key = ?", salvagedKey+filepath.Base(m)).Scan(&v) == nil {
			if n, err := strconv.Atoi(v); err == nil {
				a.Salvaged = n
			}
		}
		out = append(out, a)
	}
	return out
}

func (s *Store) setMeta(ctx context.Context, key, value string) error {
	_, err := s.db.ExecContext(ctx, "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", key, value)
	return classify(err)
}

// Replaced reports whether the database file at the store's path, or its
// WAL file, is no longer the one it opened: another process moved it aside
// (it was corrupt) or removed it. Writes made since may have gone where no
// one will read them: close the store and open the path again.
func (s *Store) Replaced() bool {
	return identify(s.path) != s.file || s.wal != (fileID{}) && identify(s.path+"-wal") != s.wal
}

// fileID identifies a file by device and inode; the zero value is "no file".
type fileID struct{ dev, ino uint64 }

func identify(path string) fileID {
	fi, err := os.Stat(path)
	if err != nil {
		return fileID{}
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileID{}
	}
	return fileID{uint64(st.Dev), st.Ino}
}

// lockRecovery takes the lock that makes one process at a time recover
// the database at path, waiting up to busy for it.
func lockRecovery(ctx context.Context, path string, busy time.Duration) (unlock func(), err error) {
	f, err := os.OpenFile(path+".lock", os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("recover history: %w", err)
	}
	deadline := time.Now().Add(busy)
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() { syscall.Flock(int(f.Fd()), syscall.LOCK_UN); f.Close() }, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			f.Close()
			return nil, fmt.Errorf("recover history: lock: %w", err)
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			f.Close()
			return nil, errors.New("another hookd process is recovering the damaged history database: try again in a moment")
		}
		time.Sleep(20 * time.Millisecond)
	}
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
