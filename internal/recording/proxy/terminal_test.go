//go:build linux

package proxy

// Tests of the proxy on a real outer terminal, through the helper process
// of harness_test.go. Each test runs its own proxy process on its own pty,
// so they run in parallel.

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/hookd/hookd/internal/shelltest"
)

func TestOutputReachesTerminal(t *testing.T) {
	t.Parallel()
	o := startOuter(t, []string{"sh", "-c", "echo hello from inside; echo second line"}, outerOpts{})
	if status := o.wait(); status != 0 {
		o.fatalf("status %d, want 0", status)
	}
	// The inner terminal has ONLCR, copied from the outer one: the proxy
	// relays its \r\n unchanged (the outer terminal is raw, so it does not
	// add a second \r).
	o.waitOutput("hello from inside\r\nsecond line\r\n")
}

func TestExitStatus(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		script string
		want   int
	}{
		{"exit 0", 0},
		{"exit 7", 7},
		{"exit 255", 255},
		{"kill -KILL $$", 128 + int(syscall.SIGKILL)},
		{"kill -TERM $$", 128 + int(syscall.SIGTERM)},
		{"kill -USR1 $$", 128 + int(syscall.SIGUSR1)},
	} {
		t.Run(tc.script, func(t *testing.T) {
			t.Parallel()
			o := startOuter(t, []string{"sh", "-c", tc.script}, outerOpts{})
			if status := o.wait(); status != tc.want {
				o.fatalf("%q: status %d, want %d", tc.script, status, tc.want)
			}
		})
	}
}

func TestInputReachesCommand(t *testing.T) {
	t.Parallel()
	o := startOuter(t, []string{"sh", "-c", "echo ready; read x; echo got:$x"}, outerOpts{})
	o.waitOutput("ready")
	// Typed as a terminal sends it: Enter is \r, which the inner terminal
	// (ICRNL, copied from the outer one) turns into the \n read expects.
	o.typeIn("abc\r")
	o.waitOutput("got:abc")
	if status := o.wait(); status != 0 {
		o.fatalf("status %d", status)
	}
	// The inner terminal echoed the line, as the outer one would have.
	if !strings.Contains(o.out.String(), "abc\r\n") {
		o.fatalf("typed line not echoed")
	}
}

// Ctrl-C is a byte to the raw outer terminal; the inner terminal's line
// discipline turns it into SIGINT for the foreground job.
func TestCtrlCInterruptsCommand(t *testing.T) {
	t.Parallel()
	o := startOuter(t, []string{"sleep", "31"}, outerOpts{})
	// Raw first: on a cooked outer terminal, Ctrl-C would signal the proxy
	// itself, which also ends in status 130.
	o.waitRaw()
	waitForeground(t, o.pid(), "sleep", "31")
	o.typeIn("\x03")
	if status := o.wait(); status != 128+int(syscall.SIGINT) {
		o.fatalf("status %d, want %d (SIGINT)", status, 128+int(syscall.SIGINT))
	}
}

// The same under a shell that traps SIGINT, survives and says how its
// child ended. Had the proxy got the SIGINT instead, it would have hung
// everything up and exited with 130.
func TestCtrlCReachesOnlyForegroundJob(t *testing.T) {
	t.Parallel()
	o := startOuter(t, []string{"sh", "-c", `trap 'echo caught' INT; sleep 34; echo after:$?`}, outerOpts{})
	waitForeground(t, o.pid(), "sleep", "34")
	o.typeIn("\x03")
	o.waitOutput("after:130")
	if status := o.wait(); status != 0 {
		o.fatalf("status %d, want 0", status)
	}
}

