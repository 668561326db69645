//go:build cgo

package history

import (
	"errors"
	"syscall"

	sqlite3 "github.com/mattn/go-sqlite3"
)

// sqliteError is the SQLite result code of err and the system errno behind
// it, when err came from SQLite. It is the one place that reads
// go-sqlite3's error type, which exists only in cgo builds: sqlite_nocgo.go
// answers for the builds that only type-check (macOS and FreeBSD in CI).
func sqliteError(err error) (code int, errno syscall.Errno, ok bool) {
	var se sqlite3.Error
	if !errors.As(err, &se) {
		return 0, 0, false
	}
	return int(se.Code), se.SystemErrno, true
}

// SQLiteVersion is the version of the SQLite library compiled into this
// build (go-sqlite3 bundles its own), read without opening a database.
func SQLiteVersion() string {
	v, _, _ := sqlite3.Version()
	return v
}
