//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

// Package proxy runs a command, normally the user's interactive shell, on a
// new pseudo-terminal and relays the user's terminal to it: the core of
// `hookd shell`.
//
// The proxy sits between the user's terminal (the outer terminal) and a pty
// it creates for the command (the inner terminal):
//
//	outer terminal ──Stdin──▶ proxy ──▶ inner master ──▶ shell
//	outer terminal ◀─Stdout── Output ◀── proxy ◀── inner master ◀── shell
//
// The goal is that the shell behaves exactly as if it ran on the outer
// terminal directly. The outer terminal is put in raw mode, so every key,
// Ctrl-C and Ctrl-Z included, arrives as a byte and is written unchanged to
// the inner master. The inner terminal starts with a copy of the outer
// terminal's settings (erase character, iutf8, ...) and its window size, so
// its line discipline turns those bytes into echo, line editing and signals
// for the inner foreground job just as the outer one would have; job
// control, `exit` and full-screen programs need nothing from the proxy.
// Window size changes are forwarded on SIGWINCH, and Run returns the
// command's exit status for the caller to exit with.
//
// Everything the inner side writes passes through the caller's Output
// writer on its way to Stdout; hookd puts its capture Scanner there.
//
// # Signals and teardown
//
// While Run is active the proxy catches SIGTERM, SIGHUP, SIGINT and SIGQUIT
// (in raw mode the keyboard cannot generate them, so they come from kill or
// from the outer terminal hanging up). It then does what closing a terminal
// window does to a shell: it restores the outer terminal, sends SIGHUP (and
// SIGCONT, for a stopped process) to the inner process group, closes the
// master (which hangs up the inner terminal, so the kernel signals its
// foreground job too), waits briefly for the command and returns 128 plus
// the signal number. Signals ignored when Run starts (nohup) stay ignored.
//
// SIGKILL cannot be caught. The kernel then closes the master, which hangs
// up the inner terminal: the shell gets SIGHUP exactly as when a terminal
// window is closed. Only the outer terminal's settings cannot be restored;
// `stty sane` or `reset` repairs them.
//
// Linux is the target. The package also builds on macOS and the BSDs.
package proxy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// Options describe the command to run and the outer terminal.
type Options struct {
	// Argv is the command to run; Argv[0] is a path, or a name looked up
	// in the proxy's PATH.
	Argv []string

	// Path, when set, is the program to run, and Argv[0] is passed to it
	// as is: a login shell's "-bash", say.
	Path string

	// Env returns the command's whole environment, given the path of the
	// inner terminal (/dev/pts/N), typically to export it. A nil Env means
	// the proxy's own environment.
	Env func(tty string) []string

	// Dir is the command's working directory; "" means the proxy's.
	Dir string

	// Stdin and Stdout are the outer terminal, os.Stdin and os.Stdout when
	// nil. Only when Stdin is a terminal is it put in raw mode, and its
	// settings copied to the inner terminal; otherwise it is just read, up
	// to its end. Both must stay open until Run returns.
	Stdin  *os.File
	Stdout *os.File

	// Output, if set, wraps the writer that goes to Stdout: everything the
	// inner side writes goes through the writer it returns. Run writes to
	// it from a single goroutine, never calls Close on it, and never uses
	// it after returning, so the caller may flush or close it then.
	Output func(stdout io.Writer) io.Writer
}

// ErrStart is wrapped by the errors of Check and by the error Run returns
// when the command could not be started at all (no pty, exec failure). Then
// nothing ran and the outer terminal is as it was, so the caller can fall
// back to exec'ing the shell directly.
var ErrStart = errors.New("proxy: command not started")

// startError is a failure to start: a message fit to show the user as it
// is, which also matches ErrStart and the underlying cause with errors.Is.
type startError struct {
	msg   string
	cause error
}

func (e *startError) Error() string { return e.msg }

func (e *startError) Unwrap() []error {
	if e.cause == nil {
		return []error{ErrStart}
	}
	return []error{ErrStart, e.cause}
}

func startErrorf(cause error, format string, args ...any) error {
	return &startError{msg: fmt.Sprintf(format, args...), cause: cause}
}

