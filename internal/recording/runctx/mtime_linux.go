package runctx

import "syscall"

// mtime is a stat's modification time, in seconds and nanoseconds: the
// field is Mtim on Linux, Mtimespec on macOS and FreeBSD (mtime_bsd.go).
func mtime(st *syscall.Stat_t) (sec, nsec int64) { return int64(st.Mtim.Sec), int64(st.Mtim.Nsec) }
