//go:build !cgo

package history

import (
	"syscall"

	_ "github.com/mattn/go-sqlite3" // its stub driver: every Open fails, saying cgo is needed
)

// sqliteError: without cgo go-sqlite3 is a stub whose every Open fails
// with a plain error, so no error is SQLite's own. Such builds are only
// type-checked (see docs/install.md); hookd needs cgo to run.
func sqliteError(error) (code int, errno syscall.Errno, ok bool) { return 0, 0, false }

// SQLiteVersion is empty: no SQLite is compiled into a build without cgo.
func SQLiteVersion() string { return "" }
