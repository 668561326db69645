//go:build darwin || freebsd

package runctx

import "syscall"

// mtime is a stat's modification time, in seconds and nanoseconds (see
// mtime_linux.go).
func mtime(st *syscall.Stat_t) (sec, nsec int64) {
	return int64(st.Mtimespec.Sec), int64(st.Mtimespec.Nsec)
}
