package ptyshell

import (
	"os"
	"unsafe"
)

// Retitle makes this process's command line, as ps and /proc/PID/cmdline
// show it, argv[0] followed by args, where it fits in the space of the
// command line it was started with (the arguments' bytes are written over:
// setproctitle's way). The hookd of fish's early line that becomes the
// proxy (Handover) then shows as `hookd shell`, as the proxy always has.
// It reports whether it could.
//
// The bytes overwritten are those of os.Args[1:]: os.Args becomes argv[0]
// and args, and any other string still read from the old arguments (a
// flag's value) reads differently afterwards, so a caller retitles once it
// is done with them. Where the arguments do not lie one after the other,
// as the kernel lays them out, nothing is written.
func Retitle(args ...string) bool {
	if len(os.Args) < 2 {
		return false
	}
	start := unsafe.StringData(os.Args[1])
	end := start
	for _, a := range os.Args[1:] {
		if unsafe.StringData(a) != end {
			return false
		}
		end = (*byte)(unsafe.Add(unsafe.Pointer(end), len(a)+1))
	}
	size := int(uintptr(unsafe.Pointer(end)) - uintptr(unsafe.Pointer(start)))
	need := 0
	for _, a := range args {
		need += len(a) + 1
	}
	if need > size {
		return false
	}
	area := unsafe.Slice(start, size)
	n := 0
	for _, a := range args {
		n += copy(area[n:], a)
		area[n] = 0
		n++
	}
	clear(area[n:])
	os.Args = append([]string{os.Args[0]}, args...)
	return true
}
