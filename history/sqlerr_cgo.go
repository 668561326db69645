//go:build cgo

package history

import (
	"database/sql"
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

// driverName is the driver a Store opens its database with: go-sqlite3's,
// with each connection's temporary files in memory. A run added in a
// transaction fires triggers that write other tables (the stats totals,
// totals.go), and SQLite keeps a statement journal of every page such a
// statement changes, to undo it alone if it fails: in a file, that was
// twenty writes a run, and imports ran at half the speed.
const driverName = "sqlite3_hookd"

func init() {
	sql.Register(driverName, &sqlite3.SQLiteDriver{ConnectHook: func(c *sqlite3.SQLiteConn) error {
		_, err := c.Exec("PRAGMA temp_store = MEMORY", nil)
		return err
	}})
}