// An interactive shell with job control: Ctrl-C interrupts the foreground
// job and not the shell, Ctrl-Z stops it, fg resumes it, exit ends it all.
func TestInteractiveShellJobControl(t *testing.T) {
	t.Parallel()
	o := startOuter(t, []string{"sh", "-i"}, outerOpts{env: []string{"PS1=prompt$ ", "ENV="}})
	o.waitOutput("prompt$ ")

	// Separate lines: a shell abandons the rest of a list whose command
	// died of SIGINT, as if it had been interrupted itself.
	o.typeIn("sleep 32\r")
	waitForeground(t, o.pid(), "sleep", "32")
	o.typeIn("\x03")
	o.typeIn("echo after:$?\r")
	o.waitOutput("after:130")

	o.typeIn("sleep 33\r")
	sleeper := waitForeground(t, o.pid(), "sleep", "33")
	o.typeIn("\x1a") // Ctrl-Z
	o.waitOutput("Stopped")
	// Arithmetic in what is typed, so that the echo of the line itself
	// does not pass for the command's output.
	o.typeIn("echo shell:$((1+1))\r")
	o.waitOutput("shell:2")
	o.typeIn("fg\r")
	if pid := waitForeground(t, o.pid(), "sleep", "33"); pid != sleeper {
		o.fatalf("fg brought back pid %d, want %d", pid, sleeper)
	}
	o.typeIn("\x03")
	o.typeIn("echo last:$((2+3))\r")
	o.waitOutput("last:5")

	o.typeIn("exit 3\r")
	if status := o.wait(); status != 3 {
		o.fatalf("status %d, want 3", status)
	}
}

// The outer terminal is raw while the proxy runs, its settings are those
// the inner terminal starts with, and they are back as they were after.
func TestTerminalSettings(t *testing.T) {
	t.Parallel()
	o := startOuter(t, []string{"sh", "-c", "stty -a; echo ready; read x; echo bye"}, outerOpts{
		setup: func(t *testing.T, tty int) {
			// Settings a fresh pty does not have, to see them copied.
			tio, err := getTermios(tty)
			if err != nil {
				t.Fatal(err)
			}
			tio.Cc[unix.VERASE] = 0x08 // ^H
			tio.Iflag |= unix.IUTF8
			tio.Lflag &^= unix.ECHOCTL
			if err := setTermios(tty, tio); err != nil {
				t.Fatal(err)
			}
		},
	})
	o.waitOutput("ready")
	o.waitRaw()

	out := o.out.String()
	for _, want := range []string{"erase = ^H", " iutf8", "-echoctl"} {
		if !strings.Contains(out, want) {
			o.fatalf("inner stty -a lacks %q", want)
		}
	}

	o.typeIn("\r")
	o.waitOutput("bye")
	if status := o.wait(); status != 0 {
		o.fatalf("status %d", status)
	}
	o.checkRestored()
}

func TestWindowSize(t *testing.T) {
	t.Parallel()
	script := `stty size; trap 'stty size; exit 0' WINCH; echo ready; while :; do sleep 0.1; done`
	o := startOuter(t, []string{"sh", "-c", script}, outerOpts{})
	o.waitOutput("24 80\r\n") // the outer terminal's size at start
	o.waitOutput("ready")

	if err := setWinsize(o.tty, &unix.Winsize{Row: 41, Col: 101}); err != nil {
		t.Fatal(err)
	}
	// The kernel signals the proxy already (it is the outer terminal's
	// foreground process); a window manager's explicit signal is harmless.
	if err := syscall.Kill(o.pid(), syscall.SIGWINCH); err != nil {
		t.Fatal(err)
	}
	o.waitOutput("41 101\r\n")
	if status := o.wait(); status != 0 {
		o.fatalf("status %d", status)
	}
}

// A signal to the proxy hangs up the command, restores the terminal and
// makes the proxy exit with 128+signal.
func TestSignalHangsUpCommand(t *testing.T) {
	t.Parallel()
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT, syscall.SIGQUIT} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			mark := filepath.Join(t.TempDir(), "mark")
			script := `trap 'echo hup >>"$MARK"; exit 0' HUP; echo ready; while :; do sleep 0.1; done`
			o := startOuter(t, []string{"sh", "-c", script}, outerOpts{env: []string{"MARK=" + mark}})
			o.waitOutput("ready")
			o.waitRaw()
			if err := syscall.Kill(o.pid(), sig); err != nil {
				t.Fatal(err)
			}
			if status := o.wait(); status != 128+int(sig) {
				o.fatalf("status %d, want %d", status, 128+int(sig))
			}
			o.checkRestored()
			waitMark(t, mark)
		})
	}
}

