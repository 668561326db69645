//go:build darwin || freebsd

package main

import "golang.org/x/sys/unix"

// ioctl requests for tcgetattr and tcsetattr(TCSANOW) on macOS and FreeBSD.
const (
	ioctlGetTermios = unix.TIOCGETA
	ioctlSetTermios = unix.TIOCSETA
)

// bootTime is 0 where there is no /proc/uptime for fish's hooks to add to it
// (see sys_linux.go): the hooks then time commands without it.
func bootTime() int64 { return 0 }
