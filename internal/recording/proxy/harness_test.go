//go:build linux

package proxy

// The harness behind the terminal tests. A proxy touches process-wide state
// (signal handlers, the terminal's settings, the process's own death on a
// signal), so those tests do not call Run in the test process: they re-run
// the test binary as a helper (see TestMain) that calls Run, with a pty
// made by the test as its terminal. The test plays the user through the
// pty's master: it reads what the proxy shows, types bytes, resizes the
// window and sends signals, and inspects the terminal's settings through its
// own copy of the slave.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/hookd/hookd/internal/shelltest"
)

// helperEnv, when set in the environment, makes the test binary run
// helperMain with the helperConfig it holds (JSON) instead of the tests.
const helperEnv = "HOOKD_PROXY_TEST_HELPER"

// Generous limits for a loaded two-core machine, scaled by HOOKD_TEST_SLOW.
// They only bound how long a broken proxy can make a test hang; no test
// asserts on speed.
// The polls go through shelltest.Poll, which scales pollWait itself.
var (
	waitLong  = shelltest.Scale(60 * time.Second) // for the proxy to exit
	waitShort = shelltest.Scale(30 * time.Second) // for output, raw mode, a process to appear
)

const pollWait = 30 * time.Second // waitShort, before shelltest.Poll scales it

// helperConfig tells the helper what to run and how.
type helperConfig struct {
	Argv []string
	// Mode: "" plain; "count" wraps Output in a counting writer and reports
	// the count; "panic" wraps it in a writer that panics; "notifyctx"
	// passes Run a context that SIGTERM cancels, as hookd's main does.
	Mode string
}

func TestMain(m *testing.M) {
	if cfg := os.Getenv(helperEnv); cfg != "" {
		os.Exit(helperMain(cfg))
	}
	shelltest.UnignoreSignals()
	os.Exit(m.Run())
}

// countingWriter counts the bytes passed through it, and how many of them
// are 'x'.
type countingWriter struct {
	w     io.Writer
	n, xs int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	c.xs += int64(bytes.Count(p, []byte{'x'}))
	return c.w.Write(p)
}

// helperMain is the proxy process: it runs Run on its standard input and
// output, reports on stderr (status=, err=, errstart, count=) and exits with
// the status, as hookd shell does.
func helperMain(cfgJSON string) int {
	var cfg helperConfig
	if err := json.Unmarshal([]byte(cfgJSON), &cfg); err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		return 254
	}
	o := Options{
		Argv: cfg.Argv,
		Env: func(tty string) []string {
			env := []string{"PROXY_TTY=" + tty}
			for _, kv := range os.Environ() {
				if !strings.HasPrefix(kv, helperEnv+"=") {
					env = append(env, kv)
				}
			}
			return env
		},
	}
	var counter *countingWriter
	switch cfg.Mode {
	case "count":
		o.Output = func(w io.Writer) io.Writer {
			counter = &countingWriter{w: w}
			return counter
		}
	case "panic":
		o.Output = func(io.Writer) io.Writer { return panicWriter{} }
	}
	ctx := context.Background()
	if cfg.Mode == "notifyctx" {
		var stop context.CancelFunc
		ctx, stop = signal.NotifyContext(ctx, syscall.SIGTERM)
		defer stop()
	}
	status, err := Run(ctx, o)
	fmt.Fprintf(os.Stderr, "status=%d\n", status)
	if err != nil {
		fmt.Fprintf(os.Stderr, "err=%v\n", err)
		if errors.Is(err, ErrStart) {
			fmt.Fprintln(os.Stderr, "errstart")
			return 253
		}
	}
	if counter != nil {
		fmt.Fprintf(os.Stderr, "count=%d xs=%d\n", counter.n, counter.xs)
	}
	return status
}

type panicWriter struct{}

func (panicWriter) Write([]byte) (int, error) { panic("output writer exploded") }

// syncBuffer is a bytes.Buffer safe for one writer and many readers.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// outer is a proxy process running on a test-made terminal.
type outer struct {
	t      *testing.T
	master *os.File // the user's side of the outer terminal
	tty    *os.File // the test's copy of the outer terminal's slave
	cmd    *exec.Cmd
	out    syncBuffer // everything the proxy showed on the terminal
	stderr syncBuffer

	initial unix.Termios // the outer terminal's settings before the proxy started

	exited   chan struct{} // closed when the proxy exited
	status   int
	readDone chan struct{} // closed when the master reader stopped
}

