//go:build !cgo

package history

import "syscall"

// sqliteErr: without cgo there is no SQLite driver to have made the error
// (sqlerr_cgo.go).
func sqliteErr(error) (int, syscall.Errno) { return codeNone, 0 }

func sqliteVersion() string { return "" }