// Timings of the teardown. None is on a path the user waits on in normal use:
// drainIdle and maxDrain only matter when something outlives the shell and
// keeps its terminal open.
const (
	// drainIdle is how long the output must stay quiet, once the command
	// has exited, before Run stops reading the master. Normally the master
	// reports EOF (EIO) long before: the wait only happens when a
	// background job still holds the inner terminal open, possibly forever.
	drainIdle = 100 * time.Millisecond

	// maxDrain bounds the draining after the command exited, for a
	// background job that holds the terminal open and keeps writing.
	maxDrain = time.Second

	// hangupGrace is how long Run waits for the command after hanging it
	// up on a signal. A shell normally takes milliseconds (bash saves its
	// history first); one that ignores SIGHUP is left behind, detached from
	// any terminal.
	hangupGrace = 2 * time.Second

	// inputStopWait bounds the wait for the input goroutine at the end.
	// It stops at once unless it is inside a read that found no data after
	// all (another process took it), which must not keep Run from
	// returning.
	inputStopWait = 500 * time.Millisecond

	// signalTrail is how long a signal may trail the cancellation of ctx
	// it caused (see trailingSignal). Delivery takes microseconds.
	signalTrail = 20 * time.Millisecond
)

// outputBufSize is the size of the reads from the master. Large reads keep
// the per-chunk cost (a read, a write, a pass through Output) negligible
// against the bytes when a command floods the terminal; the kernel returns
// what is there without waiting for the buffer to fill, so a large buffer
// costs no latency.
const outputBufSize = 64 << 10

// inputBufSize is the size of the reads from Stdin. A keystroke is a few
// bytes; a paste can be many kilobytes and goes through in fewer writes.
const inputBufSize = 16 << 10

// terminationSignals are the signals that make the proxy hang up the command.
var terminationSignals = []os.Signal{unix.SIGTERM, unix.SIGHUP, unix.SIGINT, unix.SIGQUIT}

// Check reports whether a proxy could start here: a pty pair can be opened
// (it is opened and closed again) and argv[0] resolves to an executable.
// It starts nothing. The error, which wraps ErrStart, is one line meant for
// the user.
func Check(argv []string) error {
	if len(argv) == 0 {
		return startErrorf(nil, "no command to run")
	}
	m, s, err := pty.Open()
	if err != nil {
		return startErrorf(err, "cannot open a pseudo-terminal: %v", err)
	}
	m.Close()
	s.Close()
	_, err = lookPath(argv[0])
	return err
}

// lookPath resolves name as exec.Command would, with a one-line error for
// the user that wraps ErrStart.
func lookPath(name string) (string, error) {
	path, err := exec.LookPath(name)
	if err == nil {
		// exec.Cmd takes a relative Path relative to Dir, LookPath
		// relative to the current directory: pin the latter.
		if abs, err := filepath.Abs(path); err == nil {
			return abs, nil
		}
		return path, nil
	}
	// The cause alone ("no such file or directory", "permission denied",
	// "is a directory"), without the exec: and path prefixes that repeat
	// the name.
	reason := err
	var ee *exec.Error
	if errors.As(err, &ee) {
		reason = ee.Err
	}
	var pe *fs.PathError
	if errors.As(reason, &pe) {
		reason = pe.Err
	}
	switch {
	case errors.Is(err, exec.ErrNotFound):
		reason = errors.New("not found in PATH")
	case errors.Is(err, exec.ErrDot):
		reason = errors.New("found only through a relative PATH entry, which is refused")
	}
	return "", startErrorf(err, "cannot run %q: %v", name, reason)
}