// With a context that the same signal cancels (signal.NotifyContext, as in
// hookd's main), the signal is still what the proxy reports.
func TestSignalWithNotifyContext(t *testing.T) {
	t.Parallel()
	o := startOuter(t, []string{"sh", "-c", "echo ready; while :; do sleep 0.1; done"}, outerOpts{mode: "notifyctx"})
	o.waitOutput("ready")
	if err := syscall.Kill(o.pid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if status := o.wait(); status != 128+int(syscall.SIGTERM) {
		o.fatalf("status %d, want %d", status, 128+int(syscall.SIGTERM))
	}
	if strings.Contains(o.stderr.String(), "err=") {
		o.fatalf("Run reported an error")
	}
	o.checkRestored()
}

// Closing the outer terminal hangs up the command. When the terminal is
// the proxy's controlling terminal, the kernel sends the proxy SIGHUP;
// otherwise the end of the terminal's input is the only sign.
func TestOuterTerminalHangup(t *testing.T) {
	t.Parallel()
	for _, noCtty := range []bool{false, true} {
		t.Run(fmt.Sprintf("noCtty=%v", noCtty), func(t *testing.T) {
			t.Parallel()
			mark := filepath.Join(t.TempDir(), "mark")
			script := `trap 'echo hup >>"$MARK"; exit 0' HUP; echo ready; while :; do sleep 0.1; done`
			o := startOuter(t, []string{"sh", "-c", script}, outerOpts{env: []string{"MARK=" + mark}, noCtty: noCtty})
			o.waitOutput("ready")
			o.master.Close()
			if status := o.wait(); status != 128+int(syscall.SIGHUP) {
				o.fatalf("status %d, want %d", status, 128+int(syscall.SIGHUP))
			}
			waitMark(t, mark)
		})
	}
}

// A background job that keeps the inner terminal open (here, immune to the
// SIGHUP the shell's exit brings) must not keep Run from returning.
func TestBackgroundJobDoesNotHoldProxy(t *testing.T) {
	t.Parallel()
	o := startOuter(t, []string{"sh", "-c", `trap '' HUP; sleep 300 & echo bg:$!; exit 4`}, outerOpts{})
	m := o.waitMatch(regexp.MustCompile(`bg:(\d+)\r\n`))
	if pid, _ := strconv.Atoi(m[1]); pid > 1 {
		t.Cleanup(func() {
			if b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid)); string(b) == "sleep\x00300\x00" {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		})
	}
	// waitLong is far below the 300 s the job holds the terminal.
	if status := o.wait(); status != 4 {
		o.fatalf("status %d, want 4", status)
	}
}

// Output sees every byte, and so does the terminal.
func TestOutputWrapperSeesEverything(t *testing.T) {
	t.Parallel()
	const n = 10_000_000
	script := fmt.Sprintf(`head -c %d /dev/zero | tr '\0' x`, n)
	o := startOuter(t, []string{"sh", "-c", script}, outerOpts{mode: "count"})
	if status := o.wait(); status != 0 {
		o.fatalf("status %d", status)
	}
	if want := fmt.Sprintf("count=%d xs=%d\n", n, n); !strings.Contains(o.stderr.String(), want) {
		o.fatalf("Output did not see all the bytes: want %q", want)
	}
	shelltest.Eventually(t, pollWait, func() bool { return strings.Count(o.out.String(), "x") == n },
		func() string {
			return fmt.Sprintf("the terminal got %d x's, want %d", strings.Count(o.out.String(), "x"), n)
		})
}

// A panic in Output takes the proxy down, but not with the terminal raw.
func TestPanicInOutputRestoresTerminal(t *testing.T) {
	t.Parallel()
	o := startOuter(t, []string{"sh", "-c", "read x; echo boom"}, outerOpts{mode: "panic"})
	o.waitRaw()
	o.typeIn("\r")
	status := o.waitExit()
	if status != 2 || !strings.Contains(o.stderr.String(), "output writer exploded") {
		o.fatalf("status %d, want the panic's 2", status)
	}
	o.checkRestored()
}