// outerOpts adjust how startOuter starts the proxy.
type outerOpts struct {
	mode  string                      // helperConfig.Mode
	env   []string                    // added to the proxy's (and so the command's) environment
	setup func(t *testing.T, tty int) // runs on the outer terminal before the proxy starts
	// noCtty starts the proxy without a controlling terminal, rather than
	// with the outer terminal as its controlling terminal.
	noCtty bool
}

// startOuter starts the helper proxy running argv on a new outer terminal
// of 24 rows and 80 columns, whose controlling terminal it is, as a shell's
// terminal would be.
func startOuter(t *testing.T, argv []string, opts outerOpts) *outer {
	t.Helper()
	master, tty, err := openPTY()
	if err != nil {
		t.Fatal(err)
	}
	o := &outer{t: t, master: master, tty: tty, exited: make(chan struct{}), readDone: make(chan struct{})}
	t.Cleanup(o.cleanup)
	if err := setWinsize(tty, &unix.Winsize{Row: 24, Col: 80}); err != nil {
		t.Fatal(err)
	}
	if opts.setup != nil {
		opts.setup(t, o.ttyFD())
	}
	o.initial = o.termios()
	cfg, err := json.Marshal(helperConfig{Argv: argv, Mode: opts.mode})
	if err != nil {
		t.Fatal(err)
	}
	o.cmd = exec.Command(os.Args[0], "-test.run=^$")
	o.cmd.Env = append(append(os.Environ(), helperEnv+"="+string(cfg)), opts.env...)
	o.cmd.Stdin, o.cmd.Stdout, o.cmd.Stderr = tty, tty, &o.stderr
	o.cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: !opts.noCtty, Ctty: 0}
	if err := o.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(o.readDone)
		_, _ = io.Copy(&o.out, master) // ends when cleanup closes the master
	}()
	go func() {
		_ = o.cmd.Wait()
		o.status = o.cmd.ProcessState.ExitCode()
		close(o.exited)
	}()
	return o
}

func (o *outer) cleanup() {
	select {
	case <-o.exited:
	default:
		_ = o.cmd.Process.Kill()
		<-o.exited
	}
	o.master.Close()
	o.tty.Close()
	<-o.readDone
}

func (o *outer) ttyFD() int {
	fd, err := rawFD(o.tty)
	if err != nil {
		o.t.Fatal(err)
	}
	return fd
}

// pid is the proxy's process id.
func (o *outer) pid() int { return o.cmd.Process.Pid }

// fatalf fails the test with the terminal output and the proxy's stderr.
func (o *outer) fatalf(format string, args ...any) {
	o.t.Helper()
	o.t.Fatalf("%s\n--- terminal output:\n%q\n--- proxy stderr:\n%s", fmt.Sprintf(format, args...), o.out.String(), o.stderr.String())
}

// waitOutput waits until the terminal has shown want.
func (o *outer) waitOutput(want string) {
	o.t.Helper()
	o.waitMatch(regexp.MustCompile(regexp.QuoteMeta(want)))
}

// waitMatch waits until the terminal has shown a match of re, and returns
// the match and its submatches.
func (o *outer) waitMatch(re *regexp.Regexp) []string {
	o.t.Helper()
	var m []string
	if !shelltest.Poll(pollWait, func() bool { m = re.FindStringSubmatch(o.out.String()); return m != nil }) {
		select {
		case <-o.exited:
			o.fatalf("the proxy exited (status %d) and the terminal never showed %q", o.status, re)
		default:
			o.fatalf("the terminal never showed %q", re)
		}
	}
	return m
}

// typeIn types s on the outer terminal.
func (o *outer) typeIn(s string) {
	o.t.Helper()
	if _, err := o.master.Write([]byte(s)); err != nil {
		o.fatalf("typing %q: %v", s, err)
	}
}

// wait waits for the proxy to exit and returns its exit status, checking
// that it is the status Run returned.
func (o *outer) wait() int {
	o.t.Helper()
	status := o.waitExit()
	if want := fmt.Sprintf("status=%d\n", status); !strings.Contains(o.stderr.String(), want) {
		o.fatalf("the proxy exited with %d, which is not what Run returned", status)
	}
	return status
}

