//go:build cgo

package history

import (
	"errors"
	"syscall"

	sqlite3 "github.com/mattn/go-sqlite3"
)

// sqliteErr is SQLite's primary result code an error carries, and the
// system's errno behind it (codeNone, 0: not an error of SQLite's). The
// driver's error type exists only where cgo builds it: sqlerr_nocgo.go is
// the rest (a type-check of other systems, GOOS=darwin CGO_ENABLED=0).
func sqliteErr(err error) (int, syscall.Errno) {
	var se sqlite3.Error
	if !errors.As(err, &se) {
		return codeNone, 0
	}
	return int(se.Code), se.SystemErrno
}

func sqliteVersion() string {
	v, _, _ := sqlite3.Version()
	return v
}