// Run runs the command on a new pty, relaying the outer terminal to it,
// until it exits, and returns its exit status (128 plus the signal number
// when a signal killed it).
//
// If the proxy itself receives SIGTERM, SIGHUP, SIGINT or SIGQUIT, or the
// outer terminal hangs up (treated as SIGHUP), or ctx is done (also
// treated as SIGHUP, and ctx's error returned), Run hangs up the command as
// described in the package documentation and returns 128 plus that signal's
// number. When ctx is done because of one of those signals (as with
// signal.NotifyContext), the signal is what Run reports, without error.
//
// The error wraps ErrStart when the command could not be started; then
// nothing ran and the outer terminal is untouched. Otherwise the status is
// valid, and a non-nil error reports a problem met while relaying, such as
// a failing Output writer (in which case Run kept reading and discarding the
// command's output, so the command ran to its end unblocked).
//
// Run returns only once a Write to Output in progress has returned, even
// on a signal: Stdout that stops taking output (a frozen terminal) keeps
// Run waiting, as it would keep the shell itself waiting.
//
// Run restores the outer terminal on every path it controls, including a
// panic in Output. When it returns, the goroutine reading Stdin normally has
// ended; only if another process raced it for the same input can it still
// be parked, and then it may consume one more chunk of input.
func Run(ctx context.Context, o Options) (status int, err error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	s, err := start(ctx, o)
	if err != nil {
		return 0, err
	}
	return s.run(ctx)
}

// session is one running proxy.
type session struct {
	cmd    *exec.Cmd
	master *os.File
	out    io.Writer
	term   *outerTerm // nil when Stdin is not a terminal
	inFD   int        // Stdin's descriptor, or -1
	sizeFD int        // terminal the window size is read from, or -1
	sigs   chan os.Signal

	// Closing wakeW makes copyInput return; it polls wakeR next to Stdin.
	wakeR, wakeW *os.File

	// Draining (after the command exited): copyOutput pushes the read
	// deadline drainIdle ahead after each read, but never past drainEnd
	// (Unix nanoseconds).
	draining atomic.Bool
	drainEnd atomic.Int64

	// Set by copyOutput, read once it is done.
	outErr  error // first Output write error; later output is discarded
	readErr error // unexpected master read error

	waitErr error // from cmd.Wait, read once it returned
}

// start does everything up to and including starting the command. On
// failure it undoes what it did, the outer terminal included, and returns
// an error wrapping ErrStart.
func start(ctx context.Context, o Options) (_ *session, err error) {
	if len(o.Argv) == 0 {
		return nil, startErrorf(nil, "no command to run")
	}
	stdin, stdout := o.Stdin, o.Stdout
	if stdin == nil {
		stdin = os.Stdin
	}
	if stdout == nil {
		stdout = os.Stdout
	}
	name := o.Argv[0]
	if o.Path != "" {
		name = o.Path
	}
	path, err := lookPath(name)
	if err != nil {
		return nil, err
	}

	master, slave, err := openPTY()
	if err != nil {
		return nil, startErrorf(err, "cannot open a pseudo-terminal: %v", err)
	}
	// The proxy's copy of the slave is closed whatever happens: after the
	// start, only the command's copies must keep it open, so that the master
	// reports EOF once the command and all it started are gone.
	defer slave.Close()
	s := &session{master: master, inFD: -1, sizeFD: -1}
	defer func() {
		if err != nil {
			s.master.Close()
			if s.wakeR != nil {
				s.wakeR.Close()
				s.wakeW.Close()
			}
		}
	}()

	// Fd on purpose: besides the number, it puts the slave in blocking mode
	// (os.OpenFile made it non-blocking for the poller), and the command
	// must inherit a blocking terminal.
	slaveFD := int(slave.Fd())

	if fd, err := rawFD(stdin); err == nil {
		s.inFD = fd
		if t, err := getTermios(fd); err == nil {
			s.term = &outerTerm{fd: fd, saved: *t}
			s.sizeFD = fd
			// Like script(1): the inner terminal starts with the outer
			// terminal's settings, so erase, iutf8, flow control and the
			// rest behave as the user set them up.
			if err := setTermios(slaveFD, t); err != nil {
				return nil, startErrorf(err, "cannot set up the pseudo-terminal: %v", err)
			}
		}
	}
	if s.sizeFD < 0 {
		// Stdin is not a terminal, but output may still go to one.
		if fd, err := rawFD(stdout); err == nil {
			if _, err := getTermios(fd); err == nil {
				s.sizeFD = fd
			}
		}
	}

	s.wakeR, s.wakeW, err = os.Pipe()
	if err != nil {
		return nil, startErrorf(err, "cannot create a pipe: %v", err)
	}

	var env []string
	if o.Env != nil {
		env = o.Env(slave.Name())
		if env == nil {
			env = []string{} // nil would mean the proxy's environment to exec.Cmd
		}
	}
	s.cmd = &exec.Cmd{
		Path:   path,
		Args:   o.Argv,
		Env:    env,
		Dir:    o.Dir,
		Stdin:  slave,
		Stdout: slave,
		Stderr: slave,
		// A new session with the inner terminal as its controlling
		// terminal (the command's descriptor 0): the command's process
		// group becomes the terminal's foreground group, so it gets
		// Ctrl-C and the rest from the line discipline.
		SysProcAttr: &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0},
	}

	s.out = stdout
	if o.Output != nil {
		if w := o.Output(stdout); w != nil {
			s.out = w
		}
	}

	// Signals are caught before the terminal goes raw, so that no signal
	// can kill the proxy between the two and leave the terminal raw; and
	// before the size is read, so that no resize is missed.
	s.notifySignals()
	defer func() {
		if err != nil {
			s.stopSignals(true)
		}
	}()
	s.resize(slave)

	// Raw mode before the command starts, as script(1) does: the first
	// thing the shell prints and the first key the user types already go
	// through the proxy's view of the terminal.
	if s.term != nil {
		if err := s.term.makeRaw(); err != nil {
			return nil, startErrorf(err, "cannot set up the terminal: %v", err)
		}
	}
	// A Ctrl-C typed while the proxy was starting (the terminal was not
	// raw yet) stops it here, before there is a command to leave behind.
	if err := ctx.Err(); err != nil {
		s.term.restore()
		return nil, startErrorf(err, "interrupted while starting")
	}
	if err := s.cmd.Start(); err != nil {
		s.term.restore()
		// The error is the child's errno, from exec or from the chdir
		// before it: say where, when that may be the culprit.
		where := ""
		if o.Dir != "" {
			where = " in " + o.Dir
		}
		return nil, startErrorf(err, "cannot start %q%s: %v", o.Argv[0], where, unwrapExec(err))
	}
	return s, nil
}

