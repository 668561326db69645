//go:build darwin || freebsd || netbsd || openbsd

package runctx

import "syscall"

// mtime: the BSDs and macOS name the field Mtimespec (mtime_linux.go).
func mtime(st *syscall.Stat_t) (sec, nsec int64) {
	return int64(st.Mtimespec.Sec), int64(st.Mtimespec.Nsec)
}
