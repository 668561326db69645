package ptyshell

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// A Handover is how fish's early line enters the proxy with one hookd
// process, not two. bash's and zsh's early line reads hookd init's output
// through a command substitution, which waits for hookd to end: the code
// it prints then re-executes the shell under `hookd shell`, a second
// process. fish's line, `hookd init fish --early | source`, runs the code
// while hookd still runs; so that hookd becomes the proxy itself:
//
//   - hookd init makes a private directory with two FIFOs, go and st, and
//     prints fish's _hookd_handover with a call (shellinit.Handover);
//   - fish says on go whether it hands its terminal over (an interactive
//     shell on a terminal), with its pid, whether it is a login shell, its
//     path and its data directory; it has st open for reading already;
//   - hookd, in the shell's own process group (the terminal's foreground
//     one), runs the new fish under the proxy, and writes its status on st;
//   - the first fish, which waited on st, ends with that status without
//     running anything more (exec). Where the proxy could not start, hookd
//     writes "off" and the first fish goes on as the shell, capture off; so
//     does it when hookd died without a word (EOF).
//
// The first fish stays, asleep in a read, as the proxy's parent: the
// process the terminal started.
type Handover struct {
	// Dir is the directory of the two FIFOs, removed once fish answered.
	Dir string
	in  *os.File // go: fish's answer, opened read-write (see NewHandover)
	out *os.File // st: the proxy's end, for fish to read
}

// The FIFOs' names in the handover's directory; fish's _hookd_handover
// uses the same.
const (
	handoverIn  = "go"
	handoverOut = "st"
)

// HandoverTimeout bounds the wait for fish's answer. fish answers within
// a millisecond of reading the code; the wait only runs out where the code
// did not run (which would keep the shell from starting until then).
var HandoverTimeout = 3 * time.Second

// NewHandover makes the handover's directory in parent (a private
// directory of the user's, such as the runtime directory) with its two
// FIFOs, 0600, and opens them. Both are opened read-write: hookd's read of
// go then waits for fish's answer rather than seeing an end of file before
// fish opened it, and fish's open of st for reading does not wait for a
// writer.
func NewHandover(parent string) (_ *Handover, err error) {
	dir, err := os.MkdirTemp(parent, "fish-early-")
	if err != nil {
		return nil, err
	}
	h := &Handover{Dir: dir}
	defer func() {
		if err != nil {
			h.Close()
		}
	}()
	for _, name := range []string{handoverIn, handoverOut} {
		if err := unix.Mkfifo(filepath.Join(dir, name), 0o600); err != nil {
			return nil, fmt.Errorf("make the handover's FIFO: %w", err)
		}
	}
	if h.in, err = os.OpenFile(filepath.Join(dir, handoverIn), os.O_RDWR, 0); err != nil {
		return nil, err
	}
	if h.out, err = os.OpenFile(filepath.Join(dir, handoverOut), os.O_RDWR, 0); err != nil {
		return nil, err
	}
	return h, nil
}

// FishAnswer is what fish said on go.
type FishAnswer struct {
	// Go is false when fish keeps its terminal (not interactive, no
	// terminal, too old): hookd then just ends.
	Go bool
	// PID is the fish's $fish_pid, Login whether it is a login shell, Path
	// its `status fish-path`, DataDir its $__fish_data_dir.
	PID     int
	Login   bool
	Path    string
	DataDir string
}

// ErrNoAnswer is returned by Wait when fish did not answer in time.
var ErrNoAnswer = errors.New("the shell did not answer the handover")

