//go:build !cgo

package history

import "syscall"

// sqliteErr: without cgo there is no SQLite driver to have made the error
// (sqlerr_cgo.go).
func sqliteErr(error) (int, syscall.Errno) { return codeNone, 0 }

func sqliteVersion() string { return "" }

// driverName: the name a Store opens its database by (sqlerr_cgo.go).
const driverName = "sqlite3"