// unwrapExec drops the "fork/exec /path:" prefix when the cause alone says
// it better, for a shorter message.
func unwrapExec(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Op == "fork/exec" {
		return pe.Err
	}
	return err
}

// notifySignals starts catching the signals Run handles.
func (s *session) notifySignals() {
	s.sigs = make(chan os.Signal, 8)
	sigs := []os.Signal{unix.SIGWINCH}
	for _, sig := range terminationSignals {
		// Catching a signal the proxy was started with ignored would undo
		// nohup; ignored, it also stays ignored in the command, exactly as
		// if the command ran directly.
		if !signal.Ignored(sig) {
			sigs = append(sigs, sig)
		}
	}
	signal.Notify(s.sigs, sigs...)
}

// stopSignals stops catching signals. With redeliver, a termination signal
// caught meanwhile is sent again to the process, so that it is not lost when
// Run gives up before it could act on it: the caller's own handling, or the
// default action, then applies.
func (s *session) stopSignals(redeliver bool) {
	signal.Stop(s.sigs)
	for redeliver {
		select {
		case sig := <-s.sigs:
			if sig != unix.SIGWINCH {
				_ = unix.Kill(os.Getpid(), sig.(syscall.Signal))
			}
		default:
			return
		}
	}
}

// resize copies the outer terminal's window size to the pty that f is a
// side of; on the master, a change makes the kernel send SIGWINCH to the
// inner foreground job.
func (s *session) resize(f *os.File) {
	if s.sizeFD < 0 {
		return
	}
	if ws, err := getWinsize(s.sizeFD); err == nil {
		_ = setWinsize(f, ws)
	}
}