// Wait reads fish's answer: "no", or "go", its pid, 1 or 0 (login), its
// path and its data directory, and "end", one per line. The directory is
// removed then: fish has closed go, and opened st before it wrote. A
// cancelled ctx (a Ctrl-C at start-up, which fish takes too) ends the wait.
func (h *Handover) Wait(ctx context.Context, timeout time.Duration) (FishAnswer, error) {
	defer os.RemoveAll(h.Dir)
	if err := h.in.SetReadDeadline(time.Now().Add(timeout)); err != nil {
		return FishAnswer{}, err
	}
	stop := context.AfterFunc(ctx, func() { h.in.SetReadDeadline(time.Now()) })
	defer stop()
	r := bufio.NewReader(io.LimitReader(h.in, 64<<10))
	var lines []string
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			if ctx.Err() != nil {
				return FishAnswer{}, ctx.Err()
			}
			if errors.Is(err, os.ErrDeadlineExceeded) {
				return FishAnswer{}, ErrNoAnswer
			}
			return FishAnswer{}, fmt.Errorf("read the shell's answer: %w", err)
		}
		line = strings.TrimSuffix(line, "\n")
		if len(lines) == 0 && line == "no" {
			return FishAnswer{}, nil
		}
		if line == "end" {
			break
		}
		lines = append(lines, line)
	}
	if len(lines) != 5 || lines[0] != "go" {
		return FishAnswer{}, fmt.Errorf("the shell's answer is not understood: %q", lines)
	}
	pid, err := strconv.Atoi(lines[1])
	if err != nil || pid <= 0 || !filepath.IsAbs(lines[3]) {
		return FishAnswer{}, fmt.Errorf("the shell's answer is not understood: %q", lines)
	}
	return FishAnswer{Go: true, PID: pid, Login: lines[2] == "1", Path: lines[3], DataDir: lines[4]}, nil
}

// Finish tells fish how the proxy ended: the shell's status, or, with
// status < 0, that the proxy could not start ("off": fish goes on as the
// shell, capture off). It closes the handover.
func (h *Handover) Finish(status int) {
	word := "off"
	if status >= 0 {
		word = strconv.Itoa(status)
	}
	h.out.WriteString(word + "\n")
	h.Close()
}

// Close closes the FIFOs and removes the directory if it is still there.
// fish, if it waits on st, reads an end of file: it goes on, capture off.
func (h *Handover) Close() {
	for _, f := range []*os.File{h.in, h.out} {
		if f != nil {
			f.Close()
		}
	}
	os.RemoveAll(h.Dir)
}

// ReadsOurOutput reports whether the process pid holds the pipe that is
// this process's standard output open: fish's `| source` reads it in the
// shell's own process, where `| less` leaves it to another. Only then is
// there a fish that runs hookd's code while hookd runs.
func ReadsOurOutput(pid int) bool {
	var st syscall.Stat_t
	if err := syscall.Fstat(1, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFIFO {
		return false
	}
	want := "pipe:[" + strconv.FormatUint(st.Ino, 10) + "]"
	dir := "/proc/" + strconv.Itoa(pid) + "/fd"
	ents, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range ents {
		if l, err := os.Readlink(dir + "/" + e.Name()); err == nil && l == want {
			return true
		}
	}
	return false
}

// IsFish reports whether process pid runs fish (its program's name starts
// with "fish"): only a fish answers the handover, and anything else would
// be left waiting for it.
func IsFish(pid int) bool {
	exe, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/exe")
	return err == nil && strings.HasPrefix(filepath.Base(exe), "fish")
}

// InForeground reports whether this process's group is the foreground one
// of the terminal on standard input: only there may it read the terminal
// (and take the keys' signals) as the proxy.
func InForeground() bool {
	pgrp, err := unix.IoctlGetInt(0, unix.TIOCGPGRP)
	return err == nil && pgrp == unix.Getpgrp()
}

// ParentArgv is the command line of process pid (/proc/PID/cmdline), argv[0]
// included: the shell re-executes under the proxy as it was started.
func ParentArgv(pid int) ([]string, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil {
		return nil, err
	}
	b = []byte(strings.TrimSuffix(string(b), "\x00"))
	if len(b) == 0 {
		return nil, fmt.Errorf("process %d has no command line", pid)
	}
	return strings.Split(string(b), "\x00"), nil
}
