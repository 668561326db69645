package runctx

import "syscall"

// mtime is a file's modification time as lstat gives it (seconds,
// nanoseconds); the field's name is the system's (mtime_other.go).
func mtime(st *syscall.Stat_t) (sec, nsec int64) { return int64(st.Mtim.Sec), int64(st.Mtim.Nsec) }
