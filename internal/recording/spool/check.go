package spool

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// Writable checks that a shell can append to a spool in dir: it exists
// (or will be made by the first shell), and a small write succeeds (a full
// disk fails here). The error is the system's (ENOSPC, EACCES, …).
func Writable(dir string) error {
	var sfs syscall.Statfs_t
	if err := syscall.Statfs(dir, &sfs); err != nil {
		if os.IsNotExist(err) {
			return nil // made by the first shell
		}
		return err
	}
	if sfs.Bavail == 0 {
		return syscall.ENOSPC
	}
	f, err := os.CreateTemp(dir, ".probe-*")
	if err != nil {
		return unwrapPath(err)
	}
	defer os.Remove(f.Name())
	defer f.Close()
	if _, err := f.Write(make([]byte, 512)); err != nil {
		return unwrapPath(err)
	}
	return f.Sync()
}

func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// procRoot is where /proc is (tests: an empty directory).
var procRoot = "/proc"

// OverSizeLimit reports whether the shell of session runs under a file
// size limit (`ulimit -f`) too small for its spool in dir: its writes then
// fail (the hooks keep them from killing the shell) and commands go
// unrecorded. It returns the limit and the spool's size.
func OverSizeLimit(dir, session string) (limit, size int64, over bool) {
	pid := SessionPID(session)
	if pid == 0 {
		return 0, 0, false
	}
	b, err := os.ReadFile(procRoot + "/" + strconv.Itoa(pid) + "/limits")
	if err != nil { // no /proc: no warning
		return 0, 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		rest, ok := strings.CutPrefix(line, "Max file size")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) == 0 || f[0] == "unlimited" {
			return 0, 0, false
		}
		limit, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return 0, 0, false
		}
		fi, err := os.Stat(Path(dir, session))
		if err == nil && fi.Size()+4096 > limit {
			return limit, fi.Size(), true
		}
	}
	return 0, 0, false
}
