package main

import (
	"time"

	"golang.org/x/sys/unix"
)

// ioctl requests for tcgetattr and tcsetattr(TCSANOW) on Linux
// (sys_bsd.go has macOS's and FreeBSD's).
const (
	ioctlGetTermios = unix.TCGETS
	ioctlSetTermios = unix.TCSETS
)

// bootTime is the wall clock's time at boot, in microseconds since the
// epoch: the time now less CLOCK_BOOTTIME's, which /proc/uptime shows.
// fish's hooks add /proc/uptime to it to tell the time without a process.
func bootTime() int64 {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_BOOTTIME, &ts) != nil {
		return 0
	}
	return time.Now().UnixMicro() - ts.Nano()/1000
}
