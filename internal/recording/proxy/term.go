//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package proxy

import (
	"fmt"
	"os"
	"sync"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// This file holds the terminal plumbing: opening the inner pty pair,
// reading and writing termios and window sizes, and the outer terminal's
// raw mode. Everything goes through golang.org/x/sys/unix on raw
// descriptors obtained with rawFD, never through (*os.File).Fd, because Fd
// silently switches a pollable file back to blocking mode (see openPTY).

// openPTY opens a new pseudo-terminal pair and returns its master as a
// pollable file.
//
// pty.Open's own ioctls go through (*os.File).Fd, which leaves the master in
// blocking mode: a Read then ties up an OS thread, ignores read deadlines and
// cannot be interrupted by Close. The drain logic in Run depends on all three,
// so the master is rebuilt from a close-on-exec duplicate put in non-blocking
// mode, which os.NewFile registers with the runtime poller.
//
// The slave is returned as pty.Open made it (opened with O_NOCTTY, so it does
// not become the proxy's controlling terminal).
func openPTY() (master, slave *os.File, err error) {
	m, s, err := pty.Open()
	if err != nil {
		return nil, nil, err
	}
	// Fd is harmless here: m is about to be closed, and the duplicate's
	// non-blocking flag is set explicitly below.
	fd, err := unix.FcntlInt(m.Fd(), unix.F_DUPFD_CLOEXEC, 0)
	name := m.Name()
	m.Close()
	if err != nil {
		s.Close()
		return nil, nil, fmt.Errorf("duplicating the pty master: %w", err)
	}
	if err := unix.SetNonblock(fd, true); err != nil {
		unix.Close(fd)
		s.Close()
		return nil, nil, fmt.Errorf("making the pty master non-blocking: %w", err)
	}
	return os.NewFile(uintptr(fd), name), s, nil
}

// rawFD returns f's descriptor without the side effect of (*os.File).Fd.
// The number is only meaningful while f stays open; callers of Run promise
// that for Stdin and Stdout, and the proxy owns the pty files.
func rawFD(f *os.File) (int, error) {
	sc, err := f.SyscallConn()
	if err != nil {
		return -1, err
	}
	fd := -1
	if err := sc.Control(func(u uintptr) { fd = int(u) }); err != nil {
		return -1, err
	}
	return fd, nil
}

// getTermios returns the settings of the terminal open on fd; it fails
// (with ENOTTY) when fd is not a terminal, which makes it the isatty test.
func getTermios(fd int) (*unix.Termios, error) {
	return unix.IoctlGetTermios(fd, ioctlGetTermios)
}

// setTermios applies t to the terminal on fd at once (TCSANOW). Not
// draining first is deliberate: a drain waits for the terminal to take all
// pending output, and a stuck terminal must not stop the proxy from
// restoring it and going away.
func setTermios(fd int, t *unix.Termios) error {
	return unix.IoctlSetTermios(fd, ioctlSetTermios, t)
}

// makeRaw returns a copy of t in raw mode, as cfmakeraw(3) defines it: no
// input translation, no output processing, no echo, no line editing, no
// signal characters, 8-bit bytes, and read returning as soon as one byte is
// there. Every byte the user types then reaches the inner terminal untouched,
// and the inner terminal's line discipline does what the outer one would
// have done.
func makeRaw(t unix.Termios) *unix.Termios {
	t.Iflag &^= unix.IGNBRK | unix.BRKINT | unix.PARMRK | unix.ISTRIP |
		unix.INLCR | unix.IGNCR | unix.ICRNL | unix.IXON
	t.Oflag &^= unix.OPOST
	t.Lflag &^= unix.ECHO | unix.ECHONL | unix.ICANON | unix.ISIG | unix.IEXTEN
	t.Cflag &^= unix.CSIZE | unix.PARENB
	t.Cflag |= unix.CS8
	t.Cc[unix.VMIN] = 1
	t.Cc[unix.VTIME] = 0
	return &t
}

// getWinsize returns the window size of the terminal on fd.
func getWinsize(fd int) (*unix.Winsize, error) {
	return unix.IoctlGetWinsize(fd, unix.TIOCGWINSZ)
}

// setWinsize sets the window size of the pty whose master or slave is f.
// When the size changes, the kernel sends SIGWINCH to the foreground process
// group of the pty, which is how the inner shell learns about resizes.
func setWinsize(f *os.File, ws *unix.Winsize) error {
	sc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var ioErr error
	if err := sc.Control(func(fd uintptr) {
		ioErr = unix.IoctlSetWinsize(int(fd), unix.TIOCSWINSZ, ws)
	}); err != nil {
		return err
	}
	return ioErr
}

// outerTerm is the user's terminal while the proxy has it in raw mode.
// Its restore may be called from any goroutine, any number of times, which
// is what lets every exit path (including a panic in a copying goroutine)
// simply call it.
type outerTerm struct {
	fd    int
	saved unix.Termios // the settings found at start, put back by restore

	mu  sync.Mutex
	raw bool // the terminal is in raw mode and must be restored
}

// makeRaw puts the terminal in raw mode.
func (t *outerTerm) makeRaw() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := setTermios(t.fd, makeRaw(t.saved)); err != nil {
		return fmt.Errorf("putting the terminal in raw mode: %w", err)
	}
	t.raw = true
	return nil
}

// restore puts back the settings found at start, if raw mode is on. A nil
// receiver (Stdin is not a terminal) does nothing. A failure is ignored:
// there is nothing better to do, and the likely cause is that the terminal
// is gone.
func (t *outerTerm) restore() {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.raw {
		_ = setTermios(t.fd, &t.saved)
		t.raw = false
	}
}
