package proxy

import "golang.org/x/sys/unix"

// ioctl requests for tcgetattr and tcsetattr(TCSANOW) on Linux.
const (
	ioctlGetTermios = unix.TCGETS
	ioctlSetTermios = unix.TCSETS
)