// run relays the terminal until the command exits or the proxy is told to
// stop, and tears everything down.
func (s *session) run(ctx context.Context) (int, error) {
	exited := make(chan struct{})
	go func() {
		s.waitErr = s.cmd.Wait()
		close(exited)
	}()
	outDone := make(chan struct{})
	go s.copyOutput(outDone)
	inDone := make(chan struct{})
	hangup := make(chan struct{}, 1)
	go s.copyInput(inDone, hangup)

	defer func() {
		s.wakeW.Close()  // stops copyInput
		s.master.Close() // unblocks copyInput's write and copyOutput's read
		// Output must be idle when Run returns, since the caller closes it.
		<-outDone
		select {
		case <-inDone:
		case <-time.After(inputStopWait):
		}
		s.term.restore()
		s.stopSignals(false)
	}()

	var sig syscall.Signal
	var ctxErr error
	outputOpen := outDone // nil once copyOutput is done, for the select
	for sig == 0 {
		select {
		case <-exited:
			s.drain(outDone)
			return s.exitStatus()
		case <-outputOpen:
			// Every descriptor of the inner terminal is closed, though
			// the command still runs (it closed or redirected them):
			// there is nothing more to relay; wait for it to exit.
			outputOpen = nil
		case <-hangup:
			sig = unix.SIGHUP
		case <-ctx.Done():
			sig, ctxErr = unix.SIGHUP, context.Cause(ctx)
			if got := s.trailingSignal(); got != 0 {
				sig, ctxErr = got, nil
			}
		case got := <-s.sigs:
			if got == unix.SIGWINCH {
				s.resize(s.master)
				continue
			}
			sig = got.(syscall.Signal)
		}
	}

	// Stopped from outside: do what closing the terminal window would
	// do. The terminal comes first, in case the proxy does not survive
	// long enough to finish.
	s.term.restore()
	pgid := s.cmd.Process.Pid // the command leads its own session and group
	_ = unix.Kill(-pgid, unix.SIGHUP)
	_ = unix.Kill(-pgid, unix.SIGCONT) // a stopped process acts on SIGHUP only once continued
	s.master.Close()
	select {
	case <-exited:
	case <-time.After(hangupGrace):
	}
	return 128 + int(sig), ctxErr
}

// trailingSignal waits signalTrail for a termination signal and returns it,
// or 0. It is called when ctx is done: a caller using signal.NotifyContext
// has ctx cancelled by the very signals Run catches, and then the signal
// itself is the better report (status 128+signal, no error). Each handler
// gets its copy of a signal at the same moment, but the cancellation can
// reach Run a little before its own copy does.
func (s *session) trailingSignal() syscall.Signal {
	timeout := time.After(signalTrail)
	for {
		select {
		case got := <-s.sigs:
			if got != unix.SIGWINCH {
				return got.(syscall.Signal)
			}
		case <-timeout:
			return 0
		}
	}
}

// drain lets copyOutput read what the command left in the pty after it
// exited, until EOF, drainIdle without output or maxDrain in all, and waits
// for it to finish. A termination signal meanwhile cuts it short.
func (s *session) drain(outDone <-chan struct{}) {
	now := time.Now()
	s.drainEnd.Store(now.Add(maxDrain).UnixNano())
	s.draining.Store(true)
	_ = s.master.SetReadDeadline(now.Add(drainIdle))
	for {
		select {
		case <-outDone:
			return
		case sig := <-s.sigs:
			if sig != unix.SIGWINCH {
				s.master.Close()
			}
		}
	}
}

// exitStatus returns the command's status and the first error met while
// relaying, once the command exited and copyOutput is done.
func (s *session) exitStatus() (int, error) {
	status := 0
	var exitErr *exec.ExitError
	switch ps := s.cmd.ProcessState; {
	case ps == nil:
		// Wait failed without a status; this does not happen unless
		// something else in the process reaped the child.
		return 1, fmt.Errorf("waiting for %s: %w", s.cmd.Path, s.waitErr)
	case s.waitErr != nil && !errors.As(s.waitErr, &exitErr):
		return 1, fmt.Errorf("waiting for %s: %w", s.cmd.Path, s.waitErr)
	default:
		if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			status = 128 + int(ws.Signal())
		} else {
			status = ps.ExitCode()
		}
	}
	switch {
	case s.outErr != nil:
		return status, fmt.Errorf("writing the command's output: %w", s.outErr)
	case s.readErr != nil:
		return status, fmt.Errorf("reading the pseudo-terminal: %w", s.readErr)
	}
	return status, nil
}