// waitExit waits for the proxy to exit and returns its exit status.
func (o *outer) waitExit() int {
	o.t.Helper()
	select {
	case <-o.exited:
	case <-time.After(waitLong):
		o.fatalf("the proxy did not exit within %v", waitLong)
	}
	return o.status
}

// termios returns the outer terminal's current settings.
func (o *outer) termios() unix.Termios {
	o.t.Helper()
	tio, err := getTermios(o.ttyFD())
	if err != nil {
		o.t.Fatal(err)
	}
	return *tio
}

// checkRestored fails the test if the outer terminal's settings are not
// those it had before the proxy started.
func (o *outer) checkRestored() {
	o.t.Helper()
	if now := o.termios(); !sameTermios(o.initial, now) {
		o.fatalf("terminal settings not restored:\nbefore %+v\nafter  %+v", o.initial, now)
	}
}

// waitRaw waits until the proxy has put the outer terminal in raw mode.
func (o *outer) waitRaw() {
	o.t.Helper()
	var tio unix.Termios
	if !shelltest.Poll(pollWait, func() bool {
		tio = o.termios()
		return tio.Lflag&(unix.ICANON|unix.ECHO|unix.ISIG) == 0 && tio.Oflag&unix.OPOST == 0
	}) {
		o.fatalf("the outer terminal never went raw: %+v", tio)
	}
}

// sameTermios compares the settings that matter (speeds and the padding of
// the C struct aside).
func sameTermios(a, b unix.Termios) bool {
	return a.Iflag == b.Iflag && a.Oflag == b.Oflag && a.Cflag == b.Cflag &&
		a.Lflag == b.Lflag && a.Line == b.Line && a.Cc == b.Cc
}

// waitMark waits for the commands of the hang-up tests, which trap SIGHUP
// with `echo hup >>"$MARK"`, to have written path. Run normally waits for
// them, but only for so long: a loaded machine may take longer.
func waitMark(t *testing.T, path string) {
	t.Helper()
	shelltest.WaitFile(t, path, pollWait, func(b []byte) bool { return strings.HasPrefix(string(b), "hup\n") })
}

// waitForeground waits for a descendant of the process ancestor whose
// command line is exactly argv to be in the foreground of its terminal, and
// returns its pid. It reads /proc: the only way to know for sure that a
// keystroke signal will reach that process and not, say, the shell that is
// about to start it.
func waitForeground(t *testing.T, ancestor int, argv ...string) int {
	t.Helper()
	want := strings.Join(argv, "\x00") + "\x00"
	found := 0
	shelltest.Eventually(t, pollWait, func() bool {
		dirs, _ := filepath.Glob("/proc/[0-9]*")
		for _, d := range dirs {
			pid, _ := strconv.Atoi(filepath.Base(d))
			cmdline, err := os.ReadFile(d + "/cmdline")
			if err != nil || string(cmdline) != want {
				continue
			}
			st, err := readStat(pid)
			if err != nil || st.pgrp != st.tpgid || !descends(pid, ancestor) {
				continue
			}
			found = pid
			return true
		}
		return false
	}, func() string { return fmt.Sprintf("no process %q in the foreground under %d", argv, ancestor) })
	return found
}

type procStat struct{ ppid, pgrp, tpgid int }

// readStat reads the fields of /proc/pid/stat the tests need.
func readStat(pid int) (procStat, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return procStat{}, err
	}
	// The command name, in parentheses, may contain anything: the fields
	// that follow it start after the last ')'.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return procStat{}, fmt.Errorf("bad stat %q", b)
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 6 {
		return procStat{}, fmt.Errorf("bad stat %q", b)
	}
	// f[0] is the state, then ppid, pgrp, session, tty_nr, tpgid.
	var st procStat
	st.ppid, _ = strconv.Atoi(f[1])
	st.pgrp, _ = strconv.Atoi(f[2])
	st.tpgid, _ = strconv.Atoi(f[5])
	return st, nil
}

// descends reports whether pid is ancestor or one of its descendants.
func descends(pid, ancestor int) bool {
	for i := 0; i < 64 && pid > 1; i++ {
		if pid == ancestor {
			return true
		}
		st, err := readStat(pid)
		if err != nil {
			return false
		}
		pid = st.ppid
	}
	return false
}
