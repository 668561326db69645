//go:build darwin || freebsd

package main

import "golang.org/x/sys/unix"

// ioctl requests for tcgetattr and tcsetattr(TCSANOW) (sys_linux.go).
const (
	ioctlGetTermios = unix.TIOCGETA
	ioctlSetTermios = unix.TIOCSETA
)

// bootTime: 0 on macOS and FreeBSD, which have no CLOCK_BOOTTIME nor the
// /proc/uptime fish's hooks add to it: fish's times are wrong there (fish
// is tested on Linux only; this file only lets hookd build).
func bootTime() int64 { return 0 }
