//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package proxy

import "golang.org/x/sys/unix"

// ioctl requests for tcgetattr and tcsetattr(TCSANOW) on the BSDs and macOS.
const (
	ioctlGetTermios = unix.TIOCGETA
	ioctlSetTermios = unix.TIOCSETA
)