// restoreOnPanic, deferred first in each goroutine, restores the outer
// terminal before a panic there (most likely in the caller's Output) takes
// the process down: the deferred calls of other goroutines, Run's included,
// do not run then.
func (s *session) restoreOnPanic() {
	if r := recover(); r != nil {
		s.term.restore()
		panic(r)
	}
}

// copyOutput copies the command's output from the master to Output. It is
// the hot path when a command floods the terminal: one read and one write
// per chunk of up to outputBufSize bytes, nothing per byte, no hand-off to
// another goroutine.
//
// It returns at the end of the output: EOF, which Linux reports as EIO once
// no process has the inner terminal open any more, the read deadline set
// while draining, or the master being closed.
//
// When Output fails (stdout closed, say), the error is kept and the output
// is read and discarded from then on: the command keeps running unblocked,
// as it would on a terminal nobody looks at, rather than being hung up over
// the display. Hanging up is left to the signals that come with a terminal
// actually going away.
func (s *session) copyOutput(done chan<- struct{}) {
	defer close(done)
	defer s.restoreOnPanic()
	buf := make([]byte, outputBufSize)
	for {
		n, err := s.master.Read(buf)
		if n > 0 {
			if s.outErr == nil {
				if _, werr := s.out.Write(buf[:n]); werr != nil {
					s.outErr = werr
				}
			}
			if s.draining.Load() {
				deadline := time.Now().Add(drainIdle)
				if end := time.Unix(0, s.drainEnd.Load()); deadline.After(end) {
					deadline = end
				}
				_ = s.master.SetReadDeadline(deadline)
			}
		}
		if err != nil {
			if !endOfOutput(err) {
				s.readErr = err
			}
			return
		}
	}
}

// endOfOutput reports whether a master read error just means the output is
// over.
func endOfOutput(err error) bool {
	return errors.Is(err, io.EOF) ||
		errors.Is(err, syscall.EIO) || // Linux: no slave descriptor is open
		errors.Is(err, os.ErrDeadlineExceeded) || // draining: quiet for drainIdle
		errors.Is(err, os.ErrClosed) // torn down
}

// copyInput copies Stdin to the master, each read written at once, so a
// keystroke costs a poll, a read and a write.
//
// It polls Stdin together with wakeR rather than simply blocking in a read,
// so that closing wakeW stops it without consuming input meant for whoever
// reads Stdin after Run. Stdin's own blocking mode is left alone: it is
// shared with other processes (the parent shell), which must not find it
// changed.
//
// At the end of Stdin: a terminal that reports EOF or an error has hung up,
// which is reported on hangup so that Run hangs up the command. Anything
// else (a pipe, a file) just stops being read; the command keeps its
// terminal and runs on, as under script(1).
func (s *session) copyInput(done chan<- struct{}, hangup chan<- struct{}) {
	defer close(done)
	defer s.wakeR.Close()
	defer s.restoreOnPanic()
	wakeFD, err := rawFD(s.wakeR)
	if err != nil {
		return
	}
	// A negative descriptor (Stdin unusable) is ignored by poll: then
	// this only waits to be stopped.
	fds := []unix.PollFd{
		{Fd: int32(s.inFD), Events: unix.POLLIN},
		{Fd: int32(wakeFD), Events: unix.POLLIN},
	}
	buf := make([]byte, inputBufSize)
	for {
		fds[0].Revents, fds[1].Revents = 0, 0
		if _, err := unix.Poll(fds, -1); err != nil {
			if err == unix.EINTR {
				continue
			}
			return
		}
		if fds[1].Revents != 0 {
			return // wakeW closed: Run is done
		}
		if fds[0].Revents&unix.POLLNVAL != 0 {
			return // Stdin was closed under us
		}
		if fds[0].Revents == 0 {
			continue
		}
		n, err := unix.Read(s.inFD, buf)
		if err == unix.EINTR || err == unix.EAGAIN {
			continue
		}
		if err != nil || n <= 0 {
			if s.term != nil {
				select {
				case hangup <- struct{}{}:
				default:
				}
			}
			return
		}
		if _, err := s.master.Write(buf[:n]); err != nil {
			return // master closed: Run is done
		}
	}
}
